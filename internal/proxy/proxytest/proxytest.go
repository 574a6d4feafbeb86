// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package proxytest holds helpers for the tests of package proxy and of
// its users: [ResourceCheck], a goroutine and descriptor leak check in the
// style of tailscale's tstest.ResourceCheck, and [Pipe], an in-memory
// connection pair that buffers, half-closes and honours deadlines.
package proxytest

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// ResourceCheck records the number of goroutines and open descriptors now
// and, when the test ends (after the cleanups registered later, so call it
// first), fails the test if either is still higher after a few seconds'
// grace. The failure lists the goroutines' stacks.
func ResourceCheck(tb testing.TB) {
	tb.Helper()
	startG := runtime.NumGoroutine()
	startFD := OpenFDs()
	tb.Cleanup(func() {
		if tb.Failed() {
			return
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			g, fd := runtime.NumGoroutine(), OpenFDs()
			if g <= startG && fd <= startFD {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				buf = buf[:runtime.Stack(buf, true)]
				tb.Errorf("leak: %d goroutines before the test, %d after; %d descriptors before, %d after\n%s", startG, g, startFD, fd, buf)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// OpenFDs returns the number of descriptors open in this process, pipes
// and anonymous inodes aside, or 0 where /proc/self/fd does not tell.
// Those are the Go runtime's: its pool of pipes for splice(2), freed by
// the garbage collector, and the network poller's epoll and eventfd,
// made at the first network operation of the process.
func OpenFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		l, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err == nil && !strings.HasPrefix(l, "pipe:") && !strings.HasPrefix(l, "anon_inode:") {
			n++
		}
	}
	return n
}
