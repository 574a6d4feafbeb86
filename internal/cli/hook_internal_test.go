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
