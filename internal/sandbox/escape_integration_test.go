// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Escape tests: each one really attempts to reach something outside the
// sandbox — a host Unix socket, a host kernel setting, the host's root
// filesystem, a host process (signals, ptrace), the host's other network
// addresses, the host's DNS resolver, a package index — and checks from
// outside that nothing arrived or changed. Each has a negative control:
// the same attempt made from outside the sandbox (or with the layer turned
// off through a test hook) is seen by the same check.
//
// Listeners count what reaches them with a sentinel instead of a delay:
// after the run the test itself connects (or sends a datagram); the kernel
// queues connections and datagrams in order, so when the sentinel arrives
// everything the sandbox sent before it has been counted.
//
// Assumptions as in attack_integration_test.go, plus python3 with ctypes
// on the sandbox's PATH for most tests (they skip naming it when absent).
// TestAttackHostAddresses and TestAttackDNS need root, ip (iproute2),
// unshare, mount and setpriv: they create a network namespace of their
// own (warden-test-*, deleted afterwards) with a veth or dummy interface
// carrying 198.51.100.1/24, 203.0.113.1/24 and 2001:db8::1/64, and rerun
// themselves in it as root and as uid 65534 (TestAttacksAsUnprivilegedUser
// cannot create one, so they skip there). TestAttackDNS binds a resolv.conf
// of its own over /etc/resolv.conf in a private mount namespace of that
// rerun; the host's file is never changed. No test sends traffic anywhere
// but loopback and that namespace.

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// streamListener is a stream listener (TCP or Unix) outside the sandbox
// that records who connected, in order.
type streamListener struct {
	ln       net.Listener
	serve    func(net.Conn) // nil: close each connection at once
	arrivals                // peerID of each accepted connection
}

// arrivals records what reached a listener, in order, so that a sentinel
// sent after a run tells how much came before it.
type arrivals struct {
	mu sync.Mutex
	// mu guards the fields below.
	got  []string
	wake chan struct{} // closed at each arrival
	seen int           // arrivals already counted by before
}

func (a *arrivals) add(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.got = append(a.got, s)
	if a.wake != nil {
		close(a.wake)
	}
	a.wake = make(chan struct{})
}

// before waits for the sentinel want and returns how many arrivals came
// before it since the last call.
func (a *arrivals) before(want string) int {
	for {
		a.mu.Lock()
		for i := a.seen; i < len(a.got); i++ {
			if a.got[i] == want {
				n := i - a.seen
				a.seen = i + 1
				a.mu.Unlock()
				return n
			}
		}
		if a.wake == nil {
			a.wake = make(chan struct{})
		}
		wake := a.wake
		a.mu.Unlock()
		<-wake
	}
}

func listenStream(t *testing.T, network, addr string, serve func(net.Conn)) *streamListener {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatalf("listen %s %s: %v", network, addr, err)
	}
	t.Cleanup(func() { ln.Close() })
	l := &streamListener{ln: ln, serve: serve}
	go l.accept()
	return l
}

func (l *streamListener) accept() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.add(peerID(c))
		if l.serve != nil {
			go l.serve(c)
		} else {
			c.Close()
		}
	}
}

// peerID names the client of an accepted connection: its address for
// TCP, the pid the kernel recorded at connect for Unix sockets.
func peerID(c net.Conn) string {
	u, ok := c.(*net.UnixConn)
	if !ok {
		return c.RemoteAddr().String()
	}
	raw, err := u.SyscallConn()
	if err != nil {
		return "unix: " + err.Error()
	}
	var cred *unix.Ucred
	raw.Control(func(fd uintptr) { cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) })
	if err != nil {
		return "unix: " + err.Error()
	}
	return fmt.Sprintf("pid %d", cred.Pid)
}

func (l *streamListener) String() string { return l.ln.Addr().Network() + " " + l.ln.Addr().String() }

func (l *streamListener) port() string {
	return strconv.Itoa(l.ln.Addr().(*net.TCPAddr).Port)
}

// arrived connects a sentinel from the test process and returns how many
// connections the listener accepted before it since the last call. Unix
// sentinels are told apart by the test's pid, so nothing else in the test
// process may connect to a Unix listener.
func (l *streamListener) arrived(t *testing.T) int {
	t.Helper()
	a := l.ln.Addr()
	c, err := net.Dial(a.Network(), a.String())
	if err != nil {
		t.Fatalf("sentinel connection to %s: %v", l, err)
	}
	defer c.Close()
	want := c.LocalAddr().String()
	if _, ok := c.(*net.UnixConn); ok {
		want = fmt.Sprintf("pid %d", os.Getpid())
	}
	return l.before(want)
}

// packetListener is a datagram socket (UDP or unixgram) outside the
// sandbox that counts datagrams, optionally answering each.
type packetListener struct {
	pc       net.PacketConn
	reply    func(q []byte) []byte // nil: no answer
	arrivals                       // each datagram, as text
}

func listenPacket(t *testing.T, network, addr string, reply func([]byte) []byte) *packetListener {
	t.Helper()
	pc, err := net.ListenPacket(network, addr)
	if err != nil {
		t.Fatalf("listen %s %s: %v", network, addr, err)
	}
	t.Cleanup(func() { pc.Close() })
	l := &packetListener{pc: pc, reply: reply}
	go l.read()
	return l
}

func (l *packetListener) read() {
	buf := make([]byte, 64<<10)
	for {
		n, from, err := l.pc.ReadFrom(buf)
		if err != nil {
			return
		}
		l.add(string(buf[:n]))
		if l.reply != nil && from != nil {
			if r := l.reply(buf[:n]); r != nil {
				l.pc.WriteTo(r, from)
			}
		}
	}
}

func (l *packetListener) String() string {
	return l.pc.LocalAddr().Network() + " " + l.pc.LocalAddr().String()
}

func (l *packetListener) port() string {
	return strconv.Itoa(l.pc.LocalAddr().(*net.UDPAddr).Port)
}

// arrived sends a sentinel datagram from the test process and returns how
// many datagrams arrived before it since the last call.
func (l *packetListener) arrived(t *testing.T) int {
	t.Helper()
	a := l.pc.LocalAddr()
	c, err := net.Dial(a.Network(), a.String())
	if err != nil {
		t.Fatalf("sentinel to %s: %v", l, err)
	}
	defer c.Close()
	want := fmt.Sprintf("warden-sentinel-%d", rand.Uint64())
	if _, err := c.Write([]byte(want)); err != nil {
		t.Fatalf("sentinel to %s: %v", l, err)
	}
	return l.before(want)
}

// counter is a listener that can count arrivals.
type counter interface {
	arrived(t *testing.T) int
	String() string
}

// wantNoArrivals fails the test for every listener something reached.
func wantNoArrivals(t *testing.T, what string, ls ...counter) {
	t.Helper()
	for _, l := range ls {
		if n := l.arrived(t); n != 0 {
			t.Errorf("%s: %d connections or datagrams from the sandbox reached %s outside it", what, n, l)
		}
	}
}

// wantArrivals is the negative control: an attempt from outside the
// sandbox reaches every listener, so the count can see one.
func wantArrivals(t *testing.T, what string, ls ...counter) {
	t.Helper()
	for _, l := range ls {
		if n := l.arrived(t); n == 0 {
			t.Fatalf("control: %s from outside the sandbox did not reach %s; the test proves nothing", what, l)
		}
	}
}

// runOutside runs argv on the host, outside any sandbox, in dir.
func runOutside(t *testing.T, dir string, env []string, argv ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("outside: %q: %v\n%s", argv, err, out)
	return string(out), err
}

// pyUnixScript tries every kind of AF_UNIX socket, connects to each
// stream target and sends to each datagram target given as arguments
// (NAME=PATH, @NAME for abstract ones; dgram: before a datagram target),
// and checks that socketpair still works.
const pyUnixScript = `import errno, socket, sys
def why(e): return errno.errorcode.get(e.errno, str(e.errno))
for name, typ in [("stream", socket.SOCK_STREAM), ("dgram", socket.SOCK_DGRAM), ("seqpacket", socket.SOCK_SEQPACKET)]:
    try:
        socket.socket(socket.AF_UNIX, typ).close()
        print("socket", name, "ok")
    except OSError as e:
        print("socket", name, why(e))
for arg in sys.argv[1:]:
    dgram = arg.startswith("dgram:")
    name, path = arg.removeprefix("dgram:").split("=", 1)
    if path.startswith("@"):
        path = "\0" + path[1:]
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM if dgram else socket.SOCK_STREAM)
        if dgram:
            s.sendto(b"x", path)
        else:
            s.connect(path)
            s.sendall(b"x")
        print("reach", name, "ok")
    except OSError as e:
        print("reach", name, why(e))
a, b = socket.socketpair()
a.sendall(b"pair-ok")
print("socketpair", b.recv(16).decode())
`

// TestAttackHostUnixSocket connects to Unix sockets the test listens on
// outside the sandbox: a pathname socket in a host directory the sandbox
// sees read-only, one in the project directory, a datagram socket, and an
// abstract one. None may accept anything: socket(AF_UNIX, ...) is refused
// with EPERM while socketpair keeps working.
func TestAttackHostUnixSocket(t *testing.T) {
	host := varTempDir(t)
	project := t.TempDir()
	abstract := fmt.Sprintf("@warden-test-%d", rand.Uint64())
	paths := map[string]string{"host": filepath.Join(host, "host.sock"), "project": filepath.Join(project, "project.sock")}
	hostStream := listenStream(t, "unix", paths["host"], nil)
	projectStream := listenStream(t, "unix", paths["project"], nil)
	abstractStream := listenStream(t, "unix", abstract, nil)
	dgramPath := filepath.Join(host, "host-dgram.sock")
	hostDgram := listenPacket(t, "unixgram", dgramPath, nil)
	for _, p := range []string{paths["host"], paths["project"], dgramPath} {
		// Anyone may connect: only the sandbox may stand in the way.
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	all := []counter{hostStream, projectStream, abstractStream, hostDgram}
	args := []string{"host=" + paths["host"], "project=" + paths["project"], "abstract=" + abstract, "dgram:dgram=" + dgramPath}

	requireInSandbox(t, "python3")
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is in the sandbox's PATH but not on the host's: %v", err)
	}
	// Control: the same script from outside reaches all four.
	if out, err := runOutside(t, project, nil, append([]string{py, "-c", pyUnixScript}, args...)...); err != nil {
		t.Fatalf("control: python3 outside the sandbox: %v\n%s", err, out)
	}
	wantArrivals(t, "python3 socket.AF_UNIX", all...)

	t.Run("python3", func(t *testing.T) {
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: append([]string{"python3", "-c", pyUnixScript}, args...)})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("python3: %v, status %d", o.err, o.res.Status())
		}
		wantNoArrivals(t, "python3 socket.AF_UNIX", all...)
		for _, want := range []string{"socket stream EPERM", "socket dgram EPERM", "socket seqpacket EPERM", "socketpair pair-ok"} {
			if !strings.Contains(o.stdout, want) {
				t.Errorf("want %q in:\n%s", want, o.stdout)
			}
		}
		if strings.Contains(o.stdout, " ok\n") {
			t.Errorf("a Unix socket was made or reached:\n%s", o.stdout)
		}
	})
	t.Run("nc", func(t *testing.T) {
		requireInSandbox(t, "nc")
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(fmt.Sprintf(
			"echo x | nc -U -w 1 %s; echo x | nc -U -w 1 %s; echo x | nc -U -u -w 1 %s", paths["host"], paths["project"], dgramPath))})
		if o.err != nil {
			t.Fatal(o.err)
		}
		wantNoArrivals(t, "nc -U", hostStream, projectStream, hostDgram)
	})
	t.Run("socat", func(t *testing.T) {
		requireInSandbox(t, "socat")
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(fmt.Sprintf(
			"echo x | socat - UNIX-CONNECT:%s; echo x | socat - UNIX-CONNECT:%s; echo x | socat - ABSTRACT-CONNECT:%s; echo x | socat - UNIX-SENDTO:%s",
			paths["host"], paths["project"], strings.TrimPrefix(abstract, "@"), dgramPath))})
		if o.err != nil {
			t.Fatal(o.err)
		}
		wantNoArrivals(t, "socat", all...)
	})
}

// hostSysctl reads a /proc/sys file on the host.
func hostSysctl(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s on the host: %v", path, err)
	}
	return strings.TrimSpace(string(b))
}

// TestAttackProcSys tries to change global kernel settings through
// /proc/sys (as root the command's uid is the host's root, so only the
// read-only mount and Landlock stand in the way) and checks on the host
// that they did not change. A change is undone and fails the test.
func TestAttackProcSys(t *testing.T) {
	settings := []struct{ file, key string }{
		{"/proc/sys/kernel/printk_ratelimit", "kernel.printk_ratelimit"},
		{"/proc/sys/vm/swappiness", "vm.swappiness"},
	}
	before := map[string]string{}
	var script strings.Builder
	script.WriteString("mount -o remount,rw /proc/sys; echo remount rc=$?\n")
	haveSysctl := lookInSandbox("sysctl") == nil
	for _, s := range settings {
		old := hostSysctl(t, s.file)
		before[s.file] = old
		n, err := strconv.Atoi(old)
		if err != nil {
			t.Fatalf("%s: %q is not a number", s.file, old)
		}
		v := strconv.Itoa(n + 1)
		if n > 0 {
			v = strconv.Itoa(n - 1)
		}
		t.Cleanup(func() {
			if now := hostSysctl(t, s.file); now != old {
				t.Errorf("%s changed on the host to %s; restoring %s", s.file, now, old)
				os.WriteFile(s.file, []byte(old), 0)
			}
		})
		fmt.Fprintf(&script, "echo %s > %s; echo write rc=$?\n", v, s.file)
		fmt.Fprintf(&script, "echo %s | tee %s; echo tee rc=$?\n", v, s.file)
		if haveSysctl {
			fmt.Fprintf(&script, "sysctl -w %s=%s; echo sysctl rc=$?\n", s.key, v)
		}
		if lookInSandbox("python3") == nil {
			fmt.Fprintf(&script, "python3 -c \"import os; os.write(os.open('%s', os.O_WRONLY), b'%s')\"; echo python rc=$?\n", s.file, v)
		}
	}
	if os.Getuid() == 0 {
		// Control: a write from outside changes the setting and the
		// check sees it.
		const f = "/proc/sys/kernel/printk_ratelimit"
		old := before[f]
		n, _ := strconv.Atoi(old)
		if err := os.WriteFile(f, []byte(strconv.Itoa(n+1)), 0); err != nil {
			t.Fatalf("control: write %s as root outside the sandbox: %v", f, err)
		}
		now := hostSysctl(t, f)
		if err := os.WriteFile(f, []byte(old), 0); err != nil {
			t.Fatalf("restore %s: %v", f, err)
		}
		if now == old {
			t.Fatalf("control: %s did not change when written from outside; the test proves nothing", f)
		}
	}
	o := run(t, Spec{Argv: sh(script.String())})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, s := range settings {
		if now := hostSysctl(t, s.file); now != before[s.file] {
			t.Errorf("%s is %s on the host after the run, was %s", s.file, now, before[s.file])
		}
	}
	for _, l := range strings.Split(o.stdout, "\n") {
		if strings.HasSuffix(l, "rc=0") {
			t.Errorf("an attempt reported success: %s\n%s", l, o.stdout)
		}
	}
	if !strings.Contains(o.stderr, "Read-only file system") && !strings.Contains(o.stderr, "Permission denied") {
		t.Errorf("want EROFS or EACCES:\n%s", o.stderr)
	}

	t.Run("sysrq-trigger", func(t *testing.T) {
		if _, err := os.Stat("/proc/sysrq-trigger"); err != nil {
			t.Skipf("requires /proc/sysrq-trigger (CONFIG_MAGIC_SYSRQ): %v", err)
		}
		// The kernel log shows whether a sysrq command ran; "h" only
		// prints the help.
		kmsg, err := unix.Open("/dev/kmsg", unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Skipf("requires reading /dev/kmsg to see a sysrq command from outside: %v", err)
		}
		defer unix.Close(kmsg)
		if _, err := unix.Seek(kmsg, 0, io.SeekEnd); err != nil {
			t.Fatalf("seek /dev/kmsg: %v", err)
		}
		o := run(t, Spec{Argv: sh("echo h > /proc/sysrq-trigger; echo rc=$?")})
		if o.err != nil {
			t.Fatal(o.err)
		}
		if log := readKmsg(kmsg); strings.Contains(strings.ToLower(log), "sysrq") {
			t.Errorf("a sysrq command from the sandbox reached the host kernel:\n%s", log)
		}
		if os.Getuid() != 0 {
			return
		}
		// Control: the same write as root outside shows in the log.
		if err := os.WriteFile("/proc/sysrq-trigger", []byte("h"), 0); err != nil {
			t.Fatalf("control: write /proc/sysrq-trigger outside the sandbox: %v", err)
		}
		if log := readKmsg(kmsg); !strings.Contains(strings.ToLower(log), "sysrq") {
			t.Errorf("control: sysrq h from outside left no trace in /dev/kmsg; the test proves nothing:\n%s", log)
		}
	})
}

// readKmsg returns the kernel log records written since the last read.
func readKmsg(fd int) string {
	var b strings.Builder
	buf := make([]byte, 8192)
	for {
		n, err := unix.Read(fd, buf)
		if errors.Is(err, unix.EPIPE) {
			continue // records were overwritten; go on with the next
		}
		if err != nil || n <= 0 {
			return b.String()
		}
		b.Write(buf[:n])
	}
}

// TestAttackRemountRoot tries to make / writable again (mount(8), both
// mount APIs through libc, and through a nested user namespace) and then
// to write below /etc, /usr and a host directory: none of the files exist
// on the host afterwards. Control: with / left writable and Landlock off
// through the test hooks, the same write reaches the host.
func TestAttackRemountRoot(t *testing.T) {
	name := fmt.Sprintf("warden-test-%d", rand.Uint64())
	host := varTempDir(t)
	victims := []string{filepath.Join("/etc", name), filepath.Join("/usr", name), filepath.Join(host, name)}
	for _, v := range victims {
		t.Cleanup(func() { os.Remove(v) })
	}
	writes := ""
	for _, v := range victims {
		writes += fmt.Sprintf("echo pwned > %[1]s && echo wrote %[1]s\n", v)
	}
	script := "mount -o remount,rw /; echo rc=$?\nmount -o remount,bind,rw /; echo rc=$?\n" +
		"unshare -rm sh -c 'mount -o remount,rw / && mount -o remount,bind,rw /'; echo rc=$?\n" + writes
	argv := sh(script)
	var env []string
	if lookInSandbox("python3") == nil {
		py := pyPrelude + `
import struct, sys
MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 0x20, 0x1000
print("mount_remount", sc(165, 0, mem(b"/"), 0, MS_REMOUNT, 0))
print("mount_remount_bind", sc(165, 0, mem(b"/"), 0, MS_REMOUNT | MS_BIND, 0))
# mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, {attr_clr: MOUNT_ATTR_RDONLY}, 32)
print("mount_setattr", sc(442, -100, mem(b"/"), 0x8000, mem(struct.pack("QQQQ", 0, 1, 0, 0)), 32))
for p in sys.argv[1:]:
    try:
        with open(p, "w") as f:
            f.write("pwned")
        print("wrote", p)
    except OSError as e:
        print("write", p, errno.errorcode[e.errno])
`
		env = []string{"PY=" + py}
		argv = append(sh(script+`python3 -c "$PY" "$@"`), "sh")
		argv = append(argv, victims...)
	}
	o := run(t, Spec{Env: env, Argv: argv})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, v := range victims {
		if _, err := os.Lstat(v); err == nil {
			t.Errorf("the sandbox created %s on the host", v)
		}
	}
	if strings.Contains(o.stdout, "rc=0") || strings.Contains(o.stdout, "wrote ") {
		t.Errorf("a remount or write reported success:\n%s", o.stdout)
	}
	for _, want := range []string{"mount_remount EPERM", "mount_remount_bind EPERM", "mount_setattr EPERM"} {
		if lookInSandbox("python3") == nil && !strings.Contains(o.stdout, want) {
			t.Errorf("want %q in:\n%s", want, o.stdout)
		}
	}

	t.Run("control", func(t *testing.T) {
		testOnlyFailAt = testWritableRoot
		defer func() { testOnlyFailAt = "" }()
		ownedByCommand(t, host)
		o := run(t, Spec{Degraded: []Layer{LayerLandlock}, Argv: sh(fmt.Sprintf("echo pwned > %s", victims[2]))})
		if o.err != nil {
			t.Fatal(o.err)
		}
		if b, err := os.ReadFile(victims[2]); err != nil || string(b) != "pwned\n" {
			t.Errorf("control: with / writable and no Landlock the write did not reach the host (%q, %v); the test proves nothing", b, err)
		}
	})
}

// victim is a sleep started on the host, outside any sandbox, for the
// sandbox to attack. The test reaps it itself (wait4 with WUNTRACED), so
// it sees a stop as well as a death; events carries what wait4 reports.
type victim struct {
	pid    int
	events chan syscall.WaitStatus // closed when it has died
}

// startVictim starts the victim in process group pgid (0: a new one).
func startVictim(t *testing.T, pgid int) *victim {
	t.Helper()
	cmd := exec.Command("sleep", fmt.Sprintf("1000.%d", rand.Uint32()))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the host process: %v", err)
	}
	v := &victim{pid: cmd.Process.Pid, events: make(chan syscall.WaitStatus, 8)}
	// The cleanup signals through a pidfd: once reaped, the pid may be
	// another process's.
	pidfd, err := unix.PidfdOpen(v.pid, 0)
	if err != nil {
		syscall.Kill(v.pid, syscall.SIGKILL)
		t.Fatalf("pidfd_open: %v", err)
	}
	go func() {
		defer close(v.events)
		for {
			var ws syscall.WaitStatus
			_, err := syscall.Wait4(v.pid, &ws, syscall.WUNTRACED, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				return
			}
			v.events <- ws
			if ws.Exited() || ws.Signaled() {
				return
			}
		}
	}()
	t.Cleanup(func() {
		unix.PidfdSendSignal(pidfd, unix.SIGKILL, nil, 0)
		for range v.events {
		}
		unix.Close(pidfd)
	})
	return v
}

// statusOf reads /proc/<pid>/status (procStatus), empty once pid is gone.
func statusOf(pid int) map[string]string {
	m, _ := procStatus(strconv.Itoa(pid))
	return m
}

func describe(ws syscall.WaitStatus) string {
	switch {
	case ws.Stopped():
		return "stopped by " + unix.SignalName(ws.StopSignal())
	case ws.Signaled():
		return "killed by " + unix.SignalName(ws.Signal())
	case ws.Exited():
		return fmt.Sprintf("exited with %d", ws.ExitStatus())
	}
	return fmt.Sprintf("status %#x", int(ws))
}

// checkIntact fails the test if a signal reached the victim. A signal
// still queued shows in SigPnd/ShdPnd; one handled shows in the state,
// which is read afterwards (a stop moves from pending to stopped under
// the lock those fields are read with). Last, the test's own SIGSTOP must
// be the first thing wait4 reports: a SIGKILL queued before it would have
// the victim reported dead instead. That is also the control: the check
// sees a stop.
func (v *victim) checkIntact(t *testing.T) {
	t.Helper()
	pend := statusOf(v.pid)
	st := statusOf(v.pid)
	for _, k := range []string{"SigPnd", "ShdPnd"} {
		if strings.Trim(pend[k], "0") != "" {
			t.Errorf("a signal is pending for the host process %d: %s %s", v.pid, k, pend[k])
		}
	}
	if s := st["State"]; s != "" && strings.ContainsAny(s[:1], "TtZX") {
		t.Errorf("the host process %d is in state %q", v.pid, s)
	}
	select {
	case ws, ok := <-v.events:
		if ok {
			t.Errorf("the host process %d was %s", v.pid, describe(ws))
		} else {
			t.Errorf("the host process %d is gone", v.pid)
		}
		return
	default:
	}
	syscall.Kill(v.pid, syscall.SIGSTOP)
	ws, ok := <-v.events
	if !ok || !ws.Stopped() || ws.StopSignal() != syscall.SIGSTOP {
		t.Errorf("the host process %d was %s before the test's own SIGSTOP", v.pid, describe(ws))
		return
	}
	syscall.Kill(v.pid, syscall.SIGCONT)
}

// envSignalParent makes the test binary act as a warden parent: it runs
// the run described in this variable (signalRun as JSON) in a sandbox,
// with $VICTIM (read from stdin) and $PARENT (its own pid) in the
// command's environment, prints the outcome and exits 0. Any signal the
// sandbox gets through to it kills or stops it (Go's default for SIGTERM,
// SIGHUP, SIGINT and SIGUSR1).
const envSignalParent = "WARDEN_SANDBOX_TEST_SIGNAL_PARENT"

type signalRun struct {
	Argv     []string `json:"argv"`
	Degraded []Layer  `json:"degraded,omitempty"`
}

func init() {
	if r := os.Getenv(envSignalParent); r != "" {
		os.Exit(signalParent(r))
	}
}

func signalParent(runJSON string) int {
	var r signalRun
	if err := json.Unmarshal([]byte(runJSON), &r); err != nil {
		fmt.Println("decode the run:", err)
		return 2
	}
	var victim int
	if _, err := fmt.Fscan(os.Stdin, &victim); err != nil {
		fmt.Println("read the victim's pid:", err)
		return 2
	}
	project, err := os.MkdirTemp("", "warden-signal-parent-")
	if err != nil {
		fmt.Println(err)
		return 2
	}
	defer os.RemoveAll(project)
	var out, errb bytes.Buffer
	res, err := warmRun(context.Background(), Spec{
		Argv: r.Argv, Project: project, Degraded: r.Degraded,
		Env:   []string{fmt.Sprintf("VICTIM=%d", victim), fmt.Sprintf("PARENT=%d", os.Getpid())},
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Timeout: 30 * time.Second,
	})
	fmt.Printf("warden parent survived: status %d, timed out %v, err %v\nstdout: %s\nstderr: %s\n",
		res.Status(), res.TimedOut, err, out.String(), errb.String())
	return 0
}

// contLoop keeps resuming every process of the sandbox from a session of
// its own, so that a kill -STOP 0 that stops the command's own process
// group (as it should) does not leave the run stopped.
const contLoop = "setsid sh -c 'while :; do kill -CONT -1; sleep 0.05; done' </dev/null >/dev/null 2>&1 & sleep 0.1; "

// TestAttackSignalOutside signals processes outside the sandbox: a host
// process by pid and by group, every process (-1), the warden parent by
// pid, and the process group the sandbox was started in (0), which holds
// the warden parent and the host process. The warden parent is a rerun of
// the test binary (envSignalParent) in a process group of its own, so
// that a signal which gets through cannot reach go test. From outside:
// the warden parent ran to the end, and the host process is alive and
// not stopped. Each attack runs again without Landlock (--degraded): its
// signal scope (ABI 6) is missing on older kernels, and the pid namespace
// and process group must hold by themselves.
func TestAttackSignalOutside(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	py := pyPrelude + `
V = int(os.environ["VICTIM"])
fd = libc.syscall(ctypes.c_long(434), ctypes.c_long(V), ctypes.c_long(0))
print("pidfd_open", fd if fd >= 0 else errno.errorcode[ctypes.get_errno()])
if fd >= 0:
    print("pidfd_send_signal", sc(424, fd, 9, 0, 0))
for pid in (V, int(os.environ["PARENT"])):
    for sig in (9, 19):
        try:
            os.kill(pid, sig)
            print("kill", pid, sig, "ok")
        except OSError as e:
            print("kill", pid, sig, errno.errorcode[e.errno])
`
	type attack struct {
		name string
		argv []string
	}
	var attacks []attack
	for _, tt := range []attack{
		{"kill -9 host process", sh("kill -9 $VICTIM")},
		{"kill -STOP host process", sh("kill -STOP $VICTIM")},
		{"kill -9 host group", sh("kill -9 -$PARENT")},
		{"kill -9 -1", sh("kill -9 -1")},
		{"kill -STOP -1", sh(contLoop + "kill -STOP -1")},
		{"kill -9 parent", sh("kill -9 $PARENT")},
		{"kill -STOP parent", sh("kill -STOP $PARENT")},
		{"kill -USR1 parent", sh("kill -USR1 $PARENT")},
		{"kill -TERM 0", sh("trap '' TERM; kill -TERM 0")},
		{"kill -USR1 0", sh("trap '' USR1; kill -USR1 0")},
		{"kill -HUP 0", sh("trap '' HUP; kill -HUP 0")},
		{"kill -STOP 0", sh(contLoop + "kill -STOP 0")},
		{"kill -9 0", sh("kill -9 0")},
		{"python3 kill and pidfd", []string{"python3", "-c", py}},
	} {
		attacks = append(attacks, tt)
	}
	for _, tt := range attacks {
		for _, degraded := range [][]Layer{nil, {LayerLandlock}} {
			name := tt.name
			if degraded != nil {
				name += " without landlock"
			}
			t.Run(name, func(t *testing.T) { signalOutside(t, self, tt.argv, degraded) })
		}
	}

	t.Run("the test process", func(t *testing.T) {
		// The test process as the warden parent, signalled by pid: only
		// signals it can catch (a SIGKILL or SIGSTOP that got through
		// would take go test with it). The process group is left alone
		// for the same reason (see above).
		ch := make(chan os.Signal, 16)
		signal.Notify(ch, syscall.SIGUSR1, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGWINCH)
		defer signal.Stop(ch)
		for _, degraded := range [][]Layer{nil, {LayerLandlock}} {
			o := run(t, Spec{Degraded: degraded, Env: []string{fmt.Sprintf("T=%d", os.Getpid())}, Argv: sh(
				"kill -USR1 $T; echo rc=$?; kill -HUP $T; echo rc=$?; kill -TERM $T; echo rc=$?")})
			if o.err != nil {
				t.Fatal(o.err)
			}
			// A sentinel: the kernel hands a process its pending
			// signals lowest number first, so SIGWINCH comes after
			// the others.
			syscall.Kill(os.Getpid(), syscall.SIGWINCH)
			for s := range ch {
				if s == syscall.SIGWINCH {
					break
				}
				t.Errorf("the test process received %v from the sandbox (degraded %v)", s, degraded)
			}
			if strings.Contains(o.stdout, "rc=0") {
				t.Errorf("a kill reported success (degraded %v):\n%s", degraded, o.stdout)
			}
		}
	})
}

// signalOutside runs argv in a sandbox started by a warden parent in a
// process group of its own, beside a host process, and checks from
// outside that neither was signalled.
func signalOutside(t *testing.T, self string, argv []string, degraded []Layer) {
	t.Helper()
	if argv[0] != "sh" {
		requireInSandbox(t, argv[0])
	}
	r, _ := json.Marshal(signalRun{Argv: argv, Degraded: degraded})
	parent := exec.Command(self, "-test.run=^$")
	parent.Env = append(os.Environ(), envSignalParent+"="+string(r))
	if os.Getenv("GORACE") == "" {
		// Under the race detector, do not wait a second at exit.
		parent.Env = append(parent.Env, "GORACE=atexit_sleep_ms=0")
	}
	parent.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	parent.Stdout, parent.Stderr = &out, &out
	stdin, err := parent.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	parentDone := make(chan error, 1)
	go func() { parentDone <- parent.Wait() }()
	t.Cleanup(func() {
		select {
		case <-parentDone: // reaped: its group number is free
		default:
			syscall.Kill(-parent.Process.Pid, syscall.SIGKILL)
			<-parentDone
		}
	})
	// In the warden parent's process group, as a sibling started by the
	// same shell would be.
	v := startVictim(t, parent.Process.Pid)
	fmt.Fprintln(stdin, v.pid)
	stdin.Close()
	select {
	case err := <-parentDone:
		parentDone <- err
		t.Logf("warden parent: %v\n%s", err, out.String())
		if err != nil || !strings.Contains(out.String(), "warden parent survived") {
			t.Errorf("a signal from the sandbox reached the warden parent: %v", err)
		}
		v.checkIntact(t)
	case ws := <-v.events:
		syscall.Kill(-parent.Process.Pid, syscall.SIGKILL)
		t.Errorf("the host process was %s from the sandbox", describe(ws))
		t.Logf("warden parent: %v\n%s", <-parentDone, out.String())
		parentDone <- nil
	}
}

// watchWriter collects a stream and closes seen once want has appeared
// in it.
type watchWriter struct {
	want string
	seen chan struct{}

	mu sync.Mutex
	// mu guards the fields below.
	buf  bytes.Buffer
	done bool
}

func newWatchWriter(want string) *watchWriter {
	return &watchWriter{want: want, seen: make(chan struct{})}
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.done && strings.Contains(w.buf.String(), w.want) {
		w.done = true
		close(w.seen)
	}
	return len(p), nil
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// runHeld runs spec with a pipe on stdin and, once the command has
// printed "attempted", calls check while the command still runs (it
// waits for a line on stdin), then lets it end.
func runHeld(t *testing.T, spec Spec, check func()) outcome {
	t.Helper()
	sandboxtest.RequireUserNS(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	stdout := newWatchWriter("attempted")
	var stderr bytes.Buffer
	spec.Stdin, spec.Stdout, spec.Stderr = pr, stdout, &stderr
	if spec.Project == "" {
		spec.Project = t.TempDir()
	}
	spec.Timeout = time.Minute
	r, ok := runUntilSeen(spec, stdout, func() {
		check()
		pw.Close()
	})
	if !ok {
		t.Errorf("the command ended before its attempt was checked")
	}
	o := outcome{stdout.String(), stderr.String(), r.res, r.err}
	t.Logf("%q: status %d, err %v\nstdout: %s\nstderr: %s", spec.Argv, r.res.Status(), r.err, o.stdout, o.stderr)
	return o
}

// runResult is what Run returned.
type runResult struct {
	res Result
	err error
}

// runUntilSeen runs spec in the background and, once w has seen its text,
// calls then while the command still runs; it returns what Run returned,
// and whether then was called (not if the command ended first).
func runUntilSeen(spec Spec, w *watchWriter, then func()) (runResult, bool) {
	done := make(chan runResult, 1)
	go func() {
		res, err := warmRun(context.Background(), spec)
		done <- runResult{res, err}
	}()
	select {
	case <-w.seen:
		then()
		return <-done, true
	case r := <-done:
		return r, false
	}
}

// checkUntraced fails the test if the victim has a tracer.
func checkUntraced(t *testing.T, v *victim) {
	t.Helper()
	st := statusOf(v.pid)
	if st["TracerPid"] != "0" {
		t.Errorf("the host process %d is traced: TracerPid %q, state %q", v.pid, st["TracerPid"], st["State"])
	}
}

// TestAttackPtraceOutside attaches to a host process by its pid while the
// attempt is held open, and checks from outside that it has no tracer.
func TestAttackPtraceOutside(t *testing.T) {
	t.Run("control", func(t *testing.T) {
		strace := sandboxtest.RequireCommand(t, "strace")
		v := startVictim(t, 0)
		cmd := exec.Command(strace, "-p", strconv.Itoa(v.pid), "-o", "/dev/null")
		errp, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(errp)
		attached := false
		for !attached && sc.Scan() {
			attached = strings.Contains(sc.Text(), "attached")
		}
		tracer := statusOf(v.pid)["TracerPid"]
		cmd.Process.Signal(syscall.SIGTERM)
		io.Copy(io.Discard, errp)
		cmd.Wait()
		if !attached || tracer == "0" {
			t.Fatalf("control: strace -p from outside: attached %v, TracerPid %q; the check proves nothing", attached, tracer)
		}
	})
	t.Run("python3", func(t *testing.T) {
		requireInSandbox(t, "python3")
		v := startVictim(t, 0)
		py := pyPrelude + `
import sys
V = int(sys.argv[1])
print("attach", sc(101, 16, V, 0, 0))
print("seize", sc(101, 0x4206, V, 0, 0))
print("process_vm_readv", sc(310, V, mem(b""), 1, mem(b""), 1, 0))
print("attempted", flush=True)
sys.stdin.readline()
`
		o := runHeld(t, Spec{Argv: []string{"python3", "-c", py, strconv.Itoa(v.pid)}}, func() { checkUntraced(t, v) })
		if o.err != nil {
			t.Fatal(o.err)
		}
		for _, want := range []string{"attach EPERM", "seize EPERM", "process_vm_readv EPERM"} {
			if !strings.Contains(o.stdout, want) {
				t.Errorf("want %q in:\n%s", want, o.stdout)
			}
		}
		v.checkIntact(t)
	})
	t.Run("strace", func(t *testing.T) {
		requireInSandbox(t, "strace")
		v := startVictim(t, 0)
		script := `: > /tmp/strace.err; strace -p "$1" -o /dev/null 2>/tmp/strace.err & s=$!
while kill -0 $s 2>/dev/null && ! grep -q attached /tmp/strace.err; do sleep 0.05; done
cat /tmp/strace.err >&2; echo attempted; read x; kill $s 2>/dev/null; wait`
		o := runHeld(t, Spec{Argv: append(sh(script), "sh", strconv.Itoa(v.pid))}, func() { checkUntraced(t, v) })
		if o.err != nil {
			t.Fatal(o.err)
		}
		if strings.Contains(o.stderr, "attached") {
			t.Errorf("strace attached:\n%s", o.stderr)
		}
		v.checkIntact(t)
	})
}

// envNetns names the test network namespace in the reruns made by
// inTestNetns.
const envNetns = "WARDEN_SANDBOX_TEST_NETNS"

// netnsAddrs are the addresses of the test network namespace besides
// loopback (documentation ranges, never routed).
var netnsAddrs = []string{"198.51.100.1", "203.0.113.1", "2001:db8::1"}

// inTestNetns reports whether the calling test runs inside its test
// network namespace, where it makes its checks. Otherwise it creates one
// (as root), reruns the calling test in it as root and as uid 65534 —
// with resolv, when not empty, as /etc/resolv.conf, bound in a private
// mount namespace — fails if a rerun fails, and returns false.
func inTestNetns(t *testing.T, resolv string) bool {
	t.Helper()
	if name := os.Getenv(envNetns); name != "" {
		ifaddrs, err := net.InterfaceAddrs()
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range ifaddrs {
			if strings.HasPrefix(a.String(), netnsAddrs[0]+"/") {
				return true
			}
		}
		t.Fatalf("%s=%s but %s is not a local address: %v", envNetns, name, netnsAddrs[0], ifaddrs)
	}
	if uid := os.Getuid(); uid != 0 {
		t.Skipf("requires root to create a network namespace: running as uid %d (as root this test also runs as uid 65534 inside one)", uid)
	}
	ipCmd := sandboxtest.RequireCommand(t, "ip")
	unshare := sandboxtest.RequireCommand(t, "unshare")
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	sandboxtest.RequireCommand(t, "mount")
	name := sandboxtest.NetNS(t, "warden-test", netnsAddrs[0]+"/24", netnsAddrs[1]+"/24", netnsAddrs[2]+"/64")
	// uid 65534 may listen on port 53 in this namespace (the setting is
	// per namespace).
	if out, err := exec.Command(ipCmd, "netns", "exec", name, "sh", "-c", "echo 0 > /proc/sys/net/ipv4/ip_unprivileged_port_start").CombinedOutput(); err != nil {
		t.Fatalf("ip netns exec: %v: %s", err, out)
	}
	hostResolv, _ := os.ReadFile("/etc/resolv.conf")
	dir := varTempDir(t)
	var prefix []string // runs the rest in the namespace
	prefix = append(prefix, ipCmd, "netns", "exec", name)
	if resolv != "" {
		f := filepath.Join(dir, "resolv.conf")
		if err := os.WriteFile(f, []byte(resolv), 0o644); err != nil {
			t.Fatal(err)
		}
		prefix = append(prefix, unshare, "--mount", "--propagation", "private", "--",
			"sh", "-c", `mount --bind "$0" /etc/resolv.conf && exec "$@"`, f)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A copy uid 65534 can run (the test binary's directory is private).
	bin := filepath.Join(dir, "sandbox.test")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	testArgs := []string{"-test.run=^" + regexp.QuoteMeta(t.Name()) + "$", "-test.v", "-test.count=1"}
	for _, as := range []string{"root", "uid 65534"} {
		t.Run(as, func(t *testing.T) {
			argv := append([]string(nil), prefix...)
			env := append(os.Environ(), envNetns+"="+name)
			if as == "root" {
				argv = append(argv, self)
			} else {
				argv = append(argv, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", bin)
				env = append(env, envNested+"=1", "HOME="+dir, "TMPDIR=/tmp")
			}
			cmd := exec.Command(argv[0], append(argv[1:], testArgs...)...)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			t.Logf("in network namespace %s as %s:\n%s", name, as, out)
			top := t.Name()[:strings.Index(t.Name(), "/")]
			switch {
			case err != nil:
				t.Errorf("failed in the test network namespace as %s: %v", as, err)
			case bytes.Contains(out, []byte("--- SKIP: "+top+" (")):
				t.Skipf("skipped in the test network namespace as %s (see the log)", as)
			case !bytes.Contains(out, []byte("--- PASS: "+top+" (")):
				t.Errorf("the rerun as %s did not run %s", as, top)
			}
		})
	}
	if now, _ := os.ReadFile("/etc/resolv.conf"); !bytes.Equal(now, hostResolv) {
		t.Errorf("the host's /etc/resolv.conf changed: %q, was %q", now, hostResolv)
	}
	return false
}

// pyNetScript connects over TCP and sends a UDP datagram to each
// ADDR TCPPORT UDPPORT triple given as arguments.
const pyNetScript = `import errno, socket, sys
a = sys.argv[1:]
for addr, tport, uport in zip(a[0::3], a[1::3], a[2::3]):
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    try:
        socket.create_connection((addr, int(tport)), 2).close()
        print("tcp", addr, "connected")
    except OSError as e:
        print("tcp", addr, errno.errorcode.get(e.errno, e))
    try:
        socket.socket(fam, socket.SOCK_DGRAM).sendto(b"x", (addr, int(uport)))
        print("udp", addr, "sent")
    except OSError as e:
        print("udp", addr, errno.errorcode.get(e.errno, e))
`

// TestAttackHostAddresses connects from the sandbox to listeners on the
// host's loopback and on its other addresses, in a network namespace of
// the test's own that stands in for the host (see inTestNetns), over TCP
// and UDP: nothing arrives.
func TestAttackHostAddresses(t *testing.T) {
	if !inTestNetns(t, "") {
		return
	}
	requireInSandbox(t, "python3")
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is in the sandbox's PATH but not on the host's: %v", err)
	}
	var ls []counter
	var args []string
	for _, a := range append([]string{"127.0.0.1", "::1"}, netnsAddrs...) {
		tl := listenStream(t, "tcp", net.JoinHostPort(a, "0"), nil)
		ul := listenPacket(t, "udp", net.JoinHostPort(a, "0"), nil)
		ls = append(ls, tl, ul)
		args = append(args, a, tl.port(), ul.port())
	}
	if out, err := runOutside(t, "/", nil, append([]string{py, "-c", pyNetScript}, args...)...); err != nil {
		t.Fatalf("control: python3 outside the sandbox: %v\n%s", err, out)
	}
	wantArrivals(t, "TCP and UDP", ls...)

	t.Run("python3", func(t *testing.T) {
		o := run(t, Spec{Argv: append([]string{"python3", "-c", pyNetScript}, args...)})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("python3: %v, status %d", o.err, o.res.Status())
		}
		wantNoArrivals(t, "python3", ls...)
		if strings.Contains(o.stdout, "connected") {
			t.Errorf("a TCP connection was made:\n%s", o.stdout)
		}
	})
	t.Run("bash", func(t *testing.T) {
		requireInSandbox(t, "bash")
		var script strings.Builder
		for i := 0; i < len(args); i += 3 {
			fmt.Fprintf(&script, "echo x > /dev/tcp/%[1]s/%[2]s && echo connected %[1]s; echo x > /dev/udp/%[1]s/%[3]s\n", args[i], args[i+1], args[i+2])
		}
		o := run(t, Spec{Argv: []string{"bash", "-c", script.String()}})
		if o.err != nil {
			t.Fatal(o.err)
		}
		wantNoArrivals(t, "bash /dev/tcp and /dev/udp", ls...)
		if strings.Contains(o.stdout, "connected") {
			t.Errorf("a TCP connection was made:\n%s", o.stdout)
		}
	})
	t.Run("addresses", func(t *testing.T) {
		requireInSandbox(t, "ip")
		o := run(t, Spec{Argv: []string{"ip", "-o", "addr"}})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("ip addr: %v, status %d", o.err, o.res.Status())
		}
		for _, a := range netnsAddrs {
			if strings.Contains(o.stdout, a) {
				t.Errorf("the sandbox has the host's address %s:\n%s", a, o.stdout)
			}
		}
	})
}

// dnsResolvConf is the resolv.conf TestAttackDNS binds over the real one:
// a resolver on the namespace's loopback and one on its other address,
// each answered by the test.
const dnsResolvConf = "nameserver 127.0.0.1\nnameserver 198.51.100.1\noptions timeout:1 attempts:1\n"

// dnsNXDomain answers a DNS query with NXDOMAIN, the question echoed.
func dnsNXDomain(q []byte) []byte {
	if len(q) < 12 {
		return nil
	}
	i := 12
	for i < len(q) && q[i] != 0 {
		i += int(q[i]) + 1
	}
	i += 5 // the root label, type and class
	if i > len(q) {
		return nil
	}
	r := append([]byte(nil), q[:i]...)
	r[2] = 0x80 | q[2]&0x79 // QR, the opcode and RD copied
	r[3] = 0x80 | 3         // RA, NXDOMAIN
	r[4], r[5] = 0, 1
	clear(r[6:12])
	return r
}

// serveDNSTCP answers DNS over TCP with NXDOMAIN.
func serveDNSTCP(c net.Conn) {
	defer c.Close()
	for {
		var n [2]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return
		}
		q := make([]byte, int(n[0])<<8|int(n[1]))
		if _, err := io.ReadFull(c, q); err != nil {
			return
		}
		r := dnsNXDomain(q)
		if r == nil {
			return
		}
		c.Write(append([]byte{byte(len(r) >> 8), byte(len(r))}, r...))
	}
}

// TestAttackDNS resolves a name from the sandbox while the resolvers of
// /etc/resolv.conf are listeners of the test (see inTestNetns): the
// lookups fail and no query reaches them. Control: the same lookups
// outside the sandbox do reach them.
func TestAttackDNS(t *testing.T) {
	if !inTestNetns(t, dnsResolvConf) {
		return
	}
	if b, _ := os.ReadFile("/etc/resolv.conf"); string(b) != dnsResolvConf {
		t.Fatalf("/etc/resolv.conf is not the test's in the rerun: %q", b)
	}
	var ls []counter
	for _, a := range []string{"127.0.0.1", netnsAddrs[0]} {
		ls = append(ls,
			listenPacket(t, "udp", net.JoinHostPort(a, "53"), dnsNXDomain),
			listenStream(t, "tcp", net.JoinHostPort(a, "53"), serveDNSTCP))
	}
	// Queries go to the first resolver that answers: count them all
	// together.
	total := func(t *testing.T) int {
		n := 0
		for _, l := range ls {
			n += l.arrived(t)
		}
		return n
	}
	const pyResolve = `import socket
try:
    print(socket.getaddrinfo("example.com", 80))
except socket.gaierror as e:
    print("gaierror", e)
`
	tools := []struct {
		name string
		argv []string
	}{
		{"getent", []string{"getent", "hosts", "example.com"}},
		{"python3", []string{"python3", "-c", pyResolve}},
		{"nslookup", []string{"nslookup", "example.com"}},
		{"dig", []string{"dig", "+tries=1", "+time=1", "example.com"}},
		{"dig +tcp", []string{"dig", "+tcp", "+tries=1", "+time=1", "example.com"}},
	}
	for _, tt := range tools {
		t.Run(tt.name, func(t *testing.T) {
			requireInSandbox(t, tt.argv[0])
			p, err := exec.LookPath(tt.argv[0])
			if err != nil {
				t.Fatalf("%s is in the sandbox's PATH but not on the host's: %v", tt.argv[0], err)
			}
			runOutside(t, "/", nil, append([]string{p}, tt.argv[1:]...)...)
			if total(t) == 0 {
				t.Fatalf("control: %s outside the sandbox sent no query to the test's resolvers; the test proves nothing", tt.name)
			}
			o := run(t, Spec{Argv: tt.argv})
			if o.err != nil {
				t.Fatal(o.err)
			}
			wantNoArrivals(t, tt.name, ls...)
			if o.res.Status() == 0 && !strings.Contains(o.stdout, "gaierror") {
				t.Errorf("%s resolved example.com in the sandbox:\n%s", tt.name, o.stdout)
			}
		})
	}
	t.Run("raw", func(t *testing.T) {
		// A tool that ignores the resolver library sends straight to
		// the servers of resolv.conf.
		requireInSandbox(t, "python3")
		o := run(t, Spec{Argv: []string{"python3", "-c", `import errno, socket
print(open("/etc/resolv.conf").read())
for addr in ("127.0.0.1", "198.51.100.1"):
    try:
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"\0" * 12, (addr, 53))
        print("udp", addr, "sent")
    except OSError as e:
        print("udp", addr, errno.errorcode[e.errno])
    try:
        socket.create_connection((addr, 53), 2).close()
        print("tcp", addr, "connected")
    except OSError as e:
        print("tcp", addr, errno.errorcode[e.errno])
`}})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("python3: %v, status %d", o.err, o.res.Status())
		}
		wantNoArrivals(t, "raw DNS", ls...)
		if !strings.Contains(o.stdout, "nameserver 198.51.100.1") {
			t.Errorf("the sandbox does not see the test's resolv.conf; the test proves less:\n%s", o.stdout)
		}
		if strings.Contains(o.stdout, "connected") {
			t.Errorf("a TCP connection to port 53 was made:\n%s", o.stdout)
		}
	})
}

// testWheel builds a pure-Python wheel of warden-nonexistent-pkg 0.1.
func testWheel(t *testing.T) (name string, data []byte) {
	t.Helper()
	const di = "warden_nonexistent_pkg-0.1.dist-info/"
	files := []struct{ name, body string }{
		{"warden_nonexistent_pkg/__init__.py", "MARK = 'installed by warden-test'\n"},
		{di + "METADATA", "Metadata-Version: 2.1\nName: warden-nonexistent-pkg\nVersion: 0.1\n"},
		{di + "WHEEL", "Wheel-Version: 1.0\nGenerator: warden-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var record strings.Builder
	for _, f := range files {
		w, err := zw.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, f.body)
		sum := sha256.Sum256([]byte(f.body))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", f.name, base64.RawURLEncoding.EncodeToString(sum[:]), len(f.body))
	}
	record.WriteString(di + "RECORD,,\n")
	w, err := zw.Create(di + "RECORD")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, record.String())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return "warden_nonexistent_pkg-0.1-py3-none-any.whl", buf.Bytes()
}

// connQueue is a net.Listener fed with connections by a streamListener.
type connQueue struct {
	ch   chan net.Conn
	addr net.Addr
	once sync.Once
	done chan struct{}
}

func (q *connQueue) Accept() (net.Conn, error) {
	select {
	case c := <-q.ch:
		return c, nil
	case <-q.done:
		return nil, net.ErrClosed
	}
}

func (q *connQueue) Close() error   { q.once.Do(func() { close(q.done) }); return nil }
func (q *connQueue) Addr() net.Addr { return q.addr }

// sitePackages lists the directories where each python3 the sandbox may
// run installs packages for a user whose home is home, and the python3
// found first on the host's PATH.
func sitePackages(t *testing.T, home string) (dirs []string, hostPython string) {
	t.Helper()
	seen := map[string]bool{}
	var pythons []string
	for _, d := range append(append([]string(nil), sandboxPath...), filepath.SplitList(os.Getenv("PATH"))...) {
		p := filepath.Join(d, "python3")
		if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 && !seen[p] {
			seen[p] = true
			pythons = append(pythons, p)
		}
	}
	hostPython, _ = exec.LookPath("python3")
	for _, py := range pythons {
		cmd := exec.Command(py, "-c", "import json, site, sys; print(json.dumps(site.getsitepackages() + [site.getusersitepackages(), sys.prefix]))")
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.Output()
		var ds []string
		if err != nil || json.Unmarshal(out, &ds) != nil {
			t.Logf("%s: cannot list its site directories: %v", py, err)
			continue
		}
		for _, d := range ds {
			if !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
		}
	}
	return append(dirs, home), hostPython
}

// listNames lists the names in each directory (nothing for one missing).
func listNames(dirs []string) map[string]bool {
	m := map[string]bool{}
	for _, d := range dirs {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			m[filepath.Join(d, e.Name())] = true
		}
	}
	return m
}

// TestAttackPipInstall installs a package from an index the test serves
// on the host's loopback: from the sandbox no request arrives and nothing
// appears in the host's site-packages or in ~/.local. Control: pip
// outside the sandbox installs the package from that index.
func TestAttackPipInstall(t *testing.T) {
	requireInSandbox(t, "python3")
	wheel, data := testWheel(t)
	var requests sync.Map
	mux := http.NewServeMux()
	mux.HandleFunc("/simple/warden-nonexistent-pkg/", func(w http.ResponseWriter, r *http.Request) {
		requests.Store(r.URL.Path+" "+r.RemoteAddr, true)
		sum := sha256.Sum256(data)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!DOCTYPE html><html><body><a href=\"/files/%s#sha256=%x\">%s</a></body></html>\n", wheel, sum, wheel)
	})
	mux.HandleFunc("/files/"+wheel, func(w http.ResponseWriter, r *http.Request) {
		requests.Store(r.URL.Path+" "+r.RemoteAddr, true)
		w.Write(data)
	})
	q := &connQueue{ch: make(chan net.Conn), done: make(chan struct{})}
	index := listenStream(t, "tcp4", "127.0.0.1:0", func(c net.Conn) {
		select {
		case q.ch <- c:
		case <-q.done:
			c.Close()
		}
	})
	q.addr = index.ln.Addr()
	srv := &http.Server{Handler: mux}
	go srv.Serve(q)
	t.Cleanup(func() { srv.Close() })
	url := "http://" + index.ln.Addr().String() + "/simple/"
	// --break-system-packages: a distribution's python3 refuses to
	// install (PEP 668) before it asks the index otherwise.
	// -vv: pip says why it could not fetch the index.
	pipArgs := []string{"install", "-vv", "--disable-pip-version-check", "--no-cache-dir", "--break-system-packages",
		"--retries", "0", "--timeout", "5", "--index-url", url}

	home := varTempDir(t)
	dirs, hostPython := sitePackages(t, home)
	if hostPython == "" {
		t.Fatal("python3 is in the sandbox's PATH but not on the host's")
	}
	// Control: pip outside the sandbox gets the package from the index.
	target := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasSuffix(strings.ToLower(k), "_proxy") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(hostPython, append(append([]string{"-m", "pip"}, pipArgs...), "--isolated", "--target", target, "warden-nonexistent-pkg")...)
	cmd.Env = append(env, "HOME="+home)
	out, err := cmd.CombinedOutput()
	t.Logf("outside: pip install --target: %v\n%s", err, out)
	if _, serr := os.Stat(filepath.Join(target, "warden_nonexistent_pkg", "__init__.py")); err != nil || serr != nil {
		t.Fatalf("control: pip outside the sandbox did not install from the test's index (%v, %v); the test proves nothing", err, serr)
	}
	if index.arrived(t) == 0 {
		t.Fatal("control: the index counted no connection from pip outside the sandbox")
	}
	requests.Clear()

	before := listNames(dirs)
	pip := strings.Join(pipArgs, " ")
	script := fmt.Sprintf(`python3 -m pip %[1]s warden-nonexistent-pkg; echo "pip rc=$?"
python3 -m pip %[1]s --user warden-nonexistent-pkg; echo "pip --user rc=$?"
if command -v pip >/dev/null; then pip %[1]s --user warden-nonexistent-pkg; echo "pip command rc=$?"; fi
python3 -c 'import warden_nonexistent_pkg' && echo imported`, pip)
	o := run(t, Spec{Home: home, Argv: sh(script)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	wantNoArrivals(t, "pip install", index)
	requests.Range(func(k, _ any) bool {
		t.Errorf("the index served a request from the sandbox: %s", k)
		return true
	})
	after := listNames(dirs)
	for p := range after {
		if !before[p] {
			t.Errorf("%s appeared on the host during the run", p)
		}
	}
	for _, l := range strings.Split(o.stdout, "\n") {
		if strings.HasSuffix(l, "rc=0") || l == "imported" {
			t.Errorf("pip reported success in the sandbox: %s", l)
		}
	}
	// pip did try the index: the attempt is real.
	if !regexp.MustCompile(`Connection refused|Failed to establish a new connection|Network is unreachable`).MatchString(o.stdout + o.stderr) {
		t.Errorf("pip in the sandbox failed before it tried to reach the index; the attempt proves nothing")
	}
}
