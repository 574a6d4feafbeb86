// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package goldentest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// setUpdate sets -update for one test.
func setUpdate(t *testing.T, v bool) {
	old := *update
	*update = v
	t.Cleanup(func() { *update = old })
}

const table = `a comment
-- policy.yaml --
version: 1
-- want --
old
-- notes --
kept
`

func TestRunCompares(t *testing.T) {
	setUpdate(t, false)
	dir := t.TempDir()
	file := filepath.Join(dir, "one.txtar")
	if err := os.WriteFile(file, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := false
	Run(t, filepath.Join(dir, "*.txtar"), func(t *testing.T, path string, in Sections) Sections {
		ran = true
		if path != file {
			t.Errorf("check got path %q, want %q", path, file)
		}
		want := Sections{"policy.yaml": []byte("version: 1\n"), "want": []byte("old\n"), "notes": []byte("kept\n")}
		if diff := cmp.Diff(want, in); diff != "" {
			t.Errorf("sections (-want +got):\n%s", diff)
		}
		return Sections{"want": []byte("old\n")}
	})
	if !ran {
		t.Error("Run did not call check")
	}
}

// TestRunUpdate checks that -update replaces a section where it stands,
// appends a new one, keeps the comment and the other sections, and
// leaves an unchanged file alone.
func TestRunUpdate(t *testing.T) {
	setUpdate(t, true)
	dir := t.TempDir()
	file := filepath.Join(dir, "one.txtar")
	if err := os.WriteFile(file, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(*testing.T, string, Sections) Sections {
		return Sections{"want": []byte("new\n"), "added": []byte("x")}
	}
	Run(t, filepath.Join(dir, "*.txtar"), check)
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "a comment\n-- policy.yaml --\nversion: 1\n-- want --\nnew\n-- notes --\nkept\n-- added --\nx\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("rewritten table (-want +got):\n%s", diff)
	}

	past := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(file, past, past); err != nil {
		t.Fatal(err)
	}
	Run(t, filepath.Join(dir, "*.txtar"), check)
	if fi, err := os.Stat(file); err != nil || !fi.ModTime().Equal(past) {
		t.Errorf("an unchanged table was written again (%v)", err)
	}
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "golden", "out.txt")
	setUpdate(t, true)
	Check(t, path, []byte("hello\n"))
	if got, err := os.ReadFile(path); err != nil || string(got) != "hello\n" {
		t.Fatalf("-update wrote %q, %v; want %q", got, err, "hello\n")
	}
	*update = false
	Check(t, path, []byte("hello\n"))
}

func TestCases(t *testing.T) {
	type decision struct {
		Name   string `json:"name"`
		Expect string `json:"expect"`
	}
	section := []byte(`
# a comment
{"name": "one", "expect": "allow"}

  {"name": "two", "expect": "deny"}
`)
	got := Cases[decision](t, section)
	want := []decision{{"one", "allow"}, {"two", "deny"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Cases (-want +got):\n%s", diff)
	}
}
