// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/proxy/proxytest"
)

// The tests never send a byte beyond loopback: names resolve through a
// table to addresses of TEST-NET-3 (203.0.113.0/24, "public" to the stub
// policy), and the dialer maps each such address to a loopback test
// server. Private, loopback and metadata addresses in the table are
// there to be refused.

// policy is a stub decider: a host is allowed when listed with its ports
// (and methods, which make it intercepted); CheckAddrs refuses loopback,
// private, link-local and unspecified addresses.
type policy struct {
	mu      sync.Mutex
	hosts   map[string]hostRule
	names   []proxy.Target // every CheckName call
	checked []netip.Addr   // every address CheckAddrs allowed
}

type hostRule struct {
	ports   []int
	methods []string // non-empty: intercept and judge methods
}

func (pl *policy) CheckName(_ context.Context, t proxy.Target) proxy.Decision {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.names = append(pl.names, t)
	r, ok := pl.hosts[t.Host]
	switch {
	case !ok:
		return proxy.Decision{Reason: fmt.Sprintf("no rule allows %s", t.Host), Hint: "add a network rule for " + t.Host}
	case !slices.Contains(r.ports, t.Port):
		return proxy.Decision{Rule: "allow-" + t.Host, Reason: fmt.Sprintf("port %d is not allowed for %s", t.Port, t.Host)}
	case len(r.methods) > 0 && t.Method != http.MethodConnect && !slices.Contains(r.methods, t.Method):
		return proxy.Decision{Rule: "allow-" + t.Host, Reason: fmt.Sprintf("method %s is not allowed for %s", t.Method, t.Host)}
	}
	return proxy.Decision{Allow: true, Rule: "allow-" + t.Host, Intercept: len(r.methods) > 0}
}

func (pl *policy) CheckAddrs(_ context.Context, t proxy.Target, addrs []netip.Addr) proxy.Decision {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for _, a := range addrs {
		if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified() || a.IsMulticast() {
			return proxy.Decision{Rule: "always-denied", Reason: fmt.Sprintf("%s resolves to %v, which is never allowed", t.Host, a)}
		}
	}
	pl.checked = append(pl.checked, addrs...)
	return proxy.Decision{Allow: true, Rule: "addrs", Addrs: addrs}
}

// env is one proxy with its upstreams, resolver and records.
type env struct {
	t      testing.TB
	pol    *policy
	p      *proxy.Proxy
	addr   string // the proxy's listener
	ca     *proxy.CA
	upCA   *proxy.CA // the "public" CA of the upstream servers
	upPool *x509.CertPool

	mu       sync.Mutex // mu guards the fields below
	names    map[string][]netip.Addr
	resolves map[string]int
	backends map[netip.Addr]string // fake address → loopback host:port
	dials    []string              // every address the proxy dialed
	attempts []audit.NetworkAttempt
	log      strings.Builder
}

type envOpt func(*env, *proxy.Config)

func withCredentials(c ...credential.Credential) envOpt {
	return func(_ *env, cfg *proxy.Config) { cfg.Credentials = c }
}

func withLimits(l proxy.Limits) envOpt {
	return func(_ *env, cfg *proxy.Config) { cfg.Limits = l }
}

func withoutCA() envOpt {
	return func(_ *env, cfg *proxy.Config) { cfg.CA = nil }
}

func withResolve(f func(e *env, host string) ([]netip.Addr, error)) envOpt {
	return func(e *env, cfg *proxy.Config) {
		cfg.Resolve = func(_ context.Context, host string) ([]netip.Addr, error) { return f(e, host) }
	}
}

func newEnv(t testing.TB, opts ...envOpt) *env {
	t.Helper()
	ca, err := proxy.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	upCA, err := proxy.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	e := &env{
		t:        t,
		pol:      &policy{hosts: map[string]hostRule{}},
		ca:       ca,
		upCA:     upCA,
		upPool:   x509.NewCertPool(),
		names:    map[string][]netip.Addr{},
		resolves: map[string]int{},
		backends: map[netip.Addr]string{},
	}
	e.upPool.AddCert(upCA.Certificate())
	cfg := proxy.Config{
		CheckName:  e.pol.CheckName,
		CheckAddrs: e.pol.CheckAddrs,
		Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.resolves[host]++
			if a, ok := e.names[host]; ok {
				return a, nil
			}
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		},
		Dial:    e.dial,
		CA:      ca,
		RootCAs: e.upPool,
		Record: func(a audit.NetworkAttempt) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.attempts = append(e.attempts, a)
		},
		Logf: func(format string, args ...any) {
			e.mu.Lock()
			defer e.mu.Unlock()
			fmt.Fprintf(&e.log, format+"\n", args...)
		},
	}
	for _, o := range opts {
		o(e, &cfg)
	}
	e.p, err = proxy.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.addr = ln.Addr().String()
	done := make(chan error, 1)
	go func() { done <- e.p.Serve(ln) }()
	t.Cleanup(func() {
		e.p.Close()
		if err := <-done; err != proxy.ErrClosed {
			t.Errorf("Serve = %v, want ErrClosed", err)
		}
	})
	return e
}

// dial is the proxy's dialer: it records the address and connects to the
// loopback server standing in for it.
func (e *env) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		e.t.Errorf("proxy dialed %q, not an ip:port", addr)
		return nil, err
	}
	e.mu.Lock()
	e.dials = append(e.dials, addr)
	real, ok := e.backends[ap.Addr()]
	e.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("test network: nothing at %s", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, real)
}

// host registers a name, its addresses and, when srv is set, the server
// the first address leads to; rule, if set, allows it.
func (e *env) host(name string, addrs []string, backend string, rule *hostRule) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, a := range addrs {
		e.names[name] = append(e.names[name], netip.MustParseAddr(a))
	}
	if backend != "" {
		e.backends[netip.MustParseAddr(addrs[0])] = backend
	}
	if rule != nil {
		e.pol.mu.Lock()
		e.pol.hosts[name] = *rule
		e.pol.mu.Unlock()
	}
}

// tlsServer starts an HTTPS server with a certificate for any name from
// the upstream CA.
func (e *env) tlsServer(h http.Handler, configure ...func(*http.Server)) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = quiet
	for _, f := range configure {
		f(srv.Config)
	}
	srv.TLS = &tls.Config{GetCertificate: func(hi *tls.ClientHelloInfo) (*tls.Certificate, error) {
		name := hi.ServerName
		if name == "" {
			name = "203.0.113.1"
		}
		return e.upCA.Leaf(name)
	}}
	srv.StartTLS()
	e.t.Cleanup(srv.Close)
	return srv
}

func (e *env) httpServer(h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = quiet
	srv.Start()
	e.t.Cleanup(srv.Close)
	return srv
}

// quiet drops the test servers' logs (handshakes the tests make fail).
var quiet = log.New(io.Discard, "", 0)

// client returns an HTTP client using the proxy and trusting roots.
func (e *env) client(roots *x509.CertPool) *http.Client {
	u, _ := url.Parse("http://" + e.addr)
	tr := &http.Transport{
		Proxy:             http.ProxyURL(u),
		TLSClientConfig:   &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2: false,
	}
	e.t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{
		Transport:     tr,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// caPool is a pool holding the proxy's CA alone.
func (e *env) caPool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(e.ca.Certificate())
	return p
}

func (e *env) records() []audit.NetworkAttempt {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.attempts)
}

func (e *env) dialed() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.dials)
}

func (e *env) logs() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.log.String()
}

// waitRecords waits until n attempts are recorded (streams are recorded
// when they end, a moment after the client sees them close).
func (e *env) waitRecords(n int) []audit.NetworkAttempt {
	e.t.Helper()
	return e.waitFor(func(r []audit.NetworkAttempt) bool { return len(r) >= n })
}

// waitFor waits until the records satisfy ok, or 5 seconds.
func (e *env) waitFor(ok func([]audit.NetworkAttempt) bool) []audit.NetworkAttempt {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if r := e.records(); ok(r) || time.Now().After(deadline) {
			return r
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// connect opens a CONNECT tunnel by hand and returns the connection and
// the proxy's answer.
func (e *env) connect(target string) (net.Conn, *http.Response) {
	e.t.Helper()
	c, err := net.Dial("tcp", e.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	resp, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
	if err != nil {
		e.t.Fatalf("reading the CONNECT answer: %v", err)
	}
	return c, resp
}

func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var _ = proxytest.ResourceCheck

// newTLSServerOwnCert starts an HTTPS server with httptest's own
// certificate, which no pool in these tests trusts.
func newTLSServerOwnCert(t *testing.T, h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = quiet
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func mustAddr(s string) netip.Addr { return netip.MustParseAddr(s) }
