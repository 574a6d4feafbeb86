// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
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

// nasty are strings that a YAML writer easily gets wrong.
var nasty = []string{
	"", " ", "a", "true", "True", "yes", "no", "on", "off", "y", "n", "null",
	"~", "0", "1", "-1", "0x10", "0o7", "1e3", "1.5", ".inf", ".nan", "1_000",
	"2026-12-31", "2026-12-31T00:00:00Z", "12:30", "a:b", "a: b", "a:", ":a",
	"-", "-a", "- a", "?", "?a", "? a", "a?", "#a", "a#b", "a #b", "*a", "&a",
	"!a", "!!a", "%a", "@a", "`a", "|a", ">a", "'a", "\"a", "a'b", `a"b`,
	"a,b", "a, b", "[a]", "{a}", "a]", "a}", "<<", "=", "a\tb", "a\nb",
	"a\r\nb", "\x00", "\x7f", "\u0085", "\u00a0", "\u2028", "\ufeff",
	"ünï", "日本", "😀", "\\", `\n`, "a\\b", "_a", "__", "a b  c", " a", "a ",
	"---", "...", "--- a", "a...",
}

// TestRoundTripStrings writes every nasty string into each string-valued
// place of a policy file (as a JSON string, which YAML reads), and checks
// that whatever Parse accepts survives Format unchanged.
func TestRoundTripStrings(t *testing.T) {
	places := []string{
		`version: 1
rules: [{id: %[1]s, class: gitPush, refs: [%[1]s], decision: deny, reason: %[1]s}]`,
		`version: 1
delegation: {autonomy: {%[1]s: actFreely}}
override_holders: [%[1]s]
sensitive: [%[1]s]`,
		`version: 1
sandbox:
  filesystem: {hide: [%[1]s]}
  env: {set: {X: %[1]s}}`,
		`version: 1
network:
  rules: [{allow: {host: %[1]s}}]
  credentials: [{name: C, from: %[1]s, hosts: [a.example]}]`,
		`version: 1
tests:
  - name: %[1]s
    action: {tool: %[1]s, command: %[1]s, path: %[1]s, url: %[1]s, refs: [%[1]s], principal: {agent: %[1]s, delegation: [%[1]s]}}
    expect: allow`,
	}
	accepted := 0
	for _, s := range nasty {
		q, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, place := range places {
			src := fmt.Sprintf(place, q)
			f, err := policyfile.Parse("p.yaml", []byte(src))
			if err != nil {
				continue
			}
			accepted++
			out := policyfile.Format(f)
			f2, err := policyfile.Parse("p.yaml", out)
			if err != nil {
				t.Errorf("string %q: Parse(Format(f)): %v\n%s", s, err, out)
				continue
			}
			if diff := cmp.Diff(f, f2, ignorePos); diff != "" {
				t.Errorf("string %q: round trip mismatch (-want +got):\n%s\n%s", s, diff, out)
			}
		}
	}
	if accepted < len(nasty) {
		t.Errorf("only %d of %d cases parsed; the test is not testing much", accepted, len(nasty)*len(places))
	}
}
