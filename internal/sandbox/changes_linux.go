// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"io/fs"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
)

// maxChanges bounds the files a run's record lists; the rest are counted.
const maxChanges = 1000

// coarseNow is the clock the kernel stamps files with (the coarse
// real-time clock): every change after this instant has a ctime at or
// after it.
func coarseNow() unix.Timespec {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &ts)
	return ts
}

// changesSince walks roots and lists the entries whose ctime is at or
// after since (ctime cannot be set by the command: utimes and touch -d
// move mtime, and stamp ctime with now). It lists at most maxChanges and
// returns the number of entries found, and stops after maxWalk entries a
// root (truncated).
func changesSince(roots []string, since unix.Timespec) (list []audit.FileChange, total int, truncated bool) {
	for _, root := range roots {
		n := 0
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if n++; n > maxWalk {
				truncated = true
				return fs.SkipAll
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			st, ok := fi.Sys().(*syscall.Stat_t)
			if !ok || st.Ctim.Sec < since.Sec || st.Ctim.Sec == since.Sec && st.Ctim.Nsec < since.Nsec {
				return nil
			}
			if p == root {
				return nil // the root's own entries show below it
			}
			total++
			if len(list) < maxChanges {
				kind := "other"
				switch {
				case fi.Mode().IsRegular():
					kind = "file"
				case fi.IsDir():
					kind = "dir"
				case fi.Mode()&fs.ModeSymlink != 0:
					kind = "symlink"
				}
				list = append(list, audit.FileChange{Path: p, Kind: kind, Size: fi.Size()})
			}
			return nil
		})
	}
	return list, total, truncated
}
