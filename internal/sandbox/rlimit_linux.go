// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"fmt"
	"math"
	"time"

	"golang.org/x/sys/unix"
)

// rlimit is one resource limit set on init, which the command inherits.
type rlimit struct {
	Name     string `json:"name"`
	Resource int    `json:"resource"`
	Value    uint64 `json:"value"`
}

// limit is r as the kernel takes it: soft = hard, but for RLIMIT_CPU,
// whose soft limit sends SIGXCPU and whose hard limit, a second later,
// SIGKILL.
func (r rlimit) limit() unix.Rlimit {
	lim := unix.Rlimit{Cur: r.Value, Max: r.Value}
	if r.Resource == unix.RLIMIT_CPU {
		lim.Max = r.Value + 1
	}
	return lim
}

// setCommandRlimits sets rs on init itself, just before it starts the
// command, which inherits them.
func setCommandRlimits(rs []rlimit) error {
	for _, r := range rs {
		lim := r.limit()
		if err := unix.Setrlimit(r.Resource, &lim); err != nil {
			return fmt.Errorf("rlimit %s %d: %w", r.Name, r.Value, err)
		}
	}
	return nil
}

// rlimitsFor lists the rlimits of a run: soft and hard are equal, so the
// command cannot raise them.
func rlimitsFor(l Limits) []rlimit {
	nofile := uint64(DefaultNofile)
	if l.Nofile > 0 {
		nofile = uint64(l.Nofile)
	}
	rs := []rlimit{
		{"core", unix.RLIMIT_CORE, 0},
		{"nofile", unix.RLIMIT_NOFILE, nofile},
	}
	if l.Fsize > 0 {
		rs = append(rs, rlimit{"fsize", unix.RLIMIT_FSIZE, uint64(l.Fsize)})
	}
	return rs
}

// initThreads is the room left for init's own threads under the
// RLIMIT_NPROC fallback: the kernel counts every task of the user, and
// init is a Go program with a few.
const initThreads = 64

// fallback turns the cgroup controllers a run could not have into the
// rlimits that come closest, and says precisely what each one does and
// does not bound. root tells whether the caller is root, for whom the
// kernel ignores RLIMIT_NPROC.
func fallback(missing []cgroupWant, timeout time.Duration, root bool) (rs []rlimit, tmpfsSize int64, fbs []Fallback) {
	for _, w := range missing {
		why := fmt.Sprintf("%s %s for the whole sandbox: no cgroup (%v)", kindOf(w), w.what, w.err)
		var note string
		switch w.ctrl {
		case "memory":
			rs = append(rs, rlimit{"memory (RLIMIT_DATA)", unix.RLIMIT_DATA, uint64(w.value)})
			tmpfsSize = w.value
			note = fmt.Sprintf("; instead each process may hold at most %s of private writable memory (RLIMIT_DATA: heap, stacks, anonymous mappings; not shared memory or mapped files), and the private tmpfs mounts (/tmp, /dev/shm, /run, /run/warden/exec) together at most %[1]s", formatBytes(w.value))
		case "pids":
			if root {
				note = "; not enforced: RLIMIT_NPROC does not apply to root"
				break
			}
			n := uint64(w.value) + initThreads
			rs = append(rs, rlimit{"pids (RLIMIT_NPROC)", unix.RLIMIT_NPROC, n})
			note = fmt.Sprintf("; instead RLIMIT_NPROC %d: at most %d processes and threads in the sandbox's user namespace, %d of them for the command (the rest is room for init's threads)", n, n, w.value)
		case "cpu":
			if timeout <= 0 {
				note = "; not enforced: without cgroups only total CPU time can be bounded (RLIMIT_CPU), which needs a timeout to derive it from"
				break
			}
			secs := uint64(math.Ceil(float64(w.value) / 1000 * timeout.Seconds()))
			rs = append(rs, rlimit{"cpu (RLIMIT_CPU)", unix.RLIMIT_CPU, secs})
			note = fmt.Sprintf("; instead each process may use at most %d CPU-seconds (RLIMIT_CPU, cpu × timeout), then gets SIGXCPU; its share of the CPUs is not limited", secs)
		default:
			continue
		}
		fbs = append(fbs, Fallback{Limit: kindOf(w) + " " + w.what, Requested: w.required, Note: why + note})
	}
	return rs, tmpfsSize, fbs
}

// kindOf says whether w is a limit the spec asked for or a default.
func kindOf(w cgroupWant) string {
	if w.required {
		return "requested"
	}
	return "default"
}

// privateBounds are the size and inode bounds of the private tmpfs behind
// /tmp, /dev/shm, /run and the exec scratch: the memory fallback (a run
// without a memory cgroup, which would not see its pages) or limits.disk,
// whichever is smaller, and limits.inodes. Zero is the kernel's default.
func privateBounds(fallback int64, l Limits) (size, inodes int64) {
	size = fallback
	if l.Disk > 0 && (size == 0 || l.Disk < size) {
		size = l.Disk
	}
	return size, l.Inodes
}

// applyRlimits sets the rlimits on init, pid, from the parent. Init is
// still blocked reading its configuration, so nothing it starts escapes
// them. Init is a Go program whose runtime raised its own soft
// RLIMIT_NOFILE at start; Go restores the original value in children only
// when the current one is still what the runtime set, which prlimit with
// soft = hard has changed, so the command sees the value set here.
func applyRlimits(pid int, rs []rlimit) error {
	for _, r := range rs {
		lim := r.limit()
		if err := unix.Prlimit(pid, r.Resource, &lim, nil); err != nil {
			hint := "this is a bug in warden; please report it"
			if errors.Is(err, unix.EPERM) {
				hint = fmt.Sprintf("limits.%s is above what this user may set (the hard limit, ulimit -H; for nofile also fs.nr_open); lower it", r.Name)
			}
			return &SetupError{What: fmt.Sprintf("rlimit %s %d: %v", r.Name, r.Value, err), Hint: hint}
		}
	}
	return nil
}
