// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

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

// TestWardenMasks checks what every run masks of Warden's own, and that a
// run cache inside the state directory stays visible.
func TestWardenMasks(t *testing.T) {
	home := t.TempDir()
	state := filepath.Join(home, "state")
	own := Dirs{State: state, CA: filepath.Join(home, "cfg/warden/ca"),
		Config:    []string{filepath.Join(home, "cfg/warden"), filepath.Join(home, "cfg/warden")},
		HookState: filepath.Join(home, "cache/warden/hook")}
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
	files, dirs, err := wardenMasks(sandbox.Spec{Project: filepath.Join(home, "proj"), Cache: cache}, lp, own)
	if err != nil {
		t.Fatal(err)
	}
	got := append(files, dirs...)
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], home+"/")
	}
	want := []string{
		"tok", // the credential's file, whose other names are masked too
		"cfg/warden/ca",
		"state/quarantine", "state/run-cache/other", "state/token", // around the run cache
		"cfg/warden", "cfg/warden", // XDG and the platform's agree here
		"cache/warden/hook",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wardenMasks mismatch (-want +got):\n%s", diff)
	}
	if len(files) != 1 {
		t.Errorf("files = %q, want the credential's file alone", files)
	}

	_, _, err = wardenMasks(sandbox.Spec{Project: filepath.Join(home, "cfg", "warden", "p")}, lp, own)
	var ex *Exit
	if !errors.As(err, &ex) || ex.Status != StatusUnavailable || !strings.Contains(ex.Msg, "inside") {
		t.Errorf("a project inside the configuration directory: err = %v, want exit 125", err)
	}
}
