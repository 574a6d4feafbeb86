// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policy/policyfile"
)

// TestFormatBuilt formats files built in code rather than parsed: rules
// without ids, sizes without units, odd durations.
func TestFormatBuilt(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    *policyfile.File
		want string
	}{{
		name: "nil policy",
		f:    &policyfile.File{},
		want: "version: 1\n",
	}, {
		name: "rule without id",
		f: &policyfile.File{Policy: &policy.Set{Rules: []*policy.Rule{
			{Class: action.GitPush, Decision: action.Allow},
			{Scope: policy.Scope{Kind: policy.SpaceScope, Name: "s1"}, Command: []string{"rm", "-rf"}, Decision: action.Deny, Level: policy.Advisory},
		}}},
		want: `version: 1

rules:
  - id: rule-1
    scope: builtin
    class: gitPush
    decision: allow
  - id: rule-2
    scope: space:s1
    command: "rm -rf"
    decision: deny
    level: advisory
`,
	}, {
		name: "sizes and durations",
		f: &policyfile.File{Sandbox: policyfile.Sandbox{Set: true, Limits: policyfile.Limits{
			Memory:  policyfile.Size{Bytes: 3 << 30},
			Fsize:   policyfile.Size{Bytes: 1000},
			Output:  policyfile.Size{Bytes: 1536, Unit: "MiB"},
			Timeout: 90*time.Minute + 30*time.Second,
		}}},
		want: `version: 1

sandbox:
  limits: {memory: 3GiB, fsize: 1000, timeout: 1h30m30s, output: 1536}
`,
	}} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(policyfile.Format(tt.f))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Format mismatch (-want +got):\n%s", diff)
			}
			if _, err := policyfile.Parse("fmt.yaml", []byte(got)); err != nil {
				t.Errorf("Parse(Format(f)): %v", err)
			}
		})
	}
}

func TestSizeString(t *testing.T) {
	for _, tt := range []struct {
		in   policyfile.Size
		want string
	}{
		{policyfile.Size{Bytes: 1 << 30, Unit: "GiB"}, "1GiB"},
		{policyfile.Size{Bytes: 1 << 30, Unit: "MiB"}, "1024MiB"},
		{policyfile.Size{Bytes: 1 << 30, Unit: "B"}, "1073741824"},
		{policyfile.Size{Bytes: 1 << 30}, "1GiB"},
		{policyfile.Size{Bytes: 5e9, Unit: "GB"}, "5GB"},
		{policyfile.Size{Bytes: 1500, Unit: "KiB"}, "1500"},
		{policyfile.Size{Bytes: 2048, Unit: "kB"}, "2KiB"},
		{policyfile.Size{}, "0"},
	} {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}
