// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
)

// trackedConn is an accepted connection; Close forgets it. Close of the
// proxy closes every tracked connection, which ends whatever serves it.
//
// A tracked connection is pending from its accept until it is judged
// (judged, called once the proxy has read what it judges: a request
// header, a SOCKS5 request, a ClientHello) or closed; Limits.MaxConns and
// MaxPending bound them.
type trackedConn struct {
	net.Conn
	p       *Proxy
	once    sync.Once
	pending bool    // guarded by p.mu
	caller  *Caller // Config.Identify's answer, set before the connection is read
}

// callerOf is the Caller of the accepted connection under c, nil when
// there is none.
func callerOf(c net.Conn) *Caller {
	for c != nil {
		switch x := c.(type) {
		case *trackedConn:
			return x.caller
		case *httpConn:
			c = x.Conn
		case *tls.Conn:
			c = x.NetConn()
		default:
			return nil
		}
	}
	return nil
}

// track starts tracking c, or says which limit refuses it ("connections",
// "pending") and why; the error is ErrClosed once the proxy is closed.
func (p *Proxy) track(c net.Conn) (*trackedConn, string, error) {
	tc := &trackedConn{Conn: c, p: p, pending: true}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return nil, "", ErrClosed
	case len(p.conns) >= p.lim.MaxConns:
		return nil, "connections", fmt.Errorf("%d connections from the sandbox are open, the most the proxy holds at once for one run; this one was closed", p.lim.MaxConns)
	case p.pending >= p.lim.MaxPending:
		return nil, "pending", fmt.Errorf("%d connections from the sandbox are waiting to be judged, the most the proxy holds at once for one run; this one was closed", p.lim.MaxPending)
	}
	p.conns[tc] = struct{}{}
	p.pending++
	return tc, "", nil
}

// judged says the connection's first request, stream or handshake has
// been read: it no longer counts against Limits.MaxPending.
func (c *trackedConn) judged() {
	c.p.mu.Lock()
	if c.pending {
		c.pending = false
		c.p.pending--
	}
	c.p.mu.Unlock()
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.p.mu.Lock()
		delete(c.p.conns, c)
		if c.pending {
			c.pending = false
			c.p.pending--
		}
		c.p.mu.Unlock()
	})
	return c.Conn.Close()
}

// judgedConn marks c's tracked connection judged, if c wraps one.
func judgedConn(c net.Conn) {
	for {
		if tc, ok := c.(*trackedConn); ok {
			tc.judged()
			return
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return
		}
		c = u.NetConn()
	}
}

// NetConn returns the connection under c, for splicing.
func (c *trackedConn) NetConn() net.Conn { return c.Conn }

// rawConn returns the innermost connection of c, so that io.Copy between
// two TCP connections can use splice(2).
func rawConn(c net.Conn) net.Conn {
	for {
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return c
		}
		c = u.NetConn()
	}
}

// rawReader is r without the wrappers that no longer add anything: a
// prefixReader whose prefix is spent, a connection's own wrappers. A
// stream read from what remains, a *net.TCPConn, can be spliced.
func rawReader(r io.Reader) io.Reader {
	for {
		switch v := r.(type) {
		case *prefixReader:
			if len(v.pre) > 0 {
				return r
			}
			r = v.r
		case net.Conn:
			return rawConn(v)
		default:
			return r
		}
	}
}

// prefixReader reads pre, then r.
type prefixReader struct {
	pre []byte
	r   io.Reader
}

func (p *prefixReader) Read(b []byte) (int, error) {
	if len(p.pre) > 0 {
		n := copy(b, p.pre)
		p.pre = p.pre[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// connKind says what the HTTP server is serving on a connection.
type connKind int

const (
	kindFront           connKind = iota // Serve's listener: forward requests and CONNECT
	kindTransparentHTTP                 // ServeTransparent "http": origin-form requests
	kindInner                           // the requests inside a stream
)

// connInfo is what the HTTP server's handler knows about a connection.
type connInfo struct {
	kind    connKind
	conn    net.Conn                            // kindFront, kindTransparentHTTP: the accepted connection
	st      *stream                             // kindInner
	local   netip.AddrPort                      // kindTransparentHTTP
	nameFor func(netip.AddrPort) (string, bool) // kindTransparentHTTP
}

type connInfoKey struct{}

// httpConn is a connection handed to the HTTP server: reads come from r
// (which may hold bytes already peeked), and Close tells whoever waits.
type httpConn struct {
	net.Conn
	r         io.Reader
	info      *connInfo
	up, down  atomic.Int64
	closeOnce sync.Once
	done      chan struct{}
}

func newHTTPConn(c net.Conn, r io.Reader, info *connInfo) *httpConn {
	if r == nil {
		r = c
	}
	return &httpConn{Conn: c, r: r, info: info, done: make(chan struct{})}
}

func (c *httpConn) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.up.Add(int64(n))
	return n, err
}

func (c *httpConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.down.Add(int64(n))
	return n, err
}

func (c *httpConn) Close() error {
	err := c.Conn.Close()
	c.closeOnce.Do(func() { close(c.done) })
	return err
}

// NetConn returns the connection under c, so that a hijacked stream is
// copied (and half-closed) on it directly.
func (c *httpConn) NetConn() net.Conn { return c.Conn }

func connContext(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	if hc, ok := c.(*httpConn); ok {
		return context.WithValue(ctx, connInfoKey{}, hc.info)
	}
	return ctx
}

func connInfoFrom(ctx context.Context) *connInfo {
	ci, _ := ctx.Value(connInfoKey{}).(*connInfo)
	return ci
}

// chanListener hands connections to the HTTP server.
type chanListener struct {
	ch   chan net.Conn
	once sync.Once
	done chan struct{}
}

func newChanListener() *chanListener {
	return &chanListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

// push hands c to the server, or closes it if the listener is closed.
func (l *chanListener) push(c net.Conn) {
	select {
	case l.ch <- c:
	case <-l.done:
		c.Close()
	}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *chanListener) Addr() net.Addr { return &net.TCPAddr{} }

// addrPortOf returns the address and port of a, for a TCP address or
// anything printed as ip:port.
func addrPortOf(a net.Addr) netip.AddrPort {
	if ta, ok := a.(*net.TCPAddr); ok {
		ap := ta.AddrPort()
		return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	}
	if a == nil {
		return netip.AddrPort{}
	}
	ap, _ := netip.ParseAddrPort(a.String())
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
}
