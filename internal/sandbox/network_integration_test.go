// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// The sandbox's way out: the listeners init makes inside the network
// namespace reach the parent, and nothing else does. What the proxy then
// allows is tested with the proxy; here a stand-in serves the listeners.
// Same assumptions as attack_integration_test.go, plus curl and getent.

import (
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// standIn serves a run's listeners as the egress proxy would be, and
// records what reached each.
type standIn struct {
	mu sync.Mutex
	// mu guards the fields below.
	proxied []string // request URLs through the proxy listener
	https   []string // local addresses of connections to :443
	queries int      // DNS datagrams
}

func (s *standIn) serve(l Listeners) {
	go http.Serve(l.Proxy, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.proxied = append(s.proxied, r.Method+" "+r.URL.String())
		s.mu.Unlock()
		io.WriteString(w, "via the parent\n")
	}))
	go func() {
		for {
			c, err := l.HTTPS.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.https = append(s.https, c.LocalAddr().String())
			s.mu.Unlock()
			c.Close()
		}
	}()
	go func() {
		buf := make([]byte, 512)
		for {
			if _, _, err := l.DNS.ReadFrom(buf); err != nil {
				return
			}
			s.mu.Lock()
			s.queries++
			s.mu.Unlock()
		}
	}()
	go func() {
		for {
			c, err := l.HTTP.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	go func() {
		for {
			c, err := l.DNSTCP.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
}

func TestAttackNetworkOnlyThroughParent(t *testing.T) {
	for _, c := range []string{"curl", "getent", "python3", "timeout"} {
		if !haveCmd(c) {
			t.Skipf("requires %s on PATH", c)
		}
	}
	var s standIn
	script := `
curl -sS --max-time 5 http://example.test/path; echo "curl=$?"
timeout 3 getent hosts example.test; echo "getent=$?"
python3 - <<'PY'
import socket, os
c = socket.create_connection(("127.1.2.3", 443), 5); c.close(); print("capture=ok")
for port in (80, 443, 53, 3128):
    s = socket.socket()
    try:
        s.bind(("0.0.0.0" if port != 3128 else "127.0.0.1", port)); print("bound", port)
    except OSError as e:
        print("bind", port, e.errno)
    s.close()
print("fds", sorted(os.listdir("/proc/self/fd")))
PY
cat /etc/resolv.conf
echo "rmem=$(cat /proc/sys/net/ipv4/tcp_rmem) wmem=$(cat /proc/sys/net/ipv4/tcp_wmem)"
`
	o := run(t, Spec{Network: &Network{Serve: s.serve}, Argv: sh(script)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The proxy variables lead to the parent.
	if len(s.proxied) != 1 || s.proxied[0] != "GET http://example.test/path" || !strings.Contains(o.stdout, "via the parent") {
		t.Errorf("the proxy listener saw %q; stdout %q", s.proxied, o.stdout)
	}
	// The resolver asks the stub, which the parent holds.
	if s.queries == 0 {
		t.Error("no DNS query reached the stub's listener")
	}
	if !strings.Contains(o.stdout, "nameserver 127.0.0.53") {
		t.Errorf("the sandbox's resolv.conf does not name the stub:\n%s", o.stdout)
	}
	// :443 of any loopback address reaches the parent, which sees the
	// address the command asked for.
	if len(s.https) != 1 || s.https[0] != "127.1.2.3:443" {
		t.Errorf(":443 capture saw %q", s.https)
	}
	// The command holds none of the listeners and cannot take their
	// ports; the namespace's socket buffers are capped (socketBuffers),
	// whether init bound the listeners at the run or, kept by a Keeper,
	// ahead of it.
	for _, want := range []string{"bind 80 13", "bind 443 13", "bind 53 13", "bind 3128 98", "fds ['0', '1', '2', '3']",
		"rmem=4096\t131072\t262144 wmem=4096\t16384\t262144"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, o.stdout)
		}
	}
	// The cap is the sandbox's namespace's only: a warm init writes it
	// ahead through the host's /proc, which names the writer's
	// namespace, never this one's.
	for _, s := range socketBuffers {
		if b, _ := os.ReadFile("/proc/sys/" + s[0]); strings.Join(strings.Fields(string(b)), " ") == s[1] {
			t.Errorf("this machine's %s is the sandbox's cap %q: a sandbox set it here (or the machine was set so, and this test cannot tell)", s[0], s[1])
		}
	}
}

// TestListenersServedOnFirstUse: the listeners are handed to
// Network.Serve only once one of them has something to take, so a
// command that never uses the network costs no proxy; what comes first,
// a datagram sent before anything serves the stub's socket, waits in its
// queue and is answered.
func TestListenersServedOnFirstUse(t *testing.T) {
	if !haveCmd("python3") || !haveCmd("curl") {
		t.Skip("requires python3 and curl on PATH")
	}
	var mu sync.Mutex
	served := 0
	var proxied []string
	serve := func(l Listeners) {
		mu.Lock()
		served++
		mu.Unlock()
		go http.Serve(l.Proxy, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			proxied = append(proxied, r.URL.String())
			mu.Unlock()
			io.WriteString(w, "via the parent\n")
		}))
		go func() {
			buf := make([]byte, 512)
			for {
				n, from, err := l.DNS.ReadFrom(buf)
				if err != nil {
					return
				}
				l.DNS.WriteTo(append([]byte("answer:"), buf[:n]...), from)
			}
		}()
	}
	o := run(t, Spec{Network: &Network{Serve: serve}, Argv: []string{"true"}})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("run: %v, status %d", o.err, o.res.Status())
	}
	mu.Lock()
	if served != 0 {
		t.Errorf("a command that used no network had its listeners served %d times", served)
	}
	mu.Unlock()
	script := `python3 - <<'PY'
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(30)
s.sendto(b"first", ("` + strings.Split(DNSAddr, ":")[0] + `", 53))
print(s.recv(64).decode())
PY
curl -sS --max-time 30 http://example.test/second`
	o = run(t, Spec{Network: &Network{Serve: serve}, Argv: sh(script)})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("run: %v, status %d, stderr %q", o.err, o.res.Status(), o.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if served != 1 {
		t.Errorf("the listeners were served %d times, want once", served)
	}
	if !strings.Contains(o.stdout, "answer:first") || !strings.Contains(o.stdout, "via the parent") {
		t.Errorf("the first datagram or the connection after it was not answered: %q", o.stdout)
	}
	if len(proxied) != 1 || proxied[0] != "http://example.test/second" {
		t.Errorf("the proxy listener saw %q", proxied)
	}
}

// TestAttackNoNetworkWithoutSpec: without Spec.Network nothing listens,
// and the proxy variables are not set.
func TestAttackNoNetworkWithoutSpec(t *testing.T) {
	if !haveCmd("curl") {
		t.Skip("requires curl on PATH")
	}
	o := run(t, Spec{Argv: sh("env | grep -i _proxy; curl -sS --max-time 3 -x http://" + ProxyAddr + " http://example.test/; echo curl=$?")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(strings.ToLower(o.stdout), "_proxy=") || !strings.Contains(o.stdout, "curl=7") {
		t.Errorf("a run without a network has a way out:\n%s\n%s", o.stdout, o.stderr)
	}
}

func TestFailClosedNetwork(t *testing.T) {
	for _, step := range []string{"make network listeners", "point DNS at the stub"} {
		t.Run(step, func(t *testing.T) {
			testOnlyFailAt = step
			defer func() { testOnlyFailAt = "" }()
			project := openProject(t)
			o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Network: &Network{Serve: func(l Listeners) { l.Close() }},
				Argv: sh("echo ran > ran")})
			var se *SetupError
			if !errors.As(o.err, &se) || !strings.Contains(se.Error(), step) {
				t.Fatalf("err = %v, want a SetupError naming %q", o.err, step)
			}
			if fileExists(project + "/ran") {
				t.Error("the command ran")
			}
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestConnectionsReported: with Network.Connected, the sandbox's seccomp
// listener reports who makes each TCP connection, at the call, before it
// is made: its socket's inode and the caller's executable and ancestors
// as the kernel names them inside (a socket handed to another program
// after it was connected stays the connector's: TestEgress/*/openshell).
func TestConnectionsReported(t *testing.T) {
	sandboxtest.RequireRoot(t)
	for _, c := range []string{"curl", "python3"} {
		if !haveCmd(c) {
			t.Skipf("requires %s on PATH", c)
		}
	}
	avail, _ := os.ReadFile("/proc/sys/kernel/seccomp/actions_avail")
	if !strings.Contains(string(avail), "user_notif") {
		t.Skipf("requires seccomp user notification: actions_avail is %q", strings.TrimSpace(string(avail)))
	}
	var s standIn
	var mu sync.Mutex
	var got []Connection
	script := `curl -sS --max-time 5 http://example.test/path > /dev/null; echo "curl=$?"
/usr/bin/python3 -c 'import socket; socket.create_connection(("127.0.0.1", 3128)).close()'; echo "python=$?"`
	o := run(t, Spec{Network: &Network{Serve: s.serve, Connected: func(c Connection) {
		mu.Lock()
		got = append(got, c)
		mu.Unlock()
	}}, Argv: sh(script)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || got[0].Inode != 0 {
		t.Fatalf("the first report is not the watch's start: %+v", got)
	}
	curl, _ := filepath.EvalSymlinks(lookPath(t, "curl"))
	// Debian's, which test.sh installs (whatever else PATH holds may be
	// a version manager's script).
	py, _ := filepath.EvalSymlinks("/usr/bin/python3")
	seen := map[string]bool{}
	for _, c := range got[1:] {
		if c.Inode == 0 || c.PID <= 1 || c.Err != "" {
			t.Errorf("report %+v: want an inode, a pid and no error", c)
		}
		seen[c.Exe] = true
	}
	if !seen[curl] || !seen[py] {
		t.Errorf("reported %+v, want connections by %s and %s", got, curl, py)
	}
	if !strings.Contains(o.stdout, "curl=0") || !strings.Contains(o.stdout, "python=0") {
		t.Errorf("a watched connection did not go through:\n%s", o.stdout)
	}
}

func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
