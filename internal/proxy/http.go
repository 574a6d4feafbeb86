// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/http/httputil"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"warden.dev/warden/internal/audit"
)

// reqState follows one request through the reverse proxy.
type reqState struct {
	t     Target
	start time.Time
	st    *stream      // the stream it was read from; nil for a forward request
	addrs []netip.Addr // a forward request's checked addresses
	rule  string
	inj   injection

	up, down atomic.Int64

	mu     sync.Mutex // mu guards the fields below
	addr   netip.AddrPort
	status int
	denied *Decision
}

func (rs *reqState) set(f func()) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	f()
}

type reqStateKey struct{}

func stateFrom(ctx context.Context) *reqState {
	rs, _ := ctx.Value(reqStateKey{}).(*reqState)
	return rs
}

// serveHTTP serves every request the HTTP server reads: on Serve's
// listener (forward requests and CONNECT), on a transparent :80 listener,
// and inside streams.
func (p *Proxy) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.enter() {
		return
	}
	defer p.leave()
	start := time.Now()
	ci := connInfoFrom(r.Context())
	if ci == nil {
		return
	}
	if ci.conn != nil {
		judgedConn(ci.conn)
	}
	t := Target{Method: r.Method, Protocol: ProtoHTTP, Path: r.URL.Path, RawPath: r.URL.EscapedPath(), Query: r.URL.RawQuery, Caller: callerOf(ci.conn)}
	if ci.st != nil {
		t.Caller = callerOf(ci.st.client)
	}
	bad := func(status int, code string, err error, hint string) {
		p.refuse(w, start, t, status, code, Decision{Rule: ruleProxy, Reason: err.Error(), Hint: hint}, nil)
	}
	switch ci.kind {
	case kindFront:
		t.Via = ViaForward
		if r.Method == http.MethodConnect {
			p.serveConnect(w, r)
			return
		}
		t.Host = r.URL.Host
		if !r.URL.IsAbs() || r.URL.Host == "" {
			bad(http.StatusBadRequest, "bad_request", errors.New("not a proxy request: the request line has no absolute URI"), "send http://host/path to this proxy, or CONNECT host:port")
			return
		}
		if r.URL.Scheme != "http" {
			bad(http.StatusBadRequest, "bad_request", fmt.Errorf("the proxy forwards only http:// URIs, not %s://", r.URL.Scheme), "use CONNECT for https")
			return
		}
		host, port, err := parseHostPort(r.URL.Host, 80)
		if err != nil {
			bad(http.StatusBadRequest, "bad_request", err, "")
			return
		}
		t.Host, t.Port = host, port
		p.forward(w, r, t, nil)
	case kindTransparentHTTP:
		t.Via = ViaTransparent
		t.Host, t.Port = r.Host, int(ci.local.Port())
		host, port, err := parseHostPort(r.Host, int(ci.local.Port()))
		if err != nil {
			bad(http.StatusBadRequest, "bad_request", fmt.Errorf("Host header: %v", err), "")
			return
		}
		t.Host = host
		if port != int(ci.local.Port()) {
			bad(http.StatusForbidden, "policy_denied", fmt.Errorf("Host header names port %d, and the connection was made to port %d", port, ci.local.Port()), "")
			return
		}
		if name, ok := ci.nameFor(ci.local); ok && name != host {
			bad(http.StatusForbidden, "policy_denied", fmt.Errorf("Host header %q does not match %q, the name resolved to %v", host, name, ci.local.Addr()), "")
			return
		}
		p.forward(w, r, t, nil)
	case kindInner:
		st := ci.st
		t.Host, t.Port, t.Protocol, t.Via = st.t.Host, st.t.Port, st.t.Protocol, st.t.Via
		if st.deny != nil {
			p.refuse(w, start, t, http.StatusForbidden, "policy_denied", *st.deny, nil)
			return
		}
		if r.Method == http.MethodConnect {
			bad(http.StatusBadRequest, "bad_request", errors.New("CONNECT inside a stream"), "")
			return
		}
		// Host must name the stream's target, so that no request rides
		// a tunnel judged for another host (domain fronting).
		host, port, err := parseHostPort(r.Host, st.t.Port)
		if err != nil || host != st.t.Host || port != st.t.Port {
			bad(http.StatusForbidden, "policy_denied", fmt.Errorf("Host header %q does not match the stream's target %s", r.Host, joinHostPort(st.t.Host, st.t.Port)), "")
			return
		}
		p.forward(w, r, t, st)
	}
}

// forward judges one HTTP request and, if allowed, sends it upstream and
// its response back; it never follows a redirect (each hop is a new
// request from the sandbox, judged again).
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, t Target, st *stream) {
	rs := &reqState{t: t, start: time.Now(), st: st}
	d := p.checkName(r.Context(), t)
	if !d.Allow {
		p.refuse(w, rs.start, t, http.StatusForbidden, "policy_denied", d, nil)
		return
	}
	rs.rule = d.Rule
	secure := st != nil && st.tls
	inj, deny := p.inj.prepare(r, t.Host, t.Port, secure, p.lim.MaxBodyBuffer)
	if deny != nil {
		deny.Rule = d.Rule
		p.refuse(w, rs.start, t, http.StatusForbidden, "policy_denied", *deny, &inj)
		return
	}
	if len(inj.injected) > 0 && (r.Method == "TRACE" || r.Method == "TRACK") {
		p.refuse(w, rs.start, t, http.StatusForbidden, "policy_denied", Decision{Rule: d.Rule, Reason: r.Method + " would echo the injected credential back"}, nil)
		return
	}
	rs.inj = inj
	if st == nil {
		ad, err := p.checkAddrs(r.Context(), t)
		if err != nil {
			p.refuse(w, rs.start, t, http.StatusBadGateway, "upstream_failed", Decision{Allow: true, Rule: d.Rule, Reason: err.Error()}, nil)
			return
		}
		if !ad.Allow {
			p.refuse(w, rs.start, t, http.StatusForbidden, "policy_denied", ad, nil)
			return
		}
		rs.addrs = ad.Addrs
	} else {
		rs.addr = st.addr
	}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = &countingBody{ReadCloser: r.Body, n: &rs.up}
	}
	ctx := context.WithValue(r.Context(), reqStateKey{}, rs)
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
		c := i.Conn
		if tc, ok := c.(*tls.Conn); ok {
			c = tc.NetConn()
		}
		if cc, ok := c.(*checkedConn); ok {
			rs.set(func() { rs.addr = cc.addr })
		}
	}})
	p.rp.ServeHTTP(w, r.WithContext(ctx))
	rs.mu.Lock()
	defer rs.mu.Unlock()
	a := attempt(rs.start, t)
	a.Addr = addrString(rs.addr)
	a.Verdict = audit.VerdictOf(rs.denied == nil)
	a.Rule = d.Rule
	a.Status = rs.status
	a.BytesUp, a.BytesDown = rs.up.Load(), rs.down.Load()
	a.Injected, a.Flagged = rs.inj.injected, rs.inj.flagged
	if rs.denied != nil {
		a.Rule, a.Reason = rs.denied.Rule, p.inj.redact(rs.denied.Reason)
	}
	p.record(a)
}

func (p *Proxy) rewrite(pr *httputil.ProxyRequest) {
	rs := stateFrom(pr.In.Context())
	pr.Out.URL.Scheme = "http"
	if rs.st != nil && rs.st.tls {
		pr.Out.URL.Scheme = "https"
	}
	pr.Out.URL.Host = joinHostPort(rs.t.Host, rs.t.Port)
	pr.Out.Host = pr.In.Host
}

func (p *Proxy) roundTrip(r *http.Request) (*http.Response, error) {
	rs := stateFrom(r.Context())
	if rs == nil {
		return nil, errors.New("internal error: a request the proxy did not judge")
	}
	if rs.st != nil {
		return p.transport(rs.st).RoundTrip(r)
	}
	return p.fwd.RoundTrip(r)
}

// dialForward is the forward transport's dialer: it dials only the
// addresses checked for the request that asked for the connection.
func (p *Proxy) dialForward(ctx context.Context, network, addr string) (net.Conn, error) {
	rs := stateFrom(ctx)
	if rs == nil || len(rs.addrs) == 0 || addr != joinHostPort(rs.t.Host, rs.t.Port) {
		return nil, fmt.Errorf("internal error: a dial to %s that was not checked", addr)
	}
	c, _, err := p.dialAddrs(ctx, rs.t, rs.addrs)
	return c, err
}

func (p *Proxy) modifyResponse(resp *http.Response) error {
	rs := stateFrom(resp.Request.Context())
	rs.set(func() { rs.status = resp.StatusCode })
	if len(rs.inj.injected) > 0 {
		p.inj.redactHeader(resp.Header)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &rs.down}
	}
	return nil
}

// proxyError answers a request the upstream did not answer.
func (p *Proxy) proxyError(w http.ResponseWriter, r *http.Request, err error) {
	rs := stateFrom(r.Context())
	var de *deniedError
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var hn x509.HostnameError
	var ci x509.CertificateInvalidError
	switch {
	case rs.inj.scan != nil && rs.inj.scan.found() != nil:
		c := rs.inj.scan.found()
		d := p.inj.flagDecision(c, rs.t.Host, rs.t.Port, r.Method, r.URL.EscapedPath(), rs.st != nil && rs.st.tls)
		d.Rule = rs.rule
		rs.inj.flag(c)
		p.deny(w, rs, http.StatusForbidden, "policy_denied", d)
	case errors.As(err, &de):
		p.deny(w, rs, http.StatusForbidden, "policy_denied", de.d)
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The sandbox went away; nobody to answer.
		rs.set(func() { rs.denied = &Decision{Rule: rs.rule, Reason: "the client closed the request"} })
	case errors.As(err, &cv) || errors.As(err, &ua) || errors.As(err, &hn) || errors.As(err, &ci):
		p.deny(w, rs, http.StatusBadGateway, "upstream_tls_failed", Decision{Rule: rs.rule, Reason: fmt.Sprintf("the upstream certificate of %s is not valid: %v", rs.t.Host, err), Hint: "the proxy verifies upstream certificates against the system roots"})
	default:
		p.deny(w, rs, http.StatusBadGateway, "upstream_failed", Decision{Rule: rs.rule, Reason: fmt.Sprintf("reaching %s: %v", joinHostPort(rs.t.Host, rs.t.Port), err)})
	}
}

func (p *Proxy) deny(w http.ResponseWriter, rs *reqState, status int, code string, d Decision) {
	rs.set(func() {
		rs.status = status
		rs.denied = &d
	})
	p.writeDenial(w, status, code, rs.t, d)
}

// denial is the JSON body of every refusal (docs/spec.md §9).
type denial struct {
	Error  string `json:"error"`
	Host   string `json:"host"`
	Port   int    `json:"port"`
	Method string `json:"method"`
	Reason string `json:"reason"`
	Rule   string `json:"rule"`
	Hint   string `json:"hint"`
}

// writeDenial answers with status and the JSON body of a refusal.
func (p *Proxy) writeDenial(w http.ResponseWriter, status int, code string, t Target, d Decision) {
	h := w.Header()
	var b []byte
	if d.Body != nil && code == "policy_denied" {
		// The decider's own shape (OpenShell's), redacted as ours is.
		b = []byte(p.inj.redact(string(d.Body)))
		for k, v := range d.Header {
			h.Set(k, p.inj.redact(v))
		}
	} else {
		var err error
		b, err = json.Marshal(denial{
			Error:  code,
			Host:   t.Host,
			Port:   t.Port,
			Method: t.Method,
			Reason: p.inj.redact(d.Reason),
			Rule:   d.Rule,
			Hint:   p.inj.redact(d.Hint),
		})
		if err != nil {
			panic("internal error: " + err.Error())
		}
	}
	b = append(b, '\n')
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-store")
	if t.Method == http.MethodConnect {
		h.Set("Connection", "close")
	}
	w.WriteHeader(status)
	w.Write(b)
}

// refuse answers a request with a refusal and records it. inj, if given,
// carries the credentials flagged.
func (p *Proxy) refuse(w http.ResponseWriter, start time.Time, t Target, status int, code string, d Decision, inj *injection) {
	p.writeDenial(w, status, code, t, d)
	a := attempt(start, t)
	a.Verdict = audit.VerdictOf(d.Allow && status < 400)
	a.Rule, a.Reason = d.Rule, p.inj.redact(d.Reason)
	a.Status = status
	a.Limit = d.limit
	if inj != nil {
		a.Flagged = inj.flagged
	}
	p.record(a)
}

// countingBody counts the bytes read through it.
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// checkedConn is an upstream connection, with the checked address it was
// dialed to.
type checkedConn struct {
	net.Conn
	addr netip.AddrPort
	p    *Proxy
	once sync.Once
}

// Close forgets the connection: Close of the proxy closes every upstream
// connection still open, so that none whose server stopped reading holds
// a copy (and the proxy's Close) until the server gives up.
func (c *checkedConn) Close() error {
	c.once.Do(func() {
		c.p.mu.Lock()
		delete(c.p.ups, c)
		c.p.mu.Unlock()
	})
	return c.Conn.Close()
}

func (c *checkedConn) NetConn() net.Conn { return c.Conn }
