// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package unixsock holds what Warden's own Unix sockets share: they are
// made private to the user (0600; the state directory they live in is
// 0700), and their ends ask the kernel who is on the other side.
package unixsock

import (
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// Listen listens on path ("unix" or "unixpacket"), replacing a stale
// socket there, with the socket made 0600.
func Listen(network, path string) (*net.UnixListener, error) {
	os.Remove(path)
	// The mode comes from the umask at bind(2); process-wide, so kept
	// for as short as the bind.
	old := unix.Umask(0o177)
	defer unix.Umask(old)
	return net.ListenUnix(network, &net.UnixAddr{Name: path, Net: network})
}
