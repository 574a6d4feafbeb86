// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// ServeTransparent serves connections captured from the sandbox on a
// port, for tools that ignore the proxy variables: the sandbox's DNS stub
// answers each name with an address of its own, and connections to port
// 80 or 443 of those addresses land on ln. nameFor maps the address a
// connection was made to (its local address on ln) back to the name the
// stub answered; ok is false for an address the stub never gave out.
//
// kind is "http" or "https":
//
//   - http: requests are read as by an origin server. Each request's
//     Host header is the name judged; it must equal nameFor's name when
//     there is one, and name no port but the connection's. Each request is
//     then judged and forwarded as a forward request is, with Via
//     "transparent".
//   - https: the ClientHello's server name is peeked (not consumed) and
//     is the name judged; it must equal nameFor's name when there is one,
//     and without either there is no name and the connection is closed.
//     The stream, Protocol "https" and Method "CONNECT", is then judged by
//     name, its addresses resolved, judged and dialed, and it is carried
//     as a CONNECT stream is (spliced, or intercepted). A denied stream
//     is answered in it with 403 when the proxy has a CA.
//
// The port judged is the one the connection was made to. ServeTransparent
// returns when ln fails or the proxy is closed ([ErrClosed]), at once for
// any other kind, and closes ln when it returns.
func (p *Proxy) ServeTransparent(ln net.Listener, kind string, nameFor func(local netip.AddrPort) (host string, ok bool)) error {
	if nameFor == nil {
		nameFor = func(netip.AddrPort) (string, bool) { return "", false }
	}
	switch kind {
	case ProtoHTTP:
		return p.serve(ln, ViaTransparent, func(c *trackedConn) {
			p.httpLn.push(newHTTPConn(c, nil, &connInfo{kind: kindTransparentHTTP, conn: c, local: addrPortOf(c.LocalAddr()), nameFor: nameFor}))
		})
	case ProtoHTTPS:
		return p.serve(ln, ViaTransparent, func(c *trackedConn) { p.serveTransparentTLS(c, nameFor) })
	}
	ln.Close()
	return fmt.Errorf("transparent capture of %q: want http or https", kind)
}

func (p *Proxy) serveTransparentTLS(c *trackedConn, nameFor func(netip.AddrPort) (string, bool)) {
	local := addrPortOf(c.LocalAddr())
	st := &stream{
		t:      Target{Port: int(local.Port()), Method: http.MethodConnect, Via: ViaTransparent, Caller: c.caller},
		start:  time.Now(),
		client: c,
		src:    c,
	}
	if mapped, ok := nameFor(local); ok {
		if h, err := parseHost(mapped, true); err == nil {
			st.t.Host = h
		}
	}
	// sniff checks the server name against st.t.Host when that is set.
	err := p.sniff(st)
	c.judged()
	switch {
	case errors.Is(err, errNoHello):
		c.Close()
		return
	case err == nil && st.t.Protocol != ProtoHTTPS:
		err = errors.New("the connection to port 443 does not start with a TLS ClientHello")
	case err == nil && st.t.Host == "":
		err = fmt.Errorf("the connection to %v names no server, and the address is not one the sandbox resolved", local)
	}
	if err != nil {
		p.endStream(st, Decision{Rule: ruleProxy, Reason: err.Error()}, false)
		return
	}
	if !p.acquireTunnel() {
		p.endStream(st, p.tunnelsFull(), false)
		return
	}
	defer p.releaseTunnel()
	d := p.checkName(p.ctx, st.t)
	st.first = d
	if !d.Allow {
		p.endStream(st, d, true)
		return
	}
	ad, err := p.checkAddrs(p.ctx, st.t)
	if err != nil {
		p.endStream(st, Decision{Rule: d.Rule, Reason: err.Error()}, true)
		return
	}
	if !ad.Allow {
		p.endStream(st, ad, true)
		return
	}
	up, addr, err := p.dialAddrs(p.ctx, st.t, ad.Addrs)
	var de *deniedError
	if errors.As(err, &de) {
		p.endStream(st, de.d, true)
		return
	}
	if err != nil {
		p.endStream(st, Decision{Rule: d.Rule, Reason: fmt.Sprintf("dialing %s: %v", st.t.Host, err)}, true)
		return
	}
	st.up, st.addr = up, addr
	p.carry(st, d)
}
