// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package unixsock

import (
	"net"

	"golang.org/x/sys/unix"
)

// PeerUID is the uid of the process at the other end of c, as the kernel
// saw it when it connected (SO_PEERCRED).
func PeerUID(c *net.UnixConn) (int, bool) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, false
	}
	var cred *unix.Ucred
	if cerr := raw.Control(func(fd uintptr) { cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) }); cerr != nil || err != nil || cred == nil {
		return 0, false
	}
	return int(cred.Uid), true
}
