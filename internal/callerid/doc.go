// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package callerid finds the process behind a TCP connection the egress
// proxy accepted from a sandbox, and its executable and ancestors', as
// the kernel knows them: an OpenShell policy scopes a grant to binaries,
// and only the process that owns the socket, never what it says about
// itself (argv, a User-Agent), can name one.
//
// # How
//
// A connection's client socket is looked up by its exact address and
// port pair with sock_diag (NETLINK_SOCK_DIAG, in the sandbox's network
// namespace: the netlink socket must have been made there), which gives
// its inode. The processes of the sandbox (the init's descendants, read
// from /proc/PID/task/TID/children) are searched for a descriptor that is
// that socket (/proc/PID/fd/N reading "socket:[INODE]"), the newest
// process first: in each, the few numbers above its highest descriptor at
// the last lookup (a new socket takes the lowest free number, most often
// the next one), then every descriptor, from just after the one found
// last (a pool that closes its oldest connection first frees the next
// number each time), each stat'ed relative to the process's open
// descriptor directory. The executable is /proc/PID/exe,
// resolved by the kernel; the ancestors are the parents' executables up
// to, not including, the sandbox's init.
//
// # What it cannot know
//
//   - A socket shared by several processes (inherited, or passed over a
//     unix socket) is the first process found holding it: any of them
//     could have written the bytes.
//   - A process that exited, or closed the descriptor, before the lookup
//     is not found: the caller must treat an unidentified caller as one
//     that no binary rule admits.
//   - An executable deleted or replaced after it started is reported as
//     the kernel names it; " (deleted)" makes it unidentified.
package callerid
