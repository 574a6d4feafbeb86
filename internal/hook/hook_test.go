// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/grant"
	"warden.dev/warden/internal/hook"
)

// sink keeps what it is given, or refuses it.
type sink struct {
	got  []audit.Event
	fail error
}

func (s *sink) Write(ev audit.Event) error {
	if s.fail != nil {
		return s.fail
	}
	s.got = append(s.got, ev)
	return nil
}

func options(t testing.TB, s audit.Sink) hook.Options {
	home := t.TempDir()
	return hook.Options{
		Policy: func() (*config.Policy, error) { return config.Load("", config.Options{Home: home}) },
		Now:    time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC),
		Home:   home,
		Sink:   s,
	}
}

func agent(t testing.TB, name string) adapter.Agent {
	t.Helper()
	ag, ok := adapter.Lookup(name)
	if !ok {
		t.Fatalf("agent %s is not registered", name)
	}
	return ag
}

func payload(t *testing.T, v map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecursiveReadOfSecrets: a grep over a directory holding a secret is
// judged with the secret, whichever agent asks, and the decision is
// recorded as answered.
func TestRecursiveReadOfSecrets(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), nil, 0o644)
	os.MkdirAll(filepath.Join(dir, "conf"), 0o755)
	os.WriteFile(filepath.Join(dir, "conf", ".env"), []byte("TOKEN=x\n"), 0o600)
	for _, tt := range []struct {
		agent   string
		payload map[string]any
		denied  func(out []byte) bool
	}{
		{"claude-code", map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Grep", "cwd": dir,
			"tool_input": map[string]any{"pattern": "TOKEN", "path": dir}},
			func(out []byte) bool { return strings.Contains(string(out), `"permissionDecision":"deny"`) }},
		{"gemini", map[string]any{"hook_event_name": "BeforeTool", "session_id": "s", "tool_name": "grep_search", "cwd": dir,
			"tool_input": map[string]any{"pattern": "TOKEN", "dir_path": dir}},
			func(out []byte) bool { return strings.Contains(string(out), `"decision":"deny"`) }},
	} {
		t.Run(tt.agent, func(t *testing.T) {
			s := &sink{}
			out, err := hook.Decide(agent(t, tt.agent), payload(t, tt.payload), options(t, s))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.denied(out) || !strings.Contains(string(out), "floor:sensitive-path") {
				t.Errorf("answer %s, want a deny by floor:sensitive-path", out)
			}
			if len(s.got) != 1 {
				t.Fatalf("%d events recorded, want 1", len(s.got))
			}
			d := s.got[0].Decision
			want := audit.Decision{Surface: "hook " + tt.agent, Agent: tt.agent, Session: "s", Project: d.Project,
				Tool: d.Tool, Subject: d.Subject, Classes: d.Classes, Verdict: "deny", Answered: "deny",
				Rule: "floor:sensitive-path", Scope: d.Scope, Reason: d.Reason, Policy: "default"}
			if diff := cmp.Diff(want, *d); diff != "" {
				t.Errorf("recorded decision (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRecursiveReadThroughLink: a search tool follows the directory it
// is given, so a link planted in the project that leads to a directory
// holding a secret (sub -> conf) is judged by what it leads to, whether
// named relative to the call's directory or absolutely.
func TestRecursiveReadThroughLink(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "conf"), 0o755)
	os.WriteFile(filepath.Join(dir, "conf", ".env"), []byte("TOKEN=x\n"), 0o600)
	if err := os.Symlink("conf", filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		agent   string
		payload map[string]any
	}{
		{"claude-code", map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Grep", "cwd": dir,
			"tool_input": map[string]any{"pattern": "TOKEN", "path": "sub"}}},
		{"claude-code", map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Grep", "cwd": dir,
			"tool_input": map[string]any{"pattern": "TOKEN", "path": filepath.Join(dir, "sub")}}},
		{"gemini", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "grep_search", "cwd": dir,
			"tool_input": map[string]any{"pattern": "TOKEN", "dir_path": "sub"}}},
		{"gemini", map[string]any{"hook_event_name": "BeforeTool", "tool_name": "read_many_files", "cwd": dir,
			"tool_input": map[string]any{"include": []string{"sub/**"}}}},
	} {
		out, err := hook.Decide(agent(t, tt.agent), payload(t, tt.payload), options(t, nil))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), "floor:sensitive-path") {
			t.Errorf("%s %v: answer %s, want a deny by floor:sensitive-path", tt.agent, tt.payload["tool_input"], out)
		}
	}
}

// TestUnrecordedIsRefused: a decision the sink cannot record is never
// answered: the call is refused (the hook exits 2).
func TestUnrecordedIsRefused(t *testing.T) {
	dir := t.TempDir()
	p := payload(t, map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Read", "cwd": dir,
		"tool_input": map[string]any{"file_path": filepath.Join(dir, "a.go")}})
	out, err := hook.Decide(agent(t, "claude-code"), p, options(t, &sink{fail: errors.New("disk full")}))
	if err == nil || out != nil || !strings.Contains(err.Error(), "the call is refused") {
		t.Errorf("Decide with a failing sink = %s, %v; want no answer and a refusal", out, err)
	}
}

// TestPolicyErrorRefuses: a policy that does not load refuses the call,
// saying so.
func TestPolicyErrorRefuses(t *testing.T) {
	o := options(t, nil)
	o.Policy = func() (*config.Policy, error) { return config.Load("/nonexistent/policy.yaml", config.Options{}) }
	p := payload(t, map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/",
		"tool_input": map[string]any{"command": "ls"}})
	if _, err := hook.Decide(agent(t, "codex"), p, o); err == nil || !strings.HasSuffix(err.Error(), "(the call is refused)") {
		t.Errorf("Decide with a missing policy: %v", err)
	}
}

// wrapOptions are options with --wrap and a grants directory.
func wrapOptions(t *testing.T) (hook.Options, string) {
	o := options(t, nil)
	o.Wrap = true
	o.Grants = filepath.Join(t.TempDir(), "grants")
	return o, o.Grants
}

// TestWrapGrants: an allowed (or asked) shell command is rewritten with a
// grant bound to the argv the line hands warden run, the directory, the
// project and the policy; a denied one gets none.
func TestWrapGrants(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	// A git work tree: the project is its top, the call in a
	// subdirectory.
	os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	o, grants := wrapOptions(t)
	out, err := hook.Decide(agent(t, "claude-code"), payload(t, map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"cwd": filepath.Join(dir, "sub"), "tool_input": map[string]any{"command": "rm -f x"}, "tool_use_id": "toolu_1"}), o)
	if err != nil {
		t.Fatal(err)
	}
	var ans struct {
		Out struct {
			Decision string `json:"permissionDecision"`
			Input    struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatal(err)
	}
	if ans.Out.Decision != "ask" {
		t.Fatalf("answer %s, want ask", out)
	}
	exe, _ := os.Executable()
	w := &adapter.Wrapper{Exe: exe, Project: dir}
	u, ok := w.Unwrap(ans.Out.Input.Command)
	if !ok || u.Grant == "" {
		t.Fatalf("the rewritten line %q names no grant", ans.Out.Input.Command)
	}
	b := grant.Binding{Argv: w.Argv("rm -f x", filepath.Join(dir, "sub")), Dir: filepath.Join(dir, "sub"), Project: dir, Policy: "default\x00"}
	d, err := grant.Redeem(grants, u.Grant, b, o.Now.Add(time.Minute))
	if err != nil {
		t.Fatalf("Redeem: %v", err)
	}
	if want := (grant.Decision{Verdict: "prompt", Rule: "builtin:fileDelete", Reason: d.Reason, Answered: "prompt"}); d != want {
		t.Errorf("the grant carries %+v, want %+v", d, want)
	}

	// Denied: not rewritten, no grant.
	out, err = hook.Decide(agent(t, "claude-code"), payload(t, map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"cwd": dir, "tool_input": map[string]any{"command": "cat .env"}}), o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "--grant") {
		t.Errorf("a denied call was given a grant: %s", out)
	}
	if ents, _ := os.ReadDir(grants); len(ents) != 0 {
		t.Errorf("grants left: %v", ents)
	}
}

// TestWrappedFormJudgedWhereItRuns: a command the agent writes already in
// --wrap's form is judged in the directory its cd names, where it runs,
// not in the payload's cwd: reading "config" there is reading the SSH
// configuration.
func TestWrappedFormJudgedWhereItRuns(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	o, _ := wrapOptions(t)
	ssh := filepath.Join(o.Home, ".ssh")
	os.MkdirAll(ssh, 0o700)
	os.WriteFile(filepath.Join(ssh, "config"), []byte("Host x\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "config"), []byte("ordinary\n"), 0o644)
	exe, _ := os.Executable()
	w := &adapter.Wrapper{Exe: exe, Project: dir}
	for _, tt := range []struct {
		line string
		deny bool
	}{
		{w.Wrap("cat config", ssh, ""), true},
		{w.Wrap("cat config", dir, ""), false},
	} {
		out, err := hook.Decide(agent(t, "claude-code"), payload(t, map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
			"cwd": dir, "tool_input": map[string]any{"command": tt.line}}), o)
		if err != nil {
			t.Fatal(err)
		}
		if denied := strings.Contains(string(out), "floor:sensitive-path"); denied != tt.deny {
			t.Errorf("%s: answer %s, want denied %v", tt.line, out, tt.deny)
		}
		if strings.Contains(string(out), "updatedInput") {
			t.Errorf("%s: a wrapped line was rewritten again: %s", tt.line, out)
		}
	}
}
