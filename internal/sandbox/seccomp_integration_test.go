// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Attack tests for the seccomp layer (package seccomp): each really makes
// the refused call from inside the sandbox and checks that the kernel
// answered EPERM (or that nothing it would create appeared). Assumptions
// as in attack_integration_test.go; unshare, strace, mount and python3
// (with ctypes) on the sandbox's PATH are used when present and the tests
// that need them skip naming what is missing. TestAttacksAsUnprivilegedUser
// reruns them as uid 65534.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sandboxPath is the PATH the command gets (cleanEnv).
var sandboxPath = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// requireInSandbox skips the test unless name is on the sandbox's PATH.
func requireInSandbox(t *testing.T, name string) {
	t.Helper()
	if err := lookInSandbox(name); err != nil {
		t.Skipf("requires %s: %v", name, err)
	}
}

func lookInSandbox(name string) error {
	for _, d := range sandboxPath {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode()&0o111 != 0 {
			return nil
		}
	}
	return fmt.Errorf("not found in the sandbox's PATH (%s)", strings.Join(sandboxPath, ":"))
}

// pyPrelude gives a python3 script sc(nr, args...) → "ok" or the errno
// name of a raw system call made through libc, and mem(bytes) → the
// address of a buffer.
const pyPrelude = `import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
def sc(*a):
    r = libc.syscall(*[ctypes.c_long(x) for x in a])
    return "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()]
keep = []
def mem(b):  # the address of a buffer holding b, kept alive
    keep.append(ctypes.create_string_buffer(b, 256))
    return ctypes.addressof(keep[-1])
`

func TestAttackSeccompActive(t *testing.T) {
	o := run(t, Spec{Argv: sh("grep -E '^(Seccomp|Seccomp_filters|NoNewPrivs):' /proc/self/status")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, want := range []string{"Seccomp:\t2", "Seccomp_filters:\t1", "NoNewPrivs:\t1"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("the command's status lacks %q:\n%s", want, o.stdout)
		}
	}
}

func TestAttackNestedUserNamespace(t *testing.T) {
	requireInSandbox(t, "unshare")
	for _, args := range []string{"-U", "-r", "-Ur", "-m", "-n", "-p -f"} {
		t.Run(args, func(t *testing.T) {
			// The namespace before and after: unshare would print a
			// second, different one if it got a namespace.
			o := run(t, Spec{Argv: sh(fmt.Sprintf(
				"readlink /proc/self/ns/user; unshare %s readlink /proc/self/ns/user /proc/self/ns/mnt; echo rc=$?", args))})
			if o.err != nil {
				t.Fatal(o.err)
			}
			if strings.Count(o.stdout, "user:[") != 1 || strings.Contains(o.stdout, "mnt:[") {
				t.Errorf("unshare %s ran its command:\n%s", args, o.stdout)
			}
			if strings.Contains(o.stdout, "rc=0") {
				t.Errorf("unshare %s succeeded", args)
			}
			if !strings.Contains(o.stderr, "Operation not permitted") {
				t.Errorf("unshare %s failed for another reason than EPERM: %s", args, o.stderr)
			}
		})
	}
}

// TestAttackCloneNamespace goes around unshare(2) with clone(2) and
// clone3(2), which a runtime could use to start a child in new namespaces.
func TestAttackCloneNamespace(t *testing.T) {
	requireInSandbox(t, "python3")
	const cloneNewUser, sigchld = 0x10000000, 17
	script := pyPrelude + fmt.Sprintf(`
r = libc.syscall(ctypes.c_long(56), ctypes.c_long(%d), ctypes.c_long(0), ctypes.c_long(0), ctypes.c_long(0), ctypes.c_long(0))
if r == 0:
    os._exit(0)  # the child, in a new user namespace
print("clone", "ok" if r > 0 else errno.errorcode[ctypes.get_errno()])
print("clone3", sc(435, 0, 0))
`, cloneNewUser|sigchld)
	o := run(t, Spec{Argv: []string{"python3", "-c", script}})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("python3: %v, status %d", o.err, o.res.Status())
	}
	for _, want := range []string{"clone EPERM", "clone3 ENOSYS"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("want %q in:\n%s", want, o.stdout)
		}
	}
}

func TestAttackPtrace(t *testing.T) {
	t.Run("strace", func(t *testing.T) {
		requireInSandbox(t, "strace")
		o := run(t, Spec{Argv: sh("strace -f true; echo rc=$?")})
		if o.err != nil {
			t.Fatal(o.err)
		}
		if strings.Contains(o.stdout, "rc=0") || strings.Contains(o.stderr, "execve(") {
			t.Errorf("strace traced a process:\n%s", o.stderr)
		}
		if !strings.Contains(o.stderr, "Operation not permitted") {
			t.Errorf("strace failed for another reason than EPERM: %s", o.stderr)
		}
	})
	t.Run("python", func(t *testing.T) {
		requireInSandbox(t, "python3")
		// TRACEME, and ATTACH to a sibling running as the same user.
		script := pyPrelude + `
import subprocess
print("traceme", sc(101, 0, 0, 0, 0))
p = subprocess.Popen(["sleep", "30"])
print("attach", sc(101, 16, p.pid, 0, 0))
st = open("/proc/%d/status" % p.pid).read()
print("tracer", [l for l in st.splitlines() if l.startswith("TracerPid:")][0].split()[1])
p.kill()
`
		o := run(t, Spec{Argv: []string{"python3", "-c", script}})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("python3: %v, status %d", o.err, o.res.Status())
		}
		for _, want := range []string{"traceme EPERM", "attach EPERM", "tracer 0"} {
			if !strings.Contains(o.stdout, want) {
				t.Errorf("want %q in:\n%s", want, o.stdout)
			}
		}
	})
}

// TestAttackMount tries mount(8), the classic way around it (a new user
// namespace first, where the caller holds CAP_SYS_ADMIN), and the raw
// calls of both mount APIs, then counts /tmp mounts from inside.
func TestAttackMount(t *testing.T) {
	requireInSandbox(t, "mount")
	requireInSandbox(t, "unshare")
	script := "mount -t tmpfs x /tmp; echo rc=$?; unshare -rm mount -t tmpfs x /tmp; echo rc=$?"
	var py []string
	if err := lookInSandbox("python3"); err == nil {
		script += "; python3 -c \"$0\""
		py = []string{pyPrelude + `
print("mount2", sc(165, mem(b"x"), mem(b"/tmp"), mem(b"tmpfs"), 0, 0))
print("fsopen", sc(430, mem(b"tmpfs"), 0))
print("umount2", sc(166, mem(b"/proc"), 2))
print("pivot_root", sc(155, mem(b"/tmp"), mem(b"/tmp")))
`}
	}
	script += "; grep -c ' /tmp ' /proc/self/mounts"
	o := run(t, Spec{Argv: append(sh(script), py...)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout, "rc=0") {
		t.Error("a mount succeeded")
	}
	// Only the sandbox's own /tmp.
	if f := strings.Fields(o.stdout); len(f) == 0 || f[len(f)-1] != "1" {
		t.Errorf("a second /tmp mount appeared:\n%s", o.stdout)
	}
	if !strings.Contains(o.stderr, "unshare failed: Operation not permitted") {
		t.Errorf("unshare -rm failed for another reason than EPERM: %s", o.stderr)
	}
	if py != nil {
		for _, want := range []string{"mount2 EPERM", "fsopen EPERM", "umount2 EPERM", "pivot_root EPERM"} {
			if !strings.Contains(o.stdout, want) {
				t.Errorf("want %q in:\n%s", want, o.stdout)
			}
		}
	}
}

// TestAttackKernelInterfaces makes each refused call through libc and
// expects EPERM from the filter.
func TestAttackKernelInterfaces(t *testing.T) {
	requireInSandbox(t, "python3")
	script := pyPrelude + `
import socket
# keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 1): the caller's keyring
print("keyctl", sc(250, 0, -4, 1))
print("add_key", sc(248, mem(b"user"), mem(b"warden"), 0, 0, -4))
# io_uring_setup(1, &params)
print("io_uring_setup", sc(425, 1, mem(b"")))
print("bpf", sc(321, 0, mem(b""), 128))
print("userfaultfd", sc(323, 0))
print("perf_event_open", sc(298, mem(b""), 0, -1, -1, 0))
print("personality", sc(135, 0x0040000))
print("syslog", sc(103, 3, mem(b""), 256))
for name, fam, typ in [("packet", 17, socket.SOCK_RAW), ("packet_dgram", 17, socket.SOCK_DGRAM),
                       ("raw4", socket.AF_INET, socket.SOCK_RAW), ("raw6", socket.AF_INET6, socket.SOCK_RAW),
                       ("sock_packet", socket.AF_INET, 10)]:
    try:
        socket.socket(fam, typ, 3 if fam == 17 else 1).close()
        print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode[e.errno])
socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
print("tcp ok")
`
	o := run(t, Spec{Argv: []string{"python3", "-c", script}})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("python3: %v, status %d", o.err, o.res.Status())
	}
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(o.stdout), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			got[f[0]] = f[1]
		}
	}
	for _, name := range []string{"keyctl", "add_key", "io_uring_setup", "bpf", "userfaultfd",
		"perf_event_open", "personality", "syslog", "packet", "packet_dgram", "raw4", "raw6", "sock_packet"} {
		if got[name] != "EPERM" {
			t.Errorf("%s: %q, want EPERM", name, got[name])
		}
	}
	if got["tcp"] != "ok" {
		t.Error("control: a TCP socket could not be made")
	}
}

// TestAttackToolchainUnderSeccomp is the negative control: ordinary tools,
// including ones that start processes and threads (and so meet the clone3
// fallback), work under the filter.
func TestAttackToolchainUnderSeccomp(t *testing.T) {
	project := t.TempDir()
	os.Chmod(project, 0o777)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(
		"ls / >/dev/null && cat /proc/self/status >/dev/null && echo hello > out && cat out && sh -c 'exit 7'; echo rc=$?")})
	if o.err != nil || !strings.Contains(o.stdout, "hello") || !strings.Contains(o.stdout, "rc=7") {
		t.Errorf("sh, ls, cat: %v\n%s%s", o.err, o.stdout, o.stderr)
	}
	t.Run("python3", func(t *testing.T) {
		requireInSandbox(t, "python3")
		o := run(t, Spec{Argv: []string{"python3", "-c", `
import subprocess, threading, os
print(1)
t = threading.Thread(target=lambda: print("thread")); t.start(); t.join()
print(subprocess.run(["sh", "-c", "echo child"], capture_output=True, text=True).stdout.strip())
print(os.posix_spawnp("true", ["true"], os.environ) > 0)
`}})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("python3: %v, status %d", o.err, o.res.Status())
		}
		for _, want := range []string{"1\n", "thread\n", "child\n", "True\n"} {
			if !strings.Contains(o.stdout, want) {
				t.Errorf("python3 output lacks %q:\n%s", want, o.stdout)
			}
		}
	})
	t.Run("go", func(t *testing.T) {
		goBin := "/usr/local/go/bin/go"
		if _, err := os.Stat(goBin); err != nil {
			t.Skipf("requires Go at %s: %v", goBin, err)
		}
		o := run(t, Spec{Argv: []string{goBin, "version"}, Env: []string{"GOCACHE=/tmp/go-cache"}})
		if o.err != nil || o.res.Status() != 0 || !strings.HasPrefix(o.stdout, "go version go") {
			t.Errorf("go version: %v, status %d\n%s%s", o.err, o.res.Status(), o.stdout, o.stderr)
		}
	})
}

// TestFailClosedSeccomp: a filter that cannot be installed stops the run.
func TestFailClosedSeccomp(t *testing.T) {
	checkFailClosed(t, "seccomp filter")
}
