// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !unix

package gitindex

import "io/fs"

// inode cannot tell a file's inode on this system: hard links to tracked
// files are not recognised.
func inode(fi fs.FileInfo) (ino, nlink uint64, ok bool) { return 0, 0, false }
