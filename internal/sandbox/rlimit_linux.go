// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// rlimit is one resource limit set on init, which the command inherits.
type rlimit struct {
	name     string
	resource int
	value    uint64
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

// applyRlimits sets the rlimits on init, pid, from the parent. Init is
// still blocked reading its configuration, so nothing it starts escapes
// them. Init is a Go program whose runtime raised its own soft
// RLIMIT_NOFILE at start; Go restores the original value in children only
// when the current one is still what the runtime set, which prlimit with
// soft = hard has changed, so the command sees the value set here.
func applyRlimits(pid int, l Limits) error {
	for _, r := range rlimitsFor(l) {
		lim := unix.Rlimit{Cur: r.value, Max: r.value}
		if err := unix.Prlimit(pid, r.resource, &lim, nil); err != nil {
			hint := "this is a bug in warden; please report it"
			if errors.Is(err, unix.EPERM) {
				hint = fmt.Sprintf("limits.%s is above what this user may set (the hard limit, ulimit -H; for nofile also fs.nr_open); lower it", r.name)
			}
			return &SetupError{What: fmt.Sprintf("rlimit %s %d: %v", r.name, r.value, err), Hint: hint}
		}
	}
	return nil
}
