// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/hook"
)

// TestHookFailsClosed: a decision that panics or never comes exits 2
// with a reason, never 0 without an answer and never another status.
func TestHookFailsClosed(t *testing.T) {
	// A state directory of its own: a warden serve of the person running
	// the tests would lengthen the call's bound by its wait.
	t.Setenv(envStateDir, t.TempDir())
	for _, tt := range []struct {
		name   string
		decide func(adapter.Agent, []byte, hook.Options) ([]byte, error)
		want   string
	}{
		{"panic", func(adapter.Agent, []byte, hook.Options) ([]byte, error) { panic("boom") }, "internal error: boom"},
		{"stall", func(adapter.Agent, []byte, hook.Options) ([]byte, error) { time.Sleep(time.Hour); return nil, nil }, "no decision within 50ms"},
		{"not json", func(adapter.Agent, []byte, hook.Options) ([]byte, error) { return []byte("allow"), nil }, "the answer is not JSON"},
		{"nil map deref", func(adapter.Agent, []byte, hook.Options) ([]byte, error) {
			var m map[string]*int
			return []byte{byte(*m["x"])}, nil
		}, "internal error"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func(d time.Duration) { hookDeadline = d }(hookDeadline)
			hookDeadline = 50 * time.Millisecond
			var stdout, stderr bytes.Buffer
			defer func() { Stdin, Stdout, Stderr = os.Stdin, os.Stdout, os.Stderr }()
			Stdin, Stdout, Stderr = strings.NewReader("{}"), &stdout, &stderr
			ag, _ := adapter.Lookup("claude-code")
			code := exitCode(hookAnswer(ag, nil, tt.decide))
			if code != exitBadInput || stdout.Len() != 0 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no stdout, %q", code, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}

// TestHookPayloadCap: warden hook refuses a payload over the cap with
// exit 2 (a block before the call, for every agent Warden answers) and a
// reason naming the cap, never an answer; a payload just under the cap,
// a Bash call with a command of megabytes, is decided.
func TestHookPayloadCap(t *testing.T) {
	dir := t.TempDir()
	mk := func(n int) string {
		head := `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","cwd":"` + dir + `","tool_input":{"command":"echo `
		body := n - len(head) - len(`"}}`)
		return head + strings.Repeat("a ", body/2) + strings.Repeat("a", body%2) + `"}}`
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv(envStateDir, t.TempDir())
	// Deciding a command of megabytes takes seconds under the race
	// detector on a busy machine: the bound of a call is not what is
	// tested here.
	defer func(d time.Duration) { hookDeadline = d }(hookDeadline)
	hookDeadline = time.Hour
	for _, tt := range []struct {
		name    string
		payload string
		code    int
		stdout  string
		stderr  string
	}{
		{"over the cap", mk(hook.MaxPayload + 1), exitBadInput, "", "larger than 16 MiB (16777216 bytes)"},
		{"far over the cap", mk(2 * hook.MaxPayload), exitBadInput, "", "larger than 16 MiB"},
		{"at the cap", mk(hook.MaxPayload), 0, `"permissionDecision":"ask"`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.payload) != hook.MaxPayload+1 && len(tt.payload) != 2*hook.MaxPayload && len(tt.payload) != hook.MaxPayload {
				t.Fatalf("the payload is %d bytes", len(tt.payload))
			}
			var stdout, stderr bytes.Buffer
			defer func() { Stdin, Stdout, Stderr = os.Stdin, os.Stdout, os.Stderr }()
			Stdin, Stdout, Stderr = strings.NewReader(tt.payload), &stdout, &stderr
			ag, _ := adapter.Lookup("claude-code")
			code := exitCode(hookAnswer(ag, nil, hook.Decide))
			if code != tt.code || !strings.Contains(stdout.String(), tt.stdout) || (tt.stdout == "") != (stdout.Len() == 0) || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("%d-byte payload: exit %d, stdout %.200q, stderr %.200q; want exit %d, stdout with %q, stderr with %q",
					len(tt.payload), code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}
