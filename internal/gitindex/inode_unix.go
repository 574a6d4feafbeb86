// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build unix

package gitindex

import (
	"io/fs"
	"syscall"
)

// inode returns the inode number and link count of a file.
func inode(fi fs.FileInfo) (ino, nlink uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	// The conversions are needed: Nlink is narrower on some systems.
	return uint64(st.Ino), uint64(st.Nlink), true
}
