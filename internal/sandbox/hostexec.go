// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file protects what the host executes later from a project: the
// files that agent CLIs, editors, direnv and git read and act on after the
// sandbox is gone, as package governance lists them. Everything a run could plant there is either kept
// read-only (what exists when the run starts) or found by the post-run
// check and quarantined (what the run created). Of a git directory only
// the data git writes in ordinary work stays writable; every other entry,
// known or not, counts as host-executed.

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/governance"
)

// protectedRel reports whether the project-relative path rel (a directory
// when dir) is host-executed: in [governance.HostExecuted], or matched by one of the
// policy's patterns (Spec.Protect, in the syntax of Spec.Hide).
func protectedRel(rel string, dir bool, extra []string) bool {
	if governance.HostExecRel(rel) {
		return true
	}
	for _, pat := range extra {
		if matchPattern(pat, rel, dir) {
			return true
		}
	}
	return false
}

// fileID is what the post-run check compares of an entry: a run that
// replaces or rewrites it changes one of them (ctime cannot be set from
// inside).
type fileID struct {
	mode  fs.FileMode // type bits only
	ino   uint64
	size  int64
	ctime int64 // nanoseconds
}

// gitSnap is a git directory the run could write, as it was at start.
// Names are enough: what is not git's data among them is bound
// read-only, and a mount point cannot be replaced or removed.
type gitSnap struct {
	dir string
	// top are its entries, info those of objects/info; infoOnly: only
	// objects/ of it was writable (a common directory outside the
	// project, whose top is read-only).
	top, info map[string]bool
	infoOnly  bool
}

// kept is a protected entry in a writable directory that a mount cannot
// hold: a link (its target is bound read-only) or a .git file. The
// post-run check restores it if the run replaced it.
type kept struct {
	path string
	id   fileID
	link string // the link's target, for a link
	data []byte // the file's content, for a file
	perm fs.FileMode
}

// held is a protected entry inside a writable root, kept read-only by a
// bind onto itself, as it was when the run was planned. The mount holds
// it only while the host keeps that file: Linux takes a mount away, in
// every namespace, with the file it is on once that file is removed or
// renamed over outside (an editor's save, git config writing .git/config
// anew, a git checkout on the host), and the run can then write what took
// its place. The post-run check takes an entry with another identity to
// the quarantine and puts back the content held here, for a file small
// enough to keep.
type held struct {
	path string
	id   [2]uint64 // device and inode, as planned
	data []byte    // nil: a directory, or a file too large to keep
	perm fs.FileMode
}

// postCheck is the post-run check of one run, planned before it.
type postCheck struct {
	project string
	// dirs are the directories of the writable roots at start (the
	// project walk's, and the walks of Spec.ReadWrite); dirSet indexes
	// them.
	dirs   []string
	dirSet map[string]bool
	// roots are the writable roots walked, each with its own rules:
	// host-executed names are looked for in the project only.
	roots   []string
	protect []string
	gitDirs []gitSnap
	kept    []kept
	held    []held
	// paths are protected paths that did not exist at start (a
	// core.hooksPath directory).
	paths []string
	// known are the .git entries at start, whose repositories are
	// protected, and the host-executed entries at start, kept read-only
	// (a mount point cannot be replaced).
	known map[string]bool
	// gitIDs are the .git entries at start as they were: one with
	// another identity after the run is new.
	gitIDs map[string]fileID
	// lifted are the paths named in Spec.ReadWrite.
	lifted map[string]bool
	// gitBinds are the writable binds of git data outside the writable
	// roots.
	gitBinds map[string]bool
}

// keepLink records the link p, if it is one, for the post-run check.
func (pc *postCheck) keepLink(p string) {
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return
	}
	if t, err := os.Readlink(p); err == nil {
		pc.kept = append(pc.kept, kept{path: p, id: statID(fi), link: t})
	}
}

// keepDangling records the protected link p, if it is one whose target
// does not exist: the link is kept, and its target, where the run could
// create it, must not appear.
func (pc *postCheck) keepDangling(p string) {
	t, err := os.Readlink(p)
	if err != nil {
		return
	}
	pc.keepLink(p)
	if !filepath.IsAbs(t) {
		t = filepath.Join(filepath.Dir(p), t)
	}
	pc.paths = append(pc.paths, filepath.Clean(t))
}

// keepFile records the .git file or link p for the post-run check.
func (pc *postCheck) keepFile(p string) {
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
	case fi.Mode()&fs.ModeSymlink != 0:
		pc.keepLink(p)
	case fi.Mode().IsRegular():
		if data, err := readSmall(p, maxGitFile); err == nil {
			pc.kept = append(pc.kept, kept{path: p, id: statID(fi), data: data, perm: fi.Mode().Perm()})
		}
	}
}

// gitDataDirs are the directories of a common directory outside the
// project that a run in a linked worktree writes (objects, branches,
// reflogs); its top stays read-only.
var gitDataDirs = []string{"objects", "refs", "logs", "reftable"}

// planHostExec plans the protection of what the host executes later: the
// read-only paths (which may not exist or be links), writable binds of
// git directories (pinned, so that they cannot be renamed away, and the
// data of those outside the writable roots), and the post-run check. rw
// are the real paths named in Spec.ReadWrite.
func planHostExec(spec Spec, project string, roots []string, pw *projectWalk, rw map[string]bool) (*postCheck, []string, []bind, error) {
	pc := &postCheck{project: project, protect: spec.Protect, known: map[string]bool{}, lifted: rw, gitBinds: map[string]bool{}, dirSet: map[string]bool{}, gitIDs: map[string]fileID{}}
	inRoot := func(p string) bool {
		for _, r := range roots {
			if p == r || within(p, r) {
				return true
			}
		}
		return false
	}
	var ro []string
	var binds []bind
	gitEntries := map[string]string{} // .git entry -> its root
	if spec.Mode == WorkspaceWrite {
		pc.roots = append(pc.roots, project)
		pc.dirs = pw.dirs
		ro = append(ro, pw.hostExec...)
		for _, p := range pw.hostExec {
			pc.known[p] = true
		}
		for _, g := range pw.gitEntries {
			gitEntries[g] = project
		}
	}
	for _, r := range roots {
		if r == project || slices.ContainsFunc(pc.roots, func(o string) bool { return within(r, o) }) {
			continue
		}
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
			continue
		}
		rwk := walkRoot(r)
		if rwk.truncated && !slices.Contains(spec.Degraded, LayerWalk) {
			return nil, nil, nil, &SetupError{
				What: fmt.Sprintf("read_write path %s is past the walk's bound (%d entries, %d levels), so what a run plants there cannot be checked", r, walkBound.entries, walkBound.depth),
				Hint: "name a smaller directory in sandbox.filesystem.read_write, or accept it by name with --degraded=" + string(LayerWalk),
			}
		}
		pc.roots = append(pc.roots, r)
		pc.dirs = append(pc.dirs, rwk.dirs...)
		for _, g := range rwk.gitEntries {
			gitEntries[g] = r
		}
	}
	for _, d := range pc.dirs {
		pc.dirSet[d] = true
	}
	seen := map[string]bool{}
	for _, g := range slices.Sorted(maps.Keys(gitEntries)) {
		repo, err := gitindex.Discover(g, gitEntries[g], spec.Home)
		if err != nil {
			return nil, nil, nil, &SetupError{What: fmt.Sprintf("git entry %s: %v", g, err),
				Hint: "fix or remove it: warden follows a .git file only into the project, to a linked worktree's git directory or to a submodule's"}
		}
		pc.known[g] = true
		if fi, err := os.Lstat(g); err == nil {
			pc.gitIDs[g] = statID(fi)
		}
		pc.keepFile(g)
		for _, h := range repo.Hooks {
			hooks := []string{h}
			if filepath.Base(h) == "_" {
				// husky's layout: the hooks in .husky/_ run the
				// scripts in .husky.
				hooks = append(hooks, filepath.Dir(h))
			}
			for _, h := range hooks {
				if _, err := os.Lstat(h); err == nil {
					ro = append(ro, h)
				} else if inRoot(h) {
					pc.paths = append(pc.paths, h)
				}
			}
		}
		for _, d := range []string{repo.Dir, repo.Common} {
			if seen[d] {
				continue
			}
			seen[d] = true
			inside := inRoot(d)
			if !inside && spec.Mode != WorkspaceWrite {
				continue // read-only, with the rest of the host
			}
			snap := gitSnap{dir: d, top: map[string]bool{}, info: map[string]bool{}}
			if !inside && d != repo.Dir {
				// A linked worktree's common directory: its data
				// directories only.
				snap.infoOnly = true
				for _, name := range gitDataDirs {
					p := filepath.Join(d, name)
					if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
						binds = append(binds, bind{Path: p, Writable: true, Dir: true})
						pc.gitBinds[p] = true
					}
				}
			} else {
				if !slices.Contains(roots, d) {
					// Pinned, with the directories above it up to
					// its root: a mount point cannot be renamed
					// away, so no other repository takes its place.
					binds = append(binds, bind{Path: d, Writable: true, Dir: true})
					if !inside {
						pc.gitBinds[d] = true
					}
					for p := filepath.Dir(d); inside && !slices.Contains(roots, p) && inRoot(p); p = filepath.Dir(p) {
						binds = append(binds, bind{Path: p, Writable: true, Dir: true})
					}
				}
				ents, err := os.ReadDir(d)
				if err != nil {
					return nil, nil, nil, &SetupError{What: fmt.Sprintf("git directory %s: %v", d, err), Hint: "make it readable or remove it"}
				}
				for _, e := range ents {
					snap.top[e.Name()] = true
					if !governance.IsGitData(e.Name()) {
						ro = append(ro, filepath.Join(d, e.Name()))
					}
				}
			}
			info := filepath.Join(d, "objects", "info")
			if ents, err := os.ReadDir(info); err == nil {
				for _, e := range ents {
					snap.info[e.Name()] = true
					if slices.Contains(governance.GitObjectsInfoExec, e.Name()) {
						ro = append(ro, filepath.Join(info, e.Name()))
					}
				}
			}
			pc.gitDirs = append(pc.gitDirs, snap)
		}
	}
	return pc, ro, binds, nil
}

// IsProtected reports whether p is one of the protected entries of the
// project (an entry of [governance.HostExecuted], or an entry of the project's .git
// directory that is not git's data), so that naming it in
// Spec.ReadWrite lifts its protection.
func IsProtected(project, p string) bool {
	rel, ok := strings.CutPrefix(p, project+"/")
	if !ok || rel == "" {
		return false
	}
	if git, rest, ok := strings.Cut(rel, "/"); ok && git == ".git" && !strings.Contains(rest, "/") {
		return !governance.IsGitData(rest)
	}
	return governance.HostExecRel(rel)
}
