// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWatchReplaced: a watched file renamed over is sent, once; one
// written in place, or a new file beside it, is not; a directory that
// cannot be watched is said.
func TestWatchReplaced(t *testing.T) {
	dir := t.TempDir()
	file, other := filepath.Join(dir, "config"), filepath.Join(dir, "other")
	for _, p := range []string{file, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id := func(p string) [2]uint64 {
		id, err := identity(p)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	ch, stop, note := watchReplaced([]held{{path: file, id: id(file)}, {path: other, id: id(other)}})
	defer stop()
	if note != "" {
		t.Fatalf("note %q for directories that can be watched", note)
	}
	// In place, and a new file beside: not a replacement.
	if err := os.WriteFile(file, []byte("in place"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "new"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file+".new", []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(file+".new", file); err != nil {
		t.Fatal(err)
	}
	if got := <-ch; got != file {
		t.Errorf("sent %q, want %q", got, file)
	}

	_, stop2, note := watchReplaced([]held{{path: filepath.Join(dir, "gone", "f"), id: [2]uint64{1, 1}}})
	defer stop2()
	if !strings.Contains(note, "not all watched") {
		t.Errorf("no note for a directory that cannot be watched: %q", note)
	}
}
