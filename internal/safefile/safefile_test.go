// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package safefile_test

import (
	"os"
	"path/filepath"
	"testing"

	"warden.dev/warden/internal/safefile"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	if err := safefile.WriteFile(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := safefile.WriteFile(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != "two" {
		t.Fatalf("read %q, %v; want \"two\"", got, err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, %v; want 0644", fi.Mode().Perm(), err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 1 {
		t.Fatalf("directory holds %v, %v; want the file alone", ents, err)
	}
}

// TestWriteFileFails checks that a write that cannot be made leaves the
// old file and no temporary file behind.
func TestWriteFileFails(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A directory where the file should be cannot be renamed over.
	q := filepath.Join(dir, "d")
	if err := os.Mkdir(q, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(q, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := safefile.WriteFile(q, []byte("new"), 0o600); err == nil {
		t.Fatal("replacing a non-empty directory succeeded")
	}
	if err := safefile.WriteFile(filepath.Join(dir, "missing", "f"), []byte("new"), 0o600); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("directory holds %d entries, want 2 (no temporary file left)", len(ents))
	}
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("old file changed to %q", got)
	}
}
