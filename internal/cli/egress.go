// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden run's way out is package egress; what is cli's here is where its
// inputs come from (the loaded policy, the user's directories) and what
// its failures mean to warden run (an exit status and hints).

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/egress"
	"warden.dev/warden/internal/policyfile"
)

// newEgress builds the way out of a run of lp's policy. A network section
// that does not compile is bad input, as for warden net check; a way out
// that cannot be built (egress.UnavailableError) leaves the sandbox
// unavailable (125), with the error's hint.
func newEgress(runID string, lp *config.Policy) (*egress.Boundary, error) {
	tiers, err := netTiers(lp)
	if err != nil {
		return nil, err
	}
	var specs []credential.Spec
	for _, c := range lp.File.Network.Credentials {
		specs = append(specs, credentialSpec(c))
	}
	eg, err := egress.New(egress.Config{
		RunID:       runID,
		Tiers:       tiers,
		FileRules:   lp.File.Network.EgressRules(),
		Credentials: specs,
		CADir:       caDir(),
		TrustBundle: trustBundle,
		HostAddrs:   hostAddrs,
	})
	if err != nil {
		var ue *egress.UnavailableError
		if !errors.As(err, &ue) {
			return nil, &exitError{code: exitSandbox, msg: "sandbox unavailable: " + err.Error()}
		}
		var hints []string
		if ue.Hint != "" {
			hints = []string{ue.Hint}
		}
		return nil, &exitError{code: exitSandbox, msg: ue.Error(), hints: hints}
	}
	return eg, nil
}

func credentialSpec(c policyfile.Credential) credential.Spec {
	return credential.Spec{Name: c.Name, From: c.From, Hosts: c.Hosts}
}

// caDir is where this installation's CA lives: the user's config
// directory, which every run masks (wardenMasks): the key is 0600 to the
// user, and the command runs as the user outside its namespace, so the
// mode alone would not keep it out.
func caDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = filepath.Join(os.TempDir(), "warden-"+strconv.Itoa(os.Getuid()))
	}
	return filepath.Join(dir, "warden", "ca")
}

// trustBundle is where the trust bundle the sandbox reads is written:
// the user's cache directory.
func trustBundle() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the trust bundle: %v", err)
	}
	return filepath.Join(cache, "warden", "ca-bundle.pem"), nil
}
