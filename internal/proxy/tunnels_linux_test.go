// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/proxy/proxytest"
)

var tunnels = flag.Int("proxy.tunnels", 10000, "concurrent CONNECT tunnels in TestManyTunnels")

// raiseNoFile raises RLIMIT_NOFILE to n if it can (the soft limit up to
// the hard one; the hard one too where the process may) and returns the
// limit in force, restored when the test ends.
func raiseNoFile(t *testing.T, n uint64) (cur, hard uint64, err error) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })
	if old.Cur >= n {
		return old.Cur, old.Max, nil
	}
	err = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: n, Max: max(old.Max, n)})
	if err != nil {
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: old.Max, Max: old.Max})
	}
	var now syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now)
	return now.Cur, now.Max, err
}

// TestManyTunnels holds -proxy.tunnels (10,000) CONNECT tunnels open at
// once, each carrying bytes both ways, then closes them and checks that
// no goroutine or descriptor is left.
//
// With every side in this process a tunnel costs 4 descriptors (the
// client's, the proxy's two, the echo server's). Where RLIMIT_NOFILE
// cannot be raised that far (a hard limit of 20,000 is common in
// containers), the clients reach the proxy over in-memory connections and
// the echo server runs in a child process, so that this process holds
// only the proxy's upstream descriptors, one a tunnel.
func TestManyTunnels(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 10,000 tunnels (up to 40,000 descriptors); not in -short")
	}
	n := *tunnels
	cur, hard, rerr := raiseNoFile(t, uint64(4*n+1024))
	split := cur < uint64(4*n+1024)
	if split && cur < uint64(n+1024) {
		t.Skipf("needs RLIMIT_NOFILE >= %d for %d tunnels (one upstream descriptor each, with clients in memory and the echo server in a child process); the limit is %d (hard %d) and raising it failed: %v", n+1024, n, cur, hard, rerr)
	}
	proxytest.ResourceCheck(t)
	e := newEnv(t, withLimits(proxy.Limits{MaxTunnels: n + 16, MaxConns: n + 16, MaxPending: n + 16, PeekTimeout: 50 * time.Millisecond}))
	dial := func() (net.Conn, error) { return net.Dial("tcp", e.addr) }
	var echoAddr string
	var echoes sync.WaitGroup
	if split {
		t.Logf("RLIMIT_NOFILE is %d (hard %d): clients in memory, echo server in a child process", cur, hard)
		echoAddr = startEchoProcess(t)
		mem := proxytest.NewListener()
		go e.p.Serve(mem)
		dial = func() (net.Conn, error) { return mem.Dial() }
	} else {
		echo, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer echoes.Wait()
		defer echo.Close()
		echoAddr = echo.Addr().String()
		go func() {
			for {
				c, err := echo.Accept()
				if err != nil {
					return
				}
				echoes.Add(1)
				go func() {
					defer echoes.Done()
					echoConn(c)
					c.Close()
				}()
			}
		}()
	}
	e.host("echo.example", []string{"203.0.113.4"}, echoAddr, &hostRule{ports: []int{7}})
	baseG := runtime.NumGoroutine()

	conns := make([]net.Conn, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	work := make(chan int)
	for range 64 {
		wg.Go(func() {
			for i := range work {
				c, err := dial()
				if err != nil {
					errs <- err
					continue
				}
				fmt.Fprintf(c, "CONNECT echo.example:7 HTTP/1.1\r\n\r\n")
				c.SetDeadline(time.Now().Add(30 * time.Second))
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil || resp.StatusCode != 200 {
					errs <- fmt.Errorf("tunnel %d: %v %v", i, resp, err)
					c.Close()
					continue
				}
				conns[i] = c
			}
		})
	}
	start := time.Now()
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	opened := time.Since(start)
	// Every tunnel is open at once: each echoes a message now.
	for i, c := range conns {
		if _, err := fmt.Fprintf(c, "%08d", i); err != nil {
			t.Fatalf("tunnel %d: %v", i, err)
		}
	}
	bad := 0
	for i, c := range conns {
		buf := make([]byte, 8)
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(c, buf); err != nil || string(buf) != fmt.Sprintf("%08d", i) {
			if bad++; bad < 10 {
				t.Errorf("tunnel %d echoed %q, %v", i, buf, err)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d tunnels of %d did not echo", bad, n)
	}
	g := runtime.NumGoroutine() - baseG
	t.Logf("%d tunnels open in %v; %d goroutines above the start (%.1f a tunnel), %d descriptors open in this process", n, opened, g, float64(g)/float64(n), proxytest.OpenFDs())
	for _, c := range conns {
		c.Close()
	}
	// The streams end as their clients go, and are recorded.
	recs := e.waitFor(func(r []audit.NetworkAttempt) bool { return len(r) >= n })
	if len(recs) != n {
		t.Errorf("%d streams recorded, want %d", len(recs), n)
	}
}
