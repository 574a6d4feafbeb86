// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
)

//go:embed default.yaml
var defaultPolicy []byte

// loadedPolicy is a policy file, the managed tier, and the engine built
// from both.
type loadedPolicy struct {
	file    *policyfile.File
	managed *policyfile.File
	engine  *policy.Engine
}

// loadPolicy reads the policy at path (the embedded default when empty)
// and the managed tier named by WARDEN_MANAGED_POLICY, and compiles them.
// Any error leaves nothing loaded.
func loadPolicy(path string) (*loadedPolicy, error) {
	var (
		f   *policyfile.File
		err error
	)
	if path == "" {
		f, err = policyfile.Parse("(default policy)", defaultPolicy)
	} else {
		f, err = policyfile.Load(path)
	}
	return compilePolicy(f, err)
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
func loadRunPolicy(spec sandbox.Spec, path string) (*loadedPolicy, []byte, *os.File, sandbox.HostFile, error) {
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
	lp, err := compilePolicy(policyfile.Parse(path, src))
	if err != nil {
		file.Close()
		return nil, nil, nil, id, err
	}
	return lp, src, file, id, nil
}

// compilePolicy adds the managed tier to a parsed policy file and
// compiles both.
func compilePolicy(f *policyfile.File, err error) (*loadedPolicy, error) {
	if err != nil {
		return nil, badInput(err.Error(), "check the policy file against docs/policy-language.md; 'warden policy lint FILE' explains each problem")
	}
	lp := &loadedPolicy{file: f}
	opt := policy.Options{Home: homeDir()}
	if mp := managedPolicyPath(); mp != "" {
		lp.managed, err = policyfile.Load(mp)
		if err != nil {
			return nil, badInput(fmt.Sprintf("managed policy (%s): %v", envManagedPolicy, err),
				"the managed tier is fail-closed: fix the file or unset "+envManagedPolicy)
		}
		opt.Managed = lp.managed.Policy
	}
	lp.engine, err = policy.Compile(f.Policy, opt)
	if err != nil {
		return nil, badInput(err.Error())
	}
	return lp, nil
}

// sensitiveExtra is the sensitive set's extensions from both tiers.
func (lp *loadedPolicy) sensitiveExtra() []string {
	extra := append([]string(nil), lp.file.Sensitive...)
	if lp.managed != nil {
		extra = append(extra, lp.managed.Sensitive...)
	}
	return extra
}

func now() time.Time { return time.Now() }

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	return d
}
