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
