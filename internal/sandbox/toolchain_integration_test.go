// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Toolchain and plain-run controls: what a coding agent runs every day
// works in the sandbox, and its effect is checked from outside — the
// built binary is on the host, the commit is in the repository's log
// read from outside, the bytes of stdin, stdout and stderr are intact,
// exit statuses and signals come through. They rely on the sandbox
// passing the caller's PATH (so go in /usr/local/go/bin and pyenv shims
// are found) and setting GOTMPDIR to a directory where executables may
// run (go test runs its test binary from there; /tmp is noexec). go, git,
// python3 and node are looked up on the caller's PATH; a test skips,
// naming it, when its tool is not installed. TestAttacksAsUnprivilegedUser
// reruns them as uid 65534.

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// toolProject makes a project directory on the host's root filesystem
// (not the sandbox's private /tmp), with files, writable in the run.
func toolProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := varTempDir(t)
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// requireTool skips the test unless name is on the caller's PATH, which
// the sandbox passes on.
func requireTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("requires %s on PATH: %v", name, err)
	}
}

// goEnv keeps the go command inside the project: its caches there, no
// toolchain download, no module proxy.
func goEnv(project string) []string {
	return []string{
		"GOCACHE=" + filepath.Join(project, ".cache"),
		"GOPATH=" + filepath.Join(project, ".gopath"),
		"GOTOOLCHAIN=local", "GOPROXY=off", "GOENV=off",
	}
}

var goFiles = map[string]string{
	"go.mod":     "module example.com/wardentest\n\ngo 1.22\n",
	"main.go":    "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"built in the sandbox\") }\n",
	"lib/lib.go": "package lib\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
	"lib/lib_test.go": `package lib

import (
	"os"
	"testing"
)

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("Add(2, 3) != 5")
	}
	if err := os.WriteFile("tested", []byte("TestAdd ran"), 0o644); err != nil {
		t.Fatal(err)
	}
}
`,
}

// TestToolchainGo builds and runs a main package and tests a package, in
// one project so that both share the build cache.
func TestToolchainGo(t *testing.T) {
	requireTool(t, "go")
	project := toolProject(t, goFiles)
	t.Run("build", func(t *testing.T) {
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Env: goEnv(project), Argv: sh("go build -o hello . && ./hello")})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("go build: %v, status %d", o.err, o.res.Status())
		}
		if o.stdout != "built in the sandbox\n" {
			t.Errorf("the built binary printed %q in the sandbox", o.stdout)
		}
		// From outside: the binary is on the host, and it is the program.
		bin := filepath.Join(project, "hello")
		b, err := os.ReadFile(bin)
		if err != nil || !bytes.HasPrefix(b, []byte("\x7fELF")) {
			t.Fatalf("no executable %s on the host: %v", bin, err)
		}
		if out, err := exec.Command(bin).Output(); err != nil || string(out) != "built in the sandbox\n" {
			t.Errorf("%s run on the host: %q, %v", bin, out, err)
		}
	})
	t.Run("test", func(t *testing.T) {
		// go test runs the test binary it builds from GOTMPDIR.
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Env: goEnv(project), Argv: []string{"go", "test", "-count=1", "./lib/"}})
		if o.err != nil || o.res.Status() != 0 {
			t.Fatalf("go test: %v, status %d", o.err, o.res.Status())
		}
		if !strings.HasPrefix(o.stdout, "ok  \texample.com/wardentest/lib") {
			t.Errorf("go test output: %q", o.stdout)
		}
		// From outside: the test binary really ran.
		if b, err := os.ReadFile(filepath.Join(project, "lib", "tested")); err != nil || string(b) != "TestAdd ran" {
			t.Errorf("the test's file is not on the host: %q, %v", b, err)
		}
	})
}

func TestToolchainGit(t *testing.T) {
	requireTool(t, "git")
	project := toolProject(t, map[string]string{"README": "made in the sandbox\n"})
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(
		"git init -q . && git add README && git -c user.name=Warden -c user.email=warden@example.invalid commit -q -m 'first commit in the sandbox'")})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("git: %v, status %d", o.err, o.res.Status())
	}
	out, err := exec.Command("git", "-C", project, "log", "--format=%s|%an|%ae").CombinedOutput()
	if err != nil || string(out) != "first commit in the sandbox|Warden|warden@example.invalid\n" {
		t.Errorf("git log on the host: %q, %v", out, err)
	}
	out, err = exec.Command("git", "-C", project, "show", "HEAD:README").CombinedOutput()
	if err != nil || string(out) != "made in the sandbox\n" {
		t.Errorf("git show HEAD:README on the host: %q, %v", out, err)
	}
}

func TestToolchainPython(t *testing.T) {
	requireTool(t, "python3")
	project := toolProject(t, nil)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: []string{"python3", "-c",
		"import sys; open('py.out', 'w').write('python %d' % sys.version_info[0]); print('ok')"}})
	if o.err != nil || o.res.Status() != 0 || o.stdout != "ok\n" {
		t.Fatalf("python3: %v, status %d, stdout %q", o.err, o.res.Status(), o.stdout)
	}
	if b, err := os.ReadFile(filepath.Join(project, "py.out")); err != nil || string(b) != "python 3" {
		t.Errorf("python3's file on the host: %q, %v", b, err)
	}
}

func TestToolchainNode(t *testing.T) {
	requireTool(t, "node")
	project := toolProject(t, nil)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: []string{"node", "-e",
		"require('fs').writeFileSync('node.out', 'node ' + (2 + 3)); console.log('ok')"}})
	if o.err != nil || o.res.Status() != 0 || o.stdout != "ok\n" {
		t.Fatalf("node: %v, status %d, stdout %q", o.err, o.res.Status(), o.stdout)
	}
	if b, err := os.ReadFile(filepath.Join(project, "node.out")); err != nil || string(b) != "node 5" {
		t.Errorf("node's file on the host: %q, %v", b, err)
	}
}

// randomBytes returns n random bytes after every byte value once.
func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, 256+n)
	for i := range 256 {
		b[i] = byte(i)
	}
	if _, err := rand.Read(b[256:]); err != nil {
		t.Fatal(err)
	}
	return b
}

// runStreams runs spec with its streams as given and the test's defaults.
func runStreams(t *testing.T, spec Spec) (Result, error) {
	t.Helper()
	sandboxtest.RequireUserNS(t)
	if spec.Project == "" {
		spec.Project = t.TempDir()
	}
	spec.Timeout = time.Minute
	return warmRun(context.Background(), spec)
}

// TestToolchainStdin: what the caller pipes in is what the command reads,
// from a reader and from a pipe.
func TestToolchainStdin(t *testing.T) {
	data := randomBytes(t, 3<<20)
	t.Run("reader", func(t *testing.T) {
		var out, errb bytes.Buffer
		res, err := runStreams(t, Spec{Argv: []string{"cat"}, Stdin: bytes.NewReader(data), Stdout: &out, Stderr: &errb})
		if err != nil || res.Status() != 0 {
			t.Fatalf("cat: %v, status %d, stderr %q", err, res.Status(), errb.String())
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Errorf("stdout has %d bytes, not the %d piped in", out.Len(), len(data))
		}
	})
	t.Run("pipe", func(t *testing.T) {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		go func() {
			pw.Write(data)
			pw.Close()
		}()
		var out, errb bytes.Buffer
		res, err := runStreams(t, Spec{Argv: sh("wc -c; echo done"), Stdin: pr, Stdout: &out, Stderr: &errb})
		if err != nil || res.Status() != 0 {
			t.Fatalf("wc: %v, status %d, stderr %q", err, res.Status(), errb.String())
		}
		if want := fmt.Sprintf("%d\ndone\n", len(data)); out.String() != want {
			t.Errorf("stdout %q, want %q", out.String(), want)
		}
	})
}

// TestToolchainStdoutStderr: stdout and stderr reach the caller as two
// streams, binary and large, byte for byte.
func TestToolchainStdoutStderr(t *testing.T) {
	a, b := randomBytes(t, 4<<20), randomBytes(t, 3<<20+17)
	project := toolProject(t, map[string]string{"a": string(a), "b": string(b)})
	var out, errb bytes.Buffer
	res, err := runStreams(t, Spec{Project: project, Argv: sh(`cat a; cat b >&2; printf '\000\377' ; printf 'tail\000' >&2`),
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if err != nil || res.Status() != 0 {
		t.Fatalf("cat: %v, status %d", err, res.Status())
	}
	wantOut, wantErr := append(a, 0, 0xff), append(b, "tail\x00"...)
	if !bytes.Equal(out.Bytes(), wantOut) {
		t.Errorf("stdout: %d bytes, want %d, equal prefix %d", out.Len(), len(wantOut), commonPrefix(out.Bytes(), wantOut))
	}
	if !bytes.Equal(errb.Bytes(), wantErr) {
		t.Errorf("stderr: %d bytes, want %d, equal prefix %d", errb.Len(), len(wantErr), commonPrefix(errb.Bytes(), wantErr))
	}
	if res.Stdout.Total != int64(len(wantOut)) || res.Stderr.Total != int64(len(wantErr)) {
		t.Errorf("Result counts %d and %d bytes, want %d and %d", res.Stdout.Total, res.Stderr.Total, len(wantOut), len(wantErr))
	}
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// TestToolchainExitCodes: every exit status 0..255 comes through.
func TestToolchainExitCodes(t *testing.T) {
	project := t.TempDir()
	codes := make([]int, 256)
	for i := range codes {
		codes[i] = i
	}
	eachParallel(t, codes, func(t *testing.T, code int) {
		var out bytes.Buffer
		res, err := runStreams(t, Spec{Project: project, Argv: sh(fmt.Sprintf("exit %d", code)),
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out})
		if err != nil || res.Status() != code || res.ExitCode != code || res.Signal != 0 {
			t.Errorf("exit %d: status %d, exit code %d, signal %d, err %v\n%s", code, res.Status(), res.ExitCode, res.Signal, err, out.String())
		}
	})
}

// eachParallel calls f for every item, 16 sandboxes at a time. Built with
// the race detector, a sandbox's init (the test binary) waits a second
// when it exits (GORACE atexit_sleep_ms, which its clean environment
// does not set), so runs are overlapped rather than made one by one.
func eachParallel[T any](t *testing.T, items []T, f func(*testing.T, T)) {
	t.Helper()
	sandboxtest.RequireUserNS(t)
	work := make(chan T)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range work {
				f(t, it)
			}
		}()
	}
	for _, it := range items {
		work <- it
	}
	close(work)
	wg.Wait()
}

// TestToolchainSignalStatus: a command killed by a signal has status
// 128+signal.
func TestToolchainSignalStatus(t *testing.T) {
	project := t.TempDir()
	eachParallel(t, []unix.Signal{unix.SIGHUP, unix.SIGINT, unix.SIGQUIT, unix.SIGILL, unix.SIGTRAP,
		unix.SIGABRT, unix.SIGBUS, unix.SIGFPE, unix.SIGKILL, unix.SIGUSR1, unix.SIGSEGV, unix.SIGUSR2,
		unix.SIGPIPE, unix.SIGALRM, unix.SIGTERM, unix.SIGXCPU, unix.SIGXFSZ, unix.SIGSYS,
	}, func(t *testing.T, sig unix.Signal) {
		var out bytes.Buffer
		res, err := runStreams(t, Spec{Project: project, Argv: sh(fmt.Sprintf("kill -%d $$", sig)),
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out})
		if err != nil || res.Status() != 128+int(sig) || res.Signal != int(sig) || res.ExitCode != -1 {
			t.Errorf("%s: status %d (signal %d, exit code %d, err %v), want %d\n%s",
				unix.SignalName(sig), res.Status(), res.Signal, res.ExitCode, err, 128+int(sig), out.String())
		}
	})
}

// TestToolchainSignalForwarding sends SIGTERM, SIGINT and SIGHUP to the
// warden parent (this process, which relays them to Run as warden run
// does): each reaches the command, which may trap it, and the run's
// status is then the command's.
func TestToolchainSignalForwarding(t *testing.T) {
	for _, tt := range []struct {
		sig    syscall.Signal
		script string
		want   int
	}{
		{syscall.SIGTERM, "trap 'echo got TERM; exit 42' TERM", 42},
		{syscall.SIGINT, "trap 'echo got INT; exit 43' INT", 43},
		{syscall.SIGHUP, "trap 'echo got HUP; exit 44' HUP", 44},
		{syscall.SIGTERM, ":", 128 + int(syscall.SIGTERM)},
	} {
		t.Run(fmt.Sprintf("%s %d", unix.SignalName(tt.sig), tt.want), func(t *testing.T) {
			sandboxtest.RequireUserNS(t)
			ch := make(chan os.Signal, 4)
			signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
			defer signal.Stop(ch)
			stdout := newWatchWriter("ready")
			var stderr bytes.Buffer
			spec := Spec{
				Argv:    sh(tt.script + "; echo ready; sleep 1000 & wait"),
				Project: t.TempDir(), Stdin: strings.NewReader(""), Stdout: stdout, Stderr: &stderr,
				Signals: ch,
				// Only so that a signal that is not forwarded does not
				// hang the test.
				Timeout: 30 * time.Second,
			}
			r, ok := runUntilSeen(spec, stdout, func() { syscall.Kill(os.Getpid(), tt.sig) })
			if !ok {
				t.Errorf("the command ended before the signal was sent")
			}
			t.Logf("status %d, timed out %v, err %v\nstdout: %s\nstderr: %s", r.res.Status(), r.res.TimedOut, r.err, stdout.String(), stderr.String())
			if r.err != nil || r.res.TimedOut || r.res.Status() != tt.want {
				t.Errorf("status %d (timed out %v, err %v), want %d", r.res.Status(), r.res.TimedOut, r.err, tt.want)
			}
			if tt.want < 128 && !strings.Contains(stdout.String(), "got "+strings.TrimPrefix(unix.SignalName(tt.sig), "SIG")) {
				t.Errorf("the command's trap did not run")
			}
		})
	}
}
