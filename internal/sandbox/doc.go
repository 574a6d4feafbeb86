// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package sandbox runs one command inside Warden's containment (docs/spec.md
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
// # What is contained
//
//   - Host paths: every path a run resolves on the host (Spec.ReadWrite,
//     Spec.ReadOnly, Spec.Hide, the cache, the files of [OpenHostFile]
//     and [OpenHostDir]) is resolved one component at a time from
//     O_PATH descriptors; a symbolic link in a directory the run can
//     write (the project, Spec.ReadWrite, the cache) is refused with a
//     [*LinkError], not followed, and no directory is made at a link's
//     target. Init opens both ends of each bind and each mask with
//     openat2(RESOLVE_NO_SYMLINKS) and mounts from the descriptors
//     (open_tree, mount_setattr, move_mount), checking each bind's
//     device and inode against the plan; [Spec.Pinned] files must be
//     the very inode the caller read.
//   - Filesystem: private mount propagation; / bind-mounted read-only
//     (recursively, nosuid, nodev) and entered with pivot_root; the project
//     read-write in [WorkspaceWrite] mode and read-only in [ReadOnly]
//     mode, / writable in [FullAccess] mode; [Spec.ReadWrite] and
//     [Spec.ReadOnly] paths; what the host executes later kept read-only
//     inside writable binds (every entry of each git directory but git's
//     data, found without running git through .git files, commondir and
//     nested repositories; core.hooksPath directories; [governance.HostExecuted] and
//     [Spec.Protect]; Spec.ReadOnly), with the directories between pinned
//     as mount points so that they cannot be renamed away, and protected
//     links' targets bound read-only; one private tmpfs whose directories
//     are bound on /tmp, /dev/shm and /run with noexec,nosuid,nodev, and on
//     /run/warden/exec where executables may run (GOTMPDIR points there),
//     so that one size and inode bound holds for all of them together; a
//     home below /tmp, /dev/shm or /run bound read-only, so that the
//     private tmpfs does not hide it; a fresh /proc with /proc/sys
//     read-only and the kernel's trigger files masked; a minimal /dev
//     (null, zero, full, random, urandom, tty; with [Spec.Terminal], a
//     devpts instance of the sandbox's own on /dev/pts, /dev/ptmx its
//     multiplexer, at most 64 terminals); the sensitive set of
//     package pathguard masked (an empty read-only tmpfs of mode 0000 over
//     directories, and over files an empty read-only file of mode 0000,
//     so that a write fails with EROFS and a read with EACCES instead of
//     vanishing into /dev/null): its fixed places in the caller's home,
//     the matches of its wildcard entries in fixed home directories,
//     every match a walk of the home finds to depth 3 (at most 4,096
//     entries in 256 directories; caches, toolchains, network and FUSE
//     filesystems not entered), every match found walking the project
//     (inside .git and node_modules dotenv names only; past 200,000
//     entries or 64 levels the run fails closed unless [LayerWalk] is
//     degraded), other names (hard links) of what is masked, the targets
//     of links to secrets there, [Spec.Mask] (literal paths: the caller's
//     own secrets) and [Spec.Hide] (paths, host globs, project patterns).
//     The masked and read-only paths that the command's error output
//     names are listed in [Result.Refused]. With [Spec.HideHome] the home
//     is an empty read-only tmpfs, mounted before the binds, into which
//     only the project, [HomeCaches] (read-only) and the other binds
//     below it are bound back.
//   - After the run: once init is reaped, a post-run check moves what
//     the run created among what the host executes later (a .git
//     anywhere, a new entry of a git directory, a replaced protected
//     link or .git file, a new host-executed file) into
//     [Spec.Quarantine], listed in [Result.Quarantined].
//   - Files, second layer: Landlock (go-landlock, the best ABI the kernel
//     offers, on every thread of init just before seccomp, inherited by
//     the command) enforces the same rules on its own: the whole view
//     readable and executable; the writable binds writable; /tmp, /dev/shm
//     and /run writable but not executable; /dev/null, /dev/zero,
//     /dev/full and /dev/tty (and /dev/pts with a terminal) read-write. Any other write, device node
//     creation and (ABI 9 and newer) connecting to a pathname socket
//     outside those roots fail with EACCES even where a mount is
//     writable, for example /proc/<pid>/ files. From ABI 6 no signal and
//     no abstract Unix socket reaches a process outside the sandbox. A
//     kernel without Landlock stops the run (fail closed).
//   - Identity: the command runs as uid and gid 65534 inside its user
//     namespace (the caller's ids outside, so project files keep their
//     owner) with no_new_privs, every capability dropped (bounding, ambient,
//     inheritable, permitted, effective) and init marked non-dumpable. A
//     root caller's command is instead an unprivileged host id that no
//     user, group, file or process has (hostID), with no supplementary
//     groups: the project, and every writable bind, is an idmapped mount
//     made by the parent (idmap_linux.go) on which its owner's files are
//     the command's and what it creates is the owner's; directories above
//     them that only root may search are covered with a tmpfs holding just
//     the binds and the toolchains on PATH. Where idmapped mounts cannot be
//     made the run fails closed, unless [LayerHostUID] is degraded.
//   - Host identity: a fresh read-only sysfs of the sandbox's network
//     namespace (only loopback under /sys/class/net) with the firmware and
//     DMI entries masked, the run's own cgroup v2 directory as
//     /sys/fs/cgroup where it has one; the command starts in its own cgroup
//     namespace, entered by init once it is in the run's cgroups.
//   - Network: a new network namespace with only loopback, brought up.
//     With [Spec.Network], init also binds the proxy, capture and DNS
//     stub sockets there (see [Listeners]) and hands them to the parent,
//     keeping none, and the sandbox's resolv.conf names the stub: the
//     caller's egress proxy, outside, is the only way out. Before /proc/sys
//     is read-only, init caps the TCP buffers the kernel grows a socket to
//     in the namespace (tcp_rmem, tcp_wmem: 256 KiB each way), which bounds
//     the parent's ends of the sandbox's connections too; on cgroup v1 the
//     run's memory cgroup also limits TCP buffers (memory.kmem.tcp).
//   - Processes: new pid, ipc and uts namespaces; file descriptors from 3
//     up are closed before the command starts; signals for the run
//     ([Spec.Signals]) are passed on to the command by init, which takes
//     every catchable signal so that none ends it early.
//   - Terminal: the caller's terminal is never handed in (a stdin that
//     is one becomes /dev/null). With [Spec.Terminal] the command gets a
//     pseudo-terminal of the sandbox's devpts as its controlling terminal,
//     in a session of its own, so job control and ^C work inside; the
//     parent relays it, with the caller's terminal in raw mode, and sets
//     the caller's state back exactly however Run returns, so no ioctl of
//     the command (TIOCSETD, TIOCEXCL, TIOCSWINSZ, tcsetattr) reaches it.
//   - System calls: the seccomp filter of package seccomp, installed on
//     every thread of init just before the command starts and inherited
//     by it: calls from another ABI (i386, x32) kill the process; ptrace
//     and process_vm_*, mount and the new mount API, unshare, setns and
//     clone with namespace flags, keyctl, bpf, perf_event_open,
//     userfaultfd, io_uring, module loading and kexec, sockets of every
//     family but inet, inet6 and netlink (Unix, VM, packet…), raw IP
//     sockets, datagram socket pairs, TIOCSTI, non-default personalities
//     and host administration calls fail with EPERM; clone3 fails with
//     ENOSYS so that libc falls back to clone. Each EPERM goes through
//     a user-notification listener served by init, which answers it and
//     records the call ([Result.BlockedSyscalls]); it never lets one run.
//   - Resources ([Limits]): rlimits set by the parent on init before it
//     reads its configuration (nofile, default 1024; fsize when asked;
//     core 0), soft = hard; a per-run cgroup, cgroup v2 where the
//     controller is there and delegated (init moved into it before it
//     reads its configuration), else v1 under the caller's own cgroup
//     (<hierarchy>/<own>/warden/run-*, joined by init's thread that
//     starts the command, just before it does), with memory (swap off),
//     pids and cpu. Requested limits fail closed unless [LayerCgroup] is
//     in [Spec.Degraded], which makes no cgroup at all; then, and for the
//     defaults (pids 1024, memory 4 GiB or half the RAM) where no cgroup
//     can be had, they fall back to rlimits: RLIMIT_DATA per process and
//     the private tmpfs's size, RLIMIT_NPROC counted in the
//     sandbox's own user namespace (not for root, whom the kernel
//     exempts), RLIMIT_CPU of cpu × timeout per process; each fallback is
//     stated in [Result.Unenforced]. Stale run cgroups of dead warden
//     processes are swept at start. [Limits.Disk] and [Limits.Inodes]
//     bound the private tmpfs (size=, nr_inodes=); with either set, a
//     writable host path, which nothing bounds, stops the run.
//   - Credentials: a clean environment (the caller's PATH without
//     relative entries, HOME, LANG, TERM, USER, GOTMPDIR, the run cache
//     as XDG_CACHE_HOME, and [Spec.Env]).
//   - Time: a wall-clock timeout ([Spec.Timeout]; warden run's default is
//     [DefaultTimeout]) enforced by the parent, which kills the whole pid
//     namespace; the exit status is propagated, 128+signal when the
//     command was killed.
//
// Every layer above is mandatory: if one cannot be applied, nothing runs.
// [Spec.Degraded] turns off, by name, Landlock, seccomp, the cgroup's
// hold on requested limits or a root caller's unprivileged host id;
// nothing else can be.
//
// # What a host offers
//
// [Probe] (warden doctor) reports what this host offers the calling user
// and, through [Assess], what a run would therefore enforce, layer by
// layer ([Coverage]). It tries what can be tried: a process in a run's
// namespaces, each limit's cgroup made and joined as a run makes it, and
// one real run of true. A layer is reported enforced only when the host
// has its mechanism and doctor saw it work in those trials.
//
// # Not contained yet
//
// Landlock cannot deny below a path it allows, so it grants
// reading the whole view: the masked sensitive set is hidden by the mounts
// alone, and a command can read any other file the caller can read (a
// dotenv file or a key deeper than the home walk's depth, for example, is
// not masked unless [Spec.HideHome]). Read-only paths inside writable
// ones, protected paths included, are the mounts' alone for the same
// reason, and hold only what exists when the run starts: what is created
// is the post-run check's, after the run, so a host tool reading the
// project during the run can still see it. In full-access mode, only the
// project and
// Spec.ReadWrite are searched for changed files.
package sandbox
