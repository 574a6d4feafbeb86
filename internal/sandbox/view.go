// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file plans the filesystem view of a run on the host, before init
// builds it. The rules:
//
//   - Every path is resolved on the host first (links followed, but for
//     a link in a directory the run can write, which is refused: see
//     hostpath.go), so init mounts on real paths and a link cannot
//     redirect a mount.
//   - Binds are applied parents first: the project, the extra writable
//     paths (Spec.ReadWrite, the run's cache), then the read-only ones
//     (Spec.ReadOnly and the protected paths of the project), so that a
//     read-only path inside a writable one stays read-only. Every
//     directory between such a path and the writable bind around it is
//     bound onto itself as well: mount points cannot be renamed away.
//   - Masks come after every bind and cover it: the sensitive set can be
//     named writable, never visible (masks.go).
//   - What the host executes later from the project is kept read-only in
//     every mode but full-access: the entries of [governance.HostExecuted] and
//     Spec.Protect, the directories core.hooksPath names, and every entry
//     of each git directory but its data (see hostexec.go). Git discovery
//     (gitdir.go) follows .git files to the real git directory and its
//     common directory, and binds writable the data of those outside the
//     project, so that git commit works in a linked worktree. Naming one
//     of them exactly in Spec.ReadWrite lifts that protection. What the
//     run creates there is the post-run check's (quarantine_linux.go).
//   - Sensitive files inside the project (a .env, a private key), the
//     entries of Spec.Hide, the project's .git entries and its
//     host-executed files are found by walking the project once per run
//     (walk.go); .git and node_modules are entered for the dotenv names
//     only, and a project past walkBound (entries, or levels of
//     directories) fails closed unless the run is degraded by name
//     ([LayerWalk]). Other names of a masked file (hard links in the
//     project) are masked too.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// bind is one host path bound into the view at the same place.
type bind struct {
	Path     string `json:"path"`
	Writable bool   `json:"writable,omitempty"`
	// Dir tells init whether to make a directory or a file to mount on
	// where the view has nothing at Path (under its own tmpfs).
	Dir bool `json:"dir,omitempty"`
	// Dev and Ino are the device and inode numbers of Path as planned:
	// init checks that what it opens to bind is that file.
	Dev uint64 `json:"dev,omitempty"`
	Ino uint64 `json:"ino,omitempty"`
}

// view is the planned filesystem view of one run.
type view struct {
	binds []bind
	masks []string
	// notes say what the plan could not cover.
	notes []string
	// cache is the resolved Spec.Cache.
	cache string
	// home, when set, is the resolved home that init replaces with an
	// empty directory (Spec.HideHome).
	home string
	// post is the post-run check of what the host executes later; nil
	// in full-access mode.
	post *postCheck
	// maskIDs are the masked paths' device and inode numbers as planned
	// (a zero pair for one that could not be read).
	maskIDs [][2]uint64
}

// identity returns the device and inode numbers of p, not following a
// link: which file is at p now.
func identity(p string) ([2]uint64, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return [2]uint64{}, err
	}
	dev, ino, _ := inodeOf(fi)
	return [2]uint64{dev, ino}, nil
}

// idsOf returns the identity of each of paths, a zero pair for one that
// cannot be read.
func idsOf(paths []string) [][2]uint64 {
	ids := make([][2]uint64, len(paths))
	for i, p := range paths {
		ids[i], _ = identity(p)
	}
	return ids
}

// masksGone says which masks of the run the host took away while it ran:
// a mask is a mount on the masked file, and Linux takes a mount away, in
// every namespace, with the file it is on once that file is removed or
// renamed over outside (an editor saving a .env, a tool writing its
// token file anew). The command could then read what took its place; the
// person is told, since it cannot be undone.
func (v view) masksGone() []string {
	var out []string
	for i, p := range v.masks {
		if i >= len(v.maskIDs) || v.maskIDs[i] == ([2]uint64{}) {
			continue
		}
		id, err := identity(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed: nothing took its place
			}
			out = append(out, fmt.Sprintf("the mask of %s could not be checked after the run: %v", p, err))
			continue
		}
		if id != v.maskIDs[i] {
			out = append(out, fmt.Sprintf("the mask of %s did not hold: the file was replaced on the host during the run, which takes the sandbox's mount on it away, so the command could read the new one", p))
		}
	}
	return out
}

// writableRoots are the writable binds but the cache and the git data
// bound outside the project, without those inside another: where the
// command's changes to the host can be.
func (v view) writableRoots() []string {
	var roots []string
	for _, b := range v.binds {
		if !b.Writable || b.Path == v.cache || v.post != nil && v.post.gitBinds[b.Path] {
			continue
		}
		inside := false
		for _, r := range roots {
			inside = inside || within(b.Path, r)
		}
		if !inside {
			roots = append(roots, b.Path)
		}
	}
	return roots
}

// planView resolves the spec's paths on the host and lists the binds and
// masks of the run. project is the resolved project directory.
func planView(spec Spec, project string) (view, error) {
	var v view
	masks, notes, pw, err := planMasks(spec, project)
	if err != nil {
		return v, err
	}
	v.masks, v.notes = masks, notes
	r := planResolver(spec, project)
	defer r.close()
	writable := spec.Mode == WorkspaceWrite || spec.Mode == FullAccess
	v.binds = append(v.binds, bind{Path: project, Writable: writable, Dir: true})
	rw := map[string]bool{}
	var roots []string // writable roots, for git discovery
	if spec.Mode == WorkspaceWrite {
		roots = append(roots, project)
	}
	for _, p := range spec.ReadWrite {
		real, fi, err := r.resolveHost(p, true)
		if se := linkSetupError("read_write", p, err); se != nil {
			return v, se
		}
		if err != nil {
			return v, &SetupError{What: fmt.Sprintf("read_write path %s: %v", p, err), Hint: "list existing absolute paths (or paths whose parent exists) in sandbox.filesystem.read_write"}
		}
		if real == "/" {
			return v, &SetupError{What: "read_write path / would make the whole host writable", Hint: "use sandbox.mode full-access to lift the filesystem boundary on purpose"}
		}
		rw[real] = true
		roots = append(roots, real)
		v.binds = append(v.binds, bind{Path: real, Writable: true, Dir: fi.IsDir()})
	}
	if spec.Cache != "" {
		// Made and resolved by Run (see makeCache).
		rw[spec.Cache] = true
		v.cache = spec.Cache
		v.binds = append(v.binds, bind{Path: spec.Cache, Writable: true, Dir: true})
	}
	readOnly := slices.Clone(spec.ReadOnly)
	var protect []string // host-executed paths, which may be links
	if spec.Mode != FullAccess {
		pc, ro, binds, err := planHostExec(spec, project, roots, pw, rw)
		if err != nil {
			return v, err
		}
		v.post = pc
		protect = ro
		v.binds = append(v.binds, binds...)
	}
	for _, p := range protect {
		// Followed: binding a link's target read-only protects more,
		// and never makes anything writable.
		r.protected[p] = true
	}
	for i, p := range append(readOnly, protect...) {
		real, fi, err := r.resolveHost(p, false)
		if errors.Is(err, os.ErrNotExist) {
			if i >= len(readOnly) && v.post != nil {
				// A link to nothing among the protected paths: the
				// link is restored if replaced, and its target may
				// not be created.
				v.post.keepDangling(p)
			}
			continue
		}
		if se := linkSetupError("read_only", p, err); se != nil {
			return v, se
		}
		if err != nil {
			return v, &SetupError{What: fmt.Sprintf("read_only path %s: %v", p, err), Hint: "make the path resolvable or remove it"}
		}
		if rw[real] || rw[p] {
			continue // named writable: the caller lifted it
		}
		if i >= len(readOnly) && v.post != nil {
			// A link among the protected paths: its target is bound
			// read-only, and the link itself, in a writable
			// directory, is restored after the run if replaced.
			v.post.keepLink(p)
		}
		v.binds = append(v.binds, bind{Path: real, Dir: fi.IsDir()})
	}
	if err := planHome(r, spec, project, &v); err != nil {
		return v, err
	}
	if v.home == "" {
		// A hidden home is a tmpfs of its own: nothing binds the real
		// one back over it.
		v.binds = append(v.binds, homeBind(r, spec.Home, v.binds)...)
	}
	v.binds = pinParents(v.binds)
	// Parents first; for the same path the later entry wins, so sort
	// stably by depth and drop all but the last of each path.
	slices.SortStableFunc(v.binds, func(a, b bind) int { return depth(a.Path) - depth(b.Path) })
	v.binds = lastOfEach(v.binds)
	if err := r.identify(v.binds); err != nil {
		return v, err
	}
	if v.post != nil {
		v.post.hold(v.binds)
	}
	v.maskIDs = idsOf(v.masks)
	return v, nil
}

// makeCache makes the run cache, spec.Cache, and resolves it. The cache
// is a convenience, not a boundary: a run without it has its caches
// read-only, as the rest of the home. It is made as mkdir -p would, but
// one checked directory at a time: a link in the project or a read_write
// path on the way (a run could have planted it) is refused, and nothing
// is made at a link's target.
func makeCache(spec Spec) (string, error) {
	r := runRoots(spec)
	defer r.close()
	f, err := r.stat(spec.Cache, resolveHow{create: createAll})
	if err == nil && !f.isDir() {
		err = fmt.Errorf("%s is not a directory", f.path)
	}
	return f.path, err
}

// resolveHost resolves p on the host, refusing any link in a directory
// the run can write (see hostResolver): a link there could have been
// planted by an earlier run, and following it would bind, or make, what
// it points to. With create, a missing directory whose parent exists is
// made (an extra writable path the caller asked for, like a cache), with
// mkdirat in its checked parent, and the result becomes a writable root.
// The project's protected paths are the exception: links there are
// followed (binding their target read-only protects more, and never
// makes anything writable); and a pinned path (Spec.Pinned) must be, and
// not link to, the very file the caller opened.
func (r *hostResolver) resolveHost(p string, create bool) (string, fs.FileInfo, error) {
	if !filepath.IsAbs(p) {
		return "", nil, fmt.Errorf("not an absolute path")
	}
	how := resolveHow{follow: !create && r.protected[p]}
	if create {
		how.create = createLast
	}
	pin, pinned := r.pinned[filepath.Clean(p)]
	how.noLink = pinned
	f, err := r.stat(p, how)
	if pinned {
		switch {
		case isLinkError(err):
		case err != nil:
			return "", nil, fmt.Errorf("%s is gone since warden read it: %v", p, err)
		case f.dev != pin.Dev || f.ino != pin.Ino:
			return "", nil, fmt.Errorf("%s was replaced since warden read it", p)
		}
	}
	if err != nil {
		return "", nil, err
	}
	if create {
		r.addRoot(f.path)
	}
	r.seen[f.path] = f
	return f.path, statInfo{f}, nil
}

// pinParents adds, for each read-only bind inside a writable one, a
// writable bind of every directory between them, placed before it. A mount
// point cannot be renamed or removed (EBUSY), so the command cannot move
// .git aside and put a .git with hooks of its own in its place.
func pinParents(bs []bind) []bind {
	out := slices.Clone(bs)
	for _, b := range bs {
		if b.Writable {
			continue
		}
		var outer string // the deepest writable bind above b
		for _, w := range bs {
			if w.Writable && within(b.Path, w.Path) && len(w.Path) > len(outer) {
				outer = w.Path
			}
		}
		if outer == "" {
			continue
		}
		var pins []bind
		for d := filepath.Dir(b.Path); d != outer && within(d, outer); d = filepath.Dir(d) {
			pins = append(pins, bind{Path: d, Writable: true, Dir: true})
		}
		// Before every other bind: a later entry for the same path (an
		// explicit read_only one) wins.
		out = append(slices.Clone(pins), out...)
	}
	return out
}

// within reports whether p is below dir (not dir itself).
func within(p, dir string) bool {
	return strings.HasPrefix(p, dir+"/") || (dir == "/" && p != "/")
}

func depth(p string) int { return strings.Count(filepath.Clean(p), "/") }

// lastOfEach keeps, for each path, its last entry, in the order of the
// first.
func lastOfEach(bs []bind) []bind {
	last := map[string]int{}
	for i, b := range bs {
		last[b.Path] = i
	}
	var out []bind
	for i, b := range bs {
		if last[b.Path] == i {
			out = append(out, b)
		}
	}
	return out
}
