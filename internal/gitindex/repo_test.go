// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/gitindex"
)

// real resolves the links of a temporary directory (macOS's /var).
func real(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type answer struct {
	Tracked bool
	Err     bool
}

func check(t *testing.T, c *gitindex.Checker, paths map[string]answer) {
	t.Helper()
	got := map[string]answer{}
	for p := range paths {
		tr, err := c.Tracked(p)
		got[p] = answer{tr, err != nil}
	}
	if diff := cmp.Diff(paths, got); diff != "" {
		t.Errorf("Tracked (-want +got):\n%s", diff)
	}
}

func TestTracked(t *testing.T) {
	dir := real(t, newRepo(t))
	wt := real(t, t.TempDir())
	linked := filepath.Join(wt, "linked")
	git(t, dir, "worktree", "add", "-q", "-b", "side", linked)
	// The linked worktree has an index of its own: a file staged there
	// is tracked there only.
	write(t, linked, "only-linked.go", "package x\n")
	git(t, linked, "add", "only-linked.go")

	empty := real(t, t.TempDir())
	git(t, empty, "init", "-q")
	write(t, empty, "f.txt", "x\n")

	outside := real(t, t.TempDir())
	write(t, outside, "f.txt", "x\n")

	// A hard link to a tracked file, under a name git does not know.
	if err := os.Link(dir+"/tracked.go", dir+"/hard-link"); err != nil {
		t.Fatal(err)
	}

	var c gitindex.Checker
	check(t, &c, map[string]answer{
		dir + "/hard-link":               {Tracked: true},
		dir + "/tracked.go":              {Tracked: true},
		dir + "/dir/sub/file10.go":       {Tracked: true},
		dir + "/a b/c d.txt":             {Tracked: true},
		dir + "/staged.go":               {Tracked: true},
		dir + "/intent.txt":              {Tracked: true},
		dir + "/untracked.txt":           {},
		dir + "/new.txt":                 {},
		dir + "/dir/sub":                 {},
		dir + "/TRACKED.GO":              {Tracked: true}, // another case: the safe side
		dir + "/.git/config":             {},
		dir + "/.git/index":              {},
		linked + "/tracked.go":           {Tracked: true},
		linked + "/only-linked.go":       {Tracked: true},
		dir + "/only-linked.go":          {},
		linked + "/untracked.txt":        {},
		empty + "/f.txt":                 {},
		outside + "/f.txt":               {},
		"relative/path":                  {Tracked: true, Err: true},
		dir + "/dir/../tracked.go":       {Tracked: true},
		linked + "/dir/sub/../other.go":  {Tracked: true},
		linked + "/dir/sub/no/such/file": {},
	})
}

func TestTrackedSafeSide(t *testing.T) {
	corrupt := real(t, newRepo(t))
	idx := filepath.Join(corrupt, ".git", "index")
	data, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(idx, data, 0o644); err != nil {
		t.Fatal(err)
	}

	unknown := real(t, newRepo(t))
	cfg := filepath.Join(unknown, ".git", "config")
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[extensions]\n\tobjectformat = blake3\n")
	f.Close()

	badFile := real(t, t.TempDir())
	write(t, badFile, ".git", "gitdir: /no/such/dir\n")
	write(t, badFile, "f.txt", "x\n")

	split := real(t, newRepo(t))
	git(t, split, "update-index", "--split-index")

	big := real(t, newRepo(t))
	bigIdx := filepath.Join(big, ".git", "index")
	if err := os.Truncate(bigIdx, gitindex.MaxSize+1); err != nil {
		t.Fatal(err)
	}

	sha256 := real(t, newRepo(t, "--object-format=sha256"))

	var c gitindex.Checker
	check(t, &c, map[string]answer{
		corrupt + "/untracked.txt": {Tracked: true, Err: true},
		unknown + "/untracked.txt": {Tracked: true, Err: true},
		badFile + "/f.txt":         {Tracked: true, Err: true},
		split + "/untracked.txt":   {Tracked: true},
		big + "/untracked.txt":     {Tracked: true, Err: true},
		sha256 + "/tracked.go":     {Tracked: true},
		sha256 + "/untracked.txt":  {},
	})
}
