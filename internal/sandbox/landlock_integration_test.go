// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Attack tests for the Landlock layer (landlock_linux.go). The mounts
// already refuse most writes with EROFS before Landlock is asked, so
// these tests look where the mounts do not: with the read-only remount of
// / turned off through a test hook, and on /proc, which the mounts leave
// writable. Assumptions as in attack_integration_test.go; awk and stat on
// the sandbox's PATH.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// TestAttackLandlockAloneBlocksWrites leaves / writable and shows that a
// write to a host file outside the project, which the command's uid owns
// inside the sandbox, still fails with EACCES and changes nothing.
func TestAttackLandlockAloneBlocksWrites(t *testing.T) {
	sandboxtest.RequireLandlockABI(t, 1)
	requireInSandbox(t, "awk")
	requireInSandbox(t, "stat")
	testOnlyFailAt = testWritableRoot
	defer func() { testOnlyFailAt = "" }()

	outside := varTempDir(t)
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	ownedByCommand(t, outside, victim)
	project := t.TempDir()
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(fmt.Sprintf(`
awk '$5 == "/" { print "root " $6 }' /proc/self/mountinfo
echo "owner $(stat -c %%u %[1]s) me $(id -u)"
echo pwned > %[1]s; echo "write rc=$?"
echo new > %[2]s/new; echo "create rc=$?"
echo ok > %[3]s/inproject`, victim, outside, project))})
	if o.err != nil {
		t.Fatal(o.err)
	}
	// The hook worked: only Landlock stands between the command and
	// the file (the mount is read-write, and DAC lets the owner write).
	if !regexpRootRW(o.stdout) {
		t.Fatalf("/ is not mounted read-write in the hook run; the test proves nothing:\n%s", o.stdout)
	}
	if !strings.Contains(o.stdout, fmt.Sprintf("owner %d me %d", sandboxID, sandboxID)) {
		t.Fatalf("the victim is not owned by the command's uid inside; DAC may be what refuses:\n%s", o.stdout)
	}
	if !strings.Contains(o.stdout, "write rc=") || strings.Contains(o.stdout, "write rc=0") || strings.Contains(o.stdout, "create rc=0") {
		t.Errorf("a write outside the project did not fail:\n%s", o.stdout)
	}
	if !strings.Contains(o.stderr, "Permission denied") || strings.Contains(o.stderr, "Read-only file system") {
		t.Errorf("want EACCES from Landlock, not EROFS from a mount:\n%s", o.stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "original" {
		t.Errorf("host file outside the project changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("a file was created outside the project")
	}
	if b, err := os.ReadFile(filepath.Join(project, "inproject")); err != nil || string(b) != "ok\n" {
		t.Errorf("write in the project did not reach the host: %q, %v", b, err)
	}
}

// regexpRootRW reports whether the "root <options>" line shows a
// read-write /.
func regexpRootRW(out string) bool {
	for line := range strings.Lines(out) {
		if opts, ok := strings.CutPrefix(strings.TrimSpace(line), "root "); ok {
			return strings.HasPrefix(opts, "rw,") || opts == "rw"
		}
	}
	return false
}

// TestAttackLandlockProc writes to the shell's /proc/<pid>/comm, which
// the mounts leave writable (the write succeeds without Landlock):
// Landlock refuses it.
func TestAttackLandlockProc(t *testing.T) {
	sandboxtest.RequireLandlockABI(t, 1)
	o := run(t, Spec{Argv: sh("echo pwned > /proc/$$/comm; echo rc=$?; cat /proc/$$/comm")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if !strings.Contains(o.stdout, "rc=") || strings.Contains(o.stdout, "rc=0") || strings.Contains(o.stdout, "pwned") {
		t.Errorf("writing /proc/self/comm was not refused:\n%s", o.stdout)
	}
	if !strings.Contains(o.stderr, "Permission denied") {
		t.Errorf("want EACCES:\n%s", o.stderr)
	}
}

// TestAttackLandlockControls: what the rules allow still works — the
// project (including running a binary built there), /tmp, /dev/shm, the
// devices, moving files within the project.
func TestAttackLandlockControls(t *testing.T) {
	sandboxtest.RequireLandlockABI(t, 1)
	o := run(t, Spec{Mode: WorkspaceWrite, Argv: sh(`set -e
echo a > /tmp/a; echo b > /dev/shm/b; cat /tmp/a /dev/shm/b
echo c > /dev/null; head -c 4 /dev/zero | wc -c
mkdir -p d1 d2; echo m > d1/f; mv d1/f d2/f; ln -s f d2/l; cat d2/l
cp /bin/true ./t; ./t
: > /dev/null
echo done`)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.res.Status() != 0 || !strings.Contains(o.stdout, "done") {
		t.Errorf("allowed operations failed: status %d\n%s\n%s", o.res.Status(), o.stdout, o.stderr)
	}
	// Read-only mode: the project is not writable either.
	o = run(t, Spec{Mode: ReadOnly, Argv: sh("echo x > f; echo rc=$?")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if !strings.Contains(o.stdout, "rc=") || strings.Contains(o.stdout, "rc=0") {
		t.Errorf("read-only project was written:\n%s", o.stdout)
	}
}

// TestAttackLandlockFailClosed: when Landlock cannot be applied, nothing
// runs and the error names it.
func TestAttackLandlockFailClosed(t *testing.T) {
	checkFailClosed(t, "landlock")
}

// TestAttackReadableOnly gives the command a list of readable paths (an
// OpenShell filesystem_policy) and has it try every way to read a host
// file outside them that DAC lets it read: directly, through a link it
// plants in the project, by listing its directory, and by executing a
// copy. Each fails with EACCES; what the list names is read, the project
// written.
func TestAttackReadableOnly(t *testing.T) {
	sandboxtest.RequireLandlockABI(t, 1)
	outside := varTempDir(t)
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("canary-outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(outside, 0o755)
	listed := varTempDir(t)
	os.Chmod(listed, 0o755)
	if err := os.WriteFile(filepath.Join(listed, "ok"), []byte("listed-ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	readable := []string{"/usr", "/lib", "/lib64", "/bin", "/etc", listed, project, "/nonexistent/skipped"}
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Readable: readable, Argv: sh(fmt.Sprintf(`
cat %[1]s; echo "read rc=$?"
ln -s %[1]s %[3]s/link; cat %[3]s/link; echo "link rc=$?"
ls %[2]s; echo "list rc=$?"
cat %[4]s/ok; echo "listed rc=$?"
echo written > %[3]s/out; echo "write rc=$?"`, victim, outside, project, listed))})
	if o.err != nil {
		t.Fatal(o.err)
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", o.stdout, o.stderr)
	if strings.Contains(o.stdout, "canary-outside") {
		t.Errorf("the command read a file outside its readable paths:\n%s", o.stdout)
	}
	for _, rc := range []string{"read rc=0", "link rc=0", "list rc=0"} {
		if strings.Contains(o.stdout, rc) {
			t.Errorf("%s: a read outside the readable paths succeeded:\n%s", rc, o.stdout)
		}
	}
	if got := strings.Count(o.stderr, "Permission denied"); got < 3 {
		t.Errorf("want EACCES from Landlock for each read (%d):\n%s", got, o.stderr)
	}
	if !strings.Contains(o.stdout, "listed-ok") || !strings.Contains(o.stdout, "listed rc=0") || !strings.Contains(o.stdout, "write rc=0") {
		t.Errorf("what the list names was not read, or the project not written:\n%s", o.stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "out")); string(b) != "written\n" {
		t.Errorf("the project write did not reach the host: %q", b)
	}
}

// TestReadableNeedsLandlock: the readable paths rest on Landlock alone,
// so a run told to go without it is refused.
func TestReadableNeedsLandlock(t *testing.T) {
	sandboxtest.RequireRoot(t)
	o := run(t, Spec{Project: t.TempDir(), Readable: []string{"/usr"}, Degraded: []Layer{LayerLandlock}, Argv: sh("true")})
	var se *SetupError
	if !errors.As(o.err, &se) || !strings.Contains(se.What, "Landlock alone") {
		t.Fatalf("err = %v, want the run refused", o.err)
	}
}
