// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Attack tests: each one really attempts an escape from inside the sandbox
// and checks the effect from outside. Assumptions: Linux with user
// namespaces allowed for the running user; sh, cat, cp, id, sleep and
// setsid on PATH (bash and ip optional). Run them with
//
//	go test -race -tags integration ./internal/sandbox
//
// as root, which also reruns them as uid 65534 (TestAttacksAsUnprivilegedUser).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// envNested marks the rerun as an unprivileged user.
const envNested = "WARDEN_SANDBOX_TEST_NESTED"

type outcome struct {
	stdout, stderr string
	res            Result
	err            error
}

func run(t *testing.T, spec Spec) outcome {
	t.Helper()
	sandboxtest.RequireUserNS(t)
	var out, errb bytes.Buffer
	spec.Stdin = strings.NewReader("")
	spec.Stdout, spec.Stderr = &out, &errb
	if spec.Project == "" {
		spec.Project = t.TempDir()
	}
	if spec.Timeout == 0 {
		spec.Timeout = time.Minute
	}
	res, err := warmRun(context.Background(), spec)
	o := outcome{out.String(), errb.String(), res, err}
	t.Logf("%q: status %d, err %v\nstdout: %s\nstderr: %s", spec.Argv, res.Status(), err, o.stdout, o.stderr)
	return o
}

func sh(script string) []string { return []string{"sh", "-c", script} }

// varTempDir is a directory on the root filesystem (not /tmp, which the
// sandbox replaces), so the sandbox sees it through the read-only root.
func varTempDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/var/tmp", "warden-sandbox-test-")
	if err != nil {
		t.Skipf("requires a writable /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAttackWriteOutsideProject(t *testing.T) {
	outside := varTempDir(t)
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("original"), 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(victim, 0o666)
	project := t.TempDir()
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(fmt.Sprintf(
		"echo pwned > %s; echo new > %s/new; echo ok > %s/inproject", victim, outside, project))})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "original" {
		t.Errorf("host file outside the project changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("a file was created outside the project")
	}
	// Control: the project itself is writable.
	if b, err := os.ReadFile(filepath.Join(project, "inproject")); err != nil || string(b) != "ok\n" {
		t.Errorf("write in the project did not reach the host: %q, %v", b, err)
	}
}

func TestAttackWriteReadOnlyProject(t *testing.T) {
	project := t.TempDir()
	os.Chmod(project, 0o777)
	o := run(t, Spec{Project: project, Mode: ReadOnly, Argv: sh("echo x > inproject")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if _, err := os.Stat(filepath.Join(project, "inproject")); err == nil {
		t.Error("read-only mode let the command write the project")
	}
	if o.res.Status() == 0 {
		t.Error("the write reported success")
	}
}

func TestAttackReadPlantedSSHKey(t *testing.T) {
	home := varTempDir(t)
	const secret = "-----BEGIN OPENSSH PRIVATE KEY----- warden-test-secret"
	plant := map[string]string{
		".ssh/id_rsa":          secret + " ssh",
		".netrc":               secret + " netrc",
		".aws/credentials":     secret + " aws",
		".docker/config.json":  secret + " docker",
		".config/gh/hosts.yml": secret + " gh",
		".profile":             "visible-control",
	}
	for name, body := range plant {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		// World-readable on purpose: only the sandbox may hide them.
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o644)
	}
	// A link from the project to the key must not help either.
	project := t.TempDir()
	if err := os.Symlink(filepath.Join(home, ".ssh/id_rsa"), filepath.Join(project, "key")); err != nil {
		t.Fatal(err)
	}
	o := run(t, Spec{Project: project, Home: home, Argv: sh(
		"cat ~/.profile; for f in ~/.ssh/id_rsa ~/.netrc ~/.aws/credentials ~/.docker/config.json ~/.config/gh/hosts.yml key; do cat $f; done; ls -la ~/.ssh")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout+o.stderr, "warden-test-secret") {
		t.Errorf("a planted secret came out of the sandbox:\n%s", o.stdout)
	}
	if !strings.Contains(o.stdout, "visible-control") {
		t.Error("control: ~/.profile was not readable, so the test proves nothing")
	}
}

func TestAttackExecFromTmp(t *testing.T) {
	for _, dir := range []string{"/tmp", "/dev/shm"} {
		t.Run(strings.TrimPrefix(dir, "/"), func(t *testing.T) {
			o := run(t, Spec{Argv: sh(fmt.Sprintf("cp /bin/true %[1]s/t && chmod 755 %[1]s/t && %[1]s/t && echo EXECUTED", dir))})
			if o.err != nil {
				t.Fatal(o.err)
			}
			if strings.Contains(o.stdout, "EXECUTED") || o.res.Status() == 0 {
				t.Errorf("a binary written to %s ran", dir)
			}
			if !strings.Contains(o.stderr, "Permission denied") {
				t.Errorf("exec failed for another reason than noexec: %s", o.stderr)
			}
		})
	}
}

func TestAttackHostLoopback(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	arrived := make(chan struct{}, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Close()
			arrived <- struct{}{}
		}
	}()
	var argv []string
	switch {
	case haveCmd("bash"):
		argv = []string{"bash", "-c", fmt.Sprintf("echo x > /dev/tcp/127.0.0.1/%d && echo CONNECTED", port)}
	case haveCmd("python3"):
		argv = []string{"python3", "-c", fmt.Sprintf("import socket; socket.create_connection(('127.0.0.1', %d), 2); print('CONNECTED')", port)}
	default:
		t.Skip("requires bash or python3 on PATH to open a TCP connection")
	}
	o := run(t, Spec{Argv: argv})
	if o.err != nil {
		t.Fatal(o.err)
	}
	select {
	case <-arrived:
		t.Fatal("a connection from the sandbox reached the host's loopback")
	case <-time.After(200 * time.Millisecond):
	}
	if strings.Contains(o.stdout, "CONNECTED") {
		t.Error("the command reports a connection")
	}
	if haveCmd("ip") {
		o := run(t, Spec{Argv: []string{"ip", "-o", "link"}})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("ip link: %v, status %d", o.err, o.res.Status())
		}
		lines := strings.Split(strings.TrimSpace(o.stdout), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], " lo:") || !strings.Contains(lines[0], "UP") {
			t.Errorf("want only loopback, up; got:\n%s", o.stdout)
		}
	}
}

func haveCmd(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

func TestAttackSecretEnv(t *testing.T) {
	t.Setenv("WARDEN_TEST_API_TOKEN", "tok-warden-test-secret")
	o := run(t, Spec{Argv: sh("env; cat /proc/1/environ")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout, "warden-test-secret") {
		t.Errorf("the caller's secret variable reached the sandbox:\n%s", o.stdout)
	}
	for _, want := range []string{"PATH=", "HOME=", "LANG="} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("clean environment lacks %s", want)
		}
	}
}

func TestAttackIdentity(t *testing.T) {
	o := run(t, Spec{Argv: sh("id -u; grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	lines := strings.Split(strings.TrimSpace(o.stdout), "\n")
	if len(lines) == 0 || lines[0] == "0" {
		t.Fatalf("the command runs as uid 0:\n%s", o.stdout)
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		switch {
		case f[0] == "NoNewPrivs:" && f[1] != "1":
			t.Errorf("no_new_privs not set: %s", l)
		case strings.HasPrefix(f[0], "Cap") && strings.Trim(f[1], "0") != "":
			t.Errorf("capabilities left: %s", l)
		}
	}
	if len(lines) != 7 {
		t.Errorf("want uid and 6 status lines, got:\n%s", o.stdout)
	}
}

func TestAttackTimeoutKillsTree(t *testing.T) {
	token := fmt.Sprintf("1000.%d", time.Now().UnixNano()%1000000)
	start := time.Now()
	o := run(t, Spec{Timeout: time.Second, Argv: sh(fmt.Sprintf(
		"sleep %[1]s & setsid sleep %[1]s & (sleep %[1]s &); sleep %[1]s", token))})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if !o.res.TimedOut || o.res.Status() != 137 {
		t.Errorf("timed out %v, status %d; want true, 137", o.res.TimedOut, o.res.Status())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout took %v", d)
	}
	// From outside: no sleep with our token is left on the host.
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := findProcs(token)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes survived the timeout: %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func findProcs(token string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(token)) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

func TestExitStatus(t *testing.T) {
	for _, tt := range []struct {
		script string
		want   int
	}{
		{"exit 0", 0},
		{"exit 3", 3},
		{"kill -9 $$", 137},
		{"kill -TERM $$", 143},
		// Signals to init that would crash a Go program are taken
		// and dropped: the run goes on, its status is the command's.
		{"kill -SEGV 1; kill -ABRT 1; kill -BUS 1; sleep 0.1; exit 5", 5},
		// One init forwards reaches the command, as if sent to it.
		{"trap 'exit 7' TERM; kill -TERM 1; sleep 5; exit 0", 7},
	} {
		t.Run(tt.script, func(t *testing.T) {
			o := run(t, Spec{Argv: sh(tt.script)})
			if o.err != nil {
				t.Fatal(o.err)
			}
			if got := o.res.Status(); got != tt.want {
				t.Errorf("status %d, want %d", got, tt.want)
			}
		})
	}
	o := run(t, Spec{Argv: []string{"warden-no-such-command"}})
	var se *StartError
	if !errors.As(o.err, &se) || se.Status != 127 {
		t.Errorf("missing command: %v, want a StartError with status 127", o.err)
	}
}

// failSteps are init's setup steps; each must stop the run when it fails.
var failSteps = []string{
	"make mounts private", "prepare new root", "bind / read-only", "mount private tmpfs", "mount /dev", "mount /tmp",
	"mount /run", "mount exec scratch", "hide home", "bind project", "bound private tmpfs", "mask sensitive paths", "mount /proc", "mount /sys", "enter new root",
	"set hostname", "bring up loopback", "enter project", "wait for the cgroup", "enter cgroup namespace", "drop privileges",
}

func TestFailClosed(t *testing.T) {
	for _, step := range failSteps {
		t.Run(step, func(t *testing.T) { checkFailClosed(t, step) })
	}
}

// checkFailClosed makes init's setup step fail and checks that the run
// stops with a SetupError naming the step and that the command never ran.
func checkFailClosed(t *testing.T, step string) {
	t.Helper()
	testOnlyFailAt = step
	defer func() { testOnlyFailAt = "" }()
	project := t.TempDir()
	os.Chmod(project, 0o777)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo ran > ran")})
	var se *SetupError
	if !errors.As(o.err, &se) {
		t.Fatalf("err = %v, want a SetupError", o.err)
	}
	if !strings.Contains(se.Error(), "sandbox unavailable: "+step) {
		t.Errorf("message %q does not name the step %q", se.Error(), step)
	}
	if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
		t.Errorf("the command ran although step %q failed", step)
	}
}

// rerunAsNobody runs the tests matching pattern again in this test binary,
// as uid 65534 through setpriv, and returns their output; it fails the
// test if they fail.
func rerunAsNobody(t *testing.T, pattern string) []byte {
	t.Helper()
	sandboxtest.RequireRoot(t)
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary lives in a private build directory; copy it where
	// uid 65534 can run it.
	dir := varTempDir(t)
	bin := filepath.Join(dir, "sandbox.test")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(bin, 0o755)
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--",
		bin, "-test.run="+pattern, "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), envNested+"=1", "HOME="+dir, "TMPDIR=/tmp",
		sandboxtest.EnvWardenBinary+"="+sandboxtest.BuildWarden(t))
	out, err := cmd.CombinedOutput()
	t.Logf("as uid 65534:\n%s", out)
	if err != nil {
		t.Fatalf("tests failed as uid 65534: %v", err)
	}
	return out
}

// TestAttacksAsUnprivilegedUser reruns every attack test of the package
// (TestAttack*, and the adversarial suite, TestAdversarial*) as uid 65534,
// through setpriv, where the kernel lets that user create namespaces.
func TestAttacksAsUnprivilegedUser(t *testing.T) {
	if os.Getenv(envNested) != "" {
		t.Skip("already running as the unprivileged user")
	}
	out := rerunAsNobody(t, "^(TestAttack|TestAdversarial|TestToolchain|TestExitStatus|TestFailClosed)")
	if bytes.Contains(out, []byte("requires user namespaces")) {
		t.Skip("the kernel does not let uid 65534 create user namespaces (see the log)")
	}
}
