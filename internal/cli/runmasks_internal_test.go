// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
)

// TestStateDir checks the order of DESIGN.md §13: $WARDEN_STATE_DIR, then
// $XDG_STATE_HOME/warden, then ~/.local/state/warden; relative values are
// ignored.
func TestStateDir(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	for _, tt := range []struct {
		env, xdg string
		want     string
	}{
		{"/srv/w", "/x", "/srv/w"},
		{"", "/x", "/x/warden"},
		{"", "", "/home/u/.local/state/warden"},
		{"rel", "rel", "/home/u/.local/state/warden"},
	} {
		t.Setenv(envStateDir, tt.env)
		t.Setenv("XDG_STATE_HOME", tt.xdg)
		if got := stateDir(); got != tt.want {
			t.Errorf("stateDir with %s=%q, XDG_STATE_HOME=%q = %q, want %q", envStateDir, tt.env, tt.xdg, got, tt.want)
		}
	}
}

// TestWardenMasks checks what every run masks of Warden's own, and that a
// run cache inside the state directory stays visible.
func TestWardenMasks(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "cfg"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("XDG_STATE_HOME", "")
	state := filepath.Join(home, "state")
	t.Setenv(envStateDir, state)
	cache := filepath.Join(state, "run-cache", "abc")
	for _, d := range []string{cache, filepath.Join(state, "run-cache", "other"), filepath.Join(state, "quarantine")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(state, "token"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	lp := &config.Policy{File: &policyfile.File{Network: policyfile.Network{Credentials: []policyfile.Credential{
		{Name: "A", From: "file:" + filepath.Join(home, "tok")},
		{Name: "B", From: "env:B"},
	}}}}
	got, err := wardenMasks(sandbox.Spec{Project: filepath.Join(home, "proj"), Cache: cache}, lp)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], home+"/")
	}
	want := []string{
		"tok", "cfg/warden/ca",
		"state/quarantine", "state/run-cache/other", "state/token", // around the run cache
		"cfg/warden", "cfg/warden", // XDG and os.UserConfigDir agree here
		"cache/warden/hook",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wardenMasks mismatch (-want +got):\n%s", diff)
	}

	_, err = wardenMasks(sandbox.Spec{Project: filepath.Join(home, "cfg", "warden", "p")}, lp)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitSandbox || !strings.Contains(ee.msg, "inside") {
		t.Errorf("a project inside the configuration directory: err = %v, want exit 125", err)
	}
}
