// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ErrNoListener reports that the kernel cannot hand refused calls to a
// listener (Linux 5.7 or newer is needed for a listener on a filter
// synchronised to every thread). No filter was installed.
var ErrNoListener = errors.New("the kernel offers no seccomp user notification for a filter on every thread (Linux 5.7 or newer)")

// Install loads Warden's filter ([Program] for this architecture) into
// every thread of the calling process (SECCOMP_FILTER_FLAG_TSYNC), and so
// into every process it starts from now on; it cannot be removed. The
// calling thread must have no_new_privs set (or CAP_SYS_ADMIN); TSYNC
// then sets it on the other threads too. An error means no filter was
// installed, on any thread.
//
// With opts.Notify, the refused calls go to a listener whose descriptor is
// returned: [Serve] must answer them, or the callers wait. Once the
// listener is closed, such a call fails with ENOSYS: refused still. A
// kernel that cannot give a listener yields [ErrNoListener].
func Install(opts Options) (listener int, err error) {
	notify := opts.Notify
	prog, err := Program(runtime.GOARCH, opts)
	if err != nil {
		return -1, err
	}
	filter := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		filter[i] = unix.SockFilter{Code: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	flags := uintptr(unix.SECCOMP_FILTER_FLAG_TSYNC)
	if notify {
		// TSYNC_ESRCH: a thread that cannot take the filter is ESRCH,
		// so that the return value can be the listener.
		flags |= unix.SECCOMP_FILTER_FLAG_NEW_LISTENER | unix.SECCOMP_FILTER_FLAG_TSYNC_ESRCH
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(filter)
	switch {
	case notify && errno == unix.EINVAL:
		return -1, ErrNoListener
	case errno != 0:
		return -1, fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): %w", errno)
	case notify:
		return int(r), nil
	case r != 0:
		// TSYNC reports the thread it could not synchronise.
		return -1, fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): thread %d could not take the filter", r)
	}
	return -1, nil
}

// Event is one call the filter refused, as the listener saw it.
type Event struct {
	// PID is the caller's process id in the listener's pid namespace.
	PID int
	// Syscall is the call's name in the table; Nr its number.
	Syscall string
	Nr      int
	// Args are the call's arguments as passed (pointers are not
	// followed).
	Args [6]uint64
}

// seccompNotif and seccompNotifResp are the kernel's struct seccomp_notif
// and struct seccomp_notif_resp.
type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	nr    int32
	arch  uint32
	ip    uint64
	args  [6]uint64
}

type seccompNotifResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

// Serve answers every call the filter hands to listener, until the
// listener is closed or fails. A call of [Watched] is handed to watch,
// while the caller waits, and then let run
// (SECCOMP_USER_NOTIF_FLAG_CONTINUE): watch returns what to do once the
// call is known to be still pending (the caller's /proc entry it read is
// then that caller's, not a later process's with the same pid), or nil.
// Every other call is refused with EPERM and reported to seen first (so
// seen must not block). A watched call is let run only after watch has
// seen it: nothing is decided on the call's arguments, which the
// caller's other threads may change meanwhile.
func Serve(listener int, seen func(Event), watch func(Event) func()) error {
	arch := ArchFor(runtime.GOARCH)
	names := map[int]string{}
	watched := map[int]bool{}
	if arch != nil {
		for name, nr := range arch.Numbers {
			names[int(nr)] = name
		}
		for _, r := range Watched {
			if nr, ok := arch.Numbers[r.Syscall]; ok {
				watched[int(nr)] = true
			}
		}
	}
	for {
		var n seccompNotif
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(listener), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&n)))
		switch errno {
		case 0:
		case unix.EINTR, unix.ENOENT:
			// Interrupted, or the caller died before we read it.
			continue
		default:
			return fmt.Errorf("seccomp listener: %w", errno)
		}
		ev := Event{PID: int(n.pid), Syscall: names[int(n.nr)], Nr: int(n.nr), Args: n.args}
		if watched[int(n.nr)] {
			var commit func()
			if watch != nil {
				commit = watch(ev)
			}
			id := n.id
			_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(listener), unix.SECCOMP_IOCTL_NOTIF_ID_VALID, uintptr(unsafe.Pointer(&id)))
			if errno != 0 {
				// The caller is gone: what watch read may be another's.
				continue
			}
			if commit != nil {
				commit()
			}
			resp := seccompNotifResp{id: n.id, flags: unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE}
			unix.Syscall(unix.SYS_IOCTL, uintptr(listener), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
			continue
		}
		// Seen first, while the caller waits: seen may look at it
		// (its /proc entry). seen must not block.
		if seen != nil {
			seen(ev)
		}
		resp := seccompNotifResp{id: n.id, error: -int32(unix.EPERM)}
		// ENOENT: the caller is gone, or a signal interrupted the
		// call (it is then made again, and seen again).
		unix.Syscall(unix.SYS_IOCTL, uintptr(listener), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
	}
}
