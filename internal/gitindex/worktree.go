// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex

import (
	"io"
	"os"
	"path/filepath"
)

// WorkTree is the project of a working directory: the nearest directory
// at or above cwd that git would take for the top level of a work tree,
// else cwd itself. Both are taken after resolving symbolic links. A stray
// .git that is not a repository (an empty directory in /tmp) does not
// count, as git does not count it: the project is the writable root of
// wrapped commands, and too wide a root would be a hole.
func WorkTree(cwd string) string {
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	for d := cwd; ; {
		if isDotGit(filepath.Join(d, ".git")) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return cwd
		}
		d = parent
	}
}

// isDotGit reports whether p is what git accepts as a work tree's .git: a
// directory with HEAD and objects (or a commondir, for a linked work
// tree), or a file "gitdir: …".
func isDotGit(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode().IsRegular() {
		f, err := os.Open(p)
		if err != nil {
			return false
		}
		defer f.Close()
		head := make([]byte, 8)
		n, _ := io.ReadFull(f, head)
		return string(head[:n]) == "gitdir: "
	}
	if !fi.IsDir() {
		return false
	}
	if _, err := os.Stat(filepath.Join(p, "HEAD")); err != nil {
		return false
	}
	for _, sub := range []string{"objects", "commondir"} {
		if _, err := os.Stat(filepath.Join(p, sub)); err == nil {
			return true
		}
	}
	return false
}
