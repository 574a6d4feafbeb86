// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/pathguard"
)

// eaccesEnv, when set, makes TestResolveEACCES the child half: it names
// the directory holding the locked tree.
const eaccesEnv = "PATHGUARD_TEST_EACCES_DIR"

// TestResolveEACCES walks through a directory of mode 000. Root bypasses
// the permission, so as root the test re-executes itself as nobody (uid
// 65534) with setpriv(1); as any other user it runs in-process.
func TestResolveEACCES(t *testing.T) {
	if dir := os.Getenv(eaccesEnv); dir != "" {
		eaccesChild(t, dir)
		return
	}
	dir, err := os.MkdirTemp("", "pathguard-eacces-")
	if err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(dir, "locked")
	t.Cleanup(func() {
		os.Chmod(locked, 0o755)
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(locked, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		eaccesChild(t, dir)
		return
	}

	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skipf("requires setpriv(1) to drop root to uid 65534: %v", err)
	}
	// The test binary lives in a directory only root can enter; copy it
	// where nobody can execute it.
	bin := filepath.Join(dir, "pathguard.test")
	if err := copyFile(bin, testBinary(t)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
		bin, "-test.run=^TestResolveEACCES$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), eaccesEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child as uid 65534: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestResolveEACCES") || strings.Contains(string(out), "SKIP") {
		t.Fatalf("child as uid 65534 did not pass:\n%s", out)
	}
	t.Logf("child as uid 65534:\n%s", out)
}

func eaccesChild(t *testing.T, dir string) {
	x := filepath.Join(dir, "locked", "x")
	if _, err := os.Lstat(x); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("as uid %d, lstat(%q) = %v, want permission denied: the test cannot run", os.Geteuid(), x, err)
	}
	r := pathguard.NewResolver("", dir)
	got := r.Resolve("locked/x", action.Read)
	if !strings.Contains(got.Err, "permission denied") || got.Resolved != "" || !got.Checked {
		t.Errorf("as uid %d, Resolve(locked/x) = %+v, want Err permission denied and no Resolved", os.Geteuid(), got)
	}
	t.Logf("as uid %d, Resolve(locked/x).Err = %q", os.Geteuid(), got.Err)

	// The locked directory itself can be named: its parent is readable.
	if got := r.Resolve("locked", action.Read); got.Err != "" || got.Resolved != filepath.Join(dir, "locked") {
		t.Errorf("as uid %d, Resolve(locked) = %+v, want it resolved", os.Geteuid(), got)
	}
}

func testBinary(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
