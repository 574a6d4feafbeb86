// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/proxy/proxytest"
)

func hello(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s: %s %s", name, r.Method, r.URL.Path)
	})
}

// ignoreVolatile drops the fields of an attempt that vary between runs.
var ignoreVolatile = cmpopts.IgnoreFields(audit.NetworkAttempt{}, "Time", "DurationMS", "BytesUp", "BytesDown")

func TestForwardAllowed(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.httpServer(hello("api"))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80}})
	resp, err := e.client(nil).Get("http://API.example./v1/x?q=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if got := readAll(t, resp.Body); resp.StatusCode != 200 || got != "hello from api: GET /v1/x" {
		t.Fatalf("GET = %d %q", resp.StatusCode, got)
	}
	want := []audit.NetworkAttempt{{
		Host: "api.example", Port: 80, Method: "GET", Protocol: "http", Path: "/v1/x", Via: "forward",
		Addr: "203.0.113.1:80", Verdict: "allow", Rule: "allow-api.example", Status: 200,
	}}
	got := e.waitRecords(1)
	if diff := cmp.Diff(want, got, ignoreVolatile); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if got[0].BytesDown != int64(len("hello from api: GET /v1/x")) {
		t.Errorf("BytesDown = %d", got[0].BytesDown)
	}
}

func TestConnectAllowed(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.tlsServer(hello("api"))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}})
	c := e.client(e.upPool) // trusts the upstream's CA: the stream is not intercepted
	resp, err := c.Get("https://api.example/v1")
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || body != "hello from api: GET /v1" {
		t.Fatalf("GET = %d %q", resp.StatusCode, body)
	}
	if issuer := resp.TLS.PeerCertificates[0].Issuer.String(); issuer != e.upCA.Certificate().Subject.String() {
		t.Errorf("the client saw a certificate issued by %s, want the upstream's own", issuer)
	}
	c.Transport.(*http.Transport).CloseIdleConnections()
	got := e.waitRecords(1)
	want := []audit.NetworkAttempt{{
		Host: "api.example", Port: 443, Method: "CONNECT", Protocol: "https", Via: "connect",
		Addr: "203.0.113.1:443", Verdict: "allow", Rule: "allow-api.example", Status: 200,
	}}
	if diff := cmp.Diff(want, got, ignoreVolatile); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if len(got) == 1 && (got[0].BytesUp == 0 || got[0].BytesDown == 0) {
		t.Errorf("bytes up %d, down %d: want both counted", got[0].BytesUp, got[0].BytesDown)
	}
	// Both phases of the stream were asked.
	var phases []string
	for _, n := range e.pol.names {
		phases = append(phases, n.Method+" "+n.Protocol)
	}
	if diff := cmp.Diff([]string{"CONNECT ", "CONNECT https"}, phases); diff != "" {
		t.Errorf("CheckName phases (-want +got):\n%s", diff)
	}
}

func TestDenied(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	e.host("evil.example", []string{"203.0.113.66"}, "", nil)
	resp, err := e.client(nil).Get("http://evil.example:8080/steal?x=1")
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp.Body)
	resp.Body.Close()
	wantBody := `{"error":"policy_denied","host":"evil.example","port":8080,"method":"GET","reason":"no rule allows evil.example","rule":"","hint":"add a network rule for evil.example"}` + "\n"
	if resp.StatusCode != 403 || body != wantBody || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("forward to a denied host = %d %s %q, want 403 application/json %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, wantBody)
	}
	_, resp = e.connect("evil.example:443")
	body = readAll(t, resp.Body)
	wantBody = `{"error":"policy_denied","host":"evil.example","port":443,"method":"CONNECT","reason":"no rule allows evil.example","rule":"","hint":"add a network rule for evil.example"}` + "\n"
	if resp.StatusCode != 403 || body != wantBody {
		t.Errorf("CONNECT to a denied host = %d %q, want 403 %q", resp.StatusCode, body, wantBody)
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Errorf("denial body is not JSON: %v", err)
	}
	if e.resolves["evil.example"] != 0 || len(e.dialed()) != 0 {
		t.Errorf("a denied name was resolved %d times and %d dials made, want none", e.resolves["evil.example"], len(e.dialed()))
	}
	got := e.waitRecords(2)
	want := []audit.NetworkAttempt{
		{Host: "evil.example", Port: 8080, Method: "GET", Protocol: "http", Path: "/steal", Via: "forward", Verdict: "deny", Reason: "no rule allows evil.example", Status: 403},
		{Host: "evil.example", Port: 443, Method: "CONNECT", Via: "connect", Verdict: "deny", Reason: "no rule allows evil.example", Status: 403},
	}
	if diff := cmp.Diff(want, got, ignoreVolatile); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestForbiddenAddressesNeverDialed(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	for _, tt := range []struct{ name, addr string }{
		{"loopback.example", "127.0.0.1"},
		{"mapped.example", "::ffff:127.0.0.1"},
		{"metadata.example", "169.254.169.254"},
		{"private.example", "10.1.2.3"},
		{"ula.example", "fd00:ec2::254"},
		{"mixed.example", "203.0.113.9"}, // and, below, a private address
	} {
		e.host(tt.name, []string{tt.addr}, "", &hostRule{ports: []int{80, 443}})
	}
	e.host("mixed.example", []string{"192.168.1.1"}, "", nil)
	for _, name := range []string{"loopback.example", "mapped.example", "metadata.example", "private.example", "ula.example", "mixed.example"} {
		resp, err := e.client(nil).Get("http://" + name + "/")
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 403 || !strings.Contains(body, `"rule":"always-denied"`) {
			t.Errorf("GET http://%s/ = %d %s, want 403 from always-denied", name, resp.StatusCode, body)
		}
		_, resp = e.connect(name + ":443")
		if resp.StatusCode != 403 {
			t.Errorf("CONNECT %s:443 = %d, want 403", name, resp.StatusCode)
		}
	}
	// IP literals are judged as addresses, and odd IPv4 forms refused.
	for _, target := range []string{"127.0.0.1:443", "[::ffff:169.254.169.254]:443", "[::1]:443"} {
		e.pol.hosts[strings.Trim(target[:strings.LastIndex(target, ":")], "[]")] = hostRule{ports: []int{443}}
		e.pol.hosts["169.254.169.254"] = hostRule{ports: []int{443}}
		_, resp := e.connect(target)
		if resp.StatusCode != 403 {
			t.Errorf("CONNECT %s = %d, want 403", target, resp.StatusCode)
		}
	}
	for _, target := range []string{"2130706433:443", "0x7f.0.0.1:443", "127.1:443", "0177.0.0.1:443", "xn--é.example:443", "a%2eb:443", "a\\b:443", "host:0443", "host:99999"} {
		_, resp := e.connect(target)
		if resp.StatusCode != 400 {
			t.Errorf("CONNECT %q = %d, want 400", target, resp.StatusCode)
		}
	}
	if d := e.dialed(); len(d) != 0 {
		t.Errorf("the proxy dialed %v, want nothing", d)
	}
}

func TestRebindingResolvesOnce(t *testing.T) {
	proxytest.ResourceCheck(t)
	// The first answer is public; every later one is private. Each
	// request resolves once and dials what it checked.
	e := newEnv(t, withResolve(func(e *env, host string) ([]netip.Addr, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.resolves[host]++
		if e.resolves[host] == 1 {
			return []netip.Addr{netip.MustParseAddr("203.0.113.7")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("10.0.0.7")}, nil
	}))
	srv := e.httpServer(hello("rebind"))
	tls := e.tlsServer(hello("rebind"))
	e.host("rebind.example", []string{"203.0.113.7"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80, 443}})
	// The private address leads to a server too: were it dialed, the
	// request would succeed.
	e.backends[netip.MustParseAddr("10.0.0.7")] = srv.Listener.Addr().String()
	c := e.client(nil)
	resp, err := c.Get("http://rebind.example/")
	if err != nil {
		t.Fatal(err)
	}
	if readAll(t, resp.Body); resp.StatusCode != 200 {
		t.Fatalf("first GET = %d, want 200", resp.StatusCode)
	}
	resp.Body.Close()
	for range 3 {
		resp, err := c.Get("http://rebind.example/")
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 403 || !strings.Contains(body, "10.0.0.7") {
			t.Errorf("GET after rebinding = %d %s, want 403 naming 10.0.0.7", resp.StatusCode, body)
		}
	}
	_, resp = e.connect("rebind.example:443")
	if resp.StatusCode != 403 {
		t.Errorf("CONNECT after rebinding = %d, want 403", resp.StatusCode)
	}
	_ = tls
	if diff := cmp.Diff([]string{"203.0.113.7:80"}, e.dialed()); diff != "" {
		t.Errorf("dials (-want +got):\n%s", diff)
	}
	if n := e.resolves["rebind.example"]; n != 5 {
		t.Errorf("%d resolutions, want one per attempt (5)", n)
	}
}

func TestConnectRules(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	var upstreamConns atomic.Int32
	srv := e.tlsServer(hello("api"), func(s *http.Server) {
		s.ConnState = func(c net.Conn, s http.ConnState) {
			if s == http.StateNew {
				upstreamConns.Add(1)
			}
		}
	})
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}})
	e.host("other.example", []string{"203.0.113.2"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}})

	t.Run("other port", func(t *testing.T) {
		_, resp := e.connect("api.example:8443")
		body := readAll(t, resp.Body)
		if resp.StatusCode != 403 || !strings.Contains(body, "port 8443 is not allowed") {
			t.Errorf("CONNECT api.example:8443 = %d %s, want 403", resp.StatusCode, body)
		}
	})
	t.Run("SNI mismatch", func(t *testing.T) {
		before := upstreamConns.Load()
		c, resp := e.connect("api.example:443")
		if resp.StatusCode != 200 {
			t.Fatalf("CONNECT = %d", resp.StatusCode)
		}
		tc := tls.Client(c, &tls.Config{ServerName: "other.example", RootCAs: e.upPool})
		tc.SetDeadline(time.Now().Add(5 * time.Second))
		if err := tc.Handshake(); err == nil {
			t.Fatal("TLS to other.example through a tunnel to api.example succeeded")
		}
		recs := e.waitRecords(2)
		last := recs[len(recs)-1]
		if last.Allowed() || last.Rule != "proxy" || !strings.Contains(last.Reason, `TLS server name "other.example" does not match the target "api.example"`) {
			t.Errorf("record = %+v, want a denial for the server name by the proxy's own rule", last)
		}
		// The upstream connection was dialed, but no byte of the
		// hello reached it: the server never completed a handshake.
		time.Sleep(50 * time.Millisecond)
		if n := upstreamConns.Load() - before; n > 1 {
			t.Errorf("%d upstream connections, want at most the one dialed", n)
		}
	})
	t.Run("no SNI to a name", func(t *testing.T) {
		c, resp := e.connect("api.example:443")
		if resp.StatusCode != 200 {
			t.Fatalf("CONNECT = %d", resp.StatusCode)
		}
		// Without a server name the client checks the certificate
		// against the name it expects itself.
		tc := tls.Client(c, &tls.Config{InsecureSkipVerify: true})
		tc.SetDeadline(time.Now().Add(5 * time.Second))
		if err := tc.Handshake(); err != nil {
			t.Errorf("TLS without a server name: %v", err)
		}
		tc.Close()
	})
}

func TestInterceptHostMismatch(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	var hits atomic.Int32
	srv := e.tlsServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET"}})
	e.host("other.example", []string{"203.0.113.2"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}})
	c, resp := e.connect("api.example:443")
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT = %d", resp.StatusCode)
	}
	tc := tls.Client(c, &tls.Config{ServerName: "api.example", RootCAs: e.caPool()})
	tc.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(tc, "GET /x HTTP/1.1\r\nHost: other.example\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(tc), nil)
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp.Body)
	if resp.StatusCode != 403 || !strings.Contains(body, `Host header \"other.example\" does not match the stream's target api.example:443`) ||
		!strings.Contains(body, `"rule":"proxy"`) {
		t.Errorf("Host other.example inside api.example's stream = %d %s, want 403 by the proxy's own rule", resp.StatusCode, body)
	}
	// An absolute URI naming another host is the same mismatch.
	fmt.Fprintf(tc, "GET https://other.example/x HTTP/1.1\r\nHost: api.example\r\n\r\n")
	resp, err = http.ReadResponse(bufio.NewReader(tc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if readAll(t, resp.Body); resp.StatusCode != 403 {
		t.Errorf("absolute URI to other.example inside api.example's stream = %d, want 403", resp.StatusCode)
	}
	// A method the rule does not name is denied inside the stream.
	fmt.Fprintf(tc, "DELETE /x HTTP/1.1\r\nHost: api.example\r\n\r\n")
	resp, err = http.ReadResponse(bufio.NewReader(tc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp.Body); resp.StatusCode != 403 || !strings.Contains(body, "method DELETE is not allowed") {
		t.Errorf("DELETE = %d %s, want 403", resp.StatusCode, body)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the upstream got %d requests, want none", n)
	}
	tc.Close()
}

func TestRedirectNotFollowed(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.httpServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://elsewhere.example/next", http.StatusFound)
	}))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80}})
	resp, err := e.client(nil).Get("http://api.example/start")
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 302 || resp.Header.Get("Location") != "http://elsewhere.example/next" {
		t.Errorf("GET = %d Location %q, want the 302 itself", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, n := range e.pol.names {
		if n.Host == "elsewhere.example" {
			t.Errorf("the proxy judged %v: it followed the redirect", n)
		}
	}
}

func TestOversizedHeaders(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t, withLimits(proxy.Limits{MaxHeaderBytes: 4096}))
	var hits atomic.Int32
	srv := e.httpServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	tsrv := e.tlsServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80}})
	e.host("secure.example", []string{"203.0.113.2"}, tsrv.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET"}})
	big := strings.Repeat("x", 16<<10)
	for _, u := range []string{"http://api.example/", "https://secure.example/"} {
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("X-Big", big)
		resp, err := e.client(e.caPool()).Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 431 {
			t.Errorf("GET %s with a 16 KiB header = %d, want 431", u, resp.StatusCode)
		}
	}
	// A CONNECT line with an oversized header is refused before any
	// decision.
	c, err := net.Dial("tcp", e.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT api.example:443 HTTP/1.1\r\nX-Big: %s\r\n\r\n", big)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 431 {
		t.Errorf("CONNECT with a 16 KiB header = %d, want 431", resp.StatusCode)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("upstreams got %d requests, want none", n)
	}
}

func TestInterceptWithMintedLeaf(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.tlsServer(hello("api"))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET", "POST"}})
	c := e.client(e.caPool()) // trusts the proxy's CA alone
	for i := range 3 {
		resp, err := c.Post("https://api.example/v1/items", "text/plain", strings.NewReader("payload"))
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || body != "hello from api: POST /v1/items" {
			t.Fatalf("POST %d = %d %q", i, resp.StatusCode, body)
		}
		leaf := resp.TLS.PeerCertificates[0]
		if leaf.Issuer.String() != e.ca.Certificate().Subject.String() || !slices.Equal(leaf.DNSNames, []string{"api.example"}) {
			t.Errorf("leaf issued by %s for %v, want the proxy's CA for api.example", leaf.Issuer, leaf.DNSNames)
		}
	}
	// A client that does not trust the CA refuses the stream.
	if _, err := e.client(e.upPool).Get("https://api.example/"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a client without the CA: %v, want a certificate error", err)
	}
	c.Transport.(*http.Transport).CloseIdleConnections()
	recs := e.waitRecords(5)
	var kinds []string
	for _, r := range recs {
		kinds = append(kinds, fmt.Sprintf("%s %s %s %v %v", r.Method, r.Protocol, r.Path, r.Allowed(), r.Intercepted))
	}
	// Each request, and each stream (the one whose client refused the
	// leaf too).
	want := []string{"CONNECT https  true true", "CONNECT https  true true", "POST https /v1/items true false", "POST https /v1/items true false", "POST https /v1/items true false"}
	slices.Sort(kinds)
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestUpstreamCertificateRefused(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	var hits atomic.Int32
	// httptest's own certificate: not from a root the proxy trusts.
	srv := newTLSServerOwnCert(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET"}})
	resp, err := e.client(e.caPool()).Get("https://api.example/")
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 502 || !strings.Contains(body, `"error":"upstream_tls_failed"`) {
		t.Errorf("GET to an upstream with a bad certificate = %d %s, want 502 upstream_tls_failed", resp.StatusCode, body)
	}
	if hits.Load() != 0 {
		t.Error("the request reached the upstream")
	}
}

func TestNoCAInterceptionDenied(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t, withoutCA())
	var hits atomic.Int32
	srv := e.tlsServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET"}})
	if _, err := e.client(e.upPool).Get("https://api.example/"); err == nil {
		t.Error("a stream that needs interception went through without a CA")
	}
	recs := e.waitRecords(1)
	if last := recs[len(recs)-1]; last.Allowed() || !strings.Contains(last.Reason, "no CA") {
		t.Errorf("record = %+v, want a denial naming the missing CA", last)
	}
	if hits.Load() != 0 {
		t.Error("the request reached the upstream")
	}
}

func TestPlainHTTPInsideConnect(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	srv := e.httpServer(hello("ws"))
	e.host("ws.example", []string{"203.0.113.3"}, srv.Listener.Addr().String(), &hostRule{ports: []int{80}, methods: []string{"GET"}})
	c, resp := e.connect("ws.example:80")
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT = %d", resp.StatusCode)
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(c)
	for _, tt := range []struct {
		method string
		want   int
	}{{"GET", 200}, {"POST", 403}, {"GET", 200}} {
		fmt.Fprintf(c, "%s /p HTTP/1.1\r\nHost: ws.example\r\nContent-Length: 0\r\n\r\n", tt.method)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		readAll(t, resp.Body)
		if resp.StatusCode != tt.want {
			t.Errorf("%s inside a plain HTTP stream = %d, want %d", tt.method, resp.StatusCode, tt.want)
		}
	}
}

func TestMaxTunnels(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t, withLimits(proxy.Limits{MaxTunnels: 1}))
	srv := e.tlsServer(hello("api"))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}})
	c1, resp := e.connect("api.example:443")
	if resp.StatusCode != 200 {
		t.Fatalf("first CONNECT = %d", resp.StatusCode)
	}
	_, resp = e.connect("api.example:443")
	if body := readAll(t, resp.Body); resp.StatusCode != 503 || !strings.Contains(body, "too_many_tunnels") {
		t.Errorf("second CONNECT = %d %s, want 503 too_many_tunnels", resp.StatusCode, body)
	}
	c1.Close()
}

func TestIdleTimeout(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t, withLimits(proxy.Limits{IdleTimeout: 100 * time.Millisecond, PeekTimeout: 20 * time.Millisecond}))
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(c, c); c.Close() }()
		}
	}()
	e.host("echo.example", []string{"203.0.113.4"}, echo.Addr().String(), &hostRule{ports: []int{7}})
	idle, resp := e.connect("echo.example:7")
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT = %d", resp.StatusCode)
	}
	busy, _ := e.connect("echo.example:7")
	start := time.Now()
	idleDone := make(chan time.Duration, 1)
	go func() {
		idle.SetReadDeadline(time.Now().Add(5 * time.Second))
		io.Copy(io.Discard, idle)
		idleDone <- time.Since(start)
	}()
	buf := make([]byte, 4)
	for time.Since(start) < 600*time.Millisecond {
		busy.SetDeadline(time.Now().Add(time.Second))
		if _, err := busy.Write([]byte("ping")); err != nil {
			t.Fatalf("a busy stream was closed after %v: %v", time.Since(start), err)
		}
		if _, err := io.ReadFull(busy, buf); err != nil {
			t.Fatalf("a busy stream was closed after %v: %v", time.Since(start), err)
		}
		time.Sleep(40 * time.Millisecond)
	}
	if d := <-idleDone; d > 2*time.Second {
		t.Errorf("an idle stream was closed after %v, want about 100-300ms", d)
	}
}

func TestDeciderPanicDenies(t *testing.T) {
	proxytest.ResourceCheck(t)
	p, err := proxy.New(proxy.Config{
		CheckName:  func(_ context.Context, t proxy.Target) proxy.Decision { panic("boom") },
		CheckAddrs: func(context.Context, proxy.Target, []netip.Addr) proxy.Decision { return proxy.Decision{Allow: true} },
		Dial: func(context.Context, string, string) (net.Conn, error) {
			t.Error("dialed")
			return nil, io.EOF
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ln := proxytest.NewListener()
	go p.Serve(ln)
	c, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT a.example:443 HTTP/1.1\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 403 {
		t.Errorf("CONNECT with a panicking decider = %d, want 403", resp.StatusCode)
	}
}

func TestNewRefusesIncompleteConfig(t *testing.T) {
	ok := func(context.Context, proxy.Target) proxy.Decision { return proxy.Decision{} }
	if _, err := proxy.New(proxy.Config{CheckName: ok}); err == nil {
		t.Error("New without CheckAddrs succeeded")
	}
}

// TestBulkTunnelCounted: a tunnel carrying bulk both ways (spliced
// between the sockets) delivers every byte intact and records exactly
// how many went each way.
func TestBulkTunnelCounted(t *testing.T) {
	proxytest.ResourceCheck(t)
	e := newEnv(t)
	const up, down = 3<<20 + 17, 8<<20 + 5
	pattern := func(n int, seed byte) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7) ^ seed
		}
		return b
	}
	srv, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	gotUp := make(chan []byte, 1)
	go func() {
		c, err := srv.Accept()
		if err != nil {
			gotUp <- nil
			return
		}
		defer c.Close()
		b, _ := io.ReadAll(c)
		gotUp <- b
		c.Write(pattern(down, 0x5a))
	}()
	e.host("bulk.example", []string{"203.0.113.9"}, srv.Addr().String(), &hostRule{ports: []int{9000}})
	c, resp := e.connect("bulk.example:9000")
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT = %d", resp.StatusCode)
	}
	c.SetDeadline(time.Now().Add(time.Minute))
	if _, err := c.Write(pattern(up, 0xa5)); err != nil {
		t.Fatal(err)
	}
	c.(*net.TCPConn).CloseWrite()
	gotDown, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if b := <-gotUp; !bytes.Equal(b, pattern(up, 0xa5)) {
		t.Errorf("upstream got %d bytes, not the %d sent", len(b), up)
	}
	if !bytes.Equal(gotDown, pattern(down, 0x5a)) {
		t.Errorf("the client got %d bytes, not the %d sent", len(gotDown), down)
	}
	got := e.waitRecords(1)
	if len(got) != 1 || got[0].BytesUp != up || got[0].BytesDown != down {
		t.Errorf("records %+v, want one with %d bytes up and %d down", got, up, down)
	}
}
