// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package dnsstub is the DNS server a sandbox sees: it answers, from the
// parent outside the sandbox, on sockets bound inside it, and it never
// forwards a query anywhere. A name the caller allows gets an address of
// its own in 127.0.0.0/8 (its capture address: the sandbox's :80 and :443
// on that address lead to the egress proxy, which learns the name back
// from [Stub.NameFor]); any other name is NXDOMAIN. The answer never is a
// real address: what a name really resolves to is the proxy's business,
// judged when it dials.
//
// # Answers
//
//   - A for an allowed name: its capture address, TTL 5 seconds.
//   - AAAA, or any other type, for an allowed name: no data (NOERROR with
//     no answer), so that clients fall back to the A record.
//   - A name that is not allowed: NXDOMAIN, and the query is recorded as
//     denied.
//   - A message that is not one question of class IN: FORMERR, or nothing
//     when it cannot even be read as a header.
package dnsstub

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// Query is one question the stub answered.
type Query struct {
	Name    string // lower case, without the trailing dot
	Type    string // "A", "AAAA", ...
	Allowed bool
	// Rule and Reason say why, as the caller's Allow gave them.
	Rule, Reason string
}

// Config says what the stub may answer.
type Config struct {
	// Allow decides a name (lower case, no trailing dot): whether it may
	// resolve at all, and by which rule.
	Allow func(name string) (ok bool, rule, reason string)
	// Record, when set, is told of every question.
	Record func(Query)
}

// Stub answers queries; it is safe for concurrent use.
type Stub struct {
	cfg Config

	mu sync.Mutex
	// mu guards the fields below.
	byName map[string]netip.Addr
	byAddr map[netip.Addr]string
	next   uint32 // the next capture address, as an offset in 127.1.0.0/16 and up
}

// New returns a stub answering as cfg says.
func New(cfg Config) *Stub {
	return &Stub{cfg: cfg, byName: map[string]netip.Addr{}, byAddr: map[netip.Addr]string{}}
}

// firstCapture is the first capture address: 127.0.0.0/16 stays for
// localhost and the sandbox's own listeners (127.0.0.53, 127.0.0.1).
const firstCapture = 127<<24 | 1<<16

// maxCapture bounds the names of one run (a 127.1.0.0 to 127.255.255.255
// range has room for far more).
const maxCapture = 1 << 20

// captureAddr returns name's capture address, giving it one if it has
// none; ok is false when the run has used every one.
func (s *Stub) captureAddr(name string) (netip.Addr, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.byName[name]; ok {
		return a, true
	}
	var n uint32
	for {
		if s.next >= maxCapture {
			return netip.Addr{}, false
		}
		n = firstCapture + s.next
		s.next++
		// Keep away from .0 and .255, which some tools take for
		// network and broadcast addresses even on loopback.
		if b := n & 0xff; b != 0 && b != 0xff {
			break
		}
	}
	a := netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
	s.byName[name], s.byAddr[a] = a, name
	return a, true
}

// NameFor returns the name a capture address was given for.
func (s *Stub) NameFor(a netip.Addr) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name, ok := s.byAddr[a.Unmap()]
	return name, ok
}

// ServeUDP answers the datagrams of pc until it is closed.
func (s *Stub) ServeUDP(pc net.PacketConn) error {
	buf := make([]byte, 1500)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		if resp := s.Handle(buf[:n]); resp != nil {
			pc.WriteTo(resp, from)
		}
	}
}

// ServeTCP answers the connections of ln until it is closed: messages
// framed by a two-byte length, as DNS over TCP is.
func (s *Stub) ServeTCP(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go s.serveConn(c)
	}
}

func (s *Stub) serveConn(c net.Conn) {
	defer c.Close()
	for {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		var l [2]byte
		if _, err := io.ReadFull(c, l[:]); err != nil {
			return
		}
		msg := make([]byte, binary.BigEndian.Uint16(l[:]))
		if _, err := io.ReadFull(c, msg); err != nil {
			return
		}
		resp := s.Handle(msg)
		if resp == nil {
			return
		}
		out := binary.BigEndian.AppendUint16(nil, uint16(len(resp)))
		if _, err := c.Write(append(out, resp...)); err != nil {
			return
		}
	}
}

// Handle answers one DNS message, or returns nil when it cannot be read as
// one.
func (s *Stub) Handle(msg []byte) []byte {
	var p dnsmessage.Parser
	h, err := p.Start(msg)
	if err != nil || h.Response {
		return nil
	}
	qs, err := p.AllQuestions()
	resp := dnsmessage.Header{ID: h.ID, Response: true, OpCode: h.OpCode, RecursionDesired: h.RecursionDesired, RecursionAvailable: true}
	if err != nil || len(qs) != 1 || qs[0].Class != dnsmessage.ClassINET || h.OpCode != 0 {
		resp.RCode = dnsmessage.RCodeFormatError
		if h.OpCode != 0 {
			resp.RCode = dnsmessage.RCodeNotImplemented
		}
		return build(resp, nil, nil)
	}
	q := qs[0]
	name := strings.ToLower(strings.TrimSuffix(q.Name.String(), "."))
	ok, rule, reason := false, "", "no rule allows this name"
	if s.cfg.Allow != nil && name != "" {
		ok, rule, reason = s.cfg.Allow(name)
	}
	if s.cfg.Record != nil {
		s.cfg.Record(Query{Name: name, Type: typeName(q.Type), Allowed: ok, Rule: rule, Reason: reason})
	}
	if !ok {
		resp.RCode = dnsmessage.RCodeNameError
		return build(resp, &q, nil)
	}
	if q.Type != dnsmessage.TypeA {
		return build(resp, &q, nil) // no data: clients use the A record
	}
	a, ok := s.captureAddr(name)
	if !ok {
		resp.RCode = dnsmessage.RCodeServerFailure
		return build(resp, &q, nil)
	}
	return build(resp, &q, &a)
}

func build(h dnsmessage.Header, q *dnsmessage.Question, a *netip.Addr) []byte {
	b := dnsmessage.NewBuilder(make([]byte, 0, 512), h)
	b.EnableCompression()
	if q != nil {
		b.StartQuestions()
		b.Question(*q)
	}
	if a != nil {
		b.StartAnswers()
		b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 5},
			dnsmessage.AResource{A: a.As4()})
	}
	out, err := b.Finish()
	if err != nil {
		return nil
	}
	return out
}

func typeName(t dnsmessage.Type) string {
	return strings.TrimPrefix(t.String(), "Type")
}
