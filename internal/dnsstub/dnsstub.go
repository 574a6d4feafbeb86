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
//   - An allowed name past the run's [Config.MaxNames] (default
//     [DefaultMaxNames]): REFUSED, and the query is recorded as denied
//     with Query.Limit set. REFUSED, not NXDOMAIN: the name may well
//     exist, and a resolver does not cache a refusal as the name's
//     absence.
//
// # What it holds
//
// The stub is warden's memory, not the sandbox's, so what a run can make
// it hold is bounded: each name given an address costs its bytes and
// about 170 more (a map entry from the name to its index, and the name
// in a slice by index, from which a capture address is computed back);
// at most MaxNames are kept, so about MaxNames × 420 bytes, and with the
// map's growth and the allocator's rounding at most MaxNames × 512 (8 MiB
// at the default; TestAdversarialDNSNames measures it). A name
// refused or denied costs nothing kept. DNS over TCP serves at most [MaxTCPConns] connections
// at once, each closed after 10 seconds without a message; one more is
// closed at once. Over UDP one datagram is read at a time.
package dnsstub

import (
	"encoding/binary"
	"errors"
	"fmt"
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
	// Rule and Reason say why, as the caller's Allow gave them, or the
	// limit that refused the name.
	Rule, Reason string
	// Limit is set on a question refused because the run has used all
	// of its Config.MaxNames.
	Limit bool
}

// Config says what the stub may answer.
type Config struct {
	// Allow decides a name (lower case, no trailing dot): whether it may
	// resolve at all, and by which rule.
	Allow func(name string) (ok bool, rule, reason string)
	// Record, when set, is told of every question.
	Record func(Query)
	// MaxNames bounds the names given a capture address in one run
	// (DefaultMaxNames when 0).
	MaxNames int
}

// DefaultMaxNames is the names a run may have resolved: far more than a
// build or an agent's session asks for (hundreds), far fewer than would
// make warden hold much.
const DefaultMaxNames = 16384

// MaxTCPConns bounds the DNS-over-TCP connections served at once.
const MaxTCPConns = 64

// Stub answers queries; it is safe for concurrent use.
type Stub struct {
	cfg   Config
	conns chan struct{} // a token for each DNS-over-TCP connection served

	mu sync.Mutex
	// mu guards the fields below.
	index map[string]uint32 // name -> its index in names
	names []string          // by index; the capture address is captureOf(index)
}

// New returns a stub answering as cfg says.
func New(cfg Config) *Stub {
	if cfg.MaxNames <= 0 {
		cfg.MaxNames = DefaultMaxNames
	}
	return &Stub{cfg: cfg, index: map[string]uint32{}, conns: make(chan struct{}, MaxTCPConns)}
}

// firstCapture is the first capture address: 127.0.0.0/16 stays for
// localhost and the sandbox's own listeners (127.0.0.53, 127.0.0.1).
const firstCapture = 127<<24 | 1<<16

// captureOf is the capture address of the i-th name: 254 names to each
// /24 from 127.1.0.0 up, keeping away from .0 and .255, which some tools
// take for network and broadcast addresses even on loopback. 127.1.0.0
// to 127.255.255.255 holds far more names than any MaxNames.
func captureOf(i uint32) netip.Addr {
	n := firstCapture + i/254<<8 + i%254 + 1
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
}

// indexOf is the index whose capture address a is.
func indexOf(a netip.Addr) (uint32, bool) {
	if !a.Is4() {
		return 0, false
	}
	b := a.As4()
	n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	if n < firstCapture || b[0] != 127 || b[3] == 0 || b[3] == 0xff {
		return 0, false
	}
	o := n - firstCapture
	return o>>8*254 + o&0xff - 1, true
}

// captureAddr returns name's capture address, giving it one if it has
// none; ok is false when the run has used all of its MaxNames.
func (s *Stub) captureAddr(name string) (netip.Addr, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.index[name]; ok {
		return captureOf(i), true
	}
	if len(s.names) >= s.cfg.MaxNames {
		return netip.Addr{}, false
	}
	// A copy: name may point into a larger buffer.
	name = strings.Clone(name)
	i := uint32(len(s.names))
	s.names = append(s.names, name)
	s.index[name] = i
	return captureOf(i), true
}

// Names returns how many names have a capture address.
func (s *Stub) Names() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.names)
}

// NameFor returns the name a capture address was given for.
func (s *Stub) NameFor(a netip.Addr) (string, bool) {
	i, ok := indexOf(a.Unmap())
	if !ok {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if int(i) >= len(s.names) {
		return "", false
	}
	return s.names[i], true
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
		select {
		case s.conns <- struct{}{}:
		default:
			c.Close() // MaxTCPConns are being served
			continue
		}
		go func() {
			defer func() { <-s.conns }()
			s.serveConn(c)
		}()
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
	record := func(qr Query) {
		if s.cfg.Record != nil {
			s.cfg.Record(qr)
		}
	}
	qr := Query{Name: name, Type: typeName(q.Type), Allowed: ok, Rule: rule, Reason: reason}
	if !ok {
		record(qr)
		resp.RCode = dnsmessage.RCodeNameError
		return build(resp, &q, nil)
	}
	if q.Type != dnsmessage.TypeA {
		record(qr)
		return build(resp, &q, nil) // no data: clients use the A record
	}
	a, ok := s.captureAddr(name)
	if !ok {
		qr.Allowed, qr.Limit, qr.Rule = false, true, "dns-stub"
		qr.Reason = fmt.Sprintf("the run has resolved %d names, the most one run may; this name was refused", s.cfg.MaxNames)
		record(qr)
		resp.RCode = dnsmessage.RCodeRefused
		return build(resp, &q, nil)
	}
	record(qr)
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
