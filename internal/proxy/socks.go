// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

// SOCKS5 (RFC 1928) is served on Serve's listener beside HTTP, for tools
// that take ALL_PROXY=socks5h://…: no authentication, CONNECT only (no
// BIND, no UDP ASSOCIATE), and a stream then goes through the same
// judgement as a CONNECT. Names sent as names (socks5h) are resolved by
// the proxy; a SOCKS5 denial is reply 0x02, which carries no reason, so
// the reason is in the record alone.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"time"

	"warden.dev/warden/internal/audit"
)

const socksVersion = 5

// SOCKS5 reply codes.
const (
	socksOK             = 0x00
	socksFailure        = 0x01
	socksNotAllowed     = 0x02
	socksHostUnreach    = 0x04
	socksRefused        = 0x05
	socksCmdUnsupported = 0x07
	socksAddrUnsupport  = 0x08
)

// serveSOCKS serves a connection whose first byte (already read) was 5.
func (p *Proxy) serveSOCKS(c *trackedConn) {
	start := time.Now()
	c.SetDeadline(time.Now().Add(p.lim.HandshakeTimeout))
	t := Target{Method: http.MethodConnect, Via: ViaSOCKS5, Caller: c.caller}
	fail := func(code byte, d Decision) {
		c.Write([]byte{socksVersion, code, 0, 1, 0, 0, 0, 0, 0, 0})
		c.Close()
		a := attempt(start, t)
		a.Verdict, a.Rule, a.Reason, a.Limit = audit.VerdictOf(d.Allow && code == socksOK), d.Rule, d.Reason, d.limit
		p.record(a)
	}
	var hdr [2]byte
	var methods [255]byte
	if _, err := io.ReadFull(c, hdr[:1]); err != nil {
		c.Close()
		return
	}
	if _, err := io.ReadFull(c, methods[:hdr[0]]); err != nil {
		c.Close()
		return
	}
	noAuth := false
	for _, m := range methods[:hdr[0]] {
		noAuth = noAuth || m == 0
	}
	if !noAuth {
		c.Write([]byte{socksVersion, 0xff})
		c.Close()
		return
	}
	if _, err := c.Write([]byte{socksVersion, 0}); err != nil {
		c.Close()
		return
	}
	var req [4]byte
	if _, err := io.ReadFull(c, req[:]); err != nil || req[0] != socksVersion {
		c.Close()
		return
	}
	var err error
	t.Host, err = readSOCKSAddr(c, req[3])
	if err != nil {
		fail(socksAddrUnsupport, Decision{Rule: ruleProxy, Reason: err.Error()})
		return
	}
	var pb [2]byte
	if _, err := io.ReadFull(c, pb[:]); err != nil {
		c.Close()
		return
	}
	t.Port = int(binary.BigEndian.Uint16(pb[:]))
	c.judged()
	if req[1] != 1 {
		fail(socksCmdUnsupported, Decision{Rule: ruleProxy, Reason: fmt.Sprintf("SOCKS5 command %d: only CONNECT is served", req[1])})
		return
	}
	if t.Port == 0 {
		fail(socksNotAllowed, Decision{Rule: ruleProxy, Reason: "port 0"})
		return
	}
	d := p.checkName(p.ctx, t)
	if !d.Allow {
		fail(socksNotAllowed, d)
		return
	}
	if !p.acquireTunnel() {
		fail(socksFailure, p.tunnelsFull())
		return
	}
	defer p.releaseTunnel()
	ad, err := p.checkAddrs(p.ctx, t)
	if err != nil {
		fail(socksHostUnreach, Decision{Allow: true, Rule: d.Rule, Reason: err.Error()})
		return
	}
	if !ad.Allow {
		fail(socksNotAllowed, ad)
		return
	}
	up, addr, err := p.dialAddrs(p.ctx, t, ad.Addrs)
	var de *deniedError
	if errors.As(err, &de) {
		fail(socksNotAllowed, de.d)
		return
	}
	if err != nil {
		fail(socksRefused, Decision{Allow: true, Rule: d.Rule, Reason: fmt.Sprintf("dialing %s: %v", t.Host, err)})
		return
	}
	if _, err := c.Write([]byte{socksVersion, socksOK, 0, 1, 0, 0, 0, 0, 0, 0}); err != nil {
		c.Close()
		up.Close()
		return
	}
	c.SetDeadline(time.Time{})
	p.runStream(&stream{t: t, start: start, first: d, client: c, src: c, up: up, addr: addr})
}

// readSOCKSAddr reads a SOCKS5 address of type atyp and returns it as a
// normalised host.
func readSOCKSAddr(r io.Reader, atyp byte) (string, error) {
	switch atyp {
	case 1:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", err
		}
		return netip.AddrFrom4(b).String(), nil
	case 4:
		var b [16]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", err
		}
		return netip.AddrFrom16(b).Unmap().String(), nil
	case 3:
		var n [1]byte
		if _, err := io.ReadFull(r, n[:]); err != nil {
			return "", err
		}
		b := make([]byte, n[0])
		if _, err := io.ReadFull(r, b); err != nil {
			return "", err
		}
		return parseHost(string(b), true)
	}
	return "", errors.New("unknown SOCKS5 address type")
}

var _ net.Conn = (*trackedConn)(nil)
