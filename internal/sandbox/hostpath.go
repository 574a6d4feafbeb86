// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// maxLinks is how many links one resolution follows, as the kernel's
// MAXSYMLINKS.
const maxLinks = 40

// LinkError is a symbolic link met where a run could have planted it: in
// a directory the sandbox can write (the project, a read_write path, the
// run cache), or where no link is accepted at all (the policy file).
type LinkError struct {
	// Link is the link's path on the host, Target what it points to.
	Link, Target string
	// Anywhere: the path may not be a link wherever it is.
	Anywhere bool
}

func (e *LinkError) Error() string {
	if e.Anywhere {
		return fmt.Sprintf("%s is a symbolic link (to %s)", e.Link, e.Target)
	}
	return fmt.Sprintf("%s is a symbolic link (to %s) inside a directory the sandbox can write", e.Link, e.Target)
}

// hostResolver resolves host paths for one run. It keeps the descriptor
// of each directory it went through, by real path, so that the many
// paths planned below one directory (the home, the project) are not
// walked from / each time. Close it when done.
type hostResolver struct {
	roots []string       // the writable roots, absolute and cleaned
	dirs  map[string]int // O_PATH descriptors of directories, by real path
	// pinned are files that must be the very inode the caller opened.
	pinned map[string]HostFile
	// protected are the project's protected paths, resolved with
	// resolveHow.follow (see resolveHost).
	protected map[string]bool
	// named are the absolute paths of Spec.Hide (see maskTarget).
	named []string
	// seen are the paths resolveHost resolved, by real path.
	seen map[string]hostFile
}

func newHostResolver(roots ...string) *hostResolver {
	r := &hostResolver{dirs: map[string]int{}, seen: map[string]hostFile{}}
	for _, p := range roots {
		r.addRoot(p)
	}
	return r
}

// addRoot makes p a writable root: a link in it, or below it, is refused.
func (r *hostResolver) addRoot(p string) {
	if p != "" && filepath.IsAbs(p) {
		r.roots = append(r.roots, filepath.Clean(p))
	}
}

// writable reports whether dir is a writable root or below one.
func (r *hostResolver) writable(dir string) bool {
	for _, root := range r.roots {
		if dir == root || within(dir, root) {
			return true
		}
	}
	return false
}

// isLinkError reports whether err is a refused link.
func isLinkError(err error) bool {
	var le *LinkError
	return errors.As(err, &le)
}

// create says which missing components a resolution makes (directories).
type create int

const (
	createNone create = iota
	createLast        // the last component, if its parent exists
	createAll         // every missing component, as mkdir -p
)

// resolveHow is how one path is resolved.
type resolveHow struct {
	create create
	// follow follows links in writable directories too: for what only
	// hides or protects more (a mask, a protected path), where
	// following cannot make the run reach further or write anything.
	follow bool
	// noLink refuses a last component that is a link, wherever it is.
	noLink bool
}

// hostFile is a resolved host path.
type hostFile struct {
	path     string // absolute, free of links
	dev, ino uint64
	mode     fs.FileMode // the type bits only: 0 for a regular file
}

func (h hostFile) isDir() bool { return h.mode == fs.ModeDir }

// statInfo is the fs.FileInfo of a resolved path, for resolveHost's
// callers.
type statInfo struct{ f hostFile }

func (s statInfo) Name() string       { return filepath.Base(s.f.path) }
func (s statInfo) Size() int64        { return 0 }
func (s statInfo) ModTime() time.Time { return time.Time{} }
func (s statInfo) IsDir() bool        { return s.f.isDir() }
func (s statInfo) Sys() any           { return nil }
func (s statInfo) Mode() fs.FileMode  { return s.f.mode }

// splitPath returns the non-empty components of p.
func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func joinPath(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// planResolver is the resolver of planView: the writable roots are the
// project, the read_write paths (as written here, and as resolved when
// resolveHost meets them) and the run cache.
func planResolver(spec Spec, project string) *hostResolver {
	r := newHostResolver(project, spec.Cache)
	for _, p := range spec.ReadWrite {
		r.addRoot(p)
	}
	r.pinned = map[string]HostFile{}
	for _, f := range spec.Pinned {
		r.pinned[filepath.Clean(f.Path)] = f
	}
	// planView adds the protected paths once it has found them
	// (planHostExec).
	r.protected = map[string]bool{}
	for _, h := range spec.Hide {
		if filepath.IsAbs(h) && !hasGlob(h) {
			r.named = append(r.named, filepath.Clean(h))
		}
	}
	return r
}

// maskTarget resolves a path to mask. A link in a writable directory is
// followed, and its target masked, unless the path was named in
// Spec.Hide: masking more can only hide more (links to secrets in the
// project are how a secret elsewhere is found), but a path the user
// named that has become a link no longer holds what they meant to hide.
func (r *hostResolver) maskTarget(p string) (string, error) {
	f, err := r.stat(p, resolveHow{follow: !slices.Contains(r.named, filepath.Clean(p))})
	return f.path, err
}

// linkSetupError is the error of a planned path that is, or goes
// through, a refused link; nil for any other error.
func linkSetupError(what, p string, err error) error {
	var le *LinkError
	if !errors.As(err, &le) {
		return nil
	}
	msg := fmt.Sprintf("%s path %s: %v", what, p, le)
	if le.Link == filepath.Clean(p) {
		msg = fmt.Sprintf("%s path %s is a symbolic link (to %s) inside a directory the sandbox can write", what, p, le.Target)
	}
	return &SetupError{What: msg, Hint: "a run could have planted it there: check where it points, remove it, and name the real path in sandbox.filesystem." + strings.ReplaceAll(what, " ", "_")}
}

// identify sets the device and inode numbers of each bind, whose path is
// real: one that resolves elsewhere now changed since it was planned.
func (r *hostResolver) identify(bs []bind) error {
	for i, b := range bs {
		if f, ok := r.seen[b.Path]; ok {
			bs[i].Dev, bs[i].Ino = f.dev, f.ino
			continue
		}
		f, err := r.stat(b.Path, resolveHow{})
		if err == nil && f.path != b.Path {
			err = fmt.Errorf("it now resolves to %s", f.path)
		}
		if err != nil {
			return &SetupError{What: fmt.Sprintf("bind %s: %v", b.Path, err), Hint: "the path changed while the run was planned; retry the run"}
		}
		bs[i].Dev, bs[i].Ino = f.dev, f.ino
	}
	return nil
}
