// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package dnsstub_test

import (
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/dns/dnsmessage"

	"warden.dev/warden/internal/dnsstub"
)

func query(t testing.TB, id uint16, name string, typ dnsmessage.Type) []byte {
	t.Helper()
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: id, RecursionDesired: true})
	b.StartQuestions()
	if err := b.Question(dnsmessage.Question{Name: dnsmessage.MustNewName(name), Type: typ, Class: dnsmessage.ClassINET}); err != nil {
		t.Fatal(err)
	}
	msg, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// answer is a response as the tests compare it.
type answer struct {
	ID    uint16
	RCode string
	A     []string
}

func parse(t testing.TB, msg []byte) answer {
	t.Helper()
	var p dnsmessage.Parser
	h, err := p.Start(msg)
	if err != nil {
		t.Fatalf("response does not parse: %v", err)
	}
	a := answer{ID: h.ID, RCode: h.RCode.String()}
	p.SkipAllQuestions()
	for {
		rh, err := p.AnswerHeader()
		if err != nil {
			break
		}
		if rh.Type == dnsmessage.TypeA {
			r, _ := p.AResource()
			a.A = append(a.A, netip.AddrFrom4(r.A).String())
		} else {
			p.SkipAnswer()
		}
	}
	return a
}

func allowOnly(names ...string) func(string) (bool, string, string) {
	return func(n string) (bool, string, string) {
		for _, x := range names {
			if n == x {
				return true, "network.rules[0]", "allowed"
			}
		}
		return false, "default", "no rule allows " + n
	}
}

func TestHandle(t *testing.T) {
	var got []dnsstub.Query
	s := dnsstub.New(dnsstub.Config{Allow: allowOnly("api.github.com", "pypi.org"), Record: func(q dnsstub.Query) { got = append(got, q) }})
	for _, tt := range []struct {
		name string
		q    []byte
		want answer
	}{
		{"allowed A", query(t, 1, "api.github.com.", dnsmessage.TypeA), answer{1, "RCodeSuccess", []string{"127.1.0.1"}}},
		{"same name, same address", query(t, 2, "API.GitHub.com.", dnsmessage.TypeA), answer{2, "RCodeSuccess", []string{"127.1.0.1"}}},
		{"another name, another address", query(t, 3, "pypi.org.", dnsmessage.TypeA), answer{3, "RCodeSuccess", []string{"127.1.0.2"}}},
		{"allowed AAAA: no data", query(t, 4, "pypi.org.", dnsmessage.TypeAAAA), answer{4, "RCodeSuccess", nil}},
		{"denied", query(t, 5, "evil.example.", dnsmessage.TypeA), answer{5, "RCodeNameError", nil}},
		{"localhost is not the stub's to give", query(t, 6, "localhost.", dnsmessage.TypeA), answer{6, "RCodeNameError", nil}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parse(t, s.Handle(tt.q))); diff != "" {
				t.Errorf("Handle (-want +got):\n%s", diff)
			}
		})
	}
	if name, ok := s.NameFor(netip.MustParseAddr("127.1.0.2")); !ok || name != "pypi.org" {
		t.Errorf("NameFor(127.1.0.2) = %q, %v", name, ok)
	}
	if _, ok := s.NameFor(netip.MustParseAddr("127.1.0.9")); ok {
		t.Error("NameFor gave a name for an address it never answered")
	}
	want := []dnsstub.Query{
		{Name: "api.github.com", Type: "A", Allowed: true, Rule: "network.rules[0]", Reason: "allowed"},
		{Name: "api.github.com", Type: "A", Allowed: true, Rule: "network.rules[0]", Reason: "allowed"},
		{Name: "pypi.org", Type: "A", Allowed: true, Rule: "network.rules[0]", Reason: "allowed"},
		{Name: "pypi.org", Type: "AAAA", Allowed: true, Rule: "network.rules[0]", Reason: "allowed"},
		{Name: "evil.example", Type: "A", Reason: "no rule allows evil.example", Rule: "default"},
		{Name: "localhost", Type: "A", Reason: "no rule allows localhost", Rule: "default"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("recorded (-want +got):\n%s", diff)
	}
}

func TestHandleMalformed(t *testing.T) {
	s := dnsstub.New(dnsstub.Config{Allow: allowOnly("a.example")})
	if s.Handle([]byte{1, 2, 3}) != nil {
		t.Error("a message shorter than a header got an answer")
	}
	// A response is never answered (no loops between stubs).
	resp := s.Handle(query(t, 7, "a.example.", dnsmessage.TypeA))
	if s.Handle(resp) != nil {
		t.Error("a response got an answer")
	}
	// Two questions: FORMERR.
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: 8})
	b.StartQuestions()
	for _, n := range []string{"a.example.", "b.example."} {
		b.Question(dnsmessage.Question{Name: dnsmessage.MustNewName(n), Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET})
	}
	msg, _ := b.Finish()
	if got := parse(t, s.Handle(msg)); got.RCode != "RCodeFormatError" {
		t.Errorf("two questions: %s, want FORMERR", got.RCode)
	}
}

func TestServeUDPAndTCP(t *testing.T) {
	s := dnsstub.New(dnsstub.Config{Allow: allowOnly("a.example")})
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	go s.ServeUDP(pc)
	c, err := net.Dial("udp4", pc.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write(query(t, 9, "a.example.", dnsmessage.TypeA))
	buf := make([]byte, 512)
	n, err := c.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := parse(t, buf[:n]); len(got.A) != 1 {
		t.Errorf("UDP answer %+v", got)
	}

	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go s.ServeTCP(ln)
	tc, err := net.Dial("tcp4", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	tc.SetDeadline(time.Now().Add(5 * time.Second))
	q := query(t, 10, "b.example.", dnsmessage.TypeA)
	tc.Write(append(binary.BigEndian.AppendUint16(nil, uint16(len(q))), q...))
	var l [2]byte
	if _, err := io.ReadFull(tc, l[:]); err != nil {
		t.Fatal(err)
	}
	resp := make([]byte, binary.BigEndian.Uint16(l[:]))
	if _, err := io.ReadFull(tc, resp); err != nil {
		t.Fatal(err)
	}
	if got := parse(t, resp); got.RCode != "RCodeNameError" {
		t.Errorf("TCP answer %+v, want NXDOMAIN", got)
	}
}

// FuzzHandle: any message gets no answer or one that parses, carries the
// question's id, and never gives an address for a name not allowed.
func FuzzHandle(f *testing.F) {
	f.Add(query(f, 1, "a.example.", dnsmessage.TypeA))
	f.Add(query(f, 2, "evil.example.", dnsmessage.TypeA))
	f.Add(query(f, 3, "a.example.", dnsmessage.TypeAAAA))
	f.Add([]byte{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x0c, 0, 1, 0, 1})
	f.Fuzz(func(t *testing.T, msg []byte) {
		s := dnsstub.New(dnsstub.Config{Allow: allowOnly("a.example")})
		resp := s.Handle(msg)
		if resp == nil {
			return
		}
		var p dnsmessage.Parser
		h, err := p.Start(resp)
		if err != nil {
			t.Fatalf("answer does not parse: %v", err)
		}
		if len(msg) >= 2 && h.ID != uint16(msg[0])<<8|uint16(msg[1]) {
			t.Errorf("answer id %d for query id %d", h.ID, uint16(msg[0])<<8|uint16(msg[1]))
		}
		qs, _ := p.AllQuestions()
		for {
			rh, err := p.AnswerHeader()
			if err != nil {
				break
			}
			name := strings.ToLower(strings.TrimSuffix(rh.Name.String(), "."))
			if name != "a.example" {
				t.Errorf("an answer for %q (questions %v)", name, qs)
			}
			p.SkipAnswer()
		}
	})
}
