// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"net/netip"
	"sync/atomic"

	"warden.dev/warden/internal/callerid"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/sandbox"
)

// callers finds the process behind each connection the proxy accepts,
// once the sandbox sent its sock_diag socket.
type callers struct {
	f    atomic.Pointer[callerid.Finder]
	seen tofu
}

func (c *callers) start(l sandbox.Listeners) {
	if l.Diag == nil || l.Init <= 0 {
		return
	}
	f, err := callerid.New(l.Diag, l.Init)
	if err != nil {
		return
	}
	l.Diag = nil
	c.f.Store(f)
}

func (c *callers) identify(client, server netip.AddrPort) *proxy.Caller {
	f := c.f.Load()
	if f == nil {
		return &proxy.Caller{Err: "the sandbox's sock_diag socket did not arrive"}
	}
	found, err := f.Find(client, server)
	if err != nil {
		return &proxy.Caller{Err: err.Error()}
	}
	// A binary is the one first seen under its path, or no binary.
	if why := c.seen.check(found.PID, found.Exe); why != "" {
		return &proxy.Caller{PID: found.PID, Err: why}
	}
	for i, pid := range found.AncestorPIDs {
		if why := c.seen.check(pid, found.Ancestors[i]); why != "" {
			return &proxy.Caller{PID: found.PID, Err: why}
		}
	}
	return &proxy.Caller{PID: found.PID, Exe: found.Exe, Ancestors: found.Ancestors}
}

func (c *callers) close() {
	if f := c.f.Swap(nil); f != nil {
		f.Close()
	}
}
