// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// DetectsHardLinks reports whether this build recognises hard links and
// bind mounts of secrets by device and inode. It is false outside Linux:
// device and inode are reported as unknown and only the name checks of the
// sensitive set apply, so a hard link to a secret under an innocent name is
// not caught here. The sandbox is the boundary that still holds.
const DetectsHardLinks = false

// lstat describes p without following a final symbolic link. The
// device and inode are unknown.
func lstat(p string) (node, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return node{}, err
	}
	return fromMode(fi.Mode()), nil
}

// stat describes p, following symbolic links. The device and inode are
// unknown.
func stat(p string) (node, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return node{}, err
	}
	return fromMode(fi.Mode()), nil
}

func fromMode(m fs.FileMode) node {
	switch {
	case m&fs.ModeSymlink != 0:
		return node{kind: kindLink}
	case m.IsDir():
		return node{kind: kindDir}
	case m.IsRegular():
		return node{kind: kindFile}
	}
	return node{kind: kindOther}
}

// missing reports whether err means the walk should append the rest of the
// path lexically: the component does not exist, or a non-directory is used
// as a directory.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// MultiplyLinked reports whether info describes a regular file with more
// than one hard link. Without device and inode numbers it cannot tell, so
// it answers true for every regular file: a walk then resolves them all.
func MultiplyLinked(info fs.FileInfo) bool { return info.Mode().IsRegular() }
