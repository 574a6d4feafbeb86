// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID is the uid of the process on the other end of c, or -1.
func peerUID(c *net.UnixConn) int {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1
	}
	uid := -1
	raw.Control(func(fd uintptr) {
		if cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED); err == nil {
			uid = int(cred.Uid)
		}
	})
	return uid
}
