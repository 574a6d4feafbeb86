// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package pathguard_test

// Assumptions: Linux, running as root, unshare(1) from util-linux, and a
// kernel that allows mount namespaces. The test re-executes itself in a new
// private mount namespace, so the bind mounts never reach the host. Run:
//
//	go test -tags integration -run BindMount ./internal/pathguard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/pathguard"
)

const bindEnv = "PATHGUARD_TEST_BIND_ROOT"

// TestResolveBindMount bind-mounts ~/.ssh and ~/.aws/credentials into the
// project under innocent names; no name reveals them, their identity does.
func TestResolveBindMount(t *testing.T) {
	if root := os.Getenv(bindEnv); root != "" {
		bindChild(t, root)
		return
	}
	if os.Geteuid() != 0 {
		t.Skipf("requires root to create mount namespaces; running as uid %d", os.Geteuid())
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skipf("requires unshare(1): %v", err)
	}
	tr := newTree(t)
	cmd := exec.Command(unshare, "--mount", "--propagation", "private",
		testBinary(t), "-test.run=^TestResolveBindMount$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), bindEnv+"="+tr.root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child in a mount namespace: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestResolveBindMount") || strings.Contains(string(out), "SKIP") {
		t.Fatalf("child in a mount namespace did not pass:\n%s", out)
	}
	t.Logf("child in a mount namespace:\n%s", out)
}

func bindChild(t *testing.T, root string) {
	home := filepath.Join(root, "home/u")
	proj := filepath.Join(root, "project")
	keys := filepath.Join(proj, "keys")
	creds := filepath.Join(proj, "creds.txt")
	if err := os.Mkdir(keys, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(creds, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, m := range [][2]string{{home + "/.ssh", keys}, {home + "/.aws/credentials", creds}} {
		if err := syscall.Mount(m[0], m[1], "", syscall.MS_BIND, ""); err != nil {
			t.Fatalf("mount --bind %s %s: %v", m[0], m[1], err)
		}
	}
	// The attack works: the secret is readable under the innocent name.
	if b, err := os.ReadFile(filepath.Join(keys, "id_rsa")); err != nil || !strings.Contains(string(b), "id_rsa") {
		t.Fatalf("reading the key through the bind mount: %q, %v", b, err)
	}

	r := pathguard.NewResolver(home, proj)
	for _, tt := range []struct{ raw, want string }{
		{"keys", "same directory as ~/.ssh/"},
		{"keys/config", "same directory as ~/.ssh/"},
		{"keys/new_key", "same directory as ~/.ssh/"}, // a write of a new file there
		{"keys/..", ""},
		{"creds.txt", "same file as ~/.aws/credentials"},
		{"notes.txt", ""},
	} {
		got := r.Resolve(tt.raw, action.Write)
		if got.Sensitive != tt.want || got.Err != "" {
			t.Errorf("Resolve(%q) = Sensitive %q, Err %q; want %q", tt.raw, got.Sensitive, got.Err, tt.want)
		}
		t.Logf("Resolve(%q) = Resolved %q, Sensitive %q", tt.raw, got.Resolved, got.Sensitive)
	}
}
