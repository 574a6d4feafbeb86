// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package sandboxtest holds helpers for tests of package sandbox: checks
// that skip a test with what is missing and what was found.
package sandboxtest

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// RequireRoot skips the test unless it runs as uid 0.
func RequireRoot(t testing.TB) {
	t.Helper()
	if uid := os.Getuid(); uid != 0 {
		t.Skipf("requires root: running as uid %d", uid)
	}
}

// RequireUserNS skips the test unless this process may create a user
// namespace (with mount, pid, net, ipc and uts namespaces owned by it).
func RequireUserNS(t testing.TB) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("requires user namespaces: not available on %s", runtime.GOOS)
	}
	if _, err := os.Stat("/proc/self/ns/user"); err != nil {
		t.Skipf("requires user namespaces: /proc/self/ns/user missing (%v)", err)
	}
	if b, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil && strings.TrimSpace(string(b)) == "0" {
		t.Skip("requires user namespaces: user.max_user_namespaces is 0")
	}
	cmd := exec.Command("/bin/true")
	cmd.SysProcAttr = newNSAttr()
	if err := cmd.Run(); err != nil {
		t.Skipf("requires user namespaces: creating one as uid %d failed: %v", os.Getuid(), err)
	}
}

// RequireCommand skips the test unless name is on PATH.
func RequireCommand(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("requires %s on PATH: %v", name, err)
	}
	return p
}

func newNSAttr() *syscall.SysProcAttr {
	return userNSAttr()
}

// RequireLandlockABI skips the test unless the kernel offers Landlock ABI
// version min or newer.
func RequireLandlockABI(t testing.TB, min int) {
	t.Helper()
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		t.Skipf("requires Landlock ABI %d: not available (%v)", min, err)
	}
	if abi < min {
		t.Skipf("requires Landlock ABI %d: the kernel offers %d", min, abi)
	}
}
