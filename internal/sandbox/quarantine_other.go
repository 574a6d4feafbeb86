// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandbox

import "io/fs"

// statID is what the post-run check compares of an entry; off Linux,
// where no run happens, the type, size and modification time.
func statID(fi fs.FileInfo) fileID {
	return fileID{mode: fi.Mode().Type(), size: fi.Size(), ctime: fi.ModTime().UnixNano()}
}

// inodeOf reports no inode off Linux: no hard link is looked for.
func inodeOf(fs.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }

// hold keeps nothing off Linux, where no run happens.
func (pc *postCheck) hold([]bind) {}
