// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

func TestGeneralise(t *testing.T) {
	for _, tt := range []struct{ fn, in, want string }{
		{"ref", "feature/login", "feature/**"},
		{"ref", "team/a/fix", "team/a/**"},
		{"ref", "main", "main"},
		{"ref", "HEAD:refs/heads/feature/x", "feature/**"},
		{"path", "/p/src/app/x.go", "src/app/**"},
		{"path", "/p/README.md", "README.md"},
		{"path", "/tmp/out/x", "/tmp/out/**"},
		{"path", "/etc", "/etc"},
	} {
		var got string
		switch tt.fn {
		case "ref":
			got = policy.GeneraliseRef(tt.in)
		case "path":
			got = policy.GeneralisePath(tt.in, "/p")
		}
		if got != tt.want {
			t.Errorf("Generalise %s(%q) = %q, want %q", tt.fn, tt.in, got, tt.want)
		}
	}
}

func TestRemember(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	agent := policy.Scope{Kind: policy.AgentScope, Name: "bot"}
	push := &action.Action{Tool: "git_push", Refs: []string{"feature/login"}, Project: "/p"}
	rules, err := policy.Remember(push, []action.Class{action.GitPush}, policy.RememberOptions{Scope: agent, TTL: 8 * time.Hour, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	want := &policy.Rule{
		ID: rules[0].ID, Scope: agent, Class: action.GitPush, Refs: []string{"feature/**"},
		Decision: action.Allow, Reason: "remembered approval",
		Expires: now.Add(8 * time.Hour), Provenance: policy.ProvenanceRemembered,
	}
	if diff := cmp.Diff(want, rules[0]); diff != "" {
		t.Errorf("Remember (-want +got):\n%s", diff)
	}

	// The remembered rule lets the sibling branch through, not main, and
	// stops at its expiry.
	eng, err := policy.Compile(&policy.Set{Rules: rules}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		ref  string
		at   time.Time
		want action.Verdict
	}{
		{"feature/signup", now.Add(time.Hour), action.Allow},
		{"main", now.Add(time.Hour), action.Prompt},
		{"feature/signup", now.Add(9 * time.Hour), action.Prompt},
	} {
		a := &action.Action{Tool: "git_push", Refs: []string{tt.ref}, Principal: action.Principal{Agent: "bot"}}
		if d, _ := eng.Evaluate(a, policy.Env{Now: tt.at}); d.Verdict != tt.want {
			t.Errorf("push %s at %s = %v, want %v", tt.ref, tt.at, d.Verdict, tt.want)
		}
	}

	cmdRules, err := policy.Remember(&action.Action{Tool: "bash", Commands: [][]string{{"npm", "install", "lodash"}}},
		nil, policy.RememberOptions{Scope: agent, TTL: time.Hour, Now: now, Command: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"npm", "install"}, cmdRules[0].Command); diff != "" {
		t.Errorf("command prefix (-want +got):\n%s", diff)
	}

	// Hosts stay exact: a destination is approved as itself, never
	// widened to its siblings or its parent.
	fetch := &action.Action{Tool: "web_fetch", Hosts: []string{"api.github.com", "A.B.Example.COM.", "api.github.com"}}
	netRules, err := policy.Remember(fetch, []action.Class{action.NetworkEgress}, policy.RememberOptions{Scope: agent, TTL: time.Hour, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"api.github.com", "a.b.example.com"}, netRules[0].Hosts); diff != "" {
		t.Errorf("remembered hosts (-want +got):\n%s", diff)
	}
	eng, err = policy.Compile(&policy.Set{Rules: netRules}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]action.Verdict{
		"api.github.com": action.Allow, "a.b.example.com": action.Allow,
		"github.com": action.Prompt, "x.api.github.com": action.Prompt, "raw.github.com": action.Prompt, "b.example.com": action.Prompt,
	} {
		a := &action.Action{Tool: "web_fetch", Hosts: []string{host}, Principal: action.Principal{Agent: "bot"}}
		if d, _ := eng.Evaluate(a, policy.Env{Now: now}); d.Verdict != want {
			t.Errorf("fetch %s = %v, want %v", host, d.Verdict, want)
		}
	}
}

func TestRememberRefuses(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	ws := policy.Scope{Kind: policy.WorkspaceScope}
	for _, tt := range []struct {
		name    string
		a       *action.Action
		classes []action.Class
		opt     policy.RememberOptions
		want    error
	}{
		{"builtin scope", &action.Action{Refs: []string{"a/b"}}, []action.Class{action.GitPush},
			policy.RememberOptions{Scope: policy.Scope{Kind: policy.Builtin}, TTL: time.Hour}, policy.ErrRememberScope},
		{"no ttl", &action.Action{Refs: []string{"a/b"}}, []action.Class{action.GitPush},
			policy.RememberOptions{Scope: ws}, policy.ErrRememberTTL},
		{"python script", &action.Action{Commands: [][]string{{"python3", "x.py"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"sh -c", &action.Action{Commands: [][]string{{"sh", "-c", "rm -rf /"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"bare git", &action.Action{Commands: [][]string{{"git", "push"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"python flags only", &action.Action{Commands: [][]string{{"python3", "-u", "x.py"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"bash -e -c", &action.Action{Commands: [][]string{{"bash", "-e", "-c", "ls"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"versioned python", &action.Action{Commands: [][]string{{"/usr/bin/python3.12", "x.py"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"env wrapper", &action.Action{Commands: [][]string{{"env", "A=1", "python3", "x.py"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"sudo", &action.Action{Commands: [][]string{{"sudo", "apt", "install", "x"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"make target", &action.Action{Commands: [][]string{{"make", "build", "V=1"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"go run", &action.Action{Commands: [][]string{{"go", "run", "./cmd/gen", "x"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"named script", &action.Action{Commands: [][]string{{"python3", "tools/gen.py", "--out", "x"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"project file", &action.Action{Commands: [][]string{{"./build.sh", "release", "x"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"make by path", &action.Action{Commands: [][]string{{"/usr/bin/Make", "deploy", "all"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"known tool by path", &action.Action{Commands: [][]string{{"./git", "status", "x"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"test runner", &action.Action{Commands: [][]string{{"go", "test", "./..."}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"cargo build", &action.Action{Commands: [][]string{{"cargo", "build", "--release"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"code found by analysis", &action.Action{Commands: [][]string{{"git", "log", "-p"}}, Code: []action.Code{action.HiddenCode}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"code flagged without detail", &action.Action{Commands: [][]string{{"git", "log", "-p"}}, Flags: []action.Flag{action.FlagRunsCode}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberInterpreter},
		{"push --all", &action.Action{Refs: []string{"**"}}, []action.Class{action.GitPush},
			policy.RememberOptions{Scope: ws, TTL: time.Hour}, policy.ErrRememberUnbounded},
		{"opaque", &action.Action{Flags: []action.Flag{action.FlagDownloadExec}, Commands: [][]string{{"curl", "x"}}}, nil,
			policy.RememberOptions{Scope: ws, TTL: time.Hour, Command: true}, policy.ErrRememberOpaque},
		{"push without refs", &action.Action{}, []action.Class{action.GitPush},
			policy.RememberOptions{Scope: ws, TTL: time.Hour}, policy.ErrRememberUnbounded},
	} {
		tt.opt.Now = now
		if _, err := policy.Remember(tt.a, tt.classes, tt.opt); !errors.Is(err, tt.want) {
			t.Errorf("%s: Remember error = %v, want %v", tt.name, err, tt.want)
		}
	}
}
