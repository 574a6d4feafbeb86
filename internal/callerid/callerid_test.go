// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build linux

package callerid_test

import (
	"bufio"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/callerid"
)

// world is a network namespace of the test's own, standing for a
// sandbox's: a listener in it standing for the proxy's, the sock_diag
// socket made in it, and a file that enters it (for nsenter).
type world struct {
	ln     *net.TCPListener
	diag   *os.File
	netns  *os.File
	finder *callerid.Finder
}

// newWorld makes the namespace on a thread of its own, which goes back
// to the test's namespace once the sockets are made (they stay in
// theirs). It needs root: other users skip.
func newWorld(t testing.TB) *world {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to make a network namespace (uid " + strconv.Itoa(os.Getuid()) + ")")
	}
	w := &world{}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		errc <- func() error {
			orig, err := os.Open("/proc/thread-self/ns/net")
			if err != nil {
				return err
			}
			defer orig.Close()
			if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
				return fmt.Errorf("unshare: %w", err)
			}
			defer unix.Setns(int(orig.Fd()), unix.CLONE_NEWNET)
			if err := loUp(); err != nil {
				return err
			}
			if w.netns, err = os.Open("/proc/thread-self/ns/net"); err != nil {
				return err
			}
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return err
			}
			w.ln = l.(*net.TCPListener)
			w.diag, err = callerid.NewDiag()
			return err
		}()
	}()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	var err error
	if w.finder, err = callerid.New(w.diag, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		w.ln.Close()
		w.netns.Close()
		w.finder.Close()
	})
	return w
}

// loUp brings up the loopback of the thread's network namespace.
func loUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var req [unix.IFNAMSIZ + 24]byte
	copy(req[:], "lo")
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&req[0]))); e != 0 {
		return e
	}
	*(*uint16)(unsafe.Pointer(&req[unix.IFNAMSIZ])) |= unix.IFF_UP
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&req[0]))); e != 0 {
		return e
	}
	return nil
}

// start runs argv in the namespace (through nsenter, which execs it: its
// parent is the test process, the stand-in for the sandbox's init).
func (w *world) start(t testing.TB, argv ...string) *exec.Cmd {
	t.Helper()
	nsenter, err := exec.LookPath("nsenter")
	if err != nil {
		t.Fatalf("nsenter (util-linux) is needed: %v", err)
	}
	cmd := exec.Command(nsenter, append([]string{"--net=/proc/self/fd/3", "--"}, argv...)...)
	cmd.ExtraFiles = []*os.File{w.netns}
	cmd.Stderr = os.Stderr
	return cmd
}

// accept takes the next connection and finds its caller.
func (w *world) accept(t testing.TB) (callerid.Caller, error) {
	t.Helper()
	w.ln.SetDeadline(time.Now().Add(time.Minute))
	c, err := w.ln.AcceptTCP()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return w.finder.Find(c.RemoteAddr().(*net.TCPAddr).AddrPort(), c.LocalAddr().(*net.TCPAddr).AddrPort())
}

// python is Debian's python3 (test.sh installs it), a link to a
// versioned binary: whatever else PATH holds (a version manager's shim
// script) would be a script, which the kernel names as its interpreter.
const python = "/usr/bin/python3"

func realPath(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is needed: %v", name, err)
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFind connects from real programs in the namespace and checks
// that each connection is put to the program that made it, its
// executable as the kernel resolved it (python3 is a link to a versioned
// binary), and its ancestors up to the init.
func TestFind(t *testing.T) {
	w := newWorld(t)
	port := strconv.Itoa(w.ln.Addr().(*net.TCPAddr).Port)
	url := "http://127.0.0.1:" + port + "/"
	pyConnect := "import socket,time; s=socket.create_connection(('127.0.0.1'," + port + ")); time.sleep(5)"
	tests := []struct {
		name      string
		argv      []string
		exe       string
		ancestors []string
	}{
		{"curl", []string{"curl", "-s", "-m", "5", url}, realPath(t, "curl"), nil},
		{"python3", []string{python, "-c", pyConnect}, realPath(t, python), nil},
		{"curl under sh", []string{"sh", "-c", "curl -s -m 5 " + url + "; :"}, realPath(t, "curl"), []string{realPath(t, "sh")}},
		{"curl under python3 under sh", []string{"sh", "-c", python + " -c 'import subprocess; subprocess.run([\"curl\", \"-s\", \"-m\", \"5\", \"" + url + "\"])'; :"},
			realPath(t, "curl"), []string{realPath(t, python), realPath(t, "sh")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := w.start(t, tt.argv...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				cmd.Process.Kill()
				cmd.Wait()
			}()
			c, err := w.accept(t)
			if err != nil {
				t.Fatal(err)
			}
			if c.PID <= 0 {
				t.Errorf("PID = %d", c.PID)
			}
			if len(c.AncestorPIDs) != len(c.Ancestors) {
				t.Errorf("%d ancestor pids for %d ancestors", len(c.AncestorPIDs), len(c.Ancestors))
			}
			got := callerid.Caller{Exe: c.Exe, Ancestors: c.Ancestors}
			want := callerid.Caller{Exe: tt.exe, Ancestors: tt.ancestors}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("caller (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFindGone: a connection whose client closed before the lookup is
// not put to anyone, and neither is a pair that was never connected.
func TestFindGone(t *testing.T) {
	w := newWorld(t)
	port := strconv.Itoa(w.ln.Addr().(*net.TCPAddr).Port)
	cmd := w.start(t, python, "-c", "import socket; socket.create_connection(('127.0.0.1',"+port+")).close()")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if c, err := w.accept(t); err == nil {
		t.Errorf("a connection whose client is gone was put to %+v", c)
	}
	bogus := netip.MustParseAddrPort("127.0.0.1:1")
	if c, err := w.finder.Find(bogus, bogus); err == nil {
		t.Errorf("a pair never connected was put to %+v", c)
	}
}

// BenchmarkFind1000 finds the caller of a new connection while the
// sandbox holds 1000 other sockets (the budget: 1 ms at the median). One
// python3 process holds them and opens one more on each line it reads;
// only Find is timed, and the median is reported. In "gap", it closes
// its oldest socket first (as a pool does), so that the new one takes
// that low number; in "random gap", any one.
func BenchmarkFind1000(b *testing.B) {
	b.Run("next", func(b *testing.B) { benchFind(b, "") })
	b.Run("gap", func(b *testing.B) { benchFind(b, "held.pop(0).close()") })
	// A connection closed anywhere: the new socket's number is
	// anywhere, and half the table is read on average (the bound).
	b.Run("random gap", func(b *testing.B) { benchFind(b, "held.pop(random.randrange(len(held))).close()") })
	// What the proxy asks when the sandbox reported who connected: the
	// socket's inode alone, whatever the descriptors.
	b.Run("inode", func(b *testing.B) { benchFind(b, "held.pop(random.randrange(len(held))).close()", inodeOnly) })
}

const inodeOnly = true

func benchFind(b *testing.B, before string, inode ...bool) {
	w := newWorld(b)
	port := strconv.Itoa(w.ln.Addr().(*net.TCPAddr).Port)
	script := `
import random, socket, sys
held = [socket.create_connection(('127.0.0.1', ` + port + `)) for _ in range(1000)]
print("ready", flush=True)
for line in sys.stdin:
    ` + before + `
    held.append(socket.create_connection(('127.0.0.1', ` + port + `)))
    print("ok", flush=True)
`
	cmd := w.start(b, python, "-c", script)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for range 1000 {
		c, err := w.ln.Accept()
		if err != nil {
			b.Fatal(err)
		}
		held = append(held, c)
	}
	r := bufio.NewReader(out)
	if l, _ := r.ReadString('\n'); strings.TrimSpace(l) != "ready" {
		b.Fatalf("the holder said %q", l)
	}
	var took []time.Duration
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		fmt.Fprintln(in, "one more")
		c, err := w.ln.AcceptTCP()
		if err != nil {
			b.Fatal(err)
		}
		held = append(held, c)
		r.ReadString('\n')
		client, server := c.RemoteAddr().(*net.TCPAddr).AddrPort(), c.LocalAddr().(*net.TCPAddr).AddrPort()
		b.StartTimer()
		start := time.Now()
		if len(inode) > 0 {
			if _, err := w.finder.Inode(client, server); err != nil {
				b.Fatal(err)
			}
		} else if _, err := w.finder.Find(client, server); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(took[len(took)*9/10].Microseconds()), "p90-µs")
}
