// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex_test

import (
	"os"
	"path/filepath"
	"testing"

	"warden.dev/warden/internal/gitindex"
)

func TestWorkTree(t *testing.T) {
	root := t.TempDir()
	real, _ := filepath.EvalSymlinks(root)
	mk := func(p string) { os.MkdirAll(filepath.Join(real, p), 0o755) }
	mk("repo/.git/objects")
	os.WriteFile(filepath.Join(real, "repo/.git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	mk("repo/a/b")
	mk("stray/.git") // empty: not a repository
	mk("stray/x")
	mk("linked/sub")
	os.WriteFile(filepath.Join(real, "linked/.git"), []byte("gitdir: /elsewhere/.git/worktrees/l\n"), 0o644)
	for _, tt := range []struct{ cwd, want string }{
		{"repo/a/b", "repo"},
		{"repo", "repo"},
		{"stray/x", "stray/x"},
		{"linked/sub", "linked"},
	} {
		if got := gitindex.WorkTree(filepath.Join(real, tt.cwd)); got != filepath.Join(real, tt.want) {
			t.Errorf("WorkTree(%s) = %s, want %s", tt.cwd, got, filepath.Join(real, tt.want))
		}
	}
}
