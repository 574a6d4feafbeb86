// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"testing"
	"time"
)

// TestRunTimeout checks where a run's timeout comes from: --timeout when
// given, else none for a server, else the policy's, else none for a
// terminal session, else the default.
func TestRunTimeout(t *testing.T) {
	for _, tt := range []struct {
		name             string
		flagSet          bool
		flag, policy     time.Duration
		terminal, server bool
		want             time.Duration
		wantSource       string
	}{
		{name: "nothing set", want: defaultTimeout, wantSource: "default"},
		{name: "policy", policy: time.Minute, want: time.Minute, wantSource: "policy"},
		{name: "flag over policy", flagSet: true, flag: time.Second, policy: time.Minute, want: time.Second, wantSource: "flag"},
		{name: "--timeout 0", flagSet: true, policy: time.Minute, want: 0, wantSource: "off"},
		{name: "terminal", terminal: true, want: 0, wantSource: "interactive"},
		{name: "terminal with a policy", terminal: true, policy: time.Minute, want: time.Minute, wantSource: "policy"},
		{name: "terminal with --timeout", terminal: true, flagSet: true, flag: time.Hour, want: time.Hour, wantSource: "flag"},
		{name: "terminal with --timeout 0", terminal: true, flagSet: true, policy: time.Minute, want: 0, wantSource: "off"},
		{name: "server", server: true, policy: time.Minute, want: 0, wantSource: "server"},
		{name: "server at a terminal", server: true, terminal: true, want: 0, wantSource: "server"},
		{name: "server with --timeout", server: true, flagSet: true, flag: time.Hour, want: time.Hour, wantSource: "flag"},
		{name: "server with --timeout 0", server: true, flagSet: true, want: 0, wantSource: "off"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, src := runTimeout(tt.flagSet, tt.flag, tt.policy, tt.terminal, tt.server)
			if got != tt.want || src != tt.wantSource {
				t.Errorf("runTimeout(%v, %v, %v, %v, %v) = %v, %q, want %v, %q",
					tt.flagSet, tt.flag, tt.policy, tt.terminal, tt.server, got, src, tt.want, tt.wantSource)
			}
		})
	}
}
