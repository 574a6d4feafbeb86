// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Limits.Disk and Limits.Inodes bound the private tmpfs (its size= and
// nr_inodes=). A writable host path has no such bound: project quotas
// (ext4 or xfs mounted with prjquota, a project id set on every file of
// the tree) are the mechanism that would give one, and warden does not set
// them, so a run that asks for a bound and has a writable host path fails
// closed.

// diskBounded reports whether l asks for a disk or inode bound.
func diskBounded(l Limits) bool { return l.Disk > 0 || l.Inodes > 0 }

// noCacheBounded is the note of a run whose cache was left out because it
// has a disk or inode bound.
const noCacheBounded = "no run cache: limits.disk and limits.inodes bound every writable place and a host directory cannot be bounded, so build caches are read-only"

// checkDiskBound fails a run that asks for a disk or inode bound and has a
// writable host path, which nothing would bound.
func checkDiskBound(spec Spec, v view) error {
	if !diskBounded(spec.Limits) {
		return nil
	}
	what := "limits.disk"
	if spec.Limits.Disk == 0 {
		what = "limits.inodes"
	}
	hint := "warden bounds disk use only on its private /tmp, /dev/shm and /run, and sets no project quotas (which need a file system mounted with prjquota): run in sandbox.mode read-only without read_write paths, or remove " + what
	if spec.Mode == FullAccess {
		return &SetupError{What: what + " cannot be enforced in full-access mode: every host path the caller may write is writable", Hint: hint}
	}
	roots := v.writableRoots()
	if len(roots) == 0 {
		return nil
	}
	return &SetupError{
		What: fmt.Sprintf("%s cannot be enforced on the writable host path %s (%s)", what, roots[0], describeMount(roots[0])),
		Hint: hint,
	}
}

// describeMount names the file system that holds p, from the caller's
// mountinfo: its type, source and whether it has project quotas.
func describeMount(p string) string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "file system unknown"
	}
	defer f.Close()
	best, desc := "", "file system unknown"
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options [optional...] - type source superoptions
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, fl := range fields {
			if fl == "-" {
				sep = i
				break
			}
		}
		if len(fields) < 5 || sep < 0 || len(fields) < sep+4 {
			continue
		}
		mp := unescapeMount(fields[4])
		if (p != mp && !within(p, mp)) || len(mp) < len(best) {
			continue
		}
		best = mp
		quota := "without prjquota"
		if strings.Contains(fields[sep+3], "prjquota") {
			quota = "with prjquota"
		}
		desc = fmt.Sprintf("%s on %s, mounted at %s %s", fields[sep+1], fields[sep+2], mp, quota)
	}
	return desc
}
