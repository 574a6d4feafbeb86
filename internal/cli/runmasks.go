// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// What warden run masks of Warden's own, whatever the policy says
// (DESIGN.md §13: the agent never reaches them): the files the policy's
// credentials are read from, the interception CA, and Warden's state and
// configuration directories.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/hook"
	"warden.dev/warden/internal/sandbox"
)

// configDirs are Warden's configuration directories: $XDG_CONFIG_HOME/warden
// (default ~/.config/warden), and the one the CA is kept in where the
// platform's configuration directory is elsewhere (macOS).
func configDirs() []string {
	var out []string
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		out = append(out, filepath.Join(d, "warden"))
	} else if h := homeDir(); filepath.IsAbs(h) {
		out = append(out, filepath.Join(h, ".config", "warden"))
	}
	if d, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(d, "warden"))
	}
	return out
}

// wardenMasks lists what spec must mask of Warden's own: the files lp's
// credentials are read from, the CA directory, the state and configuration
// directories, and the hook state kept with the caches. A run cache inside
// one of them stays visible: the directories around it are masked entry by
// entry instead.
func wardenMasks(spec sandbox.Spec, lp *config.Policy) ([]string, error) {
	var out []string
	for _, c := range lp.File.Network.Credentials {
		if p, ok := strings.CutPrefix(c.From, "file:"); ok && p != "" {
			// As credential.Load read it: relative to warden's own
			// working directory.
			if abs, err := filepath.Abs(p); err == nil {
				out = append(out, abs)
			}
		}
	}
	dirs := append([]string{caDir(), stateDir()}, configDirs()...)
	if d := hook.StateRoot(); d != "" {
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if spec.Project == d || within(spec.Project, d) {
			return nil, &exitError{code: exitSandbox, msg: fmt.Sprintf("sandbox unavailable: the project %s is inside %s, which Warden keeps from every run", spec.Project, d),
				hints: []string{"run from a project directory outside Warden's state and configuration directories"}}
		}
		out = append(out, maskAround(d, spec.Cache)...)
	}
	return out, nil
}

// maskAround returns dir, or, when keep is inside it, the entries of dir
// and of each directory down to keep that do not lead to keep.
func maskAround(dir, keep string) []string {
	if keep == "" || !within(keep, dir) {
		return []string{dir}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return []string{dir}
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case p == keep:
		case within(keep, p):
			out = append(out, maskAround(p, keep)...)
		default:
			out = append(out, p)
		}
	}
	return out
}

func within(p, dir string) bool {
	return dir != "" && strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// maskWarden adds Warden's own secrets to spec's masks, and, with the home
// hidden, binds back the trust bundle of the CA that the command is told
// to trust.
func maskWarden(spec *sandbox.Spec, lp *config.Policy, caBundle string) error {
	masks, err := wardenMasks(*spec, lp)
	if err != nil {
		return err
	}
	spec.Mask = append(spec.Mask, masks...)
	if spec.HideHome && caBundle != "" && !slices.Contains(spec.ReadOnly, caBundle) {
		spec.ReadOnly = append(spec.ReadOnly, caBundle)
	}
	return nil
}
