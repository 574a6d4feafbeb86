// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package unixsock

import "golang.org/x/sys/unix"

// Listening says whether something listens on the stream socket at path:
// a connection is taken, or would be but for a full backlog. Raw calls,
// not the net package's dialer: a warden run asks on every start, and
// the dialer's first use costs a process its poller.
func Listening(path string) bool {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	err = unix.Connect(fd, &unix.SockaddrUnix{Name: path})
	return err == nil || err == unix.EAGAIN
}
