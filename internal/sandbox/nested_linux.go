// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import "golang.org/x/sys/unix"

// Nested says, when this process runs inside another sandbox that keeps
// it from building Warden's (an agent's own: Codex's workspace-write
// puts its commands under seccomp and Landlock), what fails; ""
// otherwise. Only a process already under a seccomp filter pays for the
// check, which starts true as Run starts init (probeNamespaces).
func Nested() string {
	if !underSeccomp() {
		return ""
	}
	if n := probeNamespaces(); !n.Created {
		return "this process is under a seccomp filter it did not set, and the sandbox's namespaces cannot be made (" + n.Error + ")"
	}
	return ""
}

// underSeccomp says whether this process is under a seccomp filter: one
// prctl, or, where a filter refuses it, what /proc/self/status says.
func underSeccomp() bool {
	if mode, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err == nil {
		return mode == unix.SECCOMP_MODE_FILTER
	}
	m, err := procStatus("self")
	return err == nil && m["Seccomp"] == "2"
}
