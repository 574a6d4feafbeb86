// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/seccomp"
)

// envChild makes the test binary act as the filtered process.
const envChild = "WARDEN_SECCOMP_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(envChild) {
	case "":
		os.Exit(m.Run())
	case "bench":
		os.Exit(timedInstall())
	}
	os.Exit(filteredChild())
}

// timedInstall installs the filter as the sandbox does, with a listener
// and the watched calls, and prints how long Install took, in
// nanoseconds.
func timedInstall() int {
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fmt.Println("no_new_privs:", err)
		return 1
	}
	opts := seccomp.Options{Notify: true, Watch: true}
	// A warm sandbox init builds the program once ahead of its caller,
	// so that Install runs warm code.
	seccomp.Program(runtime.GOARCH, opts)
	start := time.Now()
	_, err := seccomp.Install(opts)
	d := time.Since(start)
	if err != nil {
		fmt.Println("install:", err)
		return 1
	}
	fmt.Println(d.Nanoseconds())
	return 0
}

// filteredChild installs the filter in this (multi-threaded) process and
// then tries the denied calls for real, printing one line per check.
func filteredChild() int {
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fmt.Println("FAIL no_new_privs:", err)
		return 1
	}
	watch := os.Getenv(envChild) == "watch"
	notify := os.Getenv(envChild) == "notify" || watch
	// A listener on loopback, before the filter, for the watched
	// connects.
	ln, lnErr := net.Listen("tcp", "127.0.0.1:0")
	if lnErr == nil {
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
	}
	listener, err := seccomp.Install(seccomp.Options{Notify: notify, Watch: watch})
	if err != nil {
		fmt.Println("FAIL install:", err)
		return 1
	}
	events := make(chan seccomp.Event, 64)
	watched := make(chan seccomp.Event, 64)
	committed := make(chan seccomp.Event, 64)
	if notify {
		go seccomp.Serve(listener, func(e seccomp.Event) { events <- e }, func(e seccomp.Event) func() {
			watched <- e
			return func() { committed <- e }
		})
	}
	failed := false
	check := func(name string, got, want error) {
		if !errors.Is(got, want) {
			failed = true
			fmt.Printf("FAIL %s: %v, want %v\n", name, got, want)
			return
		}
		fmt.Printf("ok %s: %v\n", name, got)
	}
	sys := func(nr uintptr, a ...uintptr) error {
		var args [6]uintptr
		copy(args[:], a)
		_, _, e := unix.Syscall6(nr, args[0], args[1], args[2], args[3], args[4], args[5])
		if e == 0 {
			return nil
		}
		return e
	}
	check("ptrace(TRACEME)", sys(unix.SYS_PTRACE, unix.PTRACE_TRACEME), unix.EPERM)
	check("unshare(NEWUSER)", sys(unix.SYS_UNSHARE, unix.CLONE_NEWUSER), unix.EPERM)
	// Without the filter clone3 would fail on the NULL pointer (EFAULT).
	check("clone3", sys(unix.SYS_CLONE3, 0, 0), unix.ENOSYS)
	check("socket(AF_PACKET)", sys(unix.SYS_SOCKET, unix.AF_PACKET, unix.SOCK_RAW, 0), unix.EPERM)
	check("socket(AF_INET, SOCK_RAW)", sys(unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.IPPROTO_ICMP), unix.EPERM)
	check("keyctl", sys(unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, uintptr(0xfffffffd) /* user keyring */, 0), unix.EPERM)
	check("io_uring_setup", sys(unix.SYS_IO_URING_SETUP, 1, 0), unix.EPERM)
	check("mount", sys(unix.SYS_MOUNT, 0, 0, 0), unix.EPERM)
	check("personality(ADDR_NO_RANDOMIZE)", sys(unix.SYS_PERSONALITY, 0x0040000 /* ADDR_NO_RANDOMIZE */), unix.EPERM)
	check("socket(AF_UNIX)", sys(unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0), unix.EPERM)
	check("socket(AF_VSOCK)", sys(unix.SYS_SOCKET, unix.AF_VSOCK, unix.SOCK_STREAM, 0), unix.EPERM)
	var pair [2]int32
	check("socketpair(AF_UNIX, SOCK_DGRAM)", sys(unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_DGRAM, 0, uintptr(unsafe.Pointer(&pair))), unix.EPERM)
	check("socketpair(AF_UNIX, SOCK_STREAM)", sys(unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0, uintptr(unsafe.Pointer(&pair))), nil)
	check("socket(AF_INET6, SOCK_STREAM)", sys(unix.SYS_SOCKET, unix.AF_INET6, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0), nil)
	check("personality(query)", sys(unix.SYS_PERSONALITY, 0xffffffff), nil)
	check("getpid", sys(unix.SYS_GETPID), nil)
	// Starting a process goes through clone; the child inherits the
	// filter.
	c := exec.Command("/proc/self/exe", "-test.run=^$")
	c.Env = []string{} // not envChild: run no test at all
	check("fork and exec", c.Run(), nil)
	// TSYNC: every thread of this process carries the filter.
	tasks, _ := filepath.Glob("/proc/self/task/*/status")
	n := 0
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if !strings.Contains(string(b), "Seccomp:\t2\n") {
			failed = true
			fmt.Printf("FAIL %s without a filter\n", p)
		}
		n++
	}
	fmt.Printf("threads checked: %d\n", n)
	if watch {
		// A connect is handed to watch with its descriptor, then
		// runs; a send that connects (MSG_FASTOPEN) is handed over
		// too, a plain send is not.
		fd, _ := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		port := ln.Addr().(*net.TCPAddr).Port
		check("connect, watched", unix.Connect(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}), nil)
		fd2, _ := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		unix.Sendto(fd2, []byte("x"), unix.MSG_FASTOPEN, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
		unix.Sendto(fd, []byte("y"), 0, nil)
		got := map[string][]int{}
		for len(watched) > 0 {
			e := <-watched
			got[e.Syscall] = append(got[e.Syscall], int(e.Args[0]))
		}
		if len(got["connect"]) != 1 || got["connect"][0] != fd || len(got["sendto"]) != 1 || got["sendto"][0] != fd2 {
			failed = true
			fmt.Printf("FAIL watched %v, want connect of %d and a fast-open sendto of %d\n", got, fd, fd2)
		}
		if len(committed) != 2 {
			failed = true
			fmt.Printf("FAIL %d watched calls committed, want 2\n", len(committed))
		}
		fmt.Printf("watched: %v\n", got)
	}
	if notify {
		// Every EPERM above went through the listener; ENOSYS (clone3)
		// and allowed calls did not.
		seen := map[string]int{}
		for len(events) > 0 {
			e := <-events
			seen[e.Syscall]++
		}
		for _, name := range []string{"ptrace", "unshare", "socket", "keyctl", "io_uring_setup", "mount", "personality", "socketpair"} {
			if seen[name] == 0 {
				failed = true
				fmt.Printf("FAIL the listener did not see %s (saw %v)\n", name, seen)
			}
		}
		if seen["clone3"] != 0 || seen["getpid"] != 0 {
			failed = true
			fmt.Printf("FAIL the listener saw calls the filter does not refuse with EPERM: %v\n", seen)
		}
		fmt.Printf("listener saw: %v\n", seen)
	}
	if failed || n < 2 {
		return 1
	}
	return 0
}

func TestInstallFiltersEveryThread(t *testing.T) {
	for _, mode := range []string{"plain", "notify", "watch"} {
		t.Run(mode, func(t *testing.T) { testInstall(t, mode) })
	}
}

// requireSeccomp skips unless the kernel has seccomp filters, and user
// notification too when notify is set.
func requireSeccomp(tb testing.TB, notify bool) {
	tb.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil || !strings.Contains(string(status), "Seccomp:") {
		tb.Skipf("requires seccomp: no Seccomp field in /proc/self/status (%v)", err)
	}
	if notify {
		avail, _ := os.ReadFile("/proc/sys/kernel/seccomp/actions_avail")
		if !strings.Contains(string(avail), "user_notif") {
			tb.Skipf("requires seccomp user notification: actions_avail is %q", strings.TrimSpace(string(avail)))
		}
	}
}

func testInstall(t *testing.T, mode string) {
	requireSeccomp(t, mode != "plain")
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = append(os.Environ(), envChild+"="+mode)
	out, err := cmd.CombinedOutput()
	t.Logf("filtered process:\n%s", out)
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled() {
			t.Fatalf("the filtered process was killed: %v", err)
		}
		t.Fatalf("the filter did not hold: %v", err)
	}
}

// BenchmarkInstall measures Install in a new process each time: a filter
// cannot be removed, and every filter a process holds adds to the cost of
// the next. Most of Install's time is the kernel's: it compiles the
// program and, to fill its action cache, runs it once for every syscall
// number of the architecture. install-ns/op is Install's time in the
// child; ns/op is dominated by starting the child.
func BenchmarkInstall(b *testing.B) {
	requireSeccomp(b, true)
	var total time.Duration
	for b.Loop() {
		cmd := exec.Command("/proc/self/exe")
		cmd.Env = append(os.Environ(), envChild+"=bench")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		ns, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			b.Fatalf("the child printed %q", out)
		}
		total += time.Duration(ns)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "install-ns/op")
}
