// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// Nested says, when this process runs inside another sandbox that keeps
// it from building Warden's (an agent's own: Codex's workspace-write
// puts its commands under seccomp and Landlock), what fails; ""
// otherwise. Only a process already under a seccomp filter pays for the
// check, which starts true as Run starts init (probeNamespaces).
func Nested() string {
	if m, err := procStatus("self"); err != nil || m["Seccomp"] != "2" {
		return ""
	}
	if n := probeNamespaces(); !n.Created {
		return "this process is under a seccomp filter it did not set, and the sandbox's namespaces cannot be made (" + n.Error + ")"
	}
	return ""
}
