// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex_test

import (
	"os"
	"path/filepath"
	"testing"

	"warden.dev/warden/internal/gitindex"
)

func TestProject(t *testing.T) {
	root := t.TempDir()
	real, _ := filepath.EvalSymlinks(root)
	mk := func(p string) { os.MkdirAll(filepath.Join(real, p), 0o755) }
	repo := func(p string) {
		mk(p + "/.git/objects")
		os.WriteFile(filepath.Join(real, p, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	}
	repo("repo")
	mk("repo/a/b")
	mk("stray/.git") // empty: not a repository
	mk("stray/x")
	mk("linked/sub")
	os.WriteFile(filepath.Join(real, "linked/.git"), []byte("gitdir: /elsewhere/.git/worktrees/l\n"), 0o644)
	// A home that is itself a repository (dotfiles), with a project in
	// it and a plain directory.
	repo("home")
	repo("home/src/app")
	mk("home/src/app/pkg")
	mk("home/notes")
	os.Symlink(filepath.Join(real, "home"), filepath.Join(real, "homelink"))
	home := filepath.Join(real, "homelink") // compared after resolving
	for _, tt := range []struct{ cwd, want string }{
		{"repo/a/b", "repo"},
		{"repo", "repo"},
		{"stray/x", ""},
		{"linked/sub", "linked"},
		{"home", ""},
		{"home/notes", ""},
		{"home/src/app/pkg", "home/src/app"},
		{"home/src", ""},
	} {
		want := ""
		if tt.want != "" {
			want = filepath.Join(real, tt.want)
		}
		if got := gitindex.Project(filepath.Join(real, tt.cwd), home); got != want {
			t.Errorf("Project(%s) = %q, want %q", tt.cwd, got, want)
		}
	}
	for _, tt := range []struct {
		dir  string
		want bool
	}{
		{"/", true},
		{real, true},
		{filepath.Join(real, "home"), true},
		{filepath.Join(real, "homelink"), true},
		{filepath.Join(real, "home/src"), false},
		{filepath.Join(real, "homex"), false},
	} {
		if got := gitindex.NotProject(tt.dir, home); got != tt.want {
			t.Errorf("NotProject(%s) = %t, want %t", tt.dir, got, tt.want)
		}
	}
}

// TestRunProject: a run's default project is the work tree holding the
// directory, else the directory, never the home, the root or an ancestor
// of the home.
func TestRunProject(t *testing.T) {
	root := t.TempDir()
	real, _ := filepath.EvalSymlinks(root)
	for _, p := range []string{"home/notes", "repo/.git/objects", "repo/sub", "plain/x"} {
		os.MkdirAll(filepath.Join(real, p), 0o755)
	}
	os.WriteFile(filepath.Join(real, "repo/.git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.Symlink(filepath.Join(real, "plain"), filepath.Join(real, "plainlink"))
	home := filepath.Join(real, "home")
	for _, tt := range []struct{ dir, want string }{
		{"repo/sub", "repo"},
		{"repo", "repo"},
		{"plain/x", "plain/x"},
		{"plainlink", "plain"},
		{"home/notes", "home/notes"},
		{"home", ""},
		{".", ""}, // an ancestor of the home
	} {
		want := ""
		if tt.want != "" {
			want = filepath.Join(real, tt.want)
		}
		if got := gitindex.RunProject(filepath.Join(real, tt.dir), home); got != want {
			t.Errorf("RunProject(%s) = %q, want %q", tt.dir, got, want)
		}
	}
	if got := gitindex.RunProject("/", home); got != "" {
		t.Errorf("RunProject(/) = %q, want none", got)
	}
}
