// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package store

import "net"

// peerUID is -1: the peer's credentials are read on Linux only, so no
// batch is recorded through warden serve elsewhere.
func peerUID(c *net.UnixConn) int { return -1 }
