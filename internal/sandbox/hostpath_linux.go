// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file resolves host paths without following a link a run planted.
//
// Everything warden resolves on the host before a run (the read_write and
// read_only paths, the run cache, the policy file, the directory of the
// execution record) is resolved here one component at a time, each opened
// with O_PATH|O_NOFOLLOW from the descriptor of the directory before it.
// A symbolic link whose directory is a writable root of the run (the
// project, a read_write path, the run cache) or lies below one may have
// been planted by an earlier run, or by this one's command: it is refused
// with a [*LinkError], never followed. Links elsewhere (/lib -> usr/lib,
// the caller's own ~/src -> /data/src) are followed as the kernel would.
// A directory is only ever made with mkdirat in the descriptor of its
// checked parent, which never follows a link at the name, and never at
// the target of a link that ended the path.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

func (r *hostResolver) close() {
	for _, fd := range r.dirs {
		unix.Close(fd)
	}
	clear(r.dirs)
}

// root returns the descriptor of /, opened the first time.
func (r *hostResolver) root() (int, error) {
	if fd, ok := r.dirs["/"]; ok {
		return fd, nil
	}
	fd, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: "/", Err: err}
	}
	r.dirs["/"] = fd
	return fd, nil
}

// resolve resolves p and returns what it names and an O_PATH descriptor
// of it, which the caller closes.
func (r *hostResolver) resolve(p string, how resolveHow) (hostFile, int, error) {
	if !filepath.IsAbs(p) {
		return hostFile{}, -1, fmt.Errorf("%s is not an absolute path", p)
	}
	cur := "/"
	curFD, err := r.root()
	if err != nil {
		return hostFile{}, -1, err
	}
	rest := p
	// Start from the deepest directory already reached on the way, when
	// p has no "..": the cached path is free of links, so the lexical
	// prefix is the real one.
	if clean := filepath.Clean(p); !strings.Contains(p+"/", "/../") {
		rest = clean
		for d := filepath.Dir(clean); d != "/"; d = filepath.Dir(d) {
			if fd, ok := r.dirs[d]; ok {
				cur, curFD, rest = d, fd, clean[len(d):]
				break
			}
		}
	}
	comps := splitPath(rest)
	links := 0
	// mayCreate turns false once a link that ended the path was followed:
	// nothing is made at a link's target.
	mayCreate := how.create != createNone
	for len(comps) > 0 {
		name := comps[0]
		comps = comps[1:]
		last := len(comps) == 0
		if name == "." {
			if last {
				return r.reopen(cur, curFD)
			}
			continue
		}
		if name == ".." {
			parent := filepath.Dir(cur)
			fd, ok := r.dirs[parent]
			if !ok {
				if fd, err = unix.Openat(curFD, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
					return hostFile{}, -1, &fs.PathError{Op: "open", Path: parent, Err: err}
				}
				r.dirs[parent] = fd
			}
			cur, curFD = parent, fd
			if last {
				return r.reopen(cur, curFD)
			}
			continue
		}
		next := joinPath(cur, name)
		fd, err := unix.Openat(curFD, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.ENOENT && mayCreate && (last || how.create == createAll) {
			// mkdirat never follows a link at name: one planted
			// there makes it fail with EEXIST, and the open below
			// sees the link.
			perm := uint32(0o755) // a read_write directory
			if how.create == createAll {
				perm = 0o700 // the run cache and its parents
			}
			if err := unix.Mkdirat(curFD, name, perm); err != nil && err != unix.EEXIST {
				return hostFile{}, -1, &fs.PathError{Op: "mkdir", Path: next, Err: err}
			}
			fd, err = unix.Openat(curFD, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		}
		if err != nil {
			return hostFile{}, -1, &fs.PathError{Op: "open", Path: next, Err: err}
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			unix.Close(fd)
			return hostFile{}, -1, &fs.PathError{Op: "stat", Path: next, Err: err}
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFLNK:
			target, err := readlinkFD(fd)
			unix.Close(fd)
			if err != nil {
				return hostFile{}, -1, &fs.PathError{Op: "readlink", Path: next, Err: err}
			}
			if how.noLink && last {
				return hostFile{}, -1, &LinkError{Link: next, Target: target, Anywhere: true}
			}
			if !how.follow && r.writable(cur) {
				return hostFile{}, -1, &LinkError{Link: next, Target: target}
			}
			if links++; links > maxLinks {
				return hostFile{}, -1, &fs.PathError{Op: "open", Path: p, Err: unix.ELOOP}
			}
			if last {
				mayCreate = false
			}
			if strings.HasPrefix(target, "/") {
				cur = "/"
				if curFD, err = r.root(); err != nil {
					return hostFile{}, -1, err
				}
			}
			tc := splitPath(target)
			if len(tc) == 0 {
				tc = []string{"."}
			}
			comps = append(tc, comps...)
		case unix.S_IFDIR:
			if last {
				return hostFile{path: next, dev: st.Dev, ino: st.Ino, mode: fs.ModeDir}, fd, nil
			}
			if old, ok := r.dirs[next]; ok {
				unix.Close(fd)
				fd = old
			} else {
				r.dirs[next] = fd
			}
			cur, curFD = next, fd
		default:
			if !last {
				unix.Close(fd)
				return hostFile{}, -1, &fs.PathError{Op: "open", Path: next, Err: unix.ENOTDIR}
			}
			return hostFile{path: next, dev: st.Dev, ino: st.Ino, mode: typeOf(st.Mode)}, fd, nil
		}
	}
	// p was "/" (or resolved to it).
	return r.reopen(cur, curFD)
}

// reopen returns a descriptor of its own for the cached directory dir.
func (r *hostResolver) reopen(dir string, dirFD int) (hostFile, int, error) {
	fd, err := unix.Openat(dirFD, ".", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return hostFile{}, -1, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return hostFile{}, -1, &fs.PathError{Op: "stat", Path: dir, Err: err}
	}
	return hostFile{path: dir, dev: st.Dev, ino: st.Ino, mode: fs.ModeDir}, fd, nil
}

// stat resolves p and closes its descriptor.
func (r *hostResolver) stat(p string, how resolveHow) (hostFile, error) {
	f, fd, err := r.resolve(p, how)
	if err == nil {
		unix.Close(fd)
	}
	return f, err
}

func readlinkFD(fd int) (string, error) {
	for n := 256; ; n *= 2 {
		buf := make([]byte, n)
		m, err := unix.Readlinkat(fd, "", buf)
		if err != nil {
			return "", err
		}
		if m < n {
			return string(buf[:m]), nil
		}
		if n > unix.PathMax {
			return "", unix.ENAMETOOLONG
		}
	}
}

// runRoots returns a resolver whose writable roots are those of a run of
// spec: the project, the read_write paths and the run cache, each as
// written and as resolved (a root is a root under both names).
func runRoots(spec Spec) *hostResolver {
	r := newHostResolver()
	if project, err := resolveDir(spec.Project); err == nil {
		r.addRoot(project)
	}
	for _, p := range append([]string{spec.Cache}, spec.ReadWrite...) {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		r.addRoot(p)
		if f, err := r.stat(p, resolveHow{}); err == nil {
			r.addRoot(f.path)
		}
	}
	return r
}

// OpenHostFile opens the regular file p for reading as a run of spec
// would resolve it: no link in a directory the run can write (the
// project, read_write paths, the run cache) is followed, and p itself
// may not be a link at all. The returned HostFile names the file's real
// path and identity; put it in Spec.Pinned to have the run check that it
// protects this very file, and keep the file open until the run ends, so
// that its inode number cannot be reused by another file. The error is a
// [*LinkError] for a link.
func OpenHostFile(spec Spec, p string) (*os.File, HostFile, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, HostFile{}, err
	}
	r := runRoots(spec)
	defer r.close()
	f, fd, err := r.resolve(abs, resolveHow{noLink: true})
	if err != nil {
		return nil, HostFile{}, err
	}
	defer unix.Close(fd)
	if f.mode != 0 {
		return nil, HostFile{}, fmt.Errorf("%s is not a regular file", f.path)
	}
	// Reopened through the checked descriptor: the same inode, never
	// the name again.
	rfd, err := unix.Open(fmt.Sprintf("/proc/self/fd/%d", fd), unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, HostFile{}, &fs.PathError{Op: "open", Path: f.path, Err: err}
	}
	file := os.NewFile(uintptr(rfd), f.path)
	var st unix.Stat_t
	if err := unix.Fstat(rfd, &st); err != nil || st.Dev != f.dev || st.Ino != f.ino {
		file.Close()
		return nil, HostFile{}, fmt.Errorf("%s changed while it was opened", f.path)
	}
	return file, HostFile{Path: abs, Dev: f.dev, Ino: f.ino}, nil
}

// OpenHostDir opens the directory p as a run of spec would resolve it (no
// link in a directory the run can write is followed), for use as the
// directory of *at calls. The error is a [*LinkError] for a link.
func OpenHostDir(spec Spec, p string) (*os.File, HostFile, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, HostFile{}, err
	}
	r := runRoots(spec)
	defer r.close()
	f, fd, err := r.resolve(abs, resolveHow{})
	if err != nil {
		return nil, HostFile{}, err
	}
	defer unix.Close(fd)
	if !f.isDir() {
		return nil, HostFile{}, &fs.PathError{Op: "open", Path: f.path, Err: unix.ENOTDIR}
	}
	dfd, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, HostFile{}, &fs.PathError{Op: "open", Path: f.path, Err: err}
	}
	return os.NewFile(uintptr(dfd), f.path), HostFile{Path: f.path, Dev: f.dev, Ino: f.ino}, nil
}

// typeOf returns the fs.FileMode type bits of a stat mode.
func typeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}
