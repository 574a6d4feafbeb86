// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp

// This file is the filter's policy: every system call Warden's sandbox
// refuses, and why. Rules:
//
//   - A call is listed when the sandbox's other layers leave it usable by
//     an unprivileged process in a user namespace and it escapes or
//     weakens containment (new namespaces, other processes' memory, the
//     kernel keyring), or when it is large kernel attack surface no
//     ordinary tool needs (eBPF, io_uring, userfaultfd).
//   - Calls that the missing capabilities already refuse (mount, reboot,
//     module loading) are listed anyway: the filter is the second lock, and
//     holds if a capability ever leaks in.
//   - Denials return EPERM, never kill: a tool that probes for a feature
//     must get an error it can handle.
//   - A call's arguments are filtered only where the call also has a
//     legitimate use that the command needs (clone, socket, ioctl,
//     personality).

// Constants from the kernel's uapi headers; the same on every [Arch].
const (
	cloneNewNS     = 0x00020000
	cloneNewCgroup = 0x02000000
	cloneNewUTS    = 0x04000000
	cloneNewIPC    = 0x08000000
	cloneNewUser   = 0x10000000
	cloneNewPID    = 0x20000000
	cloneNewNet    = 0x40000000
	// cloneNewNamespaces are the namespace flags clone(2) takes.
	// CLONE_NEWTIME (0x80) is left out: clone(2) cannot take it (it
	// overlaps the exit signal in CSIGNAL), only clone3 and unshare can,
	// and both are refused outright.
	cloneNewNamespaces = cloneNewNS | cloneNewCgroup | cloneNewUTS | cloneNewIPC |
		cloneNewUser | cloneNewPID | cloneNewNet

	afUnix    = 1
	afInet    = 2
	afInet6   = 10
	afNetlink = 16
	afPacket  = 17

	// sockTypeMask selects the type from socket(2)'s type argument,
	// without SOCK_NONBLOCK and SOCK_CLOEXEC.
	sockTypeMask = 0xf
	sockDgram    = 2
	sockRaw      = 3
	sockPacket   = 10

	// The asm-generic ioctl numbers (x86, arm, riscv).
	tiocsti   = 0x5412
	tioclinux = 0x541c

	perLinux = 0
	perQuery = 0xffffffff
)

// Rules is Warden's deny table. Each call appears once.
var Rules = []Rule{
	// Other processes. ptrace of a process reads and rewrites its memory
	// and registers; with no seccomp a process can always trace its own
	// children (PTRACE_TRACEME), and a traced child escapes the filter's
	// decisions through the tracer. process_vm_* and pidfd_getfd pass the
	// same access check as ptrace and copy memory or descriptors out.
	{Syscall: "ptrace", Action: Deny},
	{Syscall: "process_vm_readv", Action: Deny},
	{Syscall: "process_vm_writev", Action: Deny},
	{Syscall: "pidfd_getfd", Action: Deny},

	// Mounts, through the old API and the new file-descriptor one: a
	// process in a fresh user namespace may mount, and could uncover
	// what the sandbox's masks hide or remount a tree read-write.
	{Syscall: "mount", Action: Deny},
	{Syscall: "umount2", Action: Deny},
	{Syscall: "pivot_root", Action: Deny},
	{Syscall: "chroot", Action: Deny},
	{Syscall: "move_mount", Action: Deny},
	{Syscall: "open_tree", Action: Deny},
	{Syscall: "open_tree_attr", Action: Deny}, // Linux 6.15: open_tree with mount attributes
	{Syscall: "fsopen", Action: Deny},
	{Syscall: "fsconfig", Action: Deny},
	{Syscall: "fsmount", Action: Deny},
	{Syscall: "fspick", Action: Deny},
	{Syscall: "mount_setattr", Action: Deny}, // could clear read-only on a mount the caller owns

	// Namespaces. A new user namespace hands its creator every capability
	// inside it, which opens mount, network configuration and a large
	// part of the kernel to an unprivileged process: the main escape
	// route the other layers leave. The command needs no namespace of
	// its own, and joining one (setns) needs a descriptor from outside.
	{Syscall: "unshare", Action: Deny},
	{Syscall: "setns", Action: Deny},
	// Processes and threads are made with clone; only its namespace flags
	// are refused. Only the lower 32 bits of the flags reach the kernel.
	{Syscall: "clone", Action: Deny, If: []Cond{{AnySet(0, cloneNewNamespaces)}}},
	// clone3 takes its flags in a struct in memory, which a seccomp
	// filter cannot read. ENOSYS, not EPERM: glibc, Go and CPython then
	// fall back to clone, filtered above.
	{Syscall: "clone3", Action: NoSys},

	// Kernel keyrings are keyed by uid, not by namespace: the command would
	// share the caller's user keyring (Kerberos tickets, ecryptfs and
	// fscrypt keys) whenever its uid maps to the caller's.
	{Syscall: "keyctl", Action: Deny},
	{Syscall: "add_key", Action: Deny},
	{Syscall: "request_key", Action: Deny},

	// Large kernel attack surface that ordinary tools do not use.
	{Syscall: "bpf", Action: Deny},
	// perf also observes other processes and the kernel.
	{Syscall: "perf_event_open", Action: Deny},
	// userfaultfd lets a process stall the kernel at a page fault of its
	// choosing: the usual way to win a kernel race.
	{Syscall: "userfaultfd", Action: Deny},
	// io_uring performs reads, writes, opens and connects that this filter
	// never sees (they are not system calls), and has had many kernel
	// bugs.
	{Syscall: "io_uring_setup", Action: Deny},
	{Syscall: "io_uring_enter", Action: Deny},
	{Syscall: "io_uring_register", Action: Deny},

	// Replacing or extending the kernel.
	{Syscall: "kexec_load", Action: Deny},
	{Syscall: "kexec_file_load", Action: Deny},
	{Syscall: "init_module", Action: Deny},
	{Syscall: "finit_module", Action: Deny},
	{Syscall: "delete_module", Action: Deny},

	// Sockets: only TCP, UDP and ICMP datagrams over IPv4 and IPv6, which
	// the network namespace confines to the sandbox's loopback and the
	// egress bridge, and netlink, which is per namespace (ip(8), and
	// glibc's getaddrinfo asks it for the interfaces). Refused:
	//   - Unix sockets. A pathname socket of the host (a container
	//     engine's, a session bus, an agent's) is reached through the
	//     filesystem, not the network namespace, and the mounts cannot
	//     hide every one of them; Landlock controls connecting to them
	//     only from ABI 9.
	//   - Every other family: VM sockets (AF_VSOCK) talk to the
	//     hypervisor whatever the namespace; packet sockets see and forge
	//     every frame; the rest (AF_ALG, AF_BLUETOOTH, AF_RDS…) is kernel
	//     attack surface no toolchain needs.
	//   - Raw IP sockets, which forge headers, and AF_INET with the
	//     obsolete SOCK_PACKET type, which the kernel turns into a packet
	//     socket.
	{Syscall: "socket", Action: Deny,
		If: []Cond{
			{Eq(0, afInet), MaskedEq(1, sockTypeMask, sockRaw)},
			{Eq(0, afInet6), MaskedEq(1, sockTypeMask, sockRaw)},
			{Eq(0, afInet), MaskedEq(1, sockTypeMask, sockPacket)},
		},
		Unless: []Cond{{Eq(0, afInet)}, {Eq(0, afInet6)}, {Eq(0, afNetlink)}},
	},
	// A connected pair of Unix sockets reaches only its other end, and
	// shells, interpreters and runtimes use them as pipes: allowed as
	// streams and sequenced packets. A datagram one is refused: sendto
	// and connect on it can still name a host socket.
	{Syscall: "socketpair", Action: Deny,
		If:     []Cond{{Eq(0, afUnix), MaskedEq(1, sockTypeMask, sockDgram)}},
		Unless: []Cond{{Eq(0, afUnix)}},
	},

	// Administration of the host. Each needs a capability the command does
	// not have; refused here as well (see the rules at the top).
	{Syscall: "acct", Action: Deny},
	{Syscall: "swapon", Action: Deny},
	{Syscall: "swapoff", Action: Deny},
	{Syscall: "reboot", Action: Deny},
	// syslog reads the kernel log, which leaks kernel addresses (dmesg
	// fails inside the sandbox).
	{Syscall: "syslog", Action: Deny},
	{Syscall: "quotactl", Action: Deny},
	{Syscall: "quotactl_fd", Action: Deny},
	{Syscall: "lookup_dcookie", Action: Deny},
	// File handles: open_by_handle_at opens any file of a mounted
	// filesystem by inode, around the mount view (the "shocker" escape).
	{Syscall: "name_to_handle_at", Action: Deny},
	{Syscall: "open_by_handle_at", Action: Deny},
	// Direct I/O port access and the i386 virtual-8086 mode.
	{Syscall: "iopl", Action: Deny},
	{Syscall: "ioperm", Action: Deny},
	{Syscall: "vm86", Action: Deny},
	{Syscall: "vm86old", Action: Deny},
	{Syscall: "sethostname", Action: Deny},
	{Syscall: "setdomainname", Action: Deny},
	// The clock. A read-only adjtimex query (modes 0) fails too: its
	// argument is a struct the filter cannot read.
	{Syscall: "settimeofday", Action: Deny},
	{Syscall: "clock_settime", Action: Deny},
	{Syscall: "adjtimex", Action: Deny},
	{Syscall: "clock_adjtime", Action: Deny},

	// personality can turn off address-space randomisation
	// (ADDR_NO_RANDOMIZE) or turn on READ_IMPLIES_EXEC for the command
	// and its children. Only the default persona and the query are
	// allowed. The argument is an unsigned int.
	{Syscall: "personality", Action: Deny, Unless: []Cond{
		{Eq(0, perLinux)},
		{Eq(0, perQuery)},
	}},

	// TIOCSTI pushes bytes into a terminal's input queue, and TIOCLINUX
	// can paste the console's selection: with the caller's terminal as
	// stdin the command could type commands into the caller's shell after
	// it exits. The request argument is an unsigned int.
	{Syscall: "ioctl", Action: Deny, If: []Cond{
		{Eq(1, tiocsti)},
		{Eq(1, tioclinux)},
	}},
}
