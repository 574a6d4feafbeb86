// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
)

// policyOptions are where every command finds the managed tier and the
// home.
func policyOptions() config.Options {
	return config.Options{Managed: managedPolicyPath(), Home: homeDir()}
}

// loadPolicy reads the policy at path (the embedded default when empty)
// and the managed tier named by WARDEN_MANAGED_POLICY, and compiles them.
// Any error leaves nothing loaded.
func loadPolicy(path string) (*config.Policy, error) {
	return config.Load(path, policyOptions())
}

// loadRunPolicy reads the policy of warden run at path, which the run
// then protects: from a descriptor opened one checked component at a
// time, refusing a path that is a symbolic link itself or that goes
// through one in a directory the run can write (spec's project and run
// cache; planning the run checks its read_write paths too), so that a
// link planted by an earlier run cannot choose the policy. It returns
// the bytes read and the file, open, with its identity, which
// Spec.Pinned makes the run check: the file protected inside is the one
// read. The caller closes the file once the run is over (held open, its
// inode number cannot be given to another file).
func loadRunPolicy(spec sandbox.Spec, path string) (*config.Policy, []byte, *os.File, sandbox.HostFile, error) {
	file, id, err := sandbox.OpenHostFile(spec, path)
	var le *sandbox.LinkError
	switch {
	case errors.As(err, &le):
		return nil, nil, nil, id, &exitError{code: exitSandbox, msg: fmt.Sprintf("--policy %s: %v", path, le),
			hints: []string{"pass the real path of the policy file: warden run reads and protects only a file reached without a link a run could have planted"}}
	case err != nil:
		return nil, nil, nil, id, badInput(fmt.Sprintf("loading policy: %v", err), "check the path given to --policy")
	}
	src, err := io.ReadAll(io.LimitReader(file, policyfile.MaxSize+1))
	if err != nil {
		file.Close()
		return nil, nil, nil, id, badInput(fmt.Sprintf("loading policy: %s: %v", path, err))
	}
	lp, err := config.Parse(path, src, policyOptions())
	if err != nil {
		file.Close()
		return nil, nil, nil, id, err
	}
	return lp, src, file, id, nil
}

func now() time.Time { return time.Now() }

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	return d
}
