// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"warden.dev/warden/internal/audit"
)

// stream is one tunnel: a CONNECT, a SOCKS5 CONNECT or a transparently
// captured connection, from the moment its upstream is dialed.
type stream struct {
	t      Target
	start  time.Time
	status int // the CONNECT answer, for the record
	first  Decision

	client net.Conn      // the sandbox's side
	src    io.Reader     // what the sandbox sent: buffered bytes, then client
	br     *bufio.Reader // src, peeked into
	upBR   *bufio.Reader // the upstream, peeked into (CONNECT and SOCKS5)
	tls    bool          // the requests inside are read from TLS the proxy terminates

	mu   sync.Mutex // mu guards up until it is taken
	up   net.Conn
	addr netip.AddrPort

	deny *Decision // set when the stream was denied after it opened
	tr   *http.Transport
}

// takeUp returns the upstream connection dialed for the stream, once.
func (st *stream) takeUp() net.Conn {
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.up
	st.up = nil
	return c
}

// handleFront serves one connection of Serve's listener: SOCKS5 if its
// first byte says so, HTTP otherwise.
func (p *Proxy) handleFront(c *trackedConn) {
	c.SetReadDeadline(time.Now().Add(p.lim.HandshakeTimeout))
	var b [1]byte
	if _, err := io.ReadFull(c, b[:]); err != nil {
		c.Close()
		return
	}
	if b[0] == socksVersion {
		p.serveSOCKS(c)
		return
	}
	c.SetReadDeadline(time.Time{})
	p.httpLn.push(newHTTPConn(c, &prefixReader{pre: b[:], r: c}, &connInfo{kind: kindFront, conn: c}))
}

// serveConnect serves a CONNECT request: the name is judged, the
// addresses resolved, judged and dialed, and only then is the tunnel
// opened (200); the stream is judged again once its first bytes show
// what it is.
func (p *Proxy) serveConnect(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	t := Target{Method: http.MethodConnect, Via: ViaConnect}
	if ci := connInfoFrom(r.Context()); ci != nil {
		t.Caller = callerOf(ci.conn)
	}
	host, port, err := parseHostPort(r.Host, 0)
	if err != nil {
		t.Host = r.Host
		p.refuse(w, start, t, http.StatusBadRequest, "bad_request", Decision{Rule: ruleProxy, Reason: fmt.Sprintf("CONNECT target: %v", err), Hint: "CONNECT host:port, with a host name or IP address"}, nil)
		return
	}
	t.Host, t.Port = host, port
	d := p.checkName(r.Context(), t)
	if !d.Allow {
		p.refuse(w, start, t, http.StatusForbidden, "policy_denied", d, nil)
		return
	}
	if !p.acquireTunnel() {
		p.refuse(w, start, t, http.StatusServiceUnavailable, "too_many_tunnels", p.tunnelsFull(), nil)
		return
	}
	defer p.releaseTunnel()
	ad, err := p.checkAddrs(r.Context(), t)
	if err != nil {
		p.refuse(w, start, t, http.StatusBadGateway, "upstream_failed", Decision{Allow: true, Rule: d.Rule, Reason: err.Error()}, nil)
		return
	}
	if !ad.Allow {
		p.refuse(w, start, t, http.StatusForbidden, "policy_denied", ad, nil)
		return
	}
	up, addr, err := p.dialAddrs(r.Context(), t, ad.Addrs)
	var de *deniedError
	if errors.As(err, &de) {
		p.refuse(w, start, t, http.StatusForbidden, "policy_denied", de.d, nil)
		return
	}
	if err != nil {
		p.refuse(w, start, t, http.StatusBadGateway, "upstream_failed", Decision{Allow: true, Rule: d.Rule, Reason: fmt.Sprintf("dialing %s: %v", t.Host, err)}, nil)
		return
	}
	c, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		p.logf("proxy: hijacking CONNECT: %v", err)
		return
	}
	c.SetDeadline(time.Time{})
	st := &stream{t: t, start: start, status: http.StatusOK, first: d, client: c, up: up, addr: addr, src: c}
	if n := brw.Reader.Buffered(); n > 0 {
		pre, _ := brw.Reader.Peek(n)
		st.src = &prefixReader{pre: append([]byte(nil), pre...), r: c}
	} else if hc, ok := c.(*httpConn); ok {
		st.src = hc.r
	}
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		c.Close()
		up.Close()
		return
	}
	p.runStream(st)
}

// runStream learns an opened stream's protocol, judges the stream again
// knowing it, and carries it.
func (p *Proxy) runStream(st *stream) {
	if err := p.sniff(st); err != nil {
		if errors.Is(err, errNoHello) {
			st.client.Close()
			st.takeUp().Close()
			p.recordStream(st, Decision{Allow: true, Rule: st.first.Rule}, 0, 0)
			return
		}
		p.endStream(st, Decision{Rule: ruleProxy, Reason: err.Error()}, false)
		return
	}
	d := p.checkName(p.ctx, st.t)
	d.Intercept = d.Intercept || st.first.Intercept
	p.carry(st, d)
}

// errNoHello is a stream that ended before sending anything.
var errNoHello = errors.New("the stream ended before sending anything")

// sniff peeks at the start of a stream, without consuming it, to learn
// its protocol: a TLS ClientHello (https, whose server name must be the
// target's), an HTTP request line (http), or anything else, including
// nothing within PeekTimeout (tcp).
func (p *Proxy) sniff(st *stream) error {
	st.br = bufio.NewReaderSize(st.src, peekBufSize)
	defer st.client.SetReadDeadline(time.Time{})
	st.t.Protocol = ProtoTCP
	// An upstream already dialed is watched too: when it speaks first
	// the stream is not TLS nor HTTP (whose clients speak first), and
	// there is no need to wait out PeekTimeout. Most clients speak at
	// once, so the watch starts only if the client is silent for a
	// moment.
	stopUp := func() bool { return false }
	quick := min(time.Millisecond, p.lim.PeekTimeout)
	st.client.SetReadDeadline(time.Now().Add(quick))
	_, err := st.br.Peek(1)
	silent := errors.Is(err, os.ErrDeadlineExceeded)
	st.client.SetReadDeadline(time.Now().Add(p.lim.PeekTimeout - quick))
	if silent && st.up != nil {
		st.upBR = bufio.NewReaderSize(st.up, 32<<10)
		upDone := make(chan struct{})
		go func() {
			defer close(upDone)
			if _, err := st.upBR.Peek(1); err == nil {
				st.client.SetReadDeadline(time.Now())
			}
		}()
		stopUp = func() bool {
			st.up.SetReadDeadline(time.Now())
			<-upDone
			st.up.SetReadDeadline(time.Time{})
			return st.upBR.Buffered() > 0
		}
	}
	b, err := st.br.Peek(1)
	if stopUp() {
		return nil // the server spoke first: tcp
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil
	case err != nil:
		return errNoHello
	case b[0] == 0x16: // a TLS handshake record
		st.client.SetReadDeadline(time.Now().Add(p.lim.HandshakeTimeout))
		sni, err := clientHelloSNI(st.br)
		if err != nil {
			return fmt.Errorf("the stream starts like TLS, but its ClientHello could not be read: %v", err)
		}
		st.t.Protocol = ProtoHTTPS
		if sni != "" {
			n, err := parseHost(sni, true)
			switch {
			case err != nil:
				return fmt.Errorf("TLS server name: %v", err)
			case st.t.Host == "": // a transparent stream to an address no name maps to
				st.t.Host = n
			case n != st.t.Host:
				return fmt.Errorf("TLS server name %q does not match the target %q", sni, st.t.Host)
			}
		}
	case 'A' <= b[0] && b[0] <= 'Z':
		b, _ := st.br.Peek(min(st.br.Buffered(), 16))
		if looksHTTP(b) {
			st.t.Protocol = ProtoHTTP
		}
	}
	return nil
}

// looksHTTP reports whether b starts with an HTTP method and a space.
func looksHTTP(b []byte) bool {
	for i, c := range b {
		if c == ' ' {
			return i > 0
		}
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return false
}

// carry runs an opened stream under its decision d: a denied stream is
// closed (or, for TLS with a CA and for plain HTTP, answered with a 403
// to every request, which a client can read); an allowed one is either
// spliced to its upstream as it is or, when the rule or a credential
// needs it and the stream is TLS or HTTP, read request by request.
func (p *Proxy) carry(st *stream, d Decision) {
	if !d.Allow {
		p.endStream(st, d, true)
		return
	}
	intercept := d.Intercept || p.inj.boundTo(st.t.Host)
	switch {
	case st.t.Protocol == ProtoHTTP:
		p.serveInner(st, false)
	case st.t.Protocol == ProtoHTTPS && intercept:
		if p.cfg.CA == nil {
			p.endStream(st, Decision{Rule: d.Rule, Reason: "this destination needs TLS interception, and the proxy has no CA", Hint: "run warden with its CA"}, false)
			return
		}
		p.serveInner(st, true)
	case d.Intercept:
		p.endStream(st, Decision{Rule: d.Rule, Reason: "the rule judges HTTP requests, and this stream is neither TLS nor HTTP"}, false)
	default:
		p.splice(st, d)
	}
}

// endStream ends a stream denied after it opened, and records it. When
// inband, the stream's protocol is known and readable (its ClientHello
// named the target), and the denial can be told in it, every request in
// the stream is answered with the denial: over TLS terminated with a
// leaf for the target when the proxy has a CA, or in plain HTTP.
func (p *Proxy) endStream(st *stream, d Decision, inband bool) {
	d.Allow = false
	if up := st.takeUp(); up != nil {
		up.Close()
	}
	st.deny = &d
	switch {
	case inband && st.t.Protocol == ProtoHTTPS && p.cfg.CA != nil:
		p.serveInner(st, true)
		return
	case inband && st.t.Protocol == ProtoHTTP:
		p.serveInner(st, false)
		return
	}
	st.client.Close()
	p.recordStream(st, d, 0, 0)
}

func (p *Proxy) recordStream(st *stream, d Decision, up, down int64) {
	a := attempt(st.start, st.t)
	a.Addr = addrString(st.addr)
	a.Verdict, a.Rule, a.Reason = audit.VerdictOf(d.Allow), d.Rule, d.Reason
	a.Status = st.status
	a.BytesUp, a.BytesDown = up, down
	a.Intercepted = st.tls && d.Allow
	a.Limit = d.limit
	p.record(a)
}

func addrString(ap netip.AddrPort) string {
	if !ap.IsValid() {
		return ""
	}
	return ap.String()
}

// splice copies the stream both ways until both sides are done, with the
// bytes the sniffing peeked sent first. Each direction is copied by
// copyAdaptive: in user space while it is idle or trickles, by splice(2)
// between the two sockets once it carries bulk.
func (p *Proxy) splice(st *stream, d Decision) {
	up := st.takeUp()
	client := st.client
	var upBytes, downBytes atomic.Int64
	// What sniffing peeked goes first, each way; the peek buffers are
	// not held for the stream's life.
	for _, h := range []struct {
		br    *bufio.Reader
		dst   net.Conn
		count *atomic.Int64
	}{{st.br, up, &upBytes}, {st.upBR, client, &downBytes}} {
		if h.br == nil || h.br.Buffered() == 0 {
			continue
		}
		head, _ := h.br.Peek(h.br.Buffered())
		n, err := h.dst.Write(head)
		h.count.Add(int64(n))
		if err != nil {
			up.Close()
			client.Close()
			p.recordStream(st, d, upBytes.Load(), downBytes.Load())
			return
		}
	}
	st.br, st.upBR = nil, nil
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.pump(client, rawConn(client), up, rawConn(up), &downBytes, &last)
	}()
	p.pump(up, rawConn(up), client, rawReader(st.src), &upBytes, &last)
	<-done
	up.Close()
	client.Close()
	p.recordStream(st, d, upBytes.Load(), downBytes.Load())
}

// pump copies from src (reading r, which is src or reads it) to dst until
// src ends, then half-closes dst. It gives up, closing both, when neither
// direction moved a byte for about IdleTimeout: the read deadline is set
// once per IdleTimeout, and a copy that times out with no byte moved looks
// at when either direction last moved.
func (p *Proxy) pump(dst, dstRaw net.Conn, src net.Conn, r io.Reader, count, last *atomic.Int64) {
	idle := p.lim.IdleTimeout
	for {
		src.SetReadDeadline(time.Now().Add(idle))
		var n int64
		var err error
		n, err = p.copyAdaptive(dstRaw, r)
		count.Add(n)
		now := time.Now().UnixNano()
		if n > 0 {
			last.Store(now)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if time.Duration(now-last.Load()) < 2*idle {
				continue
			}
			dst.Close()
			src.Close()
			return
		}
		if err != nil {
			dst.Close()
			src.Close()
			return
		}
		if cw, ok := dstRaw.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		} else {
			dst.Close()
		}
		return
	}
}

// serveInner hands the stream to the HTTP server, which reads its
// requests (over TLS the proxy terminates when secure), and waits for it
// to be done with the stream.
func (p *Proxy) serveInner(st *stream, secure bool) {
	st.tls = secure
	hc := newHTTPConn(st.client, st.br, &connInfo{kind: kindInner, st: st})
	var c net.Conn = hc
	if secure {
		c = tls.Server(hc, &tls.Config{
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return p.cfg.CA.Leaf(st.t.Host) },
			NextProtos:     []string{"http/1.1"},
			MinVersion:     tls.VersionTLS12,
		})
	}
	p.httpLn.push(c)
	select {
	case <-hc.done:
	case <-p.ctx.Done():
		c.Close()
		<-hc.done
	}
	if st.tr != nil {
		st.tr.CloseIdleConnections()
	}
	if up := st.takeUp(); up != nil {
		up.Close()
	}
	d := Decision{Allow: true, Rule: st.first.Rule}
	if st.deny != nil {
		d = *st.deny
	}
	p.recordStream(st, d, hc.up.Load(), hc.down.Load())
}

// transport returns the stream's own transport, which dials only the
// stream's target: first the connection dialed when the stream opened,
// then, if the upstream closed it, a new one, resolved and judged again.
func (p *Proxy) transport(st *stream) *http.Transport {
	if st.tr == nil {
		st.tr = p.newTransport(func(ctx context.Context, network, addr string) (net.Conn, error) {
			if c := st.takeUp(); c != nil {
				return c, nil
			}
			d, err := p.checkAddrs(ctx, st.t)
			if err != nil {
				return nil, err
			}
			if !d.Allow {
				return nil, &deniedError{d}
			}
			c, _, err := p.dialAddrs(ctx, st.t, d.Addrs)
			return c, err
		}, &tls.Config{
			ServerName: st.t.Host,
			RootCAs:    p.cfg.RootCAs,
			NextProtos: []string{"http/1.1"},
			MinVersion: tls.VersionTLS12,
		})
	}
	return st.tr
}

func (p *Proxy) newTransport(dial func(ctx context.Context, network, addr string) (net.Conn, error), tc *tls.Config) *http.Transport {
	return &http.Transport{
		Proxy:                  nil, // never the environment's proxy
		DialContext:            dial,
		TLSClientConfig:        tc,
		TLSHandshakeTimeout:    p.lim.HandshakeTimeout,
		DisableCompression:     true, // pass Accept-Encoding through as sent
		MaxResponseHeaderBytes: int64(p.lim.MaxHeaderBytes),
		IdleConnTimeout:        p.lim.IdleTimeout,
		MaxIdleConnsPerHost:    4,
		// In all, not per host: a sandbox asking many names must not
		// leave an idle upstream connection for each.
		MaxIdleConns:          maxIdleUpstream,
		ExpectContinueTimeout: time.Second,
		TLSNextProto:          map[string]func(string, *tls.Conn) http.RoundTripper{}, // HTTP/1.1 only
	}
}

// maxIdleUpstream bounds the idle upstream connections a transport
// keeps.
const maxIdleUpstream = 64

// deniedError is a dial refused by CheckAddrs.
type deniedError struct{ d Decision }

func (e *deniedError) Error() string { return "denied: " + e.d.Reason }

// Buffers of copyAdaptive: an idle stream holds a small one while it
// waits for bytes. A stream whose reads fill it is carrying bulk: between
// two TCP sockets it is spliced from then on (splice(2) through a pipe
// the runtime lends, with no copy through the proxy's memory: a user-space
// copy held a CONNECT tunnel to about 0.7 of a direct transfer on
// loopback), until the source ends, fails or passes its read deadline;
// otherwise it borrows a large buffer from the pool and keeps it until a
// read returns less than a small one would hold (a bulk transfer whose
// reads outpace its writer returns partial reads far larger than that,
// and switching would cost syscalls). A stream that goes quiet right
// after a burst holds its pipe or large buffer until its next read
// returns or the idle timeout restarts the copy. At most
// Limits.MaxLargeBuffers pipes and buffers together are lent at once,
// which bounds the descriptors a pipe costs (two) as well as the memory;
// a stream that finds none free goes on with its small buffer.
const (
	smallCopyBuf = 2 << 10
	largeCopyBuf = 256 << 10
)

var largeBufs = sync.Pool{New: func() any { return make([]byte, largeCopyBuf) }}

// copyAdaptive copies src to dst like io.Copy, with copyAdaptive's
// buffers, or splices once the stream carries bulk.
func (p *Proxy) copyAdaptive(dst io.Writer, src io.Reader) (int64, error) {
	var small [smallCopyBuf]byte
	var large []byte
	defer func() {
		if large != nil {
			largeBufs.Put(large) //nolint:staticcheck // a slice header is small
			p.returnLarge()
		}
	}()
	dstTCP, _ := dst.(*net.TCPConn)
	srcTCP, _ := src.(*net.TCPConn)
	var total int64
	for {
		buf := small[:]
		if large != nil {
			buf = large
		}
		n, err := src.Read(buf)
		if n > 0 {
			m, werr := dst.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		switch {
		case err == nil && large == nil && n == len(small) && dstTCP != nil && srcTCP != nil && p.borrowLarge():
			// TCPConn.ReadFrom splices from a TCPConn; the count it
			// returns is the stream's, so nothing wraps either socket.
			m, err := dstTCP.ReadFrom(srcTCP)
			p.returnLarge()
			return total + m, err
		case large == nil && n == len(small) && p.borrowLarge():
			large = largeBufs.Get().([]byte)
		case large != nil && n < len(small):
			largeBufs.Put(large) //nolint:staticcheck // a slice header is small
			p.returnLarge()
			large = nil
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
