// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"io"
	"os"
	"strings"

	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/policyfile"
)

// paths is a repeated path flag.
type paths []string

func (p *paths) String() string     { return strings.Join(*p, ",") }
func (p *paths) Set(v string) error { *p = append(*p, v); return nil }

// openShellPolicy reads path when it is an OpenShell policy file; nil
// (and no error) when path is empty or a Warden policy, which the
// caller loads as usual.
func openShellPolicy(path string) (*openshell.Policy, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil // the usual loading says what is wrong
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, policyfile.MaxSize+1))
	if err != nil || len(src) > policyfile.MaxSize || !openshell.Detect(src) {
		return nil, nil
	}
	p, err := openshell.Parse(path, src)
	if err != nil {
		return nil, badInput(err.Error(), "check the file against OpenShell's policy schema; every error names its line and column")
	}
	return p, nil
}
