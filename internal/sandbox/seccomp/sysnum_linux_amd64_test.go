// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/seccomp"
)

// TestAMD64Numbers checks the hand-written table against x/sys/unix, which
// is generated from the kernel's headers.
func TestAMD64Numbers(t *testing.T) {
	want := map[string]int{
		"ioctl": unix.SYS_IOCTL, "socket": unix.SYS_SOCKET, "socketpair": unix.SYS_SOCKETPAIR, "clone": unix.SYS_CLONE,
		"connect": unix.SYS_CONNECT, "sendto": unix.SYS_SENDTO, "sendmsg": unix.SYS_SENDMSG, "sendmmsg": unix.SYS_SENDMMSG,
		"ptrace": unix.SYS_PTRACE, "syslog": unix.SYS_SYSLOG, "personality": unix.SYS_PERSONALITY,
		"pivot_root": unix.SYS_PIVOT_ROOT, "adjtimex": unix.SYS_ADJTIMEX, "chroot": unix.SYS_CHROOT,
		"acct": unix.SYS_ACCT, "settimeofday": unix.SYS_SETTIMEOFDAY, "mount": unix.SYS_MOUNT,
		"umount2": unix.SYS_UMOUNT2, "swapon": unix.SYS_SWAPON, "swapoff": unix.SYS_SWAPOFF,
		"reboot": unix.SYS_REBOOT, "sethostname": unix.SYS_SETHOSTNAME, "setdomainname": unix.SYS_SETDOMAINNAME,
		"iopl": unix.SYS_IOPL, "ioperm": unix.SYS_IOPERM, "init_module": unix.SYS_INIT_MODULE,
		"delete_module": unix.SYS_DELETE_MODULE, "quotactl": unix.SYS_QUOTACTL,
		"lookup_dcookie": unix.SYS_LOOKUP_DCOOKIE, "clock_settime": unix.SYS_CLOCK_SETTIME,
		"kexec_load": unix.SYS_KEXEC_LOAD, "add_key": unix.SYS_ADD_KEY, "request_key": unix.SYS_REQUEST_KEY,
		"keyctl": unix.SYS_KEYCTL, "unshare": unix.SYS_UNSHARE, "perf_event_open": unix.SYS_PERF_EVENT_OPEN,
		"name_to_handle_at": unix.SYS_NAME_TO_HANDLE_AT, "open_by_handle_at": unix.SYS_OPEN_BY_HANDLE_AT,
		"clock_adjtime": unix.SYS_CLOCK_ADJTIME, "setns": unix.SYS_SETNS,
		"process_vm_readv": unix.SYS_PROCESS_VM_READV, "process_vm_writev": unix.SYS_PROCESS_VM_WRITEV,
		"finit_module": unix.SYS_FINIT_MODULE, "kexec_file_load": unix.SYS_KEXEC_FILE_LOAD,
		"bpf": unix.SYS_BPF, "userfaultfd": unix.SYS_USERFAULTFD,
		"io_uring_setup": unix.SYS_IO_URING_SETUP, "io_uring_enter": unix.SYS_IO_URING_ENTER,
		"io_uring_register": unix.SYS_IO_URING_REGISTER, "open_tree": unix.SYS_OPEN_TREE,
		"move_mount": unix.SYS_MOVE_MOUNT, "fsopen": unix.SYS_FSOPEN, "fsconfig": unix.SYS_FSCONFIG,
		"fsmount": unix.SYS_FSMOUNT, "fspick": unix.SYS_FSPICK, "clone3": unix.SYS_CLONE3,
		"pidfd_getfd": unix.SYS_PIDFD_GETFD, "mount_setattr": unix.SYS_MOUNT_SETATTR,
		"quotactl_fd": unix.SYS_QUOTACTL_FD, "open_tree_attr": unix.SYS_OPEN_TREE_ATTR,
	}
	if len(want) != len(seccomp.AMD64.Numbers) {
		t.Errorf("the table has %d numbers, the check %d: update both", len(seccomp.AMD64.Numbers), len(want))
	}
	for name, n := range want {
		if got, ok := seccomp.AMD64.Numbers[name]; !ok || int(got) != n {
			t.Errorf("AMD64.Numbers[%q] = %d, %v; want %d", name, got, ok, n)
		}
	}
	if seccomp.AMD64.Audit != unix.AUDIT_ARCH_X86_64 {
		t.Errorf("AMD64.Audit = %#x, want %#x", seccomp.AMD64.Audit, uint32(unix.AUDIT_ARCH_X86_64))
	}
}
