// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStateDir checks the order of docs/spec.md §13: $WARDEN_STATE_DIR, then
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

// TestOwnDirs: what cli tells a run is Warden's own, from the
// environment.
func TestOwnDirs(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "cfg"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv(envStateDir, filepath.Join(home, "state"))
	d := ownDirs()
	got := []string{d.State, d.CA, d.HookState, d.Cache}
	got = append(got, d.Config...)
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], home+"/")
	}
	want := []string{"state", "cfg/warden/ca", "cache/warden/hook", "cache", "cfg/warden", "cfg/warden"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ownDirs (-want +got):\n%s", diff)
	}
	if b, err := d.TrustBundle(); err != nil || b != filepath.Join(home, "cache", "warden", "ca-bundle.pem") {
		t.Errorf("TrustBundle = %q, %v", b, err)
	}
}
