// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	_ "embed"
	"fmt"
	"os"
	"time"

	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policy/policyfile"
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
