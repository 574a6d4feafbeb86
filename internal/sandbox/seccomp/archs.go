// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp

// archs are the architectures Warden can filter. On any other the
// sandbox refuses to run (fail closed), see [Program].
var archs = []*Arch{&AMD64}

// AMD64 is x86_64's native 64-bit ABI. The numbers are from the kernel's
// arch/x86/entry/syscalls/syscall_64.tbl; a test on linux/amd64 checks
// them against golang.org/x/sys/unix.
var AMD64 = Arch{
	Name:  "amd64",
	Audit: 0xc000003e, // AUDIT_ARCH_X86_64
	// __X32_SYSCALL_BIT: x32 calls arrive with the x86_64 audit arch and
	// this bit set in the number, and some of them (the compat ioctl,
	// socket option and message paths) run 32-bit code not covered by
	// the rules.
	ABIBit: 0x40000000,
	Numbers: map[string]uint32{
		"ioctl":             16,
		"socket":            41,
		"connect":           42,
		"sendto":            44,
		"sendmsg":           46,
		"socketpair":        53,
		"clone":             56,
		"ptrace":            101,
		"syslog":            103,
		"personality":       135,
		"pivot_root":        155,
		"adjtimex":          159,
		"chroot":            161,
		"acct":              163,
		"settimeofday":      164,
		"mount":             165,
		"umount2":           166,
		"swapon":            167,
		"swapoff":           168,
		"reboot":            169,
		"sethostname":       170,
		"setdomainname":     171,
		"iopl":              172,
		"ioperm":            173,
		"init_module":       175,
		"delete_module":     176,
		"quotactl":          179,
		"lookup_dcookie":    212,
		"clock_settime":     227,
		"kexec_load":        246,
		"add_key":           248,
		"request_key":       249,
		"keyctl":            250,
		"unshare":           272,
		"perf_event_open":   298,
		"name_to_handle_at": 303,
		"open_by_handle_at": 304,
		"clock_adjtime":     305,
		"setns":             308,
		"sendmmsg":          307,
		"process_vm_readv":  310,
		"process_vm_writev": 311,
		"finit_module":      313,
		"kexec_file_load":   320,
		"bpf":               321,
		"userfaultfd":       323,
		"io_uring_setup":    425,
		"io_uring_enter":    426,
		"io_uring_register": 427,
		"open_tree":         428,
		"move_mount":        429,
		"fsopen":            430,
		"fsconfig":          431,
		"fsmount":           432,
		"fspick":            433,
		"clone3":            435,
		"pidfd_getfd":       438,
		"mount_setattr":     442,
		"quotactl_fd":       443,
		"open_tree_attr":    467,
	},
	Absent: map[string]string{
		"vm86":    "i386 only; i386 calls are killed by the architecture check",
		"vm86old": "i386 only; i386 calls are killed by the architecture check",
	},
}
