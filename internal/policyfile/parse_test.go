// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

func ptr[T any](v T) *T { return &v }

// TestParseValues checks the typed values Parse builds, beyond what the
// golden canonical forms show.
func TestParseValues(t *testing.T) {
	src := `version: 1
autonomy: actFreely
rules:
  - id: protect-main
    scope: agent:coder
    class: gitPush
    refs: ["main"]
    decision: deny
    level: soft
    reason: main is protected
    expires: 2026-12-31T00:00:00Z
  - command: "  npm   publish  "
    max_count: 3
    max_cents: 0
    decision: prompt
delegation: {max_depth: 2, autonomy: {reviewer: proposeOnly}}
override_holders: [alice]
sensitive: ["~/.acme"]
sandbox:
  mode: workspace-write
  limits: {memory: 1GiB, pids: 256, cpu: 2, nofile: 1024, fsize: 1024, timeout: 10m, output: 1MB}
  env: {pass: [GOPATH], set: {CI: "1"}}
network:
  rules:
    - deny: {host: "*.evil.example", ports: [80, 443]}
      until: 2026-12-03T00:00:00Z
      enabled: false
  credentials:
    - {name: GH, from: env:GH, hosts: [api.github.com]}
tests:
  - name: push
    action: {tool: git_push, classes: [gitPush], refs: [main], count: 1, principal: {agent: coder}}
    expect: deny
`
	got, err := policyfile.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &policyfile.File{
		Version: 1,
		Policy: &policy.Set{
			Autonomy: action.ActFreely,
			Rules: []*policy.Rule{{
				ID:       "protect-main",
				Scope:    policy.Scope{Kind: policy.AgentScope, Name: "coder"},
				Class:    action.GitPush,
				Refs:     []string{"main"},
				Decision: action.Deny,
				Level:    policy.Soft,
				Reason:   "main is protected",
				Expires:  time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC),
				Pos:      policy.Pos{File: "p.yaml", Line: 4, Col: 5},
			}, {
				ID:       "rule-2",
				Scope:    policy.Scope{Kind: policy.WorkspaceScope},
				Command:  []string{"npm", "publish"},
				MaxCount: ptr[int64](3),
				MaxCents: ptr[int64](0),
				Decision: action.Prompt,
				Pos:      policy.Pos{File: "p.yaml", Line: 12, Col: 5},
			}},
			Delegation: policy.Delegation{
				MaxDepth: 2,
				Autonomy: map[string]action.Mode{"reviewer": action.ProposeOnly},
			},
			OverrideHolders: []string{"alice"},
			Source:          "p.yaml",
		},
		Sensitive: []string{"~/.acme"},
		Sandbox: policyfile.Sandbox{
			Set:  true,
			Mode: policyfile.WorkspaceWrite,
			Limits: policyfile.Limits{
				Memory:  policyfile.Size{Bytes: 1 << 30, Unit: "GiB"},
				Pids:    256,
				CPU:     2,
				Nofile:  1024,
				Fsize:   policyfile.Size{Bytes: 1024, Unit: "B"},
				Timeout: 10 * time.Minute,
				Output:  policyfile.Size{Bytes: 1e6, Unit: "MB"},
			},
			Env: policyfile.Env{Pass: []string{"GOPATH"}, Set: map[string]string{"CI": "1"}},
		},
		Network: policyfile.Network{
			Set: true,
			Rules: []policyfile.NetRule{{
				Action:  action.Deny,
				Host:    "*.evil.example",
				Ports:   []int{80, 443},
				Enabled: ptr(false),
				Until:   time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC),
				Pos:     policy.Pos{File: "p.yaml", Line: 25, Col: 7},
			}},
			Credentials: []policyfile.Credential{{
				Name: "GH", From: "env:GH", Hosts: []string{"api.github.com"},
				Pos: policy.Pos{File: "p.yaml", Line: 29, Col: 7},
			}},
		},
		Tests: []policyfile.Test{{
			Name: "push",
			Action: &request.Request{
				Tool: "git_push", Classes: []string{"gitPush"},
				Refs: []string{"main"}, Count: ptr[int64](1),
				Principal: request.Principal{Agent: "coder"},
			},
			Expect: action.Deny,
			Pos:    policy.Pos{File: "p.yaml", Line: 31, Col: 5},
		}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", diff)
	}
}

func TestParseErrorString(t *testing.T) {
	err := &policyfile.ParseError{File: "a.yaml", Line: 3, Col: 7, Msg: "unknown key \"x\" in rule"}
	if got, want := err.Error(), `a.yaml:3:7: unknown key "x" in rule`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestParseErrors covers inputs a text golden file cannot hold well.
func TestParseErrors(t *testing.T) {
	big := append([]byte("version: 1\n# "), bytes.Repeat([]byte("x"), policyfile.MaxSize)...)
	for _, tt := range []struct {
		name string
		src  []byte
		want string
	}{
		{"oversized", big, "p.yaml:1:1: policy file larger than 1 MiB"},
		{"invalid UTF-8", []byte("version: 1\nrules:\n  - id: a\xffb\n"), "p.yaml:3:10: policy file is not valid UTF-8"},
		{"nul byte", []byte("version: 1\x00\n"), "p.yaml:1:1: malformed YAML: control characters are not allowed"},
		{"empty", nil, "p.yaml:1:1: missing version (want version: 1)"},
		{"deep nesting", []byte("version: 1\nx: " + strings.Repeat("[", 20000)), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := policyfile.Parse("p.yaml", tt.src)
			if err == nil || f != nil {
				t.Fatalf("Parse = %v, %v; want nil and an error", f, err)
			}
			var pe *policyfile.ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("Parse error %#v is not a *ParseError with a position", err)
			}
			if tt.want != "" && err.Error() != tt.want {
				t.Errorf("Parse error = %q, want %q", err, tt.want)
			}
		})
	}
}

func TestParseMaxSizeAccepted(t *testing.T) {
	src := []byte("version: 1\n# ")
	src = append(src, bytes.Repeat([]byte("x"), policyfile.MaxSize-len(src)-1)...)
	src = append(src, '\n')
	if _, err := policyfile.Parse("p.yaml", src); err != nil {
		t.Errorf("Parse of exactly %d bytes: %v", len(src), err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("version: 1\nautonomy: proposeOnly\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := policyfile.Load(good)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if f.Policy.Source != good || f.Policy.Autonomy != action.ProposeOnly {
		t.Errorf("Load = %+v, want source %s and autonomy proposeOnly", f.Policy, good)
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\nautonomy: sometimes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = policyfile.Load(bad)
	if want := bad + ":2:11: unknown autonomy mode"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Load(bad) error = %v, want prefix %q", err, want)
	}

	huge := filepath.Join(dir, "huge.yaml")
	if err := os.WriteFile(huge, bytes.Repeat([]byte("#\n"), policyfile.MaxSize), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = policyfile.Load(huge)
	if want := huge + ":1:1: policy file larger than 1 MiB"; err == nil || err.Error() != want {
		t.Errorf("Load(huge) error = %v, want %q", err, want)
	}

	_, err = policyfile.Load(filepath.Join(dir, "missing.yaml"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) error = %v, want os.ErrNotExist", err)
	}
}

// TestTestAction checks that a test's action reads as the JSON action that
// request.Parse reads, and where its errors point.
func TestTestAction(t *testing.T) {
	parse := func(act string) (*policyfile.File, error) {
		return policyfile.Parse("p.yaml", []byte("version: 1\ntests:\n  - name: t\n    expect: deny\n    action: "+act+"\n"))
	}
	for _, tt := range []struct{ yaml, json string }{
		{`{tool: git_push, refs: [main]}`, `{"tool":"git_push","refs":["main"]}`},
		{`{tool: x, count: 0x10, cents: 1_000, contained: true}`, `{"tool":"x","count":16,"cents":1000,"contained":true}`},
		{`{tool: "1", path: "2026-01-02", cwd: 2026-01-02, hosts: ["a\u00e9"]}`, `{"tool":"1","path":"2026-01-02","cwd":"2026-01-02","hosts":["aé"]}`},
		{`{tool: x, classes: ~, principal: ~, override: ~, commands: ~}`, `{"tool":"x"}`},
		{`{tool: x, paths: [], principal: {delegation: []}}`, `{"tool":"x"}`},
	} {
		f, err := parse(tt.yaml)
		if err != nil {
			t.Errorf("Parse(action: %s): %v", tt.yaml, err)
			continue
		}
		want, err := request.Parse([]byte(tt.json))
		if err != nil {
			t.Fatalf("request.Parse(%s): %v", tt.json, err)
		}
		if diff := cmp.Diff(want, f.Tests[0].Action); diff != "" {
			t.Errorf("Parse(action: %s) mismatch (-want +got):\n%s", tt.yaml, diff)
		}
	}

	for _, tt := range []struct{ yaml, want string }{
		{`git_push`, `p.yaml:5:13: test action must be a mapping, not a string`},
		{`~`, `p.yaml:5:13: test action must be a mapping, not null`},
		{`{}`, `p.yaml:5:13: test action: "tool" is required`},
		{`{tool: " "}`, `p.yaml:5:13: test action: "tool" is required`},
		{`{Tool: x}`, `p.yaml:5:14: test action: unknown field "Tool" (did you mean "tool"?)`},
		{`{tool: x, tool: y}`, `p.yaml:5:23: test action: duplicate field "tool" (first at 5:14)`},
		{`{tool: x, [a]: 1}`, `p.yaml:5:23: test action keys must be strings, not a list`},
		{`{tool: 7}`, `p.yaml:5:20: test action: tool must be a string, not an integer`},
		{`{tool: x, cwd: ~}`, `p.yaml:5:28: test action: cwd must be a string, not null`},
		{`{tool: x, refs: main}`, `p.yaml:5:29: test action: refs must be a list, not a string`},
		{`{tool: x, refs: [a, 1.5]}`, `p.yaml:5:33: test action: refs[1] must be a string, not a number`},
		{`{tool: x, commands: [[rm, {a: b}]]}`, `p.yaml:5:39: test action: commands[0][1] must be a string, not a mapping`},
		{`{tool: x, contained: yes}`, `p.yaml:5:34: test action: contained must be true or false, not a string`},
		{`{tool: x, count: 1.0}`, `p.yaml:5:30: test action: count must be an integer, not a number`},
		{`{tool: x, cents: 99999999999999999999}`, `p.yaml:5:30: test action: cents: integer 99999999999999999999 out of range`},
		{`{tool: x, principal: [coder]}`, `p.yaml:5:34: test action: principal must be a mapping, not a list`},
		{`{tool: x, override: {by: alice, reason: y}}`, `p.yaml:5:45: test action: unknown field "override.reason"`},
		{`{tool: x, principal: {budget_cents: "5"}}`, `p.yaml:5:49: test action: principal.budget_cents must be an integer, not a string`},
	} {
		f, err := parse(tt.yaml)
		if err == nil || f != nil {
			t.Errorf("Parse(action: %s) = %v, %v; want nil and an error", tt.yaml, f, err)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Parse(action: %s) error = %q, want %q", tt.yaml, err, tt.want)
		}
	}
}
