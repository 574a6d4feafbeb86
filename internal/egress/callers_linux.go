// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"warden.dev/warden/internal/callerid"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/sandbox"
)

// callers finds the process behind each connection the proxy accepts:
// the one the sandbox's seccomp listener saw make it (connected), found
// by the socket's inode, which sock_diag gives for the connection; where
// the sandbox does not watch connections, the one that holds the socket
// when it is accepted (callerid.Finder.Find).
type callers struct {
	f    atomic.Pointer[callerid.Finder]
	seen callerid.TOFU

	// watching says whether the sandbox reports who makes each
	// connection, known once decided is closed (its first report).
	watching  atomic.Bool
	decided   chan struct{}
	decideOne sync.Once
	mu        sync.Mutex
	// byInode are the connections the sandbox reported, the last
	// maxConnections of them (order, oldest first).
	byInode map[uint32]sandbox.Connection
	order   []uint32
}

// maxConnections bounds the connections kept: a connection is accepted
// within milliseconds of its report, so only a sandbox making thousands
// at once could lose one (then refused, as unidentified).
const maxConnections = 8192

// waitReport bounds how long an accepted connection waits for the
// sandbox's report of who made it, which was sent before the connection
// could be made.
const waitReport = 2 * time.Second

// connected keeps the sandbox's report of who made a connection.
func (c *callers) connected(conn sandbox.Connection) {
	if conn.Inode == 0 {
		c.watching.Store(conn.Err == "")
		c.decideOne.Do(func() { close(c.decision()) })
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byInode == nil {
		c.byInode = map[uint32]sandbox.Connection{}
	}
	if len(c.order) >= maxConnections {
		delete(c.byInode, c.order[0])
		c.order = c.order[1:]
	}
	if _, ok := c.byInode[conn.Inode]; !ok {
		// The first call that connected the socket made it.
		c.byInode[conn.Inode] = conn
		c.order = append(c.order, conn.Inode)
	}
}

// decision is closed once the sandbox said whether it watches.
func (c *callers) decision() chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.decided == nil {
		c.decided = make(chan struct{})
	}
	return c.decided
}

// reported waits for the report of the connection whose socket is ino.
func (c *callers) reported(ino uint32) (sandbox.Connection, bool) {
	deadline := time.Now().Add(waitReport)
	for pause := 50 * time.Microsecond; ; pause = min(2*pause, 10*time.Millisecond) {
		c.mu.Lock()
		conn, ok := c.byInode[ino]
		c.mu.Unlock()
		if ok || time.Now().After(deadline) {
			return conn, ok
		}
		time.Sleep(pause)
	}
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
	// The sandbox says whether it watches before its command starts, so
	// before any connection: waiting here only orders this goroutine
	// after the one reading its reports.
	select {
	case <-c.decision():
	case <-time.After(waitReport):
	}
	if c.watching.Load() {
		ino, err := f.Inode(client, server)
		if err != nil {
			return &proxy.Caller{Err: err.Error()}
		}
		conn, ok := c.reported(ino)
		switch {
		case !ok:
			return &proxy.Caller{Err: "the sandbox did not report who made the connection"}
		case conn.Err != "":
			return &proxy.Caller{PID: conn.PID, Err: conn.Err}
		}
		return &proxy.Caller{PID: conn.PID, Exe: conn.Exe, Ancestors: conn.Ancestors}
	}
	found, err := f.Find(client, server)
	if err != nil {
		return &proxy.Caller{Err: err.Error()}
	}
	// A binary is the one first seen under its path, or no binary.
	if why := c.seen.Check("/proc/"+strconv.Itoa(found.PID)+"/exe", found.Exe); why != "" {
		return &proxy.Caller{PID: found.PID, Err: why}
	}
	for i, pid := range found.AncestorPIDs {
		if why := c.seen.Check("/proc/"+strconv.Itoa(pid)+"/exe", found.Ancestors[i]); why != "" {
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
