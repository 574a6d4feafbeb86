// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/sandbox"
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
		{name: "nothing set", want: sandbox.DefaultTimeout, wantSource: "default"},
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

func TestLastAttempt(t *testing.T) {
	as := []audit.NetworkAttempt{{Host: "first.test"}, {Host: "rerun.test"}}
	r := &audit.Run{NetworkAttempts: as}
	for _, tt := range []struct {
		from int
		want []audit.NetworkAttempt
	}{
		{0, as},
		{1, as[1:]},
		{2, []audit.NetworkAttempt{}},
		{3, as}, // attempts past the record's bound: all of them
	} {
		got := lastAttempt(r, tt.from)
		if diff := cmp.Diff(tt.want, got.NetworkAttempts); diff != "" {
			t.Errorf("lastAttempt(%d) (-want +got):\n%s", tt.from, diff)
		}
	}
	if len(r.NetworkAttempts) != 2 {
		t.Errorf("lastAttempt changed the record: %v", r.NetworkAttempts)
	}
}
