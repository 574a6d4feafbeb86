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

const bindProjectEnv = "PATHGUARD_TEST_BIND_PROJECT_ROOT"

// TestResolveBindOfProject bind-mounts the project at root/mnt/p, and
// root/outside over root/mnt/p/sub in that view only: a path through the
// bind is the project's, by device and inode; a path through what is
// mounted over a directory of the bind is not, whatever its name says.
func TestResolveBindOfProject(t *testing.T) {
	if root := os.Getenv(bindProjectEnv); root != "" {
		bindProjectChild(t, root)
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
		testBinary(t), "-test.run=^TestResolveBindOfProject$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), bindProjectEnv+"="+tr.root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child in a mount namespace: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestResolveBindOfProject") || strings.Contains(string(out), "SKIP") {
		t.Fatalf("child in a mount namespace did not pass:\n%s", out)
	}
	t.Logf("child in a mount namespace:\n%s", out)
}

func bindProjectChild(t *testing.T, root string) {
	home := filepath.Join(root, "home/u")
	proj := filepath.Join(root, "project")
	bind := filepath.Join(root, "mnt/p")
	if err := os.MkdirAll(bind, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount(proj, bind, "", syscall.MS_BIND, ""); err != nil {
		t.Fatalf("mount --bind %s %s: %v", proj, bind, err)
	}
	if err := syscall.Mount(filepath.Join(root, "outside"), filepath.Join(bind, "sub"), "", syscall.MS_BIND, ""); err != nil {
		t.Fatalf("mount --bind %s/outside %s/sub: %v", root, bind, err)
	}
	// The aliases are real: the project's file is there under the bind,
	// and the bind's sub is not the project's.
	if b, err := os.ReadFile(filepath.Join(bind, "notes.txt")); err != nil || !strings.Contains(string(b), "project/notes.txt") {
		t.Fatalf("reading the project through the bind: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(bind, "sub/plain.txt")); err != nil {
		t.Fatalf("the mount over the bind's sub: %v", err)
	}

	r := &pathguard.Resolver{Home: home, Cwd: proj, Project: proj}
	for _, tt := range []struct {
		raw              string
		wantLex, wantRes string
		inside           bool
		sensitive        string
	}{
		{raw: bind, wantLex: proj, wantRes: proj, inside: true},
		{raw: bind + "/notes.txt", wantLex: proj + "/notes.txt", wantRes: proj + "/notes.txt", inside: true},
		{raw: bind + "/a/b/c/f", wantLex: proj + "/a/b/c/f", wantRes: proj + "/a/b/c/f", inside: true},
		{raw: bind + "/new/dir/file.go", wantLex: proj + "/new/dir/file.go", wantRes: proj + "/new/dir/file.go", inside: true},
		{raw: bind + "/link-abc/f", wantLex: proj + "/link-abc/f", wantRes: proj + "/a/b/c/f", inside: true},
		{raw: bind + "/sub/plain.txt"},
		{raw: bind + "/sub/new.txt"},
		{raw: bind + "/evil/x", wantLex: proj + "/evil/x"},
		{raw: bind + "/key", wantLex: proj + "/key", sensitive: ".ssh/"},
		{raw: bind + "/../p/notes.txt", wantLex: proj + "/notes.txt", wantRes: proj + "/notes.txt", inside: true},
		{raw: bind + "/../outside/plain.txt"},
	} {
		got := r.Resolve(tt.raw, action.Write)
		lex, res := got.InProject()
		inside := action.Within(proj, lex) && action.Within(proj, res)
		if got.Err != "" || got.InLexical != tt.wantLex || got.InResolved != tt.wantRes || inside != tt.inside || got.Sensitive != tt.sensitive {
			t.Errorf("Resolve(%q) = %+v; want InLexical %q, InResolved %q, inside %v, Sensitive %q",
				tt.raw, got, tt.wantLex, tt.wantRes, tt.inside, tt.sensitive)
		}
	}
}
