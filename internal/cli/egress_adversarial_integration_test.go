// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// The egress boundary under a determined agent (issue 12, items 4 and 5):
// the real warden binary runs an attacker inside its sandbox, and every
// verdict is taken outside — at servers that count what reaches them, in
// warden's /proc/<pid>/status and /proc/<pid>/fd while the attack holds,
// and in the execution record.
//
// Topology (no packet leaves the test's namespaces): the test reruns
// itself in a network namespace of its own, "warden's machine", whose
// only non-loopback address is hostAddr on one end of a veth pair; the
// other end, in a second namespace, carries the "internet": peerAddr
// (servers the policy allows) and the Azure WireServer address. Servers
// there are made from the rerun on a thread that entered that namespace.
//
// Run with
//
//	go test -tags integration -run TestAdversarialEgress ./internal/cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// The adversarial topology's addresses.
const (
	advHostAddr = "203.0.113.1"  // warden's machine, on its veth end
	advPeerAddr = "203.0.113.10" // the peer: echo :7, chargen :19, sink :9, a service on 0.0.0.0:8080
	wireServer  = "168.63.129.16"
	servicePort = "8080"
)

// envAdversarial names the test's directory and the peer namespace in
// the rerun ("dir:peer").
const envAdversarial = "WARDEN_ADVERSARIAL_EGRESS"

// Bounds stated in docs/security-model.md (Bounded cost on the host):
// whatever the sandbox does to the network, warden's resident memory
// grows by at most advRSSBound over what it held once the command
// started, and it holds at most advFDBound descriptors.
const (
	advRSSBound = 160 << 20
	advFDBound  = 1200
)

// peerNetNS makes a namespace joined to name by a veth pair: name's end
// carries hostCIDR, the peer's end carries addrs (CIDR), and name routes
// routes (CIDR) through its end. It returns the peer's name.
func peerNetNS(t *testing.T, name, hostCIDR string, addrs, routes []string) string {
	t.Helper()
	ipCmd := sandboxtest.RequireCommand(t, "ip")
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(ipCmd, args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	peer := name + "-peer"
	ip("netns", "add", peer)
	t.Cleanup(func() { exec.Command(ipCmd, "netns", "del", peer).Run() })
	ip("-n", name, "link", "add", "wv0", "type", "veth", "peer", "name", "wv1", "netns", peer)
	ip("-n", name, "addr", "add", hostCIDR, "dev", "wv0")
	ip("-n", name, "link", "set", "wv0", "up")
	ip("-n", peer, "link", "set", "lo", "up")
	for _, a := range addrs {
		ip("-n", peer, "addr", "add", a, "dev", "wv1")
	}
	ip("-n", peer, "link", "set", "wv1", "up")
	for _, r := range routes {
		ip("-n", name, "route", "add", r, "dev", "wv0")
	}
	return peer
}

// inNetNS runs f on a thread in the named network namespace: the sockets
// f makes live there (and keep working from any thread afterwards).
func inNetNS(t *testing.T, name string, f func()) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	self, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	defer self.Close()
	ns, err := os.Open("/run/netns/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Close()
	if err := unix.Setns(int(ns.Fd()), unix.CLONE_NEWNET); err != nil {
		t.Fatalf("setns %s: %v", name, err)
	}
	defer func() {
		if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
			// The thread must not go back to the pool in the wrong
			// namespace: leave it locked, and it ends with the test.
			runtime.LockOSThread()
			panic(fmt.Sprintf("setns back: %v", err))
		}
	}()
	f()
}

// countingServer accepts on ln and runs serve on each connection,
// counting them.
type countingServer struct {
	ln      net.Listener
	accepts atomic.Int64
}

func serveCounting(t *testing.T, addr string, serve func(net.Conn)) *countingServer {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen %s: %v", addr, err)
	}
	s := &countingServer{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.accepts.Add(1)
			go func() { defer c.Close(); serve(c) }()
		}
	}()
	return s
}

// attacker is the program the sandbox runs. Modes:
//
//	dns N             N distinct names of the policy's wildcard, asked of the stub over UDP
//	pending N         N connections to the proxy that never finish a request (N/1000 processes)
//	tunnels N ADDR    N CONNECT tunnels to ADDR, held idle
//	fill N            N tunnels to chargen (never read) and N to a sink (written until full)
//	get URL           one request through HTTP_PROXY: status and body
//	connect HOST:PORT a CONNECT: the status line and body
//	sysctl            the namespace's tcp_rmem and tcp_wmem, and whether writing them fails
//
// Each prints a result line, then "HOLD" and holds what it made for 3
// seconds, for the test to look at warden meanwhile, then exits.
const attacker = `package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const proxyAddr = "127.0.0.1:3128"

func hold() {
	fmt.Println("HOLD")
	time.Sleep(3 * time.Second)
}

func query(id uint16, name string) []byte {
	b := binary.BigEndian.AppendUint16(nil, id)
	b = append(b, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0)
	for _, l := range strings.Split(name, ".") {
		b = append(b, byte(len(l)))
		b = append(b, l...)
	}
	return append(b, 0, 0, 1, 0, 1)
}

func dns(n int) {
	var ok, refused, other, lost atomic.Int64
	var wg sync.WaitGroup
	const workers = 8
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c, err := net.Dial("udp", "127.0.0.53:53")
			if err != nil {
				panic(err)
			}
			defer c.Close()
			buf := make([]byte, 1500)
			for i := w; i < n; i += workers {
				name := fmt.Sprintf("n%d.a-rather-long-label-to-make-each-name-cost-more-bytes.flood.test.example", i)
				c.Write(query(uint16(i), name))
				c.SetReadDeadline(time.Now().Add(2 * time.Second))
				m, err := c.Read(buf)
				if err != nil || m < 4 {
					lost.Add(1)
					continue
				}
				switch buf[3] & 0xf {
				case 0:
					ok.Add(1)
				case 5:
					refused.Add(1)
				default:
					other.Add(1)
				}
			}
		}(w)
	}
	wg.Wait()
	fmt.Printf("dns ok=%d refused=%d other=%d lost=%d\n", ok.Load(), refused.Load(), other.Load(), lost.Load())
	hold()
}

// pending runs N/1000 children, each holding 1000 connections (the
// sandbox's RLIMIT_NOFILE is 1024).
func pending(n int) {
	var procs []*exec.Cmd
	var outs []io.Reader
	for i := 0; i < n; i += 1000 {
		c := exec.Command(os.Args[0], "pending-child", strconv.Itoa(min(1000, n-i)))
		out, _ := c.StdoutPipe()
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			panic(err)
		}
		procs, outs = append(procs, c), append(outs, out)
	}
	var opened, closed int
	for _, o := range outs {
		var a, b int
		fmt.Fscan(o, &a, &b)
		opened, closed = opened+a, closed+b
	}
	fmt.Printf("pending opened=%d closed_at_once=%d\n", opened, closed)
	hold()
	for _, c := range procs {
		c.Process.Kill()
		c.Wait()
	}
}

func pendingChild(n int) {
	var conns []net.Conn
	for i := 0; i < n; i++ {
		c, err := net.Dial("tcp", proxyAddr)
		if err != nil {
			break
		}
		if i%2 == 1 {
			fmt.Fprintf(c, "CONNECT x.test.example:443 HTTP/1.1\r\n")
		}
		conns = append(conns, c)
	}
	closed := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(5 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF {
			closed++
		}
	}
	fmt.Println(len(conns), closed)
	time.Sleep(time.Minute)
}

func connect(target string) (net.Conn, int, string) {
	c, err := net.Dial("tcp", proxyAddr)
	if err != nil {
		return nil, 0, err.Error()
	}
	c.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: "CONNECT"})
	if err != nil {
		c.Close()
		return nil, 0, err.Error()
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		c.Close()
		return nil, resp.StatusCode, strings.TrimSpace(string(b))
	}
	c.SetDeadline(time.Time{})
	return c, 200, ""
}

func tunnels(n int, target string) []net.Conn {
	var conns []net.Conn
	codes := map[int]int{}
	for i := 0; i < n; i++ {
		c, code, _ := connect(target)
		codes[code]++
		if c != nil {
			conns = append(conns, c)
		}
	}
	fmt.Printf("tunnels %s open=%d codes=%v\n", target, len(conns), codes)
	return conns
}

func main() {
	n, _ := strconv.Atoi(os.Args[len(os.Args)-1])
	switch os.Args[1] {
	case "dns":
		dns(n)
	case "pending":
		pending(n)
	case "pending-child":
		pendingChild(n)
	case "tunnels":
		n, _ = strconv.Atoi(os.Args[2])
		conns := tunnels(n, os.Args[3])
		hold()
		_ = conns
	case "fill":
		src := tunnels(n, "` + advPeerAddr + `:19")
		sink := tunnels(n, "` + advPeerAddr + `:9")
		var wrote atomic.Int64
		var wg sync.WaitGroup
		chunk := make([]byte, 64<<10)
		stop := time.Now().Add(5 * time.Second)
		for _, c := range sink {
			wg.Add(1)
			go func(c net.Conn) {
				defer wg.Done()
				for time.Now().Before(stop) {
					c.SetWriteDeadline(time.Now().Add(500 * time.Millisecond))
					m, err := c.Write(chunk)
					wrote.Add(int64(m))
					if err != nil {
						return
					}
				}
			}(c)
		}
		wg.Wait()
		fmt.Printf("fill written=%d\n", wrote.Load())
		hold()
		_ = src
	case "sysctl":
		for _, f := range []string{"/proc/sys/net/ipv4/tcp_rmem", "/proc/sys/net/ipv4/tcp_wmem"} {
			b, _ := os.ReadFile(f)
			err := os.WriteFile(f, []byte("4096 131072 67108864"), 0)
			fmt.Printf("sysctl %s=%s write=%v\n", f, strings.Join(strings.Fields(string(b)), " "), err != nil)
		}
	case "get":
		u, _ := url.Parse("http://" + proxyAddr)
		cl := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(u)}}
		resp, err := cl.Get(os.Args[2])
		if err != nil {
			fmt.Printf("get error=%v\n", err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		fmt.Printf("get status=%d body=%s\n", resp.StatusCode, strings.TrimSpace(string(b)))
	case "connect":
		c, code, body := connect(os.Args[2])
		if c != nil {
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			b, _ := io.ReadAll(io.LimitReader(c, 200))
			body = strings.TrimSpace(string(b))
		}
		fmt.Printf("connect status=%d body=%s\n", code, body)
	}
}
`

// buildAttacker builds attacker as dir/bin/attack.
func buildAttacker(t *testing.T, dir string) string {
	t.Helper()
	goCmd := sandboxtest.RequireCommand(t, "go")
	src := filepath.Join(dir, "attacker")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"go.mod": "module attacker\n\ngo 1.22\n", "main.go": attacker} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "bin", "attack")
	cmd := exec.Command(goCmd, "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the attacker: %v\n%s", err, out)
	}
	return bin
}

// rerunAdversarial runs the test named by t in a fresh pair of network
// namespaces (see the file's comment), as root, and returns once the
// rerun passed.
func rerunAdversarial(t *testing.T) {
	sandboxtest.RequireRoot(t)
	for _, c := range []string{"ip", "setpriv", "go"} {
		sandboxtest.RequireCommand(t, c)
	}
	dir := egressTempDir(t)
	warden := sandboxtest.BuildWarden(t)
	buildAttacker(t, dir)
	name := sandboxtest.NetNS(t, "warden-adv")
	peer := peerNetNS(t, name, advHostAddr+"/24", []string{advPeerAddr + "/24", wireServer + "/32"}, []string{wireServer + "/32"})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"ip", "netns", "exec", name, self, "-test.run=^" + t.Name() + "$", "-test.v", "-test.count=1"}
	if d, ok := t.Deadline(); ok {
		argv = append(argv, "-test.timeout="+time.Until(d).Round(time.Second).String())
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), envAdversarial+"="+dir+":"+peer, sandboxtest.EnvWardenBinary+"="+warden)
	out, err := cmd.CombinedOutput()
	t.Logf("in network namespace %s:\n%s", name, out)
	switch {
	case err != nil:
		t.Errorf("failed in the test network namespace: %v", err)
	case strings.Contains(string(out), "--- SKIP: "+t.Name()+" ("):
		t.Skip("skipped in the test network namespace (see the log)")
	case !strings.Contains(string(out), "--- PASS: "+t.Name()+" ("):
		t.Errorf("the rerun did not run %s", t.Name())
	}
}

// advLab is the rerun's side: the directory, the peer namespace, warden.
type advLab struct {
	dir, peer, warden string
}

func adversarialLab(t *testing.T) (*advLab, bool) {
	v := os.Getenv(envAdversarial)
	if v == "" {
		rerunAdversarial(t)
		return nil, false
	}
	dir, peer, _ := strings.Cut(v, ":")
	return &advLab{dir: dir, peer: peer, warden: sandboxtest.BuildWarden(t)}, true
}

// advUsers are the users warden runs as: root, and uid 65534 through
// setpriv (whose sandbox needs user namespaces).
func advUsers(t *testing.T) []advUser {
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	us := []advUser{{"root", 0, nil}}
	nobody := []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"}
	if out, err := exec.Command(setpriv, append(nobody[1:], "unshare", "--user", "--map-root-user", "--net", "--mount", "true")...).CombinedOutput(); err != nil {
		t.Logf("no runs as uid 65534: user namespaces: unshare --user failed: %v: %s", err, out)
	} else {
		us = append(us, advUser{"uid-65534", 65534, nobody})
	}
	return us
}

type advUser struct {
	name string
	uid  int
	as   []string
}

// advRun is one warden run of the attacker.
type advRun struct {
	out    string
	record map[string]any
	// rss and hwm (bytes) and fds are warden's while the attack held;
	// base is its VmRSS once the command had started.
	base, rss, hwm int64
	fds            int
}

// run runs `warden run -- attack args...` as u with policy, samples
// warden's memory and descriptors when the attacker says HOLD, and
// returns what it saw.
func (l *advLab) run(t *testing.T, u advUser, name, policy string, args ...string) *advRun {
	t.Helper()
	dir := filepath.Join(l.dir, u.name+"-"+name)
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o777); err != nil {
		t.Fatal(err)
	}
	policyPath := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policyPath, []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o700)
	for _, p := range []string{dir, project, home} {
		os.Chown(p, u.uid, u.uid)
	}
	record := filepath.Join(dir, "record.json")
	argv := append(append([]string{}, u.as...), l.warden, "run", "--policy", policyPath, "--project", project,
		"--audit-json", record, "--timeout", "5m", "--no-approver", "--", filepath.Join(l.dir, "bin", "attack"))
	argv = append(argv, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = project
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8", "TMPDIR=/tmp"}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &advRun{}
	pid := cmd.Process.Pid
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if line == "HOLD" {
			r.rss, r.hwm = procStatus(pid, "VmRSS"), procStatus(pid, "VmHWM")
			ents, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
			r.fds = len(ents)
			continue
		}
		out.WriteString(line + "\n")
	}
	io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	r.out = out.String()
	t.Logf("warden run %s as %s: %v\nstdout:\n%s\nstderr:\n%s\nwarden while the attack held: VmRSS %d KiB, VmHWM %d KiB, %d descriptors",
		name, u.name, err, r.out, stderr.String(), r.rss>>10, r.hwm>>10, r.fds)
	if err != nil {
		t.Fatalf("warden run %s as %s: %v", name, u.name, err)
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatalf("the execution record: %v", err)
	}
	if err := json.Unmarshal(b, &r.record); err != nil {
		t.Fatal(err)
	}
	return r
}

// procStatus reads a "kB" field of /proc/pid/status, in bytes.
func procStatus(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n << 10
		}
	}
	return -1
}

// limits returns the record's network_limits.
func (r *advRun) limits(t *testing.T) map[string]float64 {
	t.Helper()
	m, ok := r.record["network_limits"].(map[string]any)
	if !ok {
		t.Fatalf("the record has no network_limits: %v", r.record["network_limits"])
	}
	out := map[string]float64{}
	for k, v := range m {
		out[k], _ = v.(float64)
	}
	return out
}

// attempts returns the record's network_attempts with the given rule.
func (r *advRun) attempts(rule string) []map[string]any {
	var out []map[string]any
	as, _ := r.record["network_attempts"].([]any)
	for _, a := range as {
		m, _ := a.(map[string]any)
		if m["rule"] == rule || rule == "" {
			out = append(out, m)
		}
	}
	return out
}

// within checks warden's memory and descriptors against the stated
// bounds.
func (r *advRun) within(t *testing.T, what string) {
	t.Helper()
	if r.hwm <= 0 || r.fds <= 0 {
		t.Fatalf("%s: warden was not measured while the attack held (the attacker never said HOLD?)", what)
	}
	if r.hwm > advRSSBound {
		t.Errorf("%s: warden's peak resident memory was %d MiB, over the stated %d MiB", what, r.hwm>>20, advRSSBound>>20)
	}
	if r.fds > advFDBound {
		t.Errorf("%s: warden held %d descriptors, over the stated %d", what, r.fds, advFDBound)
	}
}

// TestAdversarialEgressHostCost floods warden from inside the sandbox —
// 300,000 distinct names asked of the DNS stub, 20,000 connections to the
// proxy that never finish a request, 2,000 tunnels held idle, tunnels
// whose socket buffers are filled both ways — and checks from outside
// that warden's peak resident memory and its descriptors stay under the
// stated bounds, that the excess was refused, and that the record counts
// each refusal. The first names and tunnels are served (the control).
func TestAdversarialEgressHostCost(t *testing.T) {
	l, ok := adversarialLab(t)
	if !ok {
		return
	}
	var peer struct{ echo, chargen, sink *countingServer }
	inNetNS(t, l.peer, func() {
		peer.echo = serveCounting(t, advPeerAddr+":7", func(c net.Conn) { io.Copy(c, c) })
		peer.chargen = serveCounting(t, advPeerAddr+":19", func(c net.Conn) {
			b := make([]byte, 64<<10)
			for {
				c.SetWriteDeadline(time.Now().Add(30 * time.Second))
				if _, err := c.Write(b); err != nil {
					return
				}
			}
		})
		// A sink that never reads: its receive buffer fills.
		peer.sink = serveCounting(t, advPeerAddr+":9", func(c net.Conn) { time.Sleep(30 * time.Second) })
	})
	policy := `version: 1
network:
  rules:
    - allow: {host: "*.test.example", ports: [443]}
    - allow: {allowed_ips: ["203.0.113.0/24"], ports: [7, 9, 19]}
`
	for _, u := range advUsers(t) {
		t.Run(u.name, func(t *testing.T) {
			t.Run("dns", func(t *testing.T) {
				r := l.run(t, u, "dns", policy, "dns", "300000")
				r.within(t, "300,000 names")
				var ok, refused int
				fmt.Sscanf(r.out, "dns ok=%d refused=%d", &ok, &refused)
				lim := r.limits(t)
				if ok < 1000 || int(lim["dns_names_given"]) > int(lim["dns_names"]) || refused < 300000-int(lim["dns_names"])-1000 {
					t.Errorf("%d names answered and %d refused, limits %v: want the first answered and those past dns_names refused", ok, refused, lim)
				}
				if int(lim["dns_refused"]) != refused {
					t.Errorf("the record counts %v refused names, the attacker saw %d", lim["dns_refused"], refused)
				}
				// network_attempts is full of the names answered: the
				// refusals are counted, and the record says what it
				// left out.
				if n := len(r.attempts("dns-stub")); n > 10 {
					t.Errorf("network_attempts lists %d refusals by the dns-stub cap, want at most 10", n)
				}
				if nr, _ := json.Marshal(r.record["not_recorded"]); len(r.attempts("")) >= 10000 && !strings.Contains(string(nr), "network_attempts") {
					t.Errorf("network_attempts is full and not_recorded does not say so: %s", nr)
				}
			})
			t.Run("pending", func(t *testing.T) {
				r := l.run(t, u, "pending", policy, "pending", "20000")
				r.within(t, "20,000 unfinished connections")
				var opened, closed int
				fmt.Sscanf(r.out, "pending opened=%d closed_at_once=%d", &opened, &closed)
				lim := r.limits(t)
				if opened < 19000 || closed == 0 {
					t.Errorf("%d connections opened, %d seen closed at once; limits %v", opened, closed, lim)
				}
				// Every connection past the pending cap was refused.
				if refused := lim["pending_refused"] + lim["connections_refused"]; refused < float64(opened)-lim["pending"] {
					t.Errorf("the record counts %v refusals of %d connections that never finished, want all but %v", refused, opened, lim["pending"])
				}
			})
			t.Run("idle tunnels", func(t *testing.T) {
				before := peer.echo.accepts.Load()
				r := l.run(t, u, "tunnels", policy, "tunnels", "2000", advPeerAddr+":7")
				r.within(t, "2,000 idle tunnels")
				var open int
				fmt.Sscanf(r.out, "tunnels "+advPeerAddr+":7 open=%d", &open)
				lim := r.limits(t)
				if open == 0 || open > int(lim["tunnels"]) {
					t.Errorf("%d tunnels open, want 1 to %v", open, lim["tunnels"])
				}
				if reached := peer.echo.accepts.Load() - before; reached > int64(lim["tunnels"]) {
					t.Errorf("%d tunnels reached the echo server, past the cap %v", reached, lim["tunnels"])
				}
				if lim["tunnels_refused"]+lim["connections_refused"] < float64(2000-open) {
					t.Errorf("the record counts %v+%v refusals for %d tunnels refused", lim["tunnels_refused"], lim["connections_refused"], 2000-open)
				}
			})
			t.Run("socket buffer caps", func(t *testing.T) {
				// The control: warden's machine has its own, larger
				// maxima, which the sandbox would have without init's
				// step.
				host, _ := os.ReadFile("/proc/sys/net/ipv4/tcp_rmem")
				if f := strings.Fields(string(host)); len(f) != 3 || f[2] == "262144" {
					t.Fatalf("warden's machine's tcp_rmem is %q: the test cannot tell init's cap from it", host)
				}
				r := l.run(t, u, "sysctl", policy, "sysctl")
				for _, want := range []string{
					"sysctl /proc/sys/net/ipv4/tcp_rmem=4096 131072 262144 write=true",
					"sysctl /proc/sys/net/ipv4/tcp_wmem=4096 16384 262144 write=true",
				} {
					if !strings.Contains(r.out, want) {
						t.Errorf("inside: %s, want %q (capped, and not writable)", r.out, want)
					}
				}
			})
			t.Run("fill buffers", func(t *testing.T) {
				r := l.run(t, u, "fill", policy, "fill", "200")
				r.within(t, "200 tunnels full each way")
				if !strings.Contains(r.out, "fill written=") {
					t.Errorf("the attacker did not fill its tunnels: %s", r.out)
				}
			})
		})
	}
}

// TestAdversarialEgressThisMachine: a service bound to 0.0.0.0 on
// warden's machine is not reachable through the proxy, by a catch-all
// rule nor by allowed_ips covering the machine's address: 403 with the
// always-denied body, and the service accepts nothing. The WireServer
// address is refused by the proxy and by warden net check, and never
// reached. The same request to the peer's service is served (the
// control).
func TestAdversarialEgressThisMachine(t *testing.T) {
	l, ok := adversarialLab(t)
	if !ok {
		return
	}
	hello := func(c net.Conn) {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		bufio.NewReader(c).ReadString('\n')
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 7\r\nConnection: close\r\n\r\nservice")
	}
	// The machine's own service, on every address of it.
	local := serveCounting(t, "0.0.0.0:"+servicePort, hello)
	var peerSvc, wire *countingServer
	inNetNS(t, l.peer, func() {
		peerSvc = serveCounting(t, "0.0.0.0:"+servicePort, hello)
		wire = serveCounting(t, wireServer+":80", hello)
	})
	policies := map[string]string{
		"catch-all":   "version: 1\nnetwork:\n  rules:\n    - allow: {}\n",
		"allowed_ips": "version: 1\nnetwork:\n  rules:\n    - allow: {allowed_ips: [\"203.0.113.0/24\", \"168.63.0.0/16\"]}\n",
	}
	for _, u := range advUsers(t) {
		for pname, policy := range policies {
			t.Run(u.name+"/"+pname, func(t *testing.T) {
				for _, c := range []struct {
					name string
					args []string
				}{
					{"get", []string{"get", "http://" + advHostAddr + ":" + servicePort + "/"}},
					{"connect", []string{"connect", advHostAddr + ":" + servicePort}},
					{"mapped", []string{"connect", "[::ffff:" + advHostAddr + "]:" + servicePort}},
				} {
					r := l.run(t, u, pname+"-"+c.name, policy, c.args...)
					if !strings.Contains(r.out, "status=403") || !strings.Contains(r.out, `"rule":"always-denied: this machine"`) {
						t.Errorf("%s to this machine's service: %s, want 403 by always-denied: this machine", c.name, r.out)
					}
					if len(r.attempts("always-denied: this machine")) == 0 {
						t.Errorf("%s: the record has no denial by always-denied: this machine", c.name)
					}
				}
				r := l.run(t, u, pname+"-wire", policy, "connect", wireServer+":80")
				if !strings.Contains(r.out, "status=403") || !strings.Contains(r.out, `"rule":"always-denied: cloud metadata"`) {
					t.Errorf("CONNECT %s:80: %s, want 403 by always-denied: cloud metadata", wireServer, r.out)
				}
				// The control.
				r = l.run(t, u, pname+"-peer", policy, "get", "http://"+advPeerAddr+":"+servicePort+"/")
				if !strings.Contains(r.out, "status=200 body=service") {
					t.Errorf("GET the peer's service: %s, want 200 service (the control)", r.out)
				}
			})
		}
	}
	if n := local.accepts.Load(); n != 0 {
		t.Errorf("this machine's service accepted %d connections, want none", n)
	}
	if n := wire.accepts.Load(); n != 0 {
		t.Errorf("the WireServer address accepted %d connections, want none", n)
	}
	if peerSvc.accepts.Load() == 0 {
		t.Error("the peer's service was never reached: the control failed")
	}
	// warden net check answers as the proxy does.
	pol := filepath.Join(l.dir, "catch-all.yaml")
	os.WriteFile(pol, []byte(policies["catch-all"]), 0o644)
	for target, rule := range map[string]string{
		advHostAddr + ":" + servicePort:               "always-denied: this machine",
		"[::ffff:" + advHostAddr + "]:" + servicePort: "always-denied: this machine",
		wireServer + ":80":                            "always-denied: cloud metadata",
		"[::ffff:" + wireServer + "]:80":              "always-denied: cloud metadata",
		advPeerAddr + ":" + servicePort:               "network.rules[0]",
	} {
		out, _ := exec.Command(l.warden, "net", "check", "--json", "--policy", pol, target).Output()
		var d struct{ Decision, Rule string }
		json.Unmarshal(out, &d)
		if !strings.HasPrefix(d.Rule, rule) || (d.Decision == "allow") != strings.HasPrefix(rule, "network.rules") {
			t.Errorf("warden net check %s = %s", target, out)
		}
	}
}
