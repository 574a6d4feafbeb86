// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"bufio"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/proxy/proxytest"
)

// serveTransparent starts a transparent listener of kind on loopback; its
// port stands for :80 or :443, and nameFor maps its address to name.
func (e *env) serveTransparent(kind, name string) (addr string, port int) {
	e.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	local := netip.MustParseAddrPort(ln.Addr().String())
	done := make(chan error, 1)
	go func() {
		done <- e.p.ServeTransparent(ln, kind, func(a netip.AddrPort) (string, bool) {
			return name, a == local && name != ""
		})
	}()
	e.t.Cleanup(func() {
		e.p.Close()
		<-done
	})
	return ln.Addr().String(), int(local.Port())
}

func TestTransparentHTTPS(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.tlsServer(hello("api"))
	addr, port := e.serveTransparent("https", "api.example")
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{port}})
	e.host("other.example", []string{"203.0.113.2"}, srv.Listener.Addr().String(), &hostRule{ports: []int{port}})
	get := func(serverName string, roots bool) (string, error) {
		cfg := &tls.Config{ServerName: serverName, RootCAs: e.upPool}
		c, err := tls.Dial("tcp", addr, cfg)
		if err != nil {
			return "", err
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, "GET /t HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", serverName)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return fmt.Sprintf("%d %s", resp.StatusCode, b), err
	}
	if got, err := get("api.example", true); err != nil || got != "200 hello from api: GET /t" {
		t.Errorf("transparent HTTPS to api.example = %q, %v", got, err)
	}
	// The sandbox resolved api.example to this address; a hello naming
	// another host is fronting.
	if got, err := get("other.example", true); err == nil {
		t.Errorf("transparent HTTPS with server name other.example = %q, want the stream closed", got)
	}
	recs := e.waitRecords(2)
	want := map[string]bool{"api.example true": true, `api.example false TLS server name "other.example" does not match the target "api.example"`: true}
	for _, r := range recs {
		key := strings.TrimSpace(fmt.Sprintf("%s %v %s", r.Host, r.Allowed(), r.Reason))
		if !want[key] || r.Via != proxy.ViaTransparent || r.Protocol != proxy.ProtoHTTPS {
			t.Errorf("unexpected record %+v", r)
		}
	}
}

func TestTransparentHTTPSUnmappedAddress(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.tlsServer(hello("api"))
	addr, port := e.serveTransparent("https", "") // no name for this address
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{port}})
	c, err := tls.Dial("tcp", addr, &tls.Config{ServerName: "api.example", RootCAs: e.upPool})
	if err != nil {
		t.Fatalf("transparent HTTPS named by its server name alone: %v", err)
	}
	c.Close()
	// No name at all: nothing to judge.
	c2, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true})
	if err == nil {
		c2.Close()
		t.Error("a transparent stream with no name went through")
	}
}

func TestTransparentHTTP(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.httpServer(hello("web"))
	addr, port := e.serveTransparent("http", "web.example")
	e.host("web.example", []string{"203.0.113.5"}, srv.Listener.Addr().String(), &hostRule{ports: []int{port}})
	e.host("other.example", []string{"203.0.113.6"}, srv.Listener.Addr().String(), &hostRule{ports: []int{port}})
	for _, tt := range []struct {
		host string
		want string
	}{
		{"web.example", "200 hello from web: GET /p"},
		{"other.example", "403"},
		{fmt.Sprintf("web.example:%d", port+1), "403"},
	} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, "GET /p HTTP/1.1\r\nHost: %s\r\n\r\n", tt.host)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		got := fmt.Sprintf("%d %s", resp.StatusCode, b)
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("Host %s = %q, want %q", tt.host, got, tt.want)
		}
		c.Close()
	}
}

func TestServeTransparentKind(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	if err := e.p.ServeTransparent(proxytest.NewListener(), "smtp", nil); err == nil {
		t.Error("ServeTransparent accepted kind smtp")
	}
}

// socks5 opens a SOCKS5 CONNECT by hand and returns the reply code.
func socks5(t *testing.T, proxyAddr, host string, port int) (net.Conn, byte) {
	t.Helper()
	c, err := net.Dial("tcp", proxyAddr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(5 * time.Second))
	req := []byte{5, 1, 0, 5, 1, 0, 3, byte(len(host))}
	req = append(req, host...)
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	c.Write(req)
	var rep [12]byte
	if _, err := io.ReadFull(c, rep[:12]); err != nil {
		t.Fatalf("reading the SOCKS5 reply: %v", err)
	}
	if rep[0] != 5 || rep[1] != 0 {
		t.Fatalf("SOCKS5 method reply % x", rep[:2])
	}
	c.SetDeadline(time.Time{})
	return c, rep[3]
}

func TestSOCKS5(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.tlsServer(hello("api"))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}})
	c, code := socks5(t, e.addr, "api.example", 443)
	if code != 0 {
		t.Fatalf("SOCKS5 CONNECT api.example:443 = reply %d, want 0", code)
	}
	tc := tls.Client(c, &tls.Config{ServerName: "api.example", RootCAs: e.upPool})
	tc.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(tc, "GET /s HTTP/1.1\r\nHost: api.example\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(tc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(resp.Body); string(b) != "hello from api: GET /s" {
		t.Errorf("through SOCKS5: %q", b)
	}
	tc.Close()
	if _, code := socks5(t, e.addr, "evil.example", 443); code != 2 {
		t.Errorf("SOCKS5 CONNECT evil.example:443 = reply %d, want 2 (not allowed)", code)
	}
	if _, code := socks5(t, e.addr, "127.1", 443); code != 8 {
		t.Errorf("SOCKS5 CONNECT 127.1 = reply %d, want 8 (address not served)", code)
	}
}
