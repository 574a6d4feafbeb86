// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package sandboxtest holds helpers for tests of package sandbox: checks
// that skip a test with what is missing and what was found.
package sandboxtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
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

// EnvWardenBinary names a warden binary [BuildWarden] made earlier.
const EnvWardenBinary = "WARDEN_TEST_WARDEN_BINARY"

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
)

// BuildWarden builds the warden command once per test process, as a user
// would (a static binary, without the race detector whatever the test
// binary has), in a directory every user can read, and returns its path.
// Tests use it where the sandbox init must be the real binary: the race
// detector's runtime cannot live under the memory rlimits a run sets.
//
// A test process rerun as another user inherits the binary through
// [EnvWardenBinary] rather than building it again without the rights to.
func BuildWarden(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(EnvWardenBinary); p != "" {
		return p
	}
	goCmd := RequireCommand(t, "go")
	buildOnce.Do(func() {
		// One directory per test process, named by its pid: those of
		// processes that are gone are removed here, since a test binary
		// has no hook at its exit.
		sweepBuilds()
		dir := fmt.Sprintf("/var/tmp/warden-build-%d", os.Getpid())
		os.RemoveAll(dir)
		if err := os.Mkdir(dir, 0o755); err != nil {
			buildErr = err
			return
		}
		os.Chmod(dir, 0o755)
		buildPath = filepath.Join(dir, "warden")
		cmd := exec.Command(goCmd, "build", "-o", buildPath, "warden.dev/warden/cmd/warden")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building warden: %v", buildErr)
	}
	return buildPath
}

// sweepBuilds removes the build directories of test processes that are
// gone.
func sweepBuilds() {
	dirs, _ := filepath.Glob("/var/tmp/warden-build-*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "warden-build-"))
		if err != nil {
			// An older, unnamed one: anyone's, and stale.
			os.RemoveAll(d)
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(d)
		}
	}
}
