// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package egress

import (
	"net/netip"

	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/sandbox"
)

// callers finds no process where there is no sock_diag: every caller is
// unknown, and matches no binary.
type callers struct{}

func (c *callers) start(sandbox.Listeners) {}

func (c *callers) connected(sandbox.Connection) {}

func (c *callers) identify(netip.AddrPort, netip.AddrPort) *proxy.Caller {
	return &proxy.Caller{Err: "finding the process behind a connection needs Linux"}
}

func (c *callers) close() {}
