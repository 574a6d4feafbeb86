// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/proxy/proxytest"
)

// clientHello returns the first flight of a TLS client naming serverName.
func clientHello(tb testing.TB, serverName string) []byte {
	a, b := proxytest.Pipe()
	c := tls.Client(a, &tls.Config{ServerName: serverName, InsecureSkipVerify: true})
	go func() {
		c.SetDeadline(time.Now().Add(time.Second))
		c.Handshake()
	}()
	b.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 16<<10)
	n, _ := b.Read(buf)
	a.Close()
	b.Close()
	return buf[:n]
}

var fuzzCA = sync.OnceValue(func() *proxy.CA {
	ca, err := proxy.NewCA()
	if err != nil {
		panic(err)
	}
	return ca
})

// FuzzReadRequest writes arbitrary bytes to the proxy on one connection.
// Properties: the proxy never panics, and never dials an address that
// CheckAddrs did not return for that attempt.
func FuzzReadRequest(f *testing.F) {
	for _, s := range []string{
		"GET http://a.example/x HTTP/1.1\r\nHost: a.example\r\n\r\n",
		"GET http://a.example/x HTTP/1.1\r\nHost: a.example\r\nAuthorization: Bearer warden:cred:TOKEN\r\n\r\n",
		"POST http://a.example/x HTTP/1.1\r\nHost: a.example\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nwarde\r\n0\r\n\r\n",
		"GET http://b.example:8080/ HTTP/1.1\r\n\r\nGET http://a.example/ HTTP/1.1\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n",
		"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n",
		"CONNECT a.example:80 HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: a.example\r\n\r\n",
		"CONNECT a.example:80 HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: b.example\r\n\r\n",
		"CONNECT rebind.example:22 HTTP/1.1\r\n\r\nSSH-2.0-OpenSSH_9.6\r\n",
		"CONNECT [::ffff:127.0.0.1]:443 HTTP/1.1\r\n\r\n",
		"CONNECT 127.1:443 HTTP/1.1\r\n\r\n",
		"\x05\x01\x00\x05\x01\x00\x03\x09a.example\x01\xbb",
		"\x05\x01\x00\x05\x01\x00\x01\x7f\x00\x00\x01\x00\x50",
		"\x05\x02\x00\x02\x05\x03\x00\x04" + strings.Repeat("\x00", 18),
	} {
		f.Add([]byte(s))
	}
	f.Add(append([]byte("CONNECT a.example:443 HTTP/1.1\r\n\r\n"), clientHello(f, "a.example")...))
	f.Add(append([]byte("CONNECT a.example:443 HTTP/1.1\r\n\r\n"), clientHello(f, "b.example")...))
	f.Add(append([]byte("CONNECT i.example:443 HTTP/1.1\r\n\r\n"), clientHello(f, "i.example")...))
	f.Add(append([]byte("\x05\x01\x00\x05\x01\x00\x03\x09a.example\x01\xbb"), clientHello(f, "a.example")...))
	f.Fuzz(func(t *testing.T, data []byte) {
		var mu sync.Mutex
		checked := map[string]bool{}
		resolves := map[string]int{}
		var upstreams sync.WaitGroup
		p, err := proxy.New(proxy.Config{
			CheckName: func(_ context.Context, tg proxy.Target) proxy.Decision {
				switch tg.Host {
				case "a.example", "rebind.example", "127.0.0.1", "203.0.113.9":
					return proxy.Decision{Allow: true}
				case "i.example":
					return proxy.Decision{Allow: true, Intercept: true}
				}
				return proxy.Decision{Reason: "no"}
			},
			Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
				mu.Lock()
				defer mu.Unlock()
				resolves[host]++
				if host == "rebind.example" && resolves[host] > 1 {
					return []netip.Addr{netip.MustParseAddr("10.0.0.1")}, nil
				}
				return []netip.Addr{netip.MustParseAddr("203.0.113.1"), netip.MustParseAddr("10.0.0.2")}, nil
			},
			CheckAddrs: func(_ context.Context, tg proxy.Target, addrs []netip.Addr) proxy.Decision {
				mu.Lock()
				defer mu.Unlock()
				var ok []netip.Addr
				for _, a := range addrs {
					if !a.IsPrivate() && !a.IsLoopback() {
						ok = append(ok, a)
						checked[netip.AddrPortFrom(a, uint16(tg.Port)).String()] = true
					}
				}
				return proxy.Decision{Allow: len(ok) > 0, Addrs: ok}
			},
			Dial: func(_ context.Context, network, addr string) (net.Conn, error) {
				mu.Lock()
				ok := checked[addr]
				mu.Unlock()
				if !ok {
					t.Errorf("dialed %s, which no CheckAddrs returned", addr)
					return nil, io.EOF
				}
				c, s := proxytest.Pipe()
				upstreams.Add(1)
				go func() {
					defer upstreams.Done()
					defer s.Close()
					s.SetDeadline(time.Now().Add(2 * time.Second))
					s.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
					io.Copy(io.Discard, s)
				}()
				return c, nil
			},
			CA:          fuzzCA(),
			Credentials: []credential.Credential{{Name: "TOKEN", Value: credential.NewRedacted("s3cret"), Hosts: []string{"i.example"}}},
			Limits:      proxy.Limits{HandshakeTimeout: 100 * time.Millisecond, PeekTimeout: 5 * time.Millisecond, IdleTimeout: 100 * time.Millisecond},
		})
		if err != nil {
			t.Fatal(err)
		}
		ln := proxytest.NewListener()
		served := make(chan struct{})
		go func() { p.Serve(ln); close(served) }()
		c, err := ln.Dial()
		if err != nil {
			t.Fatal(err)
		}
		c.Write(data)
		c.CloseWrite()
		c.SetReadDeadline(time.Now().Add(time.Second))
		resp, _ := io.ReadAll(c)
		c.Close()
		p.Close()
		<-served
		upstreams.Wait()
		if bytes.Contains(resp, []byte("s3cret")) {
			t.Errorf("a response carries the credential value: %q", resp)
		}
	})
}

// TestFuzzSeedsRun makes sure the seeds reach the paths they are meant
// for (a seed that fails to parse would fuzz nothing).
func TestFuzzSeedsRun(t *testing.T) {
	h := clientHello(t, "a.example")
	if len(h) < 100 || h[0] != 0x16 {
		t.Fatalf("clientHello = %d bytes starting %x", len(h), h[:1])
	}
	_ = fmt.Sprint(http.StatusOK)
}
