// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandbox

// Outside Linux no run is made (Run fails), and paths are resolved by
// name with the same rules as on Linux, for planning and the CLI: no
// descriptor is kept, so this is not a defence against a concurrent
// change.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func (r *hostResolver) close() {}

// stat resolves p component by component with the rules of hostResolver.
func (r *hostResolver) stat(p string, how resolveHow) (hostFile, error) {
	if !filepath.IsAbs(p) {
		return hostFile{}, fmt.Errorf("%s is not an absolute path", p)
	}
	cur, comps, links := "/", splitPath(p), 0
	mayCreate := how.create != createNone
	for len(comps) > 0 {
		name := comps[0]
		comps = comps[1:]
		last := len(comps) == 0
		switch name {
		case ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := joinPath(cur, name)
		fi, err := os.Lstat(next)
		if os.IsNotExist(err) && mayCreate && (last || how.create == createAll) {
			if err := os.Mkdir(next, 0o755); err != nil && !os.IsExist(err) {
				return hostFile{}, err
			}
			fi, err = os.Lstat(next)
		}
		if err != nil {
			return hostFile{}, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(next)
			if err != nil {
				return hostFile{}, err
			}
			if how.noLink && last {
				return hostFile{}, &LinkError{Link: next, Target: target, Anywhere: true}
			}
			if !how.follow && r.writable(cur) {
				return hostFile{}, &LinkError{Link: next, Target: target}
			}
			if links++; links > maxLinks {
				return hostFile{}, fmt.Errorf("%s: too many levels of symbolic links", p)
			}
			if last {
				mayCreate = false
			}
			if strings.HasPrefix(target, "/") {
				cur = "/"
			}
			comps = append(splitPath(target), comps...)
			continue
		}
		if !last && !fi.IsDir() {
			return hostFile{}, fmt.Errorf("%s: not a directory", next)
		}
		cur = next
	}
	fi, err := os.Stat(cur)
	if err != nil {
		return hostFile{}, err
	}
	f := hostFile{path: cur, mode: fi.Mode().Type()}
	if f.mode&^fs.ModeDir != 0 {
		f.mode = fs.ModeIrregular
	}
	return f, nil
}

// runRoots returns a resolver whose writable roots are those of a run of
// spec.
func runRoots(spec Spec) *hostResolver {
	r := newHostResolver()
	if abs, err := filepath.Abs(spec.Project); err == nil && spec.Project != "" {
		if f, err := r.stat(abs, resolveHow{}); err == nil {
			r.addRoot(f.path)
		}
	}
	for _, p := range append([]string{spec.Cache}, spec.ReadWrite...) {
		r.addRoot(p)
	}
	return r
}

// OpenHostFile opens the regular file p for reading with the rules of
// Linux, by name.
func OpenHostFile(spec Spec, p string) (*os.File, HostFile, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, HostFile{}, err
	}
	r := runRoots(spec)
	f, err := r.stat(abs, resolveHow{noLink: true})
	if err != nil {
		return nil, HostFile{}, err
	}
	if f.mode != 0 {
		return nil, HostFile{}, fmt.Errorf("%s is not a regular file", f.path)
	}
	file, err := os.Open(f.path)
	return file, HostFile{Path: abs}, err
}

// OpenHostDir opens the directory p with the rules of Linux, by name.
func OpenHostDir(spec Spec, p string) (*os.File, HostFile, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, HostFile{}, err
	}
	f, err := runRoots(spec).stat(abs, resolveHow{})
	if err != nil {
		return nil, HostFile{}, err
	}
	if !f.isDir() {
		return nil, HostFile{}, fmt.Errorf("%s is not a directory", f.path)
	}
	file, err := os.Open(f.path)
	return file, HostFile{Path: f.path}, err
}
