// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/proxy/proxytest"
)

// withHostAddrs makes the proxy's own addresses those read returns.
func withHostAddrs(read func() ([]netip.Addr, error)) envOpt {
	return func(_ *env, cfg *proxy.Config) { cfg.HostAddrs = proxy.NewHostAddrs(read) }
}

// TestAdversarialProxyThisMachine: a name the decider allows (as a
// wildcard or a catch-all would) that resolves to an address of this
// machine, or the address itself, IPv4-mapped or not, is refused with the
// 403 of the always-denied addresses and never dialed, by a forward
// request, a CONNECT and SOCKS5; so is every address when the interfaces
// cannot be read. An address that is not the machine's is dialed (the
// control).
func TestAdversarialProxyThisMachine(t *testing.T) {
	proxytest.ResourceCheck(t)
	var readErr error
	e := newEnv(t, withHostAddrs(func() ([]netip.Addr, error) {
		return []netip.Addr{mustAddr("203.0.113.7"), mustAddr("2001:db8::7")}, readErr
	}))
	srv := e.httpServer(hello("other"))
	e.host("self.example", []string{"203.0.113.7"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80, 443}})
	e.host("self6.example", []string{"2001:db8::7"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80, 443}})
	e.host("other.example", []string{"203.0.113.8"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80}})
	e.host("other2.example", []string{"203.0.113.9"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80}})
	for _, h := range []string{"203.0.113.7", "2001:db8::7"} {
		e.pol.hosts[h] = hostRule{ports: []int{80, 443}}
	}
	wantDenied := func(what string, status int, body string) {
		t.Helper()
		if status != 403 || !strings.Contains(body, `"rule":"`+proxy.RuleThisMachine+`"`) || !strings.Contains(body, "an address of this machine") {
			t.Errorf("%s = %d %s, want 403 by %s", what, status, body, proxy.RuleThisMachine)
		}
	}
	for _, u := range []string{"http://self.example/", "http://self6.example/", "http://203.0.113.7/", "http://[::ffff:203.0.113.7]/", "http://[2001:db8::7]/"} {
		resp, err := e.client(nil).Get(u)
		if err != nil {
			t.Fatal(err)
		}
		wantDenied("GET "+u, resp.StatusCode, readAll(t, resp.Body))
		resp.Body.Close()
	}
	for _, target := range []string{"self.example:443", "203.0.113.7:443", "[::ffff:203.0.113.7]:443", "[2001:db8::7]:443"} {
		_, resp := e.connect(target)
		wantDenied("CONNECT "+target, resp.StatusCode, readAll(t, resp.Body))
	}
	if code := socksConnect(t, e.addr, "self.example", 443); code != 2 {
		t.Errorf("SOCKS5 CONNECT self.example:443 = reply %d, want 2 (not allowed)", code)
	}
	if d := e.dialed(); len(d) != 0 {
		t.Fatalf("the proxy dialed %v, addresses of this machine", d)
	}
	recs := e.waitFor(func(r []audit.NetworkAttempt) bool { return len(r) >= 10 })
	for _, a := range recs {
		if a.Allowed() || a.Rule != proxy.RuleThisMachine {
			t.Errorf("recorded %+v, want a deny by %s", a, proxy.RuleThisMachine)
		}
	}
	// The control: another address is dialed.
	resp, err := e.client(nil).Get("http://other.example/")
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp.Body); resp.StatusCode != 200 || !strings.Contains(body, "hello from other") {
		t.Errorf("GET http://other.example/ = %d %q, want 200", resp.StatusCode, body)
	}
	resp.Body.Close()
	// Interfaces that cannot be read: nothing is dialed.
	n := len(e.dialed())
	readErr = errors.New("netlink: no buffer space")
	time.Sleep(150 * time.Millisecond) // past the cache
	resp, err = e.client(nil).Get("http://other2.example/")
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp.Body); resp.StatusCode != 403 || !strings.Contains(body, "cannot be read") {
		t.Errorf("GET with unreadable interfaces = %d %s, want 403", resp.StatusCode, body)
	}
	resp.Body.Close()
	if d := e.dialed(); len(d) != n {
		t.Errorf("the proxy dialed %v with unreadable interfaces", d[n:])
	}
}

// TestHostAddrsReal: the default reader finds this machine's loopback
// and at least one interface address, and refuses them.
func TestHostAddrsReal(t *testing.T) {
	h := proxy.NewHostAddrs(nil)
	ifas, err := net.InterfaceAddrs()
	if err != nil {
		t.Skipf("net.InterfaceAddrs: %v", err)
	}
	for _, ifa := range ifas {
		a, _ := netip.AddrFromSlice(ifa.(*net.IPNet).IP)
		if d, ok := h.Check("x.example", []netip.Addr{a.Unmap()}); ok {
			t.Errorf("%s, an address of this machine, passes", a)
		} else if !strings.Contains(d.Reason, "(on ") {
			t.Errorf("%s: reason %q names no interface", a, d.Reason)
		}
	}
	for _, s := range []string{"0.0.0.0", "::", "127.0.0.2", "::1", "::ffff:127.0.0.1", "0.1.2.3"} {
		if _, ok := h.Check("x.example", []netip.Addr{mustAddr(s)}); ok {
			t.Errorf("%s passes", s)
		}
	}
	if _, ok := h.Check("x.example", []netip.Addr{mustAddr("198.51.100.1")}); !ok {
		t.Error("198.51.100.1 (TEST-NET-2) is refused as this machine's")
	}
}

// socksConnect makes a SOCKS5 CONNECT to host:port by name through the
// proxy at addr and returns the reply code.
func socksConnect(t *testing.T, addr, host string, port int) byte {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	c.Write([]byte{5, 1, 0})
	var b [2]byte
	if _, err := io.ReadFull(c, b[:]); err != nil {
		t.Fatal(err)
	}
	req := append([]byte{5, 1, 0, 3, byte(len(host))}, host...)
	req = append(req, byte(port>>8), byte(port))
	c.Write(req)
	var rep [10]byte
	if _, err := io.ReadFull(c, rep[:]); err != nil {
		t.Fatal(err)
	}
	return rep[1]
}

// TestAdversarialProxyPending opens 20,000 connections (in memory) that
// send nothing, or a CONNECT line without its end: the proxy holds at
// most MaxPending of them, closes the others at once (recorded, with
// Limit "pending"), closes those it held after HandshakeTimeout, and then
// serves a CONNECT (the control).
func TestAdversarialProxyPending(t *testing.T) {
	proxytest.ResourceCheck(t)
	const pending = 32
	// The handshake timeout is long enough that none of the held
	// connections goes before the flood is over, even on a loaded
	// machine under the race detector: a slot freed early would let one
	// more connection be held instead of refused.
	e := newEnv(t, withLimits(proxy.Limits{MaxPending: pending, MaxConns: 1000, HandshakeTimeout: 3 * time.Second}))
	e.host("echo.example", []string{"203.0.113.4"}, startEcho(t), &hostRule{ports: []int{7}})
	mem := proxytest.NewListener()
	go e.p.Serve(mem)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range 20_000 {
		c, err := mem.Dial()
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			fmt.Fprintf(c, "CONNECT echo.example:7 HTTP/1.1\r\n")
		}
		conns = append(conns, c)
	}
	held := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); errors.Is(err, errDeadline) || isTimeout(err) {
			held++
		}
	}
	if held > pending {
		t.Errorf("%d connections that sent nothing are held, want at most %d", held, pending)
	}
	refused := 0
	for _, a := range e.records() {
		if a.Limit == "pending" {
			refused++
		}
	}
	if refused < 20_000-pending-held {
		t.Errorf("%d refusals recorded with Limit pending, want at least %d", refused, 20_000-pending-held)
	}
	// The ones held go after HandshakeTimeout.
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.Copy(io.Discard, c); err != nil {
			t.Errorf("a held connection was not closed: %v", err)
			break
		}
	}
	c, err := mem.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT echo.example:7 HTTP/1.1\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT after the flood = %v, %v", resp, err)
	}
}

// TestAdversarialProxyConns: connections past MaxConns, however they
// are held (an idle tunnel, a keep-alive connection between requests),
// are closed at once and recorded with Limit "connections"; tunnels past
// MaxTunnels get the 503, recorded with Limit "tunnels".
func TestAdversarialProxyConns(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t, withLimits(proxy.Limits{MaxConns: 8, MaxTunnels: 4, PeekTimeout: 10 * time.Millisecond}))
	e.host("echo.example", []string{"203.0.113.4"}, startEcho(t), &hostRule{ports: []int{7}})
	for i := range 4 {
		if _, resp := e.connect("echo.example:7"); resp.StatusCode != 200 {
			t.Fatalf("tunnel %d = %d", i, resp.StatusCode)
		}
	}
	_, resp := e.connect("echo.example:7")
	if body := readAll(t, resp.Body); resp.StatusCode != 503 || !strings.Contains(body, "too_many_tunnels") {
		t.Errorf("tunnel 5 of 4 = %d %s, want 503", resp.StatusCode, body)
	}
	// 4 tunnels leave room for 4 more (the refused one's connection
	// was closed with its 503).
	var conns []net.Conn
	for range 20 {
		c, err := net.Dial("tcp", e.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	closed := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF {
			closed++
		}
	}
	if closed < 20-4 {
		t.Errorf("%d connections of 20 past the tunnels were closed at once, want at least 16", closed)
	}
	var byConns, byTunnels int
	for _, a := range e.waitFor(func(r []audit.NetworkAttempt) bool { return len(r) >= 17 }) {
		switch a.Limit {
		case "connections":
			byConns++
		case "tunnels":
			byTunnels++
		}
	}
	if byConns < 16 || byTunnels != 1 {
		t.Errorf("recorded %d refusals by connections and %d by tunnels, want at least 16 and 1", byConns, byTunnels)
	}
}

var errDeadline = context.DeadlineExceeded

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// startEcho starts a loopback echo server and returns its address.
func startEcho(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { echoConn(c); c.Close() }()
		}
	}()
	return ln.Addr().String()
}

// TestAdversarialProxyStuckUpstream: a tunnel whose upstream stops
// reading, filled by the sandbox until its writes block, does not hold
// the proxy's Close: Close closes upstream connections too (without it,
// Close waits for the server to give up, here never).
func TestAdversarialProxyStuckUpstream(t *testing.T) {
	proxytest.ResourceCheck(t)
	release := make(chan struct{})
	defer close(release)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { <-release; c.Close() }()
		}
	}()
	e := newEnv(t, withLimits(proxy.Limits{PeekTimeout: 10 * time.Millisecond}))
	e.host("sink.example", []string{"203.0.113.9"}, ln.Addr().String(), &hostRule{ports: []int{9}})
	c, resp := e.connect("sink.example:9")
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT = %d", resp.StatusCode)
	}
	chunk := make([]byte, 64<<10)
	for {
		c.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
		if _, err := c.Write(chunk); err != nil {
			break // every buffer on the way is full
		}
	}
	done := make(chan struct{})
	go func() { e.p.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not return while an upstream was not reading")
	}
}
