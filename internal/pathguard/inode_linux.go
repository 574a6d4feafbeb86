// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build linux

package pathguard

import (
	"errors"
	"io/fs"
	"syscall"
)

// DetectsHardLinks reports whether this build recognises hard links and
// bind mounts of secrets by device and inode. It is true on Linux.
const DetectsHardLinks = true

// lstat describes p without following a final symbolic link.
func lstat(p string) (node, error) {
	var st syscall.Stat_t
	err := ignoringEINTR(func() error { return syscall.Lstat(p, &st) })
	if err != nil {
		return node{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	return fromStat(&st), nil
}

// stat describes p, following symbolic links.
func stat(p string) (node, error) {
	var st syscall.Stat_t
	err := ignoringEINTR(func() error { return syscall.Stat(p, &st) })
	if err != nil {
		return node{}, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	return fromStat(&st), nil
}

func fromStat(st *syscall.Stat_t) node {
	// The conversions are needed: Dev and Nlink are narrower on some
	// architectures.
	n := node{
		id:    fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)},
		nlink: uint64(st.Nlink),
		known: true,
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFLNK:
		n.kind = kindLink
	case syscall.S_IFDIR:
		n.kind = kindDir
	case syscall.S_IFREG:
		n.kind = kindFile
	default:
		n.kind = kindOther
	}
	return n
}

// missing reports whether err means the walk should append the rest of the
// path lexically: the component does not exist, or a non-directory is used
// as a directory.
func missing(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR)
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}

// MultiplyLinked reports whether info (from Lstat or a directory walk)
// describes a regular file with more than one hard link: the only files
// that can be a secret under another name, so a walk need resolve only
// those.
func MultiplyLinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && info.Mode().IsRegular() && st.Nlink > 1
}
