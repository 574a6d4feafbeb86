// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package sandbox runs one command inside Warden's containment (DESIGN.md
// §7): [Run] takes a [Spec] (pure data) and returns a [Result].
//
// # Process design
//
// The parent (the warden CLI) re-executes its own binary, through
// /proc/self/exe, with the hidden argument [InitArg]; cmd/warden's main
// dispatches that to [Init] before anything else. Init starts as the first
// process of new user, mount, pid, ipc, uts and network namespaces, reads its
// configuration as JSON from the socket it inherited on fd 3, builds the
// filesystem view, drops every privilege and starts the command, then stays
// as the namespace's reaper and reports the command's status back on fd 3.
// A failure before the command starts is reported on the same socket and
// becomes a [*SetupError]; the CLI turns it into exit status 125. Killing
// init (the timeout does) kills every process in the pid namespace.
//
// # What is contained today
//
//   - Filesystem: private mount propagation; / bind-mounted read-only
//     (recursively, nosuid, nodev) and entered with pivot_root; the project
//     read-write in [WorkspaceWrite] mode and read-only in [ReadOnly] mode;
//     private tmpfs on /tmp and /dev/shm with noexec,nosuid,nodev; an empty
//     tmpfs on /run (host Unix sockets); a fresh /proc with /proc/sys
//     read-only and the kernel's trigger files masked; a minimal /dev (null,
//     zero, full, random, urandom, tty); the sensitive set of package
//     pathguard in the caller's home masked (empty tmpfs over directories,
//     /dev/null over files) plus [Spec.Hide].
//   - Files, second layer: Landlock (go-landlock, the best ABI the kernel
//     offers, on every thread of init just before seccomp, inherited by
//     the command) enforces the same rules on its own: the whole view
//     readable and executable; the project read-write in [WorkspaceWrite]
//     mode; /tmp, /dev/shm and /run read-write but not executable;
//     /dev/null, /dev/zero, /dev/full and /dev/tty read-write. Any other
//     write, device node creation and (ABI 9 and newer) connecting to a
//     pathname socket outside those roots fail with EACCES even where a
//     mount is writable, for example /proc/<pid>/ files. A kernel without
//     Landlock stops the run (fail closed).
//   - Identity: the command runs as uid and gid 65534 inside its user
//     namespace (the caller's ids outside, so project files keep their
//     owner) with no_new_privs, every capability dropped (bounding, ambient,
//     inheritable, permitted, effective) and init marked non-dumpable.
//   - Network: a new network namespace with only loopback, brought up.
//   - Processes: new pid, ipc and uts namespaces; file descriptors from 3
//     up are closed before the command starts.
//   - System calls: the seccomp filter of package seccomp, installed on
//     every thread of init just before the command starts and inherited
//     by it: calls from another ABI (i386, x32) kill the process; ptrace
//     and process_vm_*, mount and the new mount API, unshare, setns and
//     clone with namespace flags, keyctl, bpf, perf_event_open,
//     userfaultfd, io_uring, module loading and kexec, packet and raw IP
//     sockets, TIOCSTI, non-default personalities and host administration
//     calls fail with EPERM; clone3 fails with ENOSYS so that libc falls
//     back to clone.
//   - Resources ([Limits]): rlimits set by the parent on init before it
//     reads its configuration (nofile, default 1024; fsize when asked;
//     core 0), soft = hard; a per-run cgroup joined at the same point,
//     cgroup v2 where the controller is there and delegated, else v1
//     under the caller's own cgroup (<hierarchy>/<own>/warden/run-*), with
//     memory (swap off), pids and cpu. Requested limits fail closed;
//     the defaults pids 1024 and memory 4 GiB (or half the RAM) are best
//     effort and listed in [Result.Unenforced] when the host refuses them.
//     Stale run cgroups of dead warden processes are swept at start.
//   - Credentials: a clean environment (PATH, HOME, LANG, TERM, USER and
//     [Spec.Env]).
//   - Time: a wall-clock timeout enforced by the parent, which kills the
//     whole pid namespace; the exit status is propagated, 128+signal when
//     the command was killed.
//
// Every layer above is mandatory: if one cannot be applied, nothing runs.
//
// # Not contained yet
//
// The egress proxy and output capping are still to be written (issues 4
// and 5), and seccomp does not yet restrict AF_UNIX sockets to the proxy
// bridge. Landlock cannot deny below a path it allows, so it grants reading
// the whole view and the masked sensitive set is hidden by the mounts alone;
// a command can read any file the caller can read outside that set. Landlock
// scoping (signals, abstract sockets, ABI 6) is not used yet, and there is
// no --degraded=landlock to run without it. As a user without cgroups a
// command can also exhaust memory or processes (no RLIMIT_AS/NPROC fallback
// yet).
package sandbox
