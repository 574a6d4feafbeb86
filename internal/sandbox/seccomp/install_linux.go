// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Install loads Warden's filter ([Program] for this architecture) into
// every thread of the calling process (SECCOMP_FILTER_FLAG_TSYNC), and so
// into every process it starts from now on; it cannot be removed. The
// calling thread must have no_new_privs set (or CAP_SYS_ADMIN); TSYNC
// then sets it on the other threads too. An error means no filter was
// installed, on any thread.
func Install() error {
	prog, err := Program(runtime.GOARCH)
	if err != nil {
		return err
	}
	filter := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		filter[i] = unix.SockFilter{Code: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER,
		unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): %w", errno)
	}
	if r != 0 {
		// TSYNC reports the thread it could not synchronise.
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): thread %d could not take the filter", r)
	}
	return nil
}
