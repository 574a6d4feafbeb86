// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Project is the project of a working directory (docs/spec.md §11): the
// nearest directory at or above cwd that git would take for the top
// level of a work tree, both taken after resolving symbolic links; ""
// when there is none, or when the one found is never a project
// ([NotProject]: a dotfiles repository at the home is not one). A stray
// .git that is not a repository (an empty directory in /tmp) does not
// count, as git does not count it: the project is the writable root of
// wrapped commands and what every write is judged inside or outside of,
// and too wide a root would be a hole.
func Project(cwd, home string) string {
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	for d := cwd; ; {
		if isDotGit(filepath.Join(d, ".git")) {
			if NotProject(d, home) {
				return ""
			}
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// Enclosing is the top of the work tree that holds p, an absolute clean
// path that need not exist, found by walking up from its directory
// without resolving links (the caller gives every spelling), or "" when
// no directory above it holds a repository.
func Enclosing(p string) string {
	for d := filepath.Dir(p); ; {
		if isDotGit(filepath.Join(d, ".git")) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// RunProject is the project a contained run takes when none is named
// (docs/spec.md §11: warden run, and what a hook's --wrap and warden mcp
// --sandbox hand it): the project of dir ([Project]), else dir itself
// after resolving links; "" when that can never be a project
// ([NotProject]): a run started in the home or at the root is refused
// rather than given the whole home to write.
func RunProject(dir, home string) string {
	if p := Project(dir, home); p != "" {
		return p
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if NotProject(dir, home) {
		return ""
	}
	return filepath.Clean(dir)
}

// NotProject reports whether dir can never be a project: the root, the
// home, or an ancestor of the home, each compared after resolving links.
// Taking one for the project would make the whole home an ordinary
// place to write, shell start-up files and agent settings included.
func NotProject(dir, home string) bool {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	dir = filepath.Clean(dir)
	if dir == "/" || dir == "." || dir == "" {
		return true
	}
	if home == "" {
		return false
	}
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	home = filepath.Clean(home)
	return home == dir || strings.HasPrefix(home, dir+"/")
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
