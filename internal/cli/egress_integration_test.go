// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// The egress boundary end to end (docs/spec.md §9): the real warden binary
// runs tools in its sandbox — curl (CONNECT and forward requests), a Go
// client (HTTPS_PROXY), node's fetch (which ignores the proxy variables
// and goes through the DNS stub and the :80/:443 capture), git over smart
// HTTP and getent — and every check is made outside: at the servers the
// tools try to reach (connections, bytes, requests, headers), at the DNS
// server the warden parent resolves with, and in the execution record.
//
// TestEgress creates a network namespace of its own (warden-egress-*,
// deleted afterwards), warden's machine, joined by a veth pair to a
// second one (its -peer) whose end carries TEST-NET-3 addresses, which
// netpolicy treats as public (203.0.113.10 api.test.example and git, .11
// files.test.example, .20 blocked.example, .53 the DNS server), a private
// address (10.55.0.10) and the metadata address (169.254.169.254): the
// servers live there, made from the rerun on a thread that entered it,
// because the proxy never dials an address of its own machine. The test
// reruns itself in the first, as root, in a
// private mount namespace where /etc/resolv.conf names the test's DNS
// server and /etc/ssl/certs/ca-certificates.crt is the host's bundle plus
// a test CA: bind mounts in the rerun only, the host's files are never
// changed (the test checks). The rerun serves HTTP and HTTPS (one leaf of
// the test CA for every test name) on those addresses and on the
// namespace's 127.0.0.1, git's smart HTTP (git http-backend through
// net/http/cgi) on api.test.example, a listener on api.test.example:8443,
// and the DNS server, whose names resolve to the servers, to 127.0.0.1,
// to the metadata address and to the private one; rebind.test.example
// answers the public address once, then the private one. It then runs
// warden run as root and as uid 65534 (setpriv), so that the proxy runs as
// each. Every listener counts what reaches it with a sentinel, as the
// sandbox's escape tests do: after a run the test connects itself, and
// what arrived before its sentinel is what the run sent. No traffic goes
// anywhere but that namespace, and no real name is resolved.
//
// Assumptions: Linux, run as root (CI does; other users skip), with ip
// (iproute2), unshare, mount and setpriv (util-linux), curl, git, node
// (20, whose fetch ignores proxy variables), getent, dig, timeout and the go
// command on PATH (.ci/run installs them; a missing one fails the test),
// /etc/ssl/certs/ca-certificates.crt, and a writable /var/tmp. Run with
//
//	go test -race -tags integration -run Egress ./internal/cli

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/http/cgi"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// envEgress names the test's directory in the rerun inside the test
// network namespace; envEgressPeer names the namespace of the servers.
const (
	envEgress     = "WARDEN_EGRESS_TEST_DIR"
	envEgressPeer = "WARDEN_EGRESS_TEST_PEER"
)

// egressHostAddr is the address of warden's machine, on its end of the
// veth pair to the servers' namespace.
const egressHostAddr = "203.0.113.2"

// The test namespace's addresses.
const (
	apiAddr      = "203.0.113.10" // api.test.example, its git, and :8443
	filesAddr    = "203.0.113.11" // files.test.example
	blockedAddr  = "203.0.113.20" // blocked.example, which no rule allows
	dnsAddr      = "203.0.113.53" // the DNS server of the parent's resolv.conf
	privateAddr  = "10.55.0.10"   // private.test.example
	metadataAddr = "169.254.169.254"
)

// testNames are the A records of the test's DNS server; every other name
// but rebindName is NXDOMAIN, and no name has an AAAA record.
var testNames = map[string]string{
	"api.test.example":      apiAddr,
	"files.test.example":    filesAddr,
	"blocked.example":       blockedAddr,
	"loopback.test.example": "127.0.0.1",
	"metadata.test.example": metadataAddr,
	"private.test.example":  privateAddr,
	// Asked only inside the sandbox: the stub answers it, and the
	// question must never reach this server.
	"inside.test.example": apiAddr,
}

// rebindName answers apiAddr to its first A question and privateAddr to
// every later one.
const rebindName = "rebind.test.example"

// hostFiles are the host's files the rerun binds others over; the test
// checks they did not change.
var hostFiles = []string{"/etc/resolv.conf", "/etc/ssl/certs/ca-certificates.crt"}

func TestEgress(t *testing.T) {
	if dir := os.Getenv(envEgress); dir != "" {
		egressInNetns(t, dir)
		return
	}
	sandboxtest.RequireRoot(t)
	if _, err := os.Stat("/proc/self/ns/net"); err != nil {
		t.Skipf("requires network namespaces: /proc/self/ns/net missing (%v)", err)
	}
	tools := map[string]string{}
	for _, c := range []string{"ip", "unshare", "mount", "setpriv", "curl", "git", "node", "getent", "dig", "timeout", "go"} {
		p, err := exec.LookPath(c)
		if err != nil {
			t.Fatalf("requires %s on PATH (.ci/run installs it): %v", c, err)
		}
		tools[c] = p
	}
	var before [][]byte
	for _, f := range hostFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("requires %s: %v", f, err)
		}
		before = append(before, b)
	}
	dir := egressTempDir(t)
	warden := sandboxtest.BuildWarden(t)
	writeTestPKI(t, dir)
	buildGoClient(t, dir, tools["go"])
	if err := os.WriteFile(filepath.Join(dir, "fetch.mjs"), []byte(fetchScript), 0o644); err != nil {
		t.Fatal(err)
	}
	makeRepo(t, dir, tools["git"])
	resolv := filepath.Join(dir, "resolv.conf")
	if err := os.WriteFile(resolv, []byte("nameserver "+dnsAddr+"\noptions timeout:2 attempts:2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Warden's machine is one namespace; the servers are in a peer
	// behind a veth pair, since the proxy never dials an address of its
	// own machine.
	name := sandboxtest.NetNS(t, "warden-egress")
	peer := peerNetNS(t, name, egressHostAddr+"/24",
		[]string{apiAddr + "/24", filesAddr + "/24", blockedAddr + "/24", dnsAddr + "/24", privateAddr + "/24", metadataAddr + "/32"},
		[]string{"10.55.0.0/24", metadataAddr + "/32"})

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const bind = `mount --bind "$1" /etc/resolv.conf && mount --bind "$2" /etc/ssl/certs/ca-certificates.crt && shift 2 && exec "$@"`
	argv := []string{tools["ip"], "netns", "exec", name, tools["unshare"], "--mount", "--propagation", "private", "--",
		"sh", "-c", bind, "sh", resolv, filepath.Join(dir, "bundle.pem"),
		self, "-test.run=^TestEgress$", "-test.v", "-test.count=1"}
	if d, ok := t.Deadline(); ok {
		argv = append(argv, "-test.timeout="+time.Until(d).Round(time.Second).String())
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), envEgress+"="+dir, envEgressPeer+"="+peer, sandboxtest.EnvWardenBinary+"="+warden)
	out, err := cmd.CombinedOutput()
	t.Logf("in network namespace %s:\n%s", name, out)
	switch {
	case err != nil:
		t.Errorf("failed in the test network namespace: %v", err)
	case bytes.Contains(out, []byte("--- SKIP: TestEgress (")):
		t.Skip("skipped in the test network namespace (see the log)")
	case !bytes.Contains(out, []byte("--- PASS: TestEgress (")):
		t.Error("the rerun did not run TestEgress")
	}
	for i, f := range hostFiles {
		if now, _ := os.ReadFile(f); !bytes.Equal(now, before[i]) {
			t.Errorf("the host's %s changed", f)
		}
	}
}

// egressTempDir is a directory under /var/tmp every user can read (the
// sandbox sees it through the read-only root; /tmp is its own).
func egressTempDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/var/tmp", "warden-egress-test-")
	if err != nil {
		t.Fatalf("requires a writable /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// writeTestPKI writes the test CA (ca.pem), one leaf for every test name
// (leaf.pem, leaf.key) and the trust bundle the rerun binds over the
// system's: the host's roots and the test CA (bundle.pem).
func writeTestPKI(t *testing.T, dir string) {
	t.Helper()
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Warden egress test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{rebindName}
	for n := range testNames {
		names = append(names, n)
	}
	slices.Sort(names)
	leafDER, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "api.test.example"}, DNSNames: names,
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, ca, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(leafKey)
	if err != nil {
		t.Fatal(err)
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	system, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"ca.pem":     caPEM,
		"leaf.pem":   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leafDER}),
		"leaf.key":   pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
		"bundle.pem": append(append(bytes.TrimRight(system, "\n"), "\n"...), caPEM...),
	} {
		mode := os.FileMode(0o644)
		if name == "leaf.key" {
			mode = 0o600
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, mode); err != nil {
			t.Fatal(err)
		}
	}
}

// goClient is the Go client the sandbox runs: net/http's default
// transport, which honours HTTPS_PROXY and HTTP_PROXY. "auth:" before a
// URL sends the placeholder in API_TOKEN as a bearer token.
const goClient = `package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	c := &http.Client{Timeout: 20 * time.Second}
	for _, arg := range os.Args[1:] {
		u, auth := strings.CutPrefix(arg, "auth:")
		req, err := http.NewRequest("GET", u, nil)
		if err != nil {
			fmt.Printf("go %s error=%v\n", u, err)
			continue
		}
		if auth {
			req.Header.Set("Authorization", "Bearer "+os.Getenv("API_TOKEN"))
		}
		resp, err := c.Do(req)
		if err != nil {
			fmt.Printf("go %s error=%v\n", u, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("go %s status=%d body=%s\n", u, resp.StatusCode, strings.TrimSpace(string(b)))
	}
}
`

// buildGoClient builds goClient as dir/bin/egress-get.
func buildGoClient(t *testing.T, dir, goCmd string) {
	t.Helper()
	src := filepath.Join(dir, "goclient")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"go.mod": "module egressget\n\ngo 1.22\n", "main.go": goClient} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goCmd, "build", "-o", filepath.Join(dir, "bin", "egress-get"), ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the Go client: %v\n%s", err, out)
	}
}

// fetchScript is what node runs: fetch, which in Node 20 ignores the
// proxy variables, for each URL given ("auth:" as for goClient).
const fetchScript = `for (let arg of process.argv.slice(2)) {
  const headers = {};
  if (arg.startsWith("auth:")) {
    arg = arg.slice(5);
    headers.authorization = "Bearer " + process.env.API_TOKEN;
  }
  try {
    const r = await fetch(arg, { headers, signal: AbortSignal.timeout(20000) });
    console.log("node " + arg + " status=" + r.status + " body=" + (await r.text()).trim());
  } catch (e) {
    console.log("node " + arg + " error=" + (e.cause?.code ?? e.cause?.message ?? e.message));
  }
}
`

// repoReadme is the content of the README in the test's git repository.
const repoReadme = "Warden egress test repository\n"

// makeRepo makes the bare repository dir/repos/proj.git, with one commit
// on main.
func makeRepo(t *testing.T, dir, gitCmd string) {
	t.Helper()
	env := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Warden", "GIT_AUTHOR_EMAIL=warden@test.example", "GIT_COMMITTER_NAME=Warden", "GIT_COMMITTER_EMAIL=warden@test.example")
	work := filepath.Join(dir, "repo-work")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(gitCmd, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("init", "-q", "-b", "main", work)
	if err := os.WriteFile(filepath.Join(work, "README"), []byte(repoReadme), 0o644); err != nil {
		t.Fatal(err)
	}
	run("-C", work, "add", "README")
	run("-C", work, "commit", "-q", "-m", "egress test")
	run("clone", "-q", "--bare", work, filepath.Join(dir, "repos", "proj.git"))
}

// tap is a listener that records every connection it accepts, in order,
// with the bytes read from each, so that a sentinel connection made after
// a run tells what the run sent.
type tap struct {
	net.Listener
	mu sync.Mutex
	// mu guards the fields below.
	conns []*tapConn
	wake  chan struct{} // closed at each arrival
	seen  int           // connections already counted by settle
}

type tapConn struct {
	net.Conn
	n    atomic.Int64
	once sync.Once
	done chan struct{} // closed once the server is done reading
}

func (c *tapConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.n.Add(int64(n))
	if err != nil {
		c.finish()
	}
	return n, err
}

func (c *tapConn) Close() error {
	c.finish()
	return c.Conn.Close()
}

func (c *tapConn) finish() { c.once.Do(func() { close(c.done) }) }

func listenTap(t *testing.T, addr string) *tap {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen %s: %v", addr, err)
	}
	l := &tap{Listener: ln}
	t.Cleanup(func() { ln.Close() })
	return l
}

func (l *tap) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &tapConn{Conn: c, done: make(chan struct{})}
	l.mu.Lock()
	l.conns = append(l.conns, tc)
	if l.wake != nil {
		close(l.wake)
	}
	l.wake = make(chan struct{})
	l.mu.Unlock()
	return tc, nil
}

// echo serves l as a line echo server: it answers the first line of
// each connection with "echo: " and the line, and closes it.
func (l *tap) echo() {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			line, err := bufio.NewReader(c).ReadString('\n')
			if err == nil {
				io.WriteString(c, "echo: "+line)
			}
		}()
	}
}

// settleWait bounds waiting for a sentinel or for the server to finish
// a connection that the run, which has ended, made: the kernel has
// delivered them already, so only a broken test waits this long.
const settleWait = time.Minute

// settle connects a sentinel and returns how many connections arrived
// before it since the last call, and the bytes the server read from them
// once it is done with each.
func (l *tap) settle(t *testing.T) (int, int64) {
	t.Helper()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatalf("sentinel connection to %s: %v", l.Addr(), err)
	}
	want := c.LocalAddr().String()
	c.Close()
	giveUp := time.After(settleWait)
	for {
		l.mu.Lock()
		for i := l.seen; i < len(l.conns); i++ {
			if l.conns[i].RemoteAddr().String() != want {
				continue
			}
			before := l.conns[l.seen:i]
			l.seen = i + 1
			l.mu.Unlock()
			var n int64
			for _, bc := range before {
				select {
				case <-bc.done:
				case <-giveUp:
					t.Fatalf("%s: a connection from the run is still open after it ended", l.Addr())
				}
				n += bc.n.Load()
			}
			return len(before), n
		}
		if l.wake == nil {
			l.wake = make(chan struct{})
		}
		wake := l.wake
		l.mu.Unlock()
		select {
		case <-wake:
		case <-giveUp:
			t.Fatalf("the sentinel connection never reached %s", l.Addr())
		}
	}
}

// request is one request a test server answered.
type request struct {
	Scheme, Method, Host, URI, Auth string
}

func (r request) String() string {
	return fmt.Sprintf("%s %s %s%s (authorization %q)", r.Method, r.Scheme, r.Host, r.URI, r.Auth)
}

// server is a test server: HTTP on :80 and HTTPS on :443 of one address.
type server struct {
	name       string
	plain, tls *tap
	mu         sync.Mutex
	// mu guards the fields below.
	reqs   []request
	hellos int // TLS ClientHellos
}

// traffic is what reached a server during one run.
type traffic struct {
	conns  int   // TCP connections, both ports
	bytes  int64 // bytes the server read from them
	hellos int
	reqs   []request
}

func startServer(t *testing.T, name, addr string, leaf tls.Certificate, git http.Handler) *server {
	t.Helper()
	s := &server{name: name, plain: listenTap(t, net.JoinHostPort(addr, "80")), tls: listenTap(t, net.JoinHostPort(addr, "443"))}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		s.mu.Lock()
		s.reqs = append(s.reqs, request{scheme, r.Method, r.Host, r.URL.RequestURI(), r.Header.Get("Authorization")})
		s.mu.Unlock()
		if git != nil && strings.HasPrefix(r.URL.Path, "/git/") {
			git.ServeHTTP(w, r)
			return
		}
		if r.URL.Path == "/close" {
			// The next request on the proxy's side needs a new
			// connection.
			w.Header().Set("Connection", "close")
		}
		// Never echo the request's headers: a credential's host must
		// not hand its value back to the sandbox.
		fmt.Fprintf(w, "hello from %s: %s %s\n", name, r.Method, r.URL.RequestURI())
	})
	quiet := log.New(io.Discard, "", 0)
	hs := &http.Server{Handler: h, ErrorLog: quiet}
	hss := &http.Server{Handler: h, ErrorLog: quiet, TLSConfig: &tls.Config{
		Certificates: []tls.Certificate{leaf},
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
			s.mu.Lock()
			s.hellos++
			s.mu.Unlock()
			return nil, nil
		},
	}}
	go hs.Serve(s.plain)
	go hss.ServeTLS(s.tls, "", "")
	t.Cleanup(func() {
		hs.Close()
		hss.Close()
	})
	return s
}

func (s *server) settle(t *testing.T) traffic {
	t.Helper()
	c1, b1 := s.plain.settle(t)
	c2, b2 := s.tls.settle(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	tr := traffic{conns: c1 + c2, bytes: b1 + b2, hellos: s.hellos, reqs: s.reqs}
	s.reqs, s.hellos = nil, 0
	return tr
}

// dnsServer is the DNS server the warden parent resolves with (the
// rerun's /etc/resolv.conf names it): it answers testNames and records
// every question, in order.
type dnsServer struct {
	pc net.PacketConn
	mu sync.Mutex
	// mu guards the fields below.
	got     []string // "name TYPE"
	wake    chan struct{}
	seen    int
	rebindA int // A questions for rebindName since resetRebind
}

func startDNS(t *testing.T, addr string) *dnsServer {
	t.Helper()
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		t.Fatalf("listen udp %s: %v", addr, err)
	}
	t.Cleanup(func() { pc.Close() })
	d := &dnsServer{pc: pc}
	go d.serve()
	return d
}

func (d *dnsServer) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := d.pc.ReadFrom(buf)
		if err != nil {
			return
		}
		if resp := d.answer(buf[:n]); resp != nil {
			d.pc.WriteTo(resp, from)
		}
	}
}

func (d *dnsServer) answer(msg []byte) []byte {
	var p dnsmessage.Parser
	h, err := p.Start(msg)
	if err != nil {
		return nil
	}
	q, err := p.Question()
	if err != nil {
		return nil
	}
	name := strings.ToLower(strings.TrimSuffix(q.Name.String(), "."))
	d.mu.Lock()
	d.got = append(d.got, name+" "+strings.TrimPrefix(q.Type.String(), "Type"))
	addr, ok := testNames[name]
	if name == rebindName {
		ok, addr = true, apiAddr
		if q.Type == dnsmessage.TypeA {
			if d.rebindA++; d.rebindA > 1 {
				addr = privateAddr
			}
		}
	}
	if d.wake != nil {
		close(d.wake)
	}
	d.wake = make(chan struct{})
	d.mu.Unlock()
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true}
	if !ok {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.StartQuestions()
	b.Question(q)
	if ok && q.Type == dnsmessage.TypeA {
		b.StartAnswers()
		b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0},
			dnsmessage.AResource{A: [4]byte(net.ParseIP(addr).To4())})
	}
	out, err := b.Finish()
	if err != nil {
		return nil
	}
	return out
}

func (d *dnsServer) resetRebind() {
	d.mu.Lock()
	d.rebindA = 0
	d.mu.Unlock()
}

// settle sends a sentinel question and returns the questions that came
// before it since the last call, and the A questions for rebindName.
func (d *dnsServer) settle(t *testing.T) ([]string, int) {
	t.Helper()
	c, err := net.Dial("udp", d.pc.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sentinel := fmt.Sprintf("sentinel-%d.invalid", mrand.Uint64())
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: 1})
	b.StartQuestions()
	b.Question(dnsmessage.Question{Name: dnsmessage.MustNewName(sentinel + "."), Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET})
	msg, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(msg); err != nil {
		t.Fatal(err)
	}
	giveUp := time.After(settleWait)
	for {
		d.mu.Lock()
		for i := d.seen; i < len(d.got); i++ {
			if d.got[i] == sentinel+" A" {
				got := slices.Clone(d.got[d.seen:i])
				d.seen = i + 1
				n := d.rebindA
				d.mu.Unlock()
				return got, n
			}
		}
		if d.wake == nil {
			d.wake = make(chan struct{})
		}
		wake := d.wake
		d.mu.Unlock()
		select {
		case <-wake:
		case <-giveUp:
			t.Fatal("the sentinel question never reached the test's DNS server")
		}
	}
}

// lab is what the rerun serves inside the test network namespace.
type lab struct {
	dir, warden string
	servers     map[string]*server // by host name
	apiAlt      *tap               // api.test.example:8443, a line echo server
	dns         *dnsServer
	secret      string // WARDEN_TEST_TOKEN, the credential's value
}

// egressInNetns is TestEgress in the rerun: the servers, then warden
// run as root and as uid 65534.
func egressInNetns(t *testing.T, dir string) {
	local := false
	if ifaddrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range ifaddrs {
			local = local || strings.HasPrefix(a.String(), egressHostAddr+"/")
		}
	}
	if !local {
		t.Fatalf("%s=%s but %s is not a local address: not in the test network namespace", envEgress, dir, egressHostAddr)
	}
	peer := os.Getenv(envEgressPeer)
	if b, _ := os.ReadFile("/etc/resolv.conf"); !strings.Contains(string(b), "nameserver "+dnsAddr) {
		t.Fatalf("/etc/resolv.conf is not the test's in the rerun: %q", b)
	}
	caPEM, err := os.ReadFile(filepath.Join(dir, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile("/etc/ssl/certs/ca-certificates.crt"); !bytes.Contains(b, caPEM) {
		t.Fatal("/etc/ssl/certs/ca-certificates.crt does not hold the test CA in the rerun")
	}
	leaf, err := tls.LoadX509KeyPair(filepath.Join(dir, "leaf.pem"), filepath.Join(dir, "leaf.key"))
	if err != nil {
		t.Fatal(err)
	}
	gitPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	backend := &cgi.Handler{
		Path: filepath.Join(strings.TrimSpace(string(gitPath)), "git-http-backend"),
		Root: "/git",
		Env: []string{"GIT_PROJECT_ROOT=" + filepath.Join(dir, "repos"), "GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=" + dir},
	}
	l := &lab{
		dir:    dir,
		warden: sandboxtest.BuildWarden(t),
		secret: "wsecret-" + hex.EncodeToString(randBytes(t, 16)),
		servers: map[string]*server{
			// Warden's own loopback.
			"loopback.test.example": startServer(t, "loopback.test.example", "127.0.0.1", leaf, nil),
		},
	}
	inNetNS(t, peer, func() {
		l.dns = startDNS(t, net.JoinHostPort(dnsAddr, "53"))
		l.apiAlt = listenTap(t, net.JoinHostPort(apiAddr, "8443"))
		l.servers["api.test.example"] = startServer(t, "api.test.example", apiAddr, leaf, backend)
		l.servers["files.test.example"] = startServer(t, "files.test.example", filesAddr, leaf, nil)
		l.servers["blocked.example"] = startServer(t, "blocked.example", blockedAddr, leaf, nil)
		l.servers["private.test.example"] = startServer(t, "private.test.example", privateAddr, leaf, nil)
		l.servers["metadata.test.example"] = startServer(t, "metadata.test.example", metadataAddr, leaf, nil)
	})
	go l.apiAlt.echo()
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct {
		name string
		uid  int
		as   []string
	}{
		{"root", 0, nil},
		{"uid-65534", 65534, []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"}},
	} {
		t.Run(u.name, func(t *testing.T) {
			if u.uid != 0 {
				// The sandbox of an unprivileged user needs user
				// namespaces; say so rather than fail in every run.
				out, err := exec.Command(setpriv, append(u.as[1:], "unshare", "--user", "--map-root-user", "--net", "--mount", "true")...).CombinedOutput()
				if err != nil {
					t.Skipf("requires user namespaces for uid %d: unshare --user failed: %v: %s", u.uid, err, out)
				}
			}
			r := newRunner(t, l, u.name, u.uid, u.as)
			t.Run("splice", func(t *testing.T) { testSplice(t, r) })
			t.Run("intercept", func(t *testing.T) { testIntercept(t, r) })
			t.Run("remembered", func(t *testing.T) { testRemembered(t, r) })
			t.Run("openshell", func(t *testing.T) { testOpenShell(t, r) })
		})
	}
}

func randBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// runner runs warden as one user.
type runner struct {
	lab  *lab
	as   []string // setpriv and its arguments, or nothing for root
	uid  int
	home string // the user's HOME: Warden's CA and caches go there
	dir  string // projects, policies and records
}

func newRunner(t *testing.T, l *lab, name string, uid int, as []string) *runner {
	t.Helper()
	r := &runner{lab: l, as: as, uid: uid, home: filepath.Join(l.dir, "home-"+name), dir: filepath.Join(l.dir, "runs-"+name)}
	for _, d := range []string{r.home, r.dir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, uid, uid); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// step is one command of a run's script; its output (stdout and stderr)
// and status are told apart by markers.
type step struct{ name, cmd string }

type stepOut struct {
	out    string
	status int
}

// attempt is an entry of the record's network_attempts.
type attempt struct {
	RunID       string   `json:"run_id"`
	Via         string   `json:"via"`
	Host        string   `json:"host"`
	Port        int      `json:"port"`
	Method      string   `json:"method"`
	Protocol    string   `json:"protocol"`
	Path        string   `json:"path"`
	Binary      string   `json:"binary"`
	Verdict     string   `json:"verdict"`
	Rule        string   `json:"rule"`
	Reason      string   `json:"reason"`
	Addr        string   `json:"addr"`
	Status      int      `json:"status"`
	BytesUp     int64    `json:"bytes_up"`
	BytesDown   int64    `json:"bytes_down"`
	Intercepted bool     `json:"intercepted"`
	Injected    []string `json:"credentials_injected"`
	Flagged     []string `json:"placeholders_flagged"`
}

func (a attempt) String() string {
	return fmt.Sprintf("%s %s %s:%d %s %s (rule %q, status %d, %d up, %d down, addr %q, injected %v, flagged %v: %s)",
		a.Via, a.Method, a.Host, a.Port, a.Protocol, a.Verdict, a.Rule, a.Status, a.BytesUp, a.BytesDown, a.Addr, a.Injected, a.Flagged, a.Reason)
}

// outcome is one warden run, and what it sent outside.
type outcome struct {
	code           int
	stdout, stderr string
	steps          map[string]stepOut
	record         []byte // the execution record as written
	store          []byte // the store's files, as bytes on disk
	id             string
	attempts       []attempt
	raw            []map[string]any // the same, as JSON objects
	traffic        map[string]traffic
	apiAlt         int // connections to api.test.example:8443
	apiAltBytes    int64
	queries        []string // questions the test's DNS server got
	rebindA        int
}

var stepMarker = regexp.MustCompile(`(?m)^=== (begin|end) (\S+)(?: (\d+))?$`)

// run runs warden run with policy (YAML, with DIR replaced by the test's
// directory) and the steps' script, as r's user, then settles every
// server.
func (r *runner) run(t *testing.T, name, policy string, steps []step, flags ...string) *outcome {
	t.Helper()
	l := r.lab
	project := filepath.Join(r.dir, "project-"+name)
	if err := os.Mkdir(project, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(project, 0o777); err != nil {
		t.Fatal(err)
	}
	policyPath := filepath.Join(r.dir, name+".yaml")
	if err := os.WriteFile(policyPath, []byte(strings.ReplaceAll(policy, "DIR", l.dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	auditPath := filepath.Join(r.dir, name+"-record.json")
	for _, p := range []string{project, policyPath} {
		if err := os.Chown(p, r.uid, r.uid); err != nil {
			t.Fatal(err)
		}
	}
	var body strings.Builder
	for _, s := range steps {
		fmt.Fprintf(&body, "echo '=== begin %s'\n{ %s\n} 2>&1\necho \"=== end %s $?\"\n", s.name, s.cmd, s.name)
	}
	l.dns.resetRebind()
	argv := append(slices.Clone(r.as), l.warden, "run", "--policy", policyPath, "--project", project,
		"--audit-json", auditPath, "--timeout", "10m", "--no-approver")
	argv = append(append(argv, flags...), "--")
	argv = append(argv, scriptIn(t, project, r.uid, body.String())...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = project
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin", "HOME=" + r.home,
		"LANG=C.UTF-8", "TMPDIR=/tmp", "WARDEN_TEST_TOKEN=" + l.secret}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	o := &outcome{stdout: stdout.String(), stderr: stderr.String(), steps: map[string]stepOut{}, traffic: map[string]traffic{}}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		o.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("warden run: %v", err)
	}
	t.Logf("warden run (%s, policy %s): status %d\nstdout:\n%s\nstderr:\n%s", name, policyPath, o.code, o.stdout, o.stderr)

	for name, s := range l.servers {
		o.traffic[name] = s.settle(t)
	}
	o.apiAlt, o.apiAltBytes = l.apiAlt.settle(t)
	o.queries, o.rebindA = l.dns.settle(t)
	t.Logf("the test's DNS server was asked: %q", o.queries)

	if o.code != 0 {
		t.Fatalf("warden run exited %d", o.code)
	}
	ms := stepMarker.FindAllStringSubmatchIndex(o.stdout, -1)
	for i := 0; i+1 < len(ms); i += 2 {
		b, e := ms[i], ms[i+1]
		name := o.stdout[b[4]:b[5]]
		if o.stdout[b[2]:b[3]] != "begin" || o.stdout[e[2]:e[3]] != "end" || o.stdout[e[4]:e[5]] != name {
			t.Fatalf("the script's output is out of order at %q", o.stdout[b[0]:e[1]])
		}
		var status int
		fmt.Sscan(o.stdout[e[6]:e[7]], &status)
		o.steps[name] = stepOut{out: strings.TrimPrefix(o.stdout[b[1]:e[0]], "\n"), status: status}
	}
	for _, s := range steps {
		if _, ok := o.steps[s.name]; !ok {
			t.Fatalf("step %s did not run", s.name)
		}
	}

	if o.record, err = os.ReadFile(auditPath); err != nil {
		t.Fatalf("the execution record: %v", err)
	}
	// The store the run recorded itself in, in the run's home: its
	// database, write-ahead log and spool as bytes on disk.
	state := filepath.Join(r.home, ".local", "state", "warden")
	spooled, _ := filepath.Glob(filepath.Join(state, "spool", "*"))
	for _, f := range append([]string{filepath.Join(state, "warden.db"), filepath.Join(state, "warden.db-wal")}, spooled...) {
		b, _ := os.ReadFile(f)
		o.store = append(o.store, b...)
	}
	var rec struct {
		ID              string            `json:"id"`
		NetworkAttempts []json.RawMessage `json:"network_attempts"`
	}
	if err := json.Unmarshal(o.record, &rec); err != nil {
		t.Fatalf("the execution record: %v", err)
	}
	o.id = rec.ID
	for _, m := range rec.NetworkAttempts {
		var a attempt
		var raw map[string]any
		if err := json.Unmarshal(m, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(m, &raw); err != nil {
			t.Fatal(err)
		}
		o.attempts, o.raw = append(o.attempts, a), append(o.raw, raw)
	}
	var lines []string
	for _, a := range o.attempts {
		lines = append(lines, a.String())
	}
	t.Logf("network_attempts:\n%s", strings.Join(lines, "\n"))
	return o
}

func (o *outcome) step(t *testing.T, name string) stepOut {
	t.Helper()
	s, ok := o.steps[name]
	if !ok {
		t.Fatalf("no step %s", name)
	}
	return s
}

// find returns the attempts for which match is true.
func (o *outcome) find(match func(a attempt) bool) []attempt {
	var out []attempt
	for _, a := range o.attempts {
		if match(a) {
			out = append(out, a)
		}
	}
	return out
}

// wantAttempt fails the test unless an attempt of via to host:port with
// verdict is recorded (port 0: any, and none for DNS), and returns them.
func (o *outcome) wantAttempt(t *testing.T, via, host string, port int, verdict string) []attempt {
	t.Helper()
	got := o.find(func(a attempt) bool {
		return a.Via == via && a.Host == host && (port == 0 || a.Port == port) && a.Verdict == verdict
	})
	if len(got) == 0 {
		t.Errorf("network_attempts has no %s attempt %s:%d with verdict %s", via, host, port, verdict)
	}
	return got
}

// reqsWith returns the requests whose query has via.
func reqsWith(tr traffic, via string) []request {
	var out []request
	for _, r := range tr.reqs {
		if u, err := url.Parse(r.URI); err == nil && u.Query().Get("via") == via {
			out = append(out, r)
		}
	}
	return out
}

// denialOf reads the JSON body of a proxy's denial in out.
func denialOf(t *testing.T, out string) map[string]any {
	t.Helper()
	i := strings.Index(out, "{")
	if i < 0 {
		t.Errorf("no JSON denial in %q", out)
		return nil
	}
	var d map[string]any
	if err := json.NewDecoder(strings.NewReader(out[i:])).Decode(&d); err != nil {
		t.Errorf("the denial in %q is not JSON: %v", out, err)
		return nil
	}
	for _, k := range []string{"error", "host", "port", "method", "reason", "rule", "hint"} {
		if _, ok := d[k]; !ok {
			t.Errorf("the denial %v has no %q", d, k)
		}
	}
	return d
}

// wantDenial checks a denial's body: error policy_denied, the host, port
// and method, and the rule (a prefix of it).
func wantDenial(t *testing.T, out, host string, port int, method, rule string) {
	t.Helper()
	d := denialOf(t, out)
	if d == nil {
		return
	}
	if d["error"] != "policy_denied" || d["host"] != host || d["port"] != float64(port) || d["method"] != method ||
		!strings.HasPrefix(fmt.Sprint(d["rule"]), rule) {
		t.Errorf("denial = %v, want policy_denied for %s %s:%d by %s", d, method, host, port, rule)
	}
}

// The test's commands, with DIR the test's directory.
const (
	curl    = "curl -sS --max-time 20 "
	curlTun = curl + "-o /dev/null -w 'connect=%{http_connect} code=%{http_code}\\n' "
	goGet   = "DIR/bin/egress-get "
	node    = "node DIR/fetch.mjs "
	git     = "timeout 60 git "
)

func expand(dir string, steps []step) []step {
	out := make([]step, len(steps))
	for i, s := range steps {
		out[i] = step{s.name, strings.ReplaceAll(s.cmd, "DIR", dir)}
	}
	return out
}

// splicePolicy allows the test's names on 80 and 443 by a wildcard and
// names no method nor credential: nothing is intercepted, and the
// sandbox trusts the test CA through the system bundle (node through
// NODE_EXTRA_CA_CERTS, which it does not read from the system).
const splicePolicy = `version: 1
sandbox:
  env:
    set: {NODE_EXTRA_CA_CERTS: DIR/ca.pem}
network:
  rules:
    - allow: {host: "*.test.example", ports: [80, 443]}
`

// forbidden are the names that resolve where no wildcard may lead, and
// the rule that refuses each.
var forbidden = []struct{ name, rule string }{
	{"loopback.test.example", "always-denied: loopback"},
	{"metadata.test.example", "always-denied: cloud metadata"},
	{"private.test.example", "private-range: 10.0.0.0/8"},
}

func testSplice(t *testing.T, r *runner) {
	steps := []step{
		{"getent-allowed", "getent hosts api.test.example inside.test.example"},
		{"getent-denied", "getent hosts inside.denied.example"},
		{"curl-https", curl + "https://api.test.example/echo?via=curl-https"},
		{"curl-http", curl + "http://api.test.example/echo?via=curl-http"},
		{"go", goGet + "https://api.test.example/echo?via=go-https http://api.test.example/echo?via=go-http"},
		{"node", node + "https://api.test.example/echo?via=node-https http://api.test.example/echo?via=node-http"},
		{"git-https", git + "ls-remote https://api.test.example/git/proj.git && " + git + "clone -q https://api.test.example/git/proj.git via-https && cat via-https/README"},
		{"git-http", git + "ls-remote http://api.test.example/git/proj.git && " + git + "clone -q http://api.test.example/git/proj.git via-http && cat via-http/README"},
		{"denied-http", curl + "http://blocked.example/echo?via=denied-http"},
		{"denied-https", curlTun + "https://blocked.example/echo?via=denied-https"},
		{"denied-node", node + "https://blocked.example/echo?via=denied-node"},
	}
	for _, f := range forbidden {
		steps = append(steps,
			step{"forbidden-http-" + f.name, curl + "http://" + f.name + "/echo?via=forbidden"},
			step{"forbidden-https-" + f.name, curlTun + "https://" + f.name + "/echo?via=forbidden"},
			step{"forbidden-node-" + f.name, node + "https://" + f.name + "/echo?via=forbidden"})
	}
	steps = append(steps,
		// Several requests in one run: the first resolution is public,
		// every later one private.
		step{"rebind", `for i in 1 2 3; do ` + curlTun + `https://rebind.test.example/echo?via=rebind-$i; ` +
			curl + `-o /dev/null -w 'code=%{http_code}\n' http://rebind.test.example/echo?via=rebind-http-$i; done; ` +
			node + "https://rebind.test.example/echo?via=rebind-node; " + goGet + "https://rebind.test.example/echo?via=rebind-go"},
		step{"port", curlTun + "https://api.test.example:8443/echo?via=port"},
		// A tunnel judged for api.test.example carrying a request or a
		// TLS server name for another host.
		step{"fronting-http", curl + "-p -H 'Host: blocked.example' http://api.test.example/echo?via=fronting-http"},
		step{"fronting-tls", curl + "--connect-to blocked.example:443:api.test.example:443 https://blocked.example/echo?via=fronting-tls"},
		// The stub over TCP; the test's DNS server asked directly.
		step{"dig-tcp", "dig +tcp +short +tries=1 +time=5 inside.test.example"},
		step{"dig-direct", "dig +short +tries=1 +time=2 @" + dnsAddr + " inside.test.example"},
		step{"env", "env | sort"},
	)
	o := r.run(t, "splice", splicePolicy, expand(r.lab.dir, steps))
	api := o.traffic["api.test.example"]

	t.Run("allowed", func(t *testing.T) {
		for _, c := range []struct{ step, via, scheme string }{
			{"curl-https", "curl-https", "https"}, {"curl-http", "curl-http", "http"},
			{"go", "go-https", "https"}, {"go", "go-http", "http"},
			{"node", "node-https", "https"}, {"node", "node-http", "http"},
		} {
			want := "hello from api.test.example: GET /echo?via=" + c.via
			if s := o.step(t, c.step); !strings.Contains(s.out, want) {
				t.Errorf("%s: the output lacks %q:\n%s", c.step, want, s.out)
			}
			got := reqsWith(api, c.via)
			if len(got) != 1 || got[0].Scheme != c.scheme || got[0].Host != "api.test.example" {
				t.Errorf("%s: api.test.example got %v, want one %s request", c.via, got, c.scheme)
			}
		}
		connect := o.wantAttempt(t, "connect", "api.test.example", 443, "allow")
		for _, a := range connect {
			if a.Method != "CONNECT" || a.Protocol != "https" || a.Intercepted || a.BytesUp == 0 || a.BytesDown == 0 ||
				a.Addr != apiAddr+":443" || !strings.HasPrefix(a.Rule, "network.rules[0]") {
				t.Errorf("CONNECT attempt %v: want a spliced https stream to %s:443 by network.rules[0], bytes both ways", a, apiAddr)
			}
		}
		for _, a := range o.wantAttempt(t, "forward", "api.test.example", 80, "allow") {
			if a.Method != "GET" && a.Method != "POST" || a.Status != 200 || a.BytesDown == 0 || a.Addr != apiAddr+":80" {
				t.Errorf("forward attempt %v: want a GET or POST answered 200 from %s:80", a, apiAddr)
			}
		}
		// node: through the DNS stub and the capture.
		o.wantAttempt(t, "transparent", "api.test.example", 443, "allow")
		o.wantAttempt(t, "transparent", "api.test.example", 80, "allow")
		if got := o.find(func(a attempt) bool { return a.Via == "dns" && a.Host == "api.test.example" && a.Method == "A" }); len(got) == 0 {
			t.Error("no DNS attempt for api.test.example: node did not go through the stub")
		}
	})

	t.Run("git", func(t *testing.T) {
		for _, scheme := range []string{"https", "http"} {
			s := o.step(t, "git-"+scheme)
			if s.status != 0 || !strings.Contains(s.out, "refs/heads/main") || !strings.Contains(s.out, repoReadme) {
				t.Errorf("git over %s: status %d, want ls-remote's refs/heads/main and the cloned README:\n%s", scheme, s.status, s.out)
			}
			var fetched bool
			for _, q := range api.reqs {
				fetched = fetched || q.Scheme == scheme && q.Method == "POST" && q.URI == "/git/proj.git/git-upload-pack"
			}
			if !fetched {
				t.Errorf("api.test.example got no git-upload-pack over %s: %v", scheme, api.reqs)
			}
		}
	})

	t.Run("denied", func(t *testing.T) {
		wantDenial(t, o.step(t, "denied-http").out, "blocked.example", 80, "GET", "default: deny")
		if s := o.step(t, "denied-https"); !strings.Contains(s.out, "connect=403") {
			t.Errorf("CONNECT to blocked.example: want 403:\n%s", s.out)
		}
		if s := o.step(t, "denied-node"); !strings.Contains(s.out, "error=ENOTFOUND") {
			t.Errorf("node's fetch of blocked.example: want ENOTFOUND from the stub:\n%s", s.out)
		}
		if tr := o.traffic["blocked.example"]; tr.conns != 0 {
			t.Errorf("blocked.example: %d connections, %d bytes reached it", tr.conns, tr.bytes)
		}
		if slices.ContainsFunc(o.queries, func(q string) bool { return strings.HasPrefix(q, "blocked.example ") }) {
			t.Errorf("blocked.example, denied by name, was resolved: %q", o.queries)
		}
		for _, a := range slices.Concat(o.wantAttempt(t, "forward", "blocked.example", 80, "deny"), o.wantAttempt(t, "connect", "blocked.example", 443, "deny")) {
			if a.Rule != "default: deny" || a.Status != 403 || a.Addr != "" {
				t.Errorf("attempt %v: want a 403 by default: deny, nothing dialed", a)
			}
		}
		for _, a := range o.wantAttempt(t, "dns", "blocked.example", 0, "deny") {
			if a.Rule != "default: deny" {
				t.Errorf("DNS attempt %v: want default: deny", a)
			}
		}
	})

	t.Run("forbidden", func(t *testing.T) {
		for _, f := range forbidden {
			wantDenial(t, o.step(t, "forbidden-http-"+f.name).out, f.name, 80, "GET", f.rule)
			if s := o.step(t, "forbidden-https-"+f.name); !strings.Contains(s.out, "connect=403") {
				t.Errorf("CONNECT to %s: want 403:\n%s", f.name, s.out)
			}
			if s := o.step(t, "forbidden-node-"+f.name); strings.Contains(s.out, "status=") {
				t.Errorf("node's fetch of %s was answered:\n%s", f.name, s.out)
			}
			if tr := o.traffic[f.name]; tr.conns != 0 || len(tr.reqs) != 0 {
				t.Errorf("%s: %d connections reached it (%v)", f.name, tr.conns, tr.reqs)
			}
			// Control: the name was allowed and resolved, and the
			// answer refused.
			if !slices.Contains(o.queries, f.name+" A") {
				t.Errorf("%s was never resolved: the test proves less", f.name)
			}
			for _, via := range []string{"forward", "connect", "transparent"} {
				for _, a := range o.wantAttempt(t, via, f.name, 0, "deny") {
					if a.Rule != f.rule || a.Addr != "" {
						t.Errorf("attempt %v: want a deny by %s, nothing dialed", a, f.rule)
					}
				}
			}
		}
	})

	t.Run("rebind", func(t *testing.T) {
		if tr := o.traffic["private.test.example"]; tr.conns != 0 {
			t.Errorf("the private server got %d connections (%v) from a rebinding name", tr.conns, tr.reqs)
		}
		s := o.step(t, "rebind")
		// Control: the first answer was public and reached; later
		// answers were private.
		if !strings.HasPrefix(s.out, "connect=200 code=200") || len(reqsWith(api, "rebind-1")) != 1 {
			t.Errorf("the first request to %s, resolved to %s, did not reach it:\n%s", rebindName, apiAddr, s.out)
		}
		if o.rebindA < 3 {
			t.Errorf("%s was resolved %d times; the test wants several answers", rebindName, o.rebindA)
		}
		denied := o.find(func(a attempt) bool {
			return a.Host == rebindName && a.Verdict == "deny" && a.Rule == "private-range: 10.0.0.0/8"
		})
		if len(denied) < o.rebindA-1 {
			t.Errorf("%d private answers for %s, %d attempts denied by private-range", o.rebindA-1, rebindName, len(denied))
		}
		for _, a := range o.find(func(a attempt) bool { return a.Host == rebindName }) {
			if strings.HasPrefix(a.Addr, privateAddr) {
				t.Errorf("attempt %v dialed the private address", a)
			}
		}
	})

	t.Run("port", func(t *testing.T) {
		if s := o.step(t, "port"); !strings.Contains(s.out, "connect=403") {
			t.Errorf("CONNECT to api.test.example:8443: want 403:\n%s", s.out)
		}
		if o.apiAlt != 0 {
			t.Errorf("api.test.example:8443 got %d connections", o.apiAlt)
		}
		for _, a := range o.wantAttempt(t, "connect", "api.test.example", 8443, "deny") {
			if a.Status != 403 || a.Addr != "" {
				t.Errorf("attempt %v: want 403, nothing dialed", a)
			}
		}
	})

	t.Run("fronting", func(t *testing.T) {
		wantDenial(t, o.step(t, "fronting-http").out, "api.test.example", 80, "GET", "proxy")
		if s := o.step(t, "fronting-tls"); s.status == 0 || strings.Contains(s.out, "hello from") {
			t.Errorf("a TLS server name other than the CONNECT target was carried:\n%s", s.out)
		}
		for _, name := range []string{"api.test.example", "blocked.example"} {
			for _, via := range []string{"fronting-http", "fronting-tls"} {
				if got := reqsWith(o.traffic[name], via); len(got) != 0 {
					t.Errorf("%s got %v through a tunnel judged for api.test.example", name, got)
				}
			}
		}
		if tr := o.traffic["blocked.example"]; tr.conns != 0 {
			t.Errorf("blocked.example got %d connections", tr.conns)
		}
		for _, c := range []struct {
			port   int
			reason string
		}{{80, `Host header "blocked.example"`}, {443, `TLS server name "blocked.example"`}} {
			got := o.find(func(a attempt) bool {
				return a.Via == "connect" && a.Host == "api.test.example" && a.Port == c.port && strings.Contains(a.Reason, c.reason)
			})
			if len(got) != 1 || got[0].Verdict != "deny" || got[0].Rule != "proxy" {
				t.Errorf("attempts %v: want one denial of %s by the proxy's own rule", got, c.reason)
			}
		}
	})

	t.Run("dns", func(t *testing.T) {
		s := o.step(t, "getent-allowed")
		capture := regexp.MustCompile(`(?m)^127\.1\.\d+\.\d+\s+(api|inside)\.test\.example$`)
		if s.status != 0 || len(capture.FindAllString(s.out, -1)) != 2 || strings.Contains(s.out, "203.0.113.") {
			t.Errorf("getent of allowed names: want a 127.1.x.y capture address for each, never the server's:\n%s", s.out)
		}
		if s := o.step(t, "getent-denied"); s.status == 0 || strings.TrimSpace(s.out) != "" {
			t.Errorf("getent of a denied name: status %d, want none:\n%s", s.status, s.out)
		}
		if s := o.step(t, "dig-tcp"); !regexp.MustCompile(`(?m)^127\.1\.\d+\.\d+$`).MatchString(s.out) || strings.Contains(s.out, "203.0.113.") {
			t.Errorf("dig +tcp of an allowed name: want its capture address alone:\n%s", s.out)
		}
		if s := o.step(t, "dig-direct"); s.status == 0 || regexp.MustCompile(`(?m)^[0-9.]+$`).MatchString(s.out) {
			t.Errorf("dig at the test's DNS server from the sandbox: status %d:\n%s", s.status, s.out)
		}
		// The stub answered; the question never left.
		for _, q := range o.queries {
			if strings.Contains(q, "inside.") {
				t.Errorf("the test's DNS server was asked %q, which only the sandbox asked", q)
			}
		}
		o.wantAttempt(t, "dns", "inside.test.example", 0, "allow")
		o.wantAttempt(t, "dns", "inside.denied.example", 0, "deny")
		// Every question the DNS server got was the proxy's: a name
		// it judged, allowed by name, before dialing.
		for _, q := range o.queries {
			host := strings.Fields(q)[0]
			if len(o.find(func(a attempt) bool { return a.Host == host && a.Via != "dns" })) == 0 {
				t.Errorf("the test's DNS server was asked %q, which the proxy never judged", q)
			}
		}
	})

	t.Run("record", func(t *testing.T) { checkRecord(t, o) })

	t.Run("env", func(t *testing.T) {
		s := o.step(t, "env")
		for _, want := range []string{"HTTPS_PROXY=http://127.0.0.1:3128", "http_proxy=http://127.0.0.1:3128"} {
			if !strings.Contains(s.out, want+"\n") {
				t.Errorf("the sandbox's environment lacks %s", want)
			}
		}
		if strings.Contains(s.out, "SSL_CERT_FILE") {
			t.Errorf("a run that intercepts nothing points the sandbox at Warden's CA:\n%s", s.out)
		}
	})
}

// checkRecord checks that every network attempt names its host, verdict,
// rule and bytes, and, but for DNS, its port and method; both verdicts
// and DNS are there.
func checkRecord(t *testing.T, o *outcome) {
	if len(o.raw) == 0 {
		t.Fatal("network_attempts is empty")
	}
	verdicts := map[string]bool{}
	for i, a := range o.raw {
		keys := []string{"run_id", "time", "via", "host", "method", "verdict", "rule", "bytes_up", "bytes_down"}
		if a["via"] != "dns" {
			keys = append(keys, "port")
		}
		for _, k := range keys {
			if _, ok := a[k]; !ok {
				t.Errorf("network_attempts[%d] = %v: no %q", i, a, k)
			}
		}
		if o.attempts[i].RunID != o.id {
			t.Errorf("network_attempts[%d] has run_id %q, the record %q", i, o.attempts[i].RunID, o.id)
		}
		if o.attempts[i].Rule == "" {
			t.Errorf("network_attempts[%d] = %v: no rule", i, o.attempts[i])
		}
		verdicts[fmt.Sprint(a["via"], " ", a["verdict"])] = true
	}
	for _, want := range []string{"connect allow", "connect deny", "forward allow", "forward deny", "dns allow", "dns deny", "transparent allow"} {
		if !verdicts[want] {
			t.Errorf("network_attempts has no %s", want)
		}
	}
}

// interceptPolicy binds a credential to api.test.example, which makes
// the proxy intercept every TLS stream (and the sandbox trust its CA);
// it also allows a tcp port, denies a method before a catch-all, and
// opens the private name by an exact rule.
const interceptPolicy = `version: 1
network:
  rules:
    - allow: {host: private.test.example, ports: [80, 443]}
    - allow: {host: api.test.example, port: 8443, protocol: tcp}
    - deny: {host: api.test.example, methods: [DELETE]}
    - allow: {host: "*.test.example", ports: [80, 443]}
  credentials:
    - name: API_TOKEN
      from: env:WARDEN_TEST_TOKEN
      hosts: [api.test.example]
`

func testIntercept(t *testing.T, r *runner) {
	const bearer = `-H "Authorization: Bearer $API_TOKEN" `
	steps := []step{
		{"env", "env | sort"},
		{"cred-curl", curl + bearer + "https://api.test.example/echo?via=cred-curl"},
		{"cred-go", goGet + "auth:https://api.test.example/echo?via=cred-go"},
		{"cred-node", node + "auth:https://api.test.example/echo?via=cred-node"},
		{"cred-files", curl + bearer + "https://files.test.example/echo?via=cred-files"},
		{"cred-files-node", node + "auth:https://files.test.example/echo?via=cred-files-node"},
		{"cred-http", curl + bearer + "http://api.test.example/echo?via=cred-http"},
		{"files", curl + "https://files.test.example/echo?via=files"},
		{"method", curl + "-X DELETE https://api.test.example/echo?via=delete"},
		{"go", goGet + "https://api.test.example/echo?via=go-intercepted"},
		{"git", git + "clone -q https://api.test.example/git/proj.git via-https && cat via-https/README"},
		{"tcp", "echo ping | " + curl + "-p telnet://api.test.example:8443"},
		// Two requests in one intercepted stream; the upstream closes
		// after the first, so the second needs a new dial, resolved
		// again: to the private address.
		{"rebind-stream", curl + "-w '\\ncode=%{http_code} connects=%{num_connects}\\n' https://" + rebindName + "/close?via=rebind-a https://" + rebindName + "/close?via=rebind-b"},
		{"private-exact", curl + "https://private.test.example/echo?via=private-https && " + curl + "http://private.test.example/echo?via=private-http"},
	}
	o := r.run(t, "intercept", interceptPolicy, expand(r.lab.dir, steps))
	api, files := o.traffic["api.test.example"], o.traffic["files.test.example"]
	secret := r.lab.secret

	t.Run("credential", func(t *testing.T) {
		if s := o.step(t, "env"); !strings.Contains(s.out, "API_TOKEN=warden:cred:API_TOKEN\n") || strings.Contains(s.out, "WARDEN_TEST_TOKEN") {
			t.Errorf("the sandbox's environment: want API_TOKEN=warden:cred:API_TOKEN and no WARDEN_TEST_TOKEN:\n%s", s.out)
		}
		for _, via := range []string{"cred-curl", "cred-go", "cred-node"} {
			got := reqsWith(api, via)
			if len(got) != 1 || got[0].Auth != "Bearer "+secret || got[0].Scheme != "https" {
				t.Errorf("%s: api.test.example got %v, want one https request with the credential's value", via, got)
			}
		}
		for _, st := range []string{"cred-curl", "cred-go", "cred-node"} {
			if s := o.step(t, st); !strings.Contains(s.out, "hello from api.test.example") {
				t.Errorf("%s: want api.test.example's answer:\n%s", st, s.out)
			}
		}
		injected := o.find(func(a attempt) bool { return slices.Contains(a.Injected, "API_TOKEN") })
		if len(injected) < 3 {
			t.Errorf("%d attempts record API_TOKEN injected, want one for each of curl, go and node", len(injected))
		}
		for _, a := range injected {
			if a.Host != "api.test.example" || a.Verdict != "allow" {
				t.Errorf("attempt %v: the credential was injected elsewhere than api.test.example", a)
			}
		}
	})

	t.Run("credential elsewhere", func(t *testing.T) {
		wantDenial(t, o.step(t, "cred-files").out, "files.test.example", 443, "GET", "network.rules[3]")
		if s := o.step(t, "cred-files-node"); !strings.Contains(s.out, "status=403") {
			t.Errorf("node's fetch with the placeholder to files.test.example: want 403:\n%s", s.out)
		}
		wantDenial(t, o.step(t, "cred-http").out, "api.test.example", 80, "GET", "network.rules[3]")
		// files.test.example got the control request and nothing else.
		if len(files.reqs) != 1 || !strings.Contains(files.reqs[0].URI, "via=files") || files.reqs[0].Auth != "" {
			t.Errorf("files.test.example got %v, want only the request without the placeholder", files.reqs)
		}
		// Nor did the proxy begin TLS with it for the denied ones: the
		// one handshake is the control request's.
		if files.hellos != 1 {
			t.Errorf("files.test.example saw %d TLS handshakes, want 1 (the control request's)", files.hellos)
		}
		if got := reqsWith(api, "cred-http"); len(got) != 0 {
			t.Errorf("api.test.example got the placeholder over plain HTTP: %v", got)
		}
		for _, host := range []string{"files.test.example", "api.test.example"} {
			flagged := o.find(func(a attempt) bool { return a.Host == host && slices.Contains(a.Flagged, "API_TOKEN") })
			want := map[string]int{"files.test.example": 2, "api.test.example": 1}[host]
			if len(flagged) != want {
				t.Errorf("%d attempts to %s flag API_TOKEN, want %d", len(flagged), host, want)
			}
			for _, a := range flagged {
				if a.Verdict != "deny" || a.Status != 403 || len(a.Injected) != 0 {
					t.Errorf("flagged attempt %v: want a 403 deny, nothing injected", a)
				}
			}
		}
		if len(o.store) == 0 {
			t.Error("the run left nothing in the store")
		}
		for what, s := range map[string]string{"stdout": o.stdout, "stderr": o.stderr, "the execution record": string(o.record), "the store": string(o.store)} {
			if strings.Contains(s, secret) {
				t.Errorf("the credential's value is in %s", what)
			}
		}
	})

	t.Run("method", func(t *testing.T) {
		wantDenial(t, o.step(t, "method").out, "api.test.example", 443, "DELETE", "network.rules[2]")
		for _, q := range api.reqs {
			if q.Method == "DELETE" {
				t.Errorf("api.test.example got %v", q)
			}
		}
	})

	t.Run("intercepted", func(t *testing.T) {
		if s := o.step(t, "go"); !strings.Contains(s.out, "status=200 body=hello from api.test.example") {
			t.Errorf("the Go client through the intercepting proxy:\n%s", s.out)
		}
		if s := o.step(t, "git"); s.status != 0 || !strings.Contains(s.out, repoReadme) {
			t.Errorf("git clone through the intercepting proxy: status %d:\n%s", s.status, s.out)
		}
		for _, a := range o.find(func(a attempt) bool { return a.Port == 443 && a.Method == "CONNECT" && a.Verdict == "allow" }) {
			if !a.Intercepted {
				t.Errorf("attempt %v: a stream of a run with a credential is not intercepted", a)
			}
		}
		if s := o.step(t, "env"); !strings.Contains(s.out, "SSL_CERT_FILE=") || !strings.Contains(s.out, "NODE_EXTRA_CA_CERTS=") {
			t.Errorf("the sandbox is not pointed at the trust bundle:\n%s", s.out)
		}
	})

	t.Run("tcp", func(t *testing.T) {
		// A stream that is neither TLS nor HTTP cannot carry a
		// credential the proxy would replace: it is spliced, as
		// in a run without credentials.
		if s := o.step(t, "tcp"); !strings.Contains(s.out, "echo: ping") {
			t.Errorf("a TCP tunnel to api.test.example:8443, which a rule allows, in a run with a credential:\n%s", s.out)
		}
		if o.apiAlt != 1 || o.apiAltBytes != int64(len("ping\n")) {
			t.Errorf("api.test.example:8443 got %d connections, %d bytes; want 1 and ping", o.apiAlt, o.apiAltBytes)
		}
		for _, a := range o.wantAttempt(t, "connect", "api.test.example", 8443, "allow") {
			if a.Protocol != "tcp" || a.Intercepted || a.BytesUp != int64(len("ping\n")) {
				t.Errorf("attempt %v: want a spliced tcp stream that carried ping", a)
			}
		}
	})

	t.Run("rebind in a stream", func(t *testing.T) {
		s := o.step(t, "rebind-stream")
		if !strings.Contains(s.out, "code=200 connects=1") || len(reqsWith(api, "rebind-a")) != 1 {
			t.Errorf("the first request to %s did not reach %s:\n%s", rebindName, apiAddr, s.out)
		}
		// The second request rode the same tunnel (curl made no new
		// connection), so the redial is the proxy's.
		if !strings.Contains(s.out, "code=403 connects=0") {
			t.Errorf("the second request in the stream: want 403 on the same tunnel:\n%s", s.out)
		} else {
			wantDenial(t, s.out[strings.Index(s.out, "code=200"):], rebindName, 443, "GET", "private-range: 10.0.0.0/8")
		}
		if got := reqsWith(api, "rebind-b"); len(got) != 0 {
			t.Errorf("the second request reached %s: %v", apiAddr, got)
		}
		if tr := o.traffic["private.test.example"]; len(reqsWith(tr, "rebind-b")) != 0 || tr.conns != len(tr.reqs) {
			t.Errorf("the private server got %d connections, requests %v", tr.conns, tr.reqs)
		}
		if o.rebindA < 2 {
			t.Errorf("%s was resolved %d times, want a second time for the new dial", rebindName, o.rebindA)
		}
	})

	t.Run("private exact host", func(t *testing.T) {
		s := o.step(t, "private-exact")
		for _, via := range []string{"private-https", "private-http"} {
			if !strings.Contains(s.out, "hello from private.test.example: GET /echo?via="+via) || len(reqsWith(o.traffic["private.test.example"], via)) != 1 {
				t.Errorf("%s: an exact rule did not open private.test.example:\n%s", via, s.out)
			}
		}
		for _, a := range o.find(func(a attempt) bool { return a.Host == "private.test.example" && a.Via != "dns" }) {
			if a.Verdict != "allow" || !strings.HasPrefix(a.Rule, "network.rules[0]") || !strings.HasPrefix(a.Addr, privateAddr+":") {
				t.Errorf("attempt %v: want allowed by network.rules[0], dialed to %s", a, privateAddr)
			}
		}
	})
}

// testOpenShell runs an NVIDIA OpenShell policy, whose grants are scoped
// to binaries: the proxy finds the process behind each connection (its
// executable as the kernel resolved it, and its ancestors') and decides
// with OpenShell's semantics. The same host is allowed to curl and denied
// to python3; a curl that node started may reach what node's rule
// allows; on an inspected endpoint each request's method and path are
// judged, a path that is not canonical refused.
func testOpenShell(t *testing.T, r *runner) {
	real := func(name string) string {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("%s is needed: %v", name, err)
		}
		if p, err = filepath.EvalSymlinks(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	curlBin, nodeBin, pyBin := real("curl"), real("node"), real("/usr/bin/python3")
	policy := `version: 1
network_policies:
  curl_api:
    endpoints:
      - host: api.test.example
        port: 443
      - host: api.test.example
        port: 80
        protocol: rest
        enforcement: enforce
        rules:
          - allow: { method: GET, path: "/echo" }
    binaries:
      - path: ` + curlBin + `
  node_files:
    endpoints:
      - host: files.test.example
        port: 443
    binaries:
      - path: ` + nodeBin + `
  python_files:
    endpoints:
      - host: files.test.example
        port: 443
    binaries:
      - path: /usr/bin/python3
`
	// The handoff: python3 connects to the proxy, writes a whole request,
	// hands the socket to a curl it starts, and closes its own copy, so
	// that curl alone holds it when the proxy looks.
	handoff := `import os, socket, subprocess, time, urllib.parse
u = urllib.parse.urlparse(os.environ.get("http_proxy") or os.environ["HTTP_PROXY"])
s = socket.create_connection((u.hostname, u.port))
s.sendall(b"GET http://api.test.example/echo?via=os-handoff HTTP/1.1\r\nHost: api.test.example\r\nConnection: close\r\n\r\n")
p = subprocess.Popen(["/usr/bin/curl", "-s", "-m", "5", "file:///dev/stdin"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, pass_fds=[s.fileno()])
s.close()
time.sleep(2)
p.stdin.close()
p.wait()
print("handed off")
`
	if err := os.WriteFile(filepath.Join(r.lab.dir, "handoff.py"), []byte(handoff), 0o644); err != nil {
		t.Fatal(err)
	}
	nodeCurl := `node -e 'process.stdout.write(require("child_process").execFileSync("curl", ["-sS", "--max-time", "20", "https://files.test.example/echo?via=os-node-child"]))'`
	steps := []step{
		{"curl", curl + "https://api.test.example/echo?via=os-curl"},
		{"python", "/usr/bin/python3 -c 'import urllib.request as u; print(u.urlopen(\"https://api.test.example/echo?via=os-python\", timeout=20).read())'"},
		{"node-child", nodeCurl},
		{"curl-files", curlTun + "https://files.test.example/echo?via=os-curl-files"},
		// The policy names /usr/bin/python3, a link: the kernel names
		// the process by its target, which the rule is resolved to.
		{"python-files", "/usr/bin/python3 -c 'import urllib.request as u; print(u.urlopen(\"https://files.test.example/echo?via=os-python-files\", timeout=20).read())'"},
		{"get", curl + "http://api.test.example/echo?via=os-get"},
		{"post", curl + "-D - -X POST http://api.test.example/echo?via=os-post"},
		{"dotdot", curl + "--path-as-is http://api.test.example/x/../echo?via=os-dotdot"},
		{"handoff", "/usr/bin/python3 DIR/handoff.py"},
	}
	o := r.run(t, "openshell", policy, expand(r.lab.dir, steps))
	api, files := o.traffic["api.test.example"], o.traffic["files.test.example"]
	for _, c := range []struct {
		step, via string
		tr        traffic
	}{{"curl", "os-curl", api}, {"node-child", "os-node-child", files}, {"get", "os-get", api}, {"python-files", "os-python-files", files}} {
		if s := o.step(t, c.step); !strings.Contains(s.out, "GET /echo?via="+c.via) {
			t.Errorf("%s: allowed, it did not get its answer:\n%s", c.step, s.out)
		}
		if got := reqsWith(c.tr, c.via); len(got) != 1 {
			t.Errorf("%s: the server got %v, want one request", c.step, got)
		}
	}
	for _, c := range []struct {
		step, via string
		tr        traffic
	}{{"python", "os-python", api}, {"curl-files", "os-curl-files", files}, {"post", "os-post", api}, {"dotdot", "os-dotdot", api}, {"handoff", "os-handoff", api}} {
		if got := reqsWith(c.tr, c.via); len(got) != 0 {
			t.Errorf("%s: denied, yet the server got %v", c.step, got)
		}
	}
	if s := o.step(t, "python"); !strings.Contains(s.out, "403") {
		t.Errorf("python3's tunnel to api.test.example: want 403:\n%s", s.out)
	}
	if s := o.step(t, "curl-files"); !strings.Contains(s.out, "connect=403") {
		t.Errorf("curl's tunnel to files.test.example, not under node: want 403:\n%s", s.out)
	}
	// OpenShell's L7 denial, as its clients read it.
	if s := o.step(t, "post").out; !strings.Contains(strings.ToLower(s), "x-openshell-policy: curl_api") ||
		!strings.Contains(s, `"error":"policy_denied","policy":"curl_api","rule":"POST /echo"`) || !strings.Contains(s, `"binary":"`+curlBin+`"`) {
		t.Errorf("POST on the inspected endpoint: want OpenShell's L7 denial, with X-OpenShell-Policy:\n%s", s)
	}
	if s := o.step(t, "dotdot"); !strings.Contains(s.out, "canonical") {
		t.Errorf("a path that is not canonical: want it refused as such:\n%s", s.out)
	}
	// The handed-off request is python3's: who connected, not who held
	// the socket when the proxy looked.
	if s := o.step(t, "handoff"); !strings.Contains(s.out, "handed off") {
		t.Errorf("the handoff did not run:\n%s", s.out)
	}
	if got := o.find(func(a attempt) bool {
		return a.Via == "forward" && strings.HasSuffix(a.Path, "/echo") && a.Binary == pyBin && a.Verdict == "deny"
	}); len(got) == 0 {
		t.Errorf("no forward attempt denied to %s, the process that connected", pyBin)
	}
	// The record names the binary behind each connection.
	for _, c := range []struct {
		host, bin, verdict, rule string
	}{
		{"api.test.example", curlBin, "allow", "network_policies.curl_api"},
		{"api.test.example", pyBin, "deny", "network_policies.curl_api"},
		{"files.test.example", curlBin, "allow", "network_policies.node_files"},
		{"files.test.example", curlBin, "deny", ""},
	} {
		got := o.find(func(a attempt) bool {
			return a.Via == "connect" && a.Host == c.host && a.Port == 443 && a.Binary == c.bin && a.Verdict == c.verdict && strings.HasPrefix(a.Rule, c.rule)
		})
		if len(got) == 0 {
			t.Errorf("no CONNECT attempt to %s:443 by %s with verdict %s by %s", c.host, c.bin, c.verdict, c.rule)
		}
	}
	t.Run("provider credential", func(t *testing.T) { testOpenShellProvider(t, r, curlBin) })
}

// testOpenShellProvider runs an OpenShell policy with a provider profile
// (--provider): the sandbox holds the placeholder
// openshell:resolve:env:WARDEN_TEST_TOKEN, the proxy puts the value,
// read from warden's environment, into requests to the provider's
// endpoint only, and a request carrying the placeholder anywhere else is
// refused with OpenShell's credential_endpoint_mismatch, the value never
// sent.
func testOpenShellProvider(t *testing.T, r *runner, curlBin string) {
	profile := `id: test-api
credentials:
  - name: token
    env_vars: [WARDEN_TEST_TOKEN]
    required: true
    auth_style: bearer
endpoints:
  - host: api.test.example
    port: 443
    protocol: rest
    enforcement: enforce
    access: read-only
binaries:
  - ` + curlBin + "\n"
	profilePath := filepath.Join(r.dir, "test-api-profile.yaml")
	if err := os.WriteFile(profilePath, []byte(profile), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := `version: 1
network_policies:
  plain_api:
    endpoints:
      - host: api.test.example
        port: 80
        protocol: rest
        enforcement: enforce
        access: read-only
    binaries:
      - path: ` + curlBin + "\n"
	bearer := `-H "Authorization: Bearer $WARDEN_TEST_TOKEN" `
	steps := []step{
		{"placeholder", `echo "token=$WARDEN_TEST_TOKEN"`},
		{"bound", curl + bearer + "https://api.test.example/echo?via=os-cred"},
		{"plain", curl + "-D - " + bearer + "http://api.test.example/echo?via=os-cred-plain"},
	}
	o := r.run(t, "openshell-provider", policy, steps, "--provider", profilePath)
	secret := r.lab.secret
	if s := o.step(t, "placeholder").out; !strings.Contains(s, "token=openshell:resolve:env:WARDEN_TEST_TOKEN") {
		t.Errorf("the sandbox's WARDEN_TEST_TOKEN: want the OpenShell placeholder:\n%s", s)
	}
	api := o.traffic["api.test.example"]
	if got := reqsWith(api, "os-cred"); len(got) != 1 || got[0].Auth != "Bearer "+secret || got[0].Scheme != "https" {
		t.Errorf("to the provider's endpoint, the server got %v, want one HTTPS request with the value", got)
	}
	if got := reqsWith(api, "os-cred-plain"); len(got) != 0 {
		t.Errorf("the placeholder over plain HTTP reached the server: %v", got)
	}
	if s := o.step(t, "plain").out; !strings.Contains(s, "403") || !strings.Contains(s, `"error":"credential_endpoint_mismatch"`) {
		t.Errorf("the placeholder outside its endpoint: want OpenShell's credential_endpoint_mismatch:\n%s", s)
	}
	for _, text := range []string{o.stdout, o.stderr} {
		if strings.Contains(text, secret) {
			t.Errorf("the value reached the sandbox's output or warden's messages")
		}
	}
	if got := o.find(func(a attempt) bool { return slices.Contains(a.Injected, "WARDEN_TEST_TOKEN") }); len(got) != 1 {
		t.Errorf("attempts with the credential injected: %v, want one", got)
	}
	if got := o.find(func(a attempt) bool { return slices.Contains(a.Flagged, "WARDEN_TEST_TOKEN") && a.Status == 403 }); len(got) != 1 {
		t.Errorf("attempts with the placeholder flagged: %v, want one", got)
	}
}
