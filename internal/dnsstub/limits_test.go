// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package dnsstub_test

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"warden.dev/warden/internal/dnsstub"
)

// TestAdversarialDNSNames asks 300,000 distinct allowed names, as a
// sandbox flooding the stub would: past DefaultMaxNames each is REFUSED
// and recorded with Limit set, the names given before keep their
// addresses, and the heap the stub holds stays under DefaultMaxNames ×
// 300 bytes. The first names answered show the stub would hand out more
// (the control).
func TestAdversarialDNSNames(t *testing.T) {
	const asked = 300_000
	var refused, limited atomic.Int64
	s := dnsstub.New(dnsstub.Config{
		Allow: func(string) (bool, string, string) { return true, "rule", "" },
		Record: func(q dnsstub.Query) {
			if !q.Allowed {
				refused.Add(1)
			}
			if q.Limit {
				limited.Add(1)
			}
		},
	})
	before := heapInUse()
	first := parse(t, s.Handle(query(t, 1, "n0.flood.example.", dnsmessage.TypeA)))
	if first.RCode != "RCodeSuccess" || len(first.A) != 1 {
		t.Fatalf("the first name got %+v, want an address", first)
	}
	for i := 1; i < asked; i++ {
		// A name near the longest (253 bytes), so that a name's cost
		// shows.
		name := fmt.Sprintf("n%d.%s.%s.%s.flood.example.", i, label, label, label)
		got := parse(t, s.Handle(query(t, uint16(i), name, dnsmessage.TypeA)))
		switch {
		case i < dnsstub.DefaultMaxNames && (got.RCode != "RCodeSuccess" || len(got.A) != 1):
			t.Fatalf("name %d of %d got %+v, want an address", i, dnsstub.DefaultMaxNames, got)
		case i >= dnsstub.DefaultMaxNames && got.RCode != "RCodeRefused":
			t.Fatalf("name %d, past %d, got %+v, want REFUSED", i, dnsstub.DefaultMaxNames, got)
		}
	}
	grown := heapInUse() - before
	runtime.KeepAlive(s)
	if want := int64(asked - dnsstub.DefaultMaxNames); refused.Load() != want || limited.Load() != want {
		t.Errorf("%d questions recorded refused, %d with Limit; want %d", refused.Load(), limited.Load(), want)
	}
	if s.Names() != dnsstub.DefaultMaxNames {
		t.Errorf("the stub holds %d names, want %d", s.Names(), dnsstub.DefaultMaxNames)
	}
	// About 420 bytes a name, and room for the map's growth and the
	// allocator's rounding, which vary from run to run.
	const bound = dnsstub.DefaultMaxNames * 512
	t.Logf("%d names asked, %d kept: the heap grew by %d bytes (%d a name kept)", asked, s.Names(), grown, grown/int64(s.Names()))
	if grown > bound {
		t.Errorf("the heap grew by %d bytes for %d names, want at most %d", grown, s.Names(), bound)
	}
	// A name given before the limit keeps its address, both ways.
	again := parse(t, s.Handle(query(t, 9, "N0.flood.example.", dnsmessage.TypeA)))
	if len(again.A) != 1 || again.A[0] != first.A[0] {
		t.Errorf("n0.flood.example asked again got %+v, want %s", again, first.A[0])
	}
	if n, ok := s.NameFor(netip.MustParseAddr(first.A[0])); !ok || n != "n0.flood.example" {
		t.Errorf("NameFor(%s) = %q, %v", first.A[0], n, ok)
	}
}

// label is a 62-byte DNS label.
const label = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789"

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// TestCaptureAddresses: every capture address maps back to its name, none
// ends in .0 or .255, and none is in 127.0.0.0/16.
func TestCaptureAddresses(t *testing.T) {
	s := dnsstub.New(dnsstub.Config{Allow: func(string) (bool, string, string) { return true, "", "" }, MaxNames: 2000})
	seen := map[string]bool{}
	for i := range 2000 {
		name := fmt.Sprintf("h%d.example", i)
		got := parse(t, s.Handle(query(t, uint16(i), name+".", dnsmessage.TypeA)))
		if len(got.A) != 1 {
			t.Fatalf("%s: %+v", name, got)
		}
		a := netip.MustParseAddr(got.A[0])
		b := a.As4()
		if b[3] == 0 || b[3] == 255 || b[1] == 0 || seen[got.A[0]] {
			t.Fatalf("%s got %s", name, a)
		}
		seen[got.A[0]] = true
		if n, ok := s.NameFor(a); !ok || n != name {
			t.Fatalf("NameFor(%s) = %q, %v, want %s", a, n, ok, name)
		}
	}
	for _, a := range []string{"127.1.0.0", "127.1.0.255", "127.0.0.1", "127.200.0.1", "10.1.0.1"} {
		if n, ok := s.NameFor(netip.MustParseAddr(a)); ok {
			t.Errorf("NameFor(%s) = %q, want none", a, n)
		}
	}
}

// TestAdversarialDNSTCPConns opens 300 DNS-over-TCP connections that send
// nothing: at most MaxTCPConns are held, the others are closed at once,
// and a question still gets an answer once they go.
func TestAdversarialDNSTCPConns(t *testing.T) {
	s := dnsstub.New(dnsstub.Config{Allow: allowOnly("a.example")})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go s.ServeTCP(ln)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 300 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	// A connection the stub closed reads EOF at once; one it serves
	// times out here.
	held := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err != io.EOF {
			held++
		}
	}
	if held > dnsstub.MaxTCPConns || held == 0 {
		t.Errorf("%d idle connections held, want 1 to %d", held, dnsstub.MaxTCPConns)
	}
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	// Once they are gone a question is answered again.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		msg := query(t, 7, "a.example.", dnsmessage.TypeA)
		c.SetDeadline(time.Now().Add(time.Second))
		c.Write(append([]byte{byte(len(msg) >> 8), byte(len(msg))}, msg...))
		var l [2]byte
		_, err = io.ReadFull(c, l[:])
		c.Close()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no answer over TCP after the idle connections closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
