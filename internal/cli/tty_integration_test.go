// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// warden run at a terminal: the command gets a terminal of its own, and the
// caller's is left exactly as it was. Each test runs the built warden (as
// root, and as uid 65534 through setpriv) on a pseudo-terminal of the
// test's own, types at it as a person would, and judges from outside: what
// the terminal showed, and the terminal's state read on the test's side.
// Assumptions: Linux, user namespaces, bash, sh, stty and sleep on PATH,
// go to build warden and a small ioctl program, setpriv for the rerun as
// uid 65534, /var/tmp writable. Run them with
//
//	go test -race -tags integration -run TestAdversarialTerminal ./internal/cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// ttyUser is who runs warden: root, or uid 65534 through setpriv.
type ttyUser struct {
	name string
	as   []string // the command prefix
	uid  int
}

// ttyUsers are the users each test runs as; a test running as another
// user than root runs as itself only.
func ttyUsers(t *testing.T) []ttyUser {
	t.Helper()
	if os.Getuid() != 0 {
		return []ttyUser{{fmt.Sprintf("uid %d", os.Getuid()), nil, os.Getuid()}}
	}
	users := []ttyUser{{"root", nil, 0}}
	if setpriv, err := exec.LookPath("setpriv"); err == nil {
		users = append(users, ttyUser{"uid 65534", []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"}, 65534})
	} else {
		t.Logf("not run as uid 65534: %v", err)
	}
	return users
}

// ttyDirs makes a home and a project under /var/tmp that u owns, and a
// directory for execution records.
func ttyDirs(t *testing.T, u ttyUser) (home, project, records string) {
	t.Helper()
	base, err := os.MkdirTemp("/var/tmp", "warden-tty-test-")
	if err != nil {
		t.Skipf("requires a writable /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	var dirs []string
	for _, d := range []string{"home", "project", "records"} {
		p := filepath.Join(base, d)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, u.uid, u.uid); err != nil && u.uid != os.Getuid() {
			t.Fatal(err)
		}
		dirs = append(dirs, p)
	}
	return dirs[0], dirs[1], dirs[2]
}

// outerTTY is the test's own terminal: the master it types at and reads,
// and the slave, warden's stdin, stdout and stderr, whose state the test
// reads from outside.
type outerTTY struct {
	t      *testing.T
	master *os.File
	slave  *os.File
	path   string

	mu     sync.Mutex // guards the field below
	screen bytes.Buffer
}

func newOuterTTY(t *testing.T) *outerTTY {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("requires pseudo-terminals: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/dev/pts/%d", n)
	slave, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := &outerTTY{t: t, master: master, slave: slave, path: path}
	t.Cleanup(func() { master.Close(); slave.Close() })
	o.setSize(30, 100)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			o.mu.Lock()
			o.screen.Write(buf[:n])
			o.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return o
}

func (o *outerTTY) setSize(rows, cols uint16) {
	o.t.Helper()
	if err := unix.IoctlSetWinsize(int(o.slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		o.t.Fatal(err)
	}
}

// ttyState is what a command could change of a terminal, each part
// written as read or as the error reading it gave (TCGETS fails under the
// N_NULL line discipline, for example).
type ttyState struct {
	Termios   string
	Ldisc     string
	Exclusive string
	Winsize   string
}

// state reads the terminal's state on the test's side, as stty -g,
// TIOCGETD, TIOCGEXCL and TIOCGWINSZ would.
func (o *outerTTY) state() ttyState {
	o.t.Helper()
	fd := int(o.slave.Fd())
	show := func(v any, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%+v", v)
	}
	tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	st := ttyState{Termios: show(tio, err)}
	ld, err := unix.IoctlGetInt(fd, unix.TIOCGETD)
	st.Ldisc = show(ld, err)
	excl, err := unix.IoctlGetInt(fd, unix.TIOCGEXCL)
	st.Exclusive = show(excl, err)
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	st.Winsize = show(ws, err)
	return st
}

// start runs argv on the terminal, as its session's controlling terminal.
func (o *outerTTY) start(dir, home string, argv ...string) *exec.Cmd {
	o.t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=/tmp", "LANG=C.UTF-8", "TERM=xterm"}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = o.slave, o.slave, o.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		o.t.Fatal(err)
	}
	return cmd
}

func (o *outerTTY) shown() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.screen.String()
}

// waitFor waits until what the terminal showed after from matches re,
// and returns where the match ends. The deadline only keeps a broken run
// from hanging the test.
func (o *outerTTY) waitFor(from int, re string) int {
	o.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(time.Minute)
	for {
		s := o.shown()
		if loc := rx.FindStringIndex(s[from:]); loc != nil {
			return from + loc[1]
		}
		if time.Now().After(deadline) {
			o.t.Fatalf("the terminal never showed %q; it showed:\n%q", re, s[from:])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (o *outerTTY) typeText(s string) {
	o.t.Helper()
	if _, err := o.master.WriteString(s); err != nil {
		o.t.Fatal(err)
	}
}

// waitExit waits for cmd and returns its exit status.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("%q did not end", cmd.Args)
		return -1
	}
}

// ttyRecord is the part of the execution record these tests read.
type ttyRecord struct {
	Status int `json:"status"`
	Stdout struct {
		Text string `json:"text"`
	} `json:"stdout"`
	Limits struct {
		TimeoutMS     int64  `json:"timeout_ms"`
		TimeoutSource string `json:"timeout_source"`
	} `json:"limits"`
}

func readRecord(t *testing.T, path string) ttyRecord {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r ttyRecord
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAdversarialTerminalShell: warden run -- bash -i at a terminal is a
// usable shell. It shows a prompt and runs commands; ^C typed at the
// terminal interrupts the foreground command (sleep, status 130) and not
// bash; ^Z stops it (job control); a SIGINT sent to warden interrupts the
// foreground command the same way; warden stopped and continued makes the
// caller's terminal raw again; the command's terminal is its own
// (/dev/pts/0 of the sandbox's devpts, /dev/tty) with the caller's window size,
// followed when the caller's changes; exit ends the run; what the
// terminal showed is in the record; the interactive run had no timeout;
// and the caller's terminal is in the state it had before.
func TestAdversarialTerminalShell(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	bash := sandboxtest.RequireCommand(t, "bash")
	warden := sandboxtest.BuildWarden(t)
	for _, u := range ttyUsers(t) {
		t.Run(u.name, func(t *testing.T) {
			home, project, records := ttyDirs(t, u)
			o := newOuterTTY(t)
			before := o.state()
			cooked, err := unix.IoctlGetTermios(int(o.slave.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			rec := filepath.Join(records, "shell.json")
			argv := append(append([]string(nil), u.as...), warden, "run", "--audit-json", rec, "--", bash, "--norc", "--noprofile", "-i")
			cmd := o.start(project, home, argv...)
			// An interactive shell runs commands nobody can know in
			// advance: the policy asks, at this terminal, before the
			// sandbox is built.
			at := o.waitFor(0, `warden: floor: cannot be analysed statically: opens a shell whose commands are not known\r?\n`+
				`warden: policy: run \S+ --norc --noprofile -i in the sandbox\? \[y/N\] $`)
			o.typeText("y\r")
			prompt := `bash-[0-9.]+\$ $`
			at = o.waitFor(at, prompt)

			o.typeText("echo hi$((6*7))\r")
			at = o.waitFor(at, `[\r\n]hi42\r\n`)
			at = o.waitFor(at, prompt)

			// ^C reaches the foreground command through the line
			// discipline of the command's terminal: sleep dies of
			// SIGINT, bash stays.
			o.typeText("sh -c 'echo c-started; exec sleep 100'\r")
			at = o.waitFor(at, `[\r\n]c-started\r\n`)
			o.typeText("\x03")
			at = o.waitFor(at, prompt)
			o.typeText("echo status=$?\r")
			at = o.waitFor(at, `[\r\n]status=130\r\n`)

			// ^Z stops it: job control.
			o.typeText("sh -c 'echo z-started; exec sleep 101'\r")
			at = o.waitFor(at, `[\r\n]z-started\r\n`)
			o.typeText("\x1a")
			at = o.waitFor(at, `Stopped`)
			at = o.waitFor(at, prompt)
			o.typeText("kill -KILL %1; wait; echo killed\r")
			at = o.waitFor(at, `[\r\n]killed\r\n`)

			// A SIGINT sent to warden (kill, not the key) goes to the
			// foreground process group, as ^C would.
			o.typeText("sh -c 'echo k-started; exec sleep 102'\r")
			at = o.waitFor(at, `[\r\n]k-started\r\n`)
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			at = o.waitFor(at, prompt)
			o.typeText("echo status=$?\r")
			at = o.waitFor(at, `[\r\n]status=130\r\n`)

			// Stopped, the caller's shell setting its own modes, then
			// continued (fg): raw again, and still working.
			if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			waitState(t, cmd.Process.Pid, 'T')
			if err := unix.IoctlSetTermios(int(o.slave.Fd()), unix.TCSETS, cooked); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
				tio, err := unix.IoctlGetTermios(int(o.slave.Fd()), unix.TCGETS)
				if err != nil {
					t.Fatal(err)
				}
				if tio.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("after SIGCONT the caller's terminal is not raw again: %+v", tio)
				}
			}

			// Its own terminal (and /dev/tty), the caller's size,
			// followed.
			o.typeText("echo via-dev-tty > /dev/tty\r")
			at = o.waitFor(at, `[\r\n]via-dev-tty\r\n`)
			o.typeText("tty; stty size\r")
			at = o.waitFor(at, `[\r\n]/dev/pts/0\r\n30 100\r\n`)
			o.setSize(40, 120)
			o.typeText("stty size\r")
			// The resize's SIGWINCH can reach bash while it reads the
			// line: readline then redraws it after the newline, and the
			// answer follows the redrawn "stty size" directly.
			at = o.waitFor(at, `(?:[\r\n]|stty size)40 120\r\n`)
			before.Winsize = fmt.Sprintf("%+v", &unix.Winsize{Row: 40, Col: 120})

			o.typeText("exit 7\r")
			if code := waitExit(t, cmd); code != 7 {
				t.Errorf("warden run -- bash -i ended with %d, want 7 (bash's exit); the terminal showed:\n%q", code, o.shown())
			}
			if diff := cmp.Diff(before, o.state()); diff != "" {
				t.Errorf("the caller's terminal changed (-before +after):\n%s", diff)
			}
			r := readRecord(t, rec)
			if !strings.Contains(r.Stdout.Text, "hi42") || !strings.Contains(r.Stdout.Text, "status=130") {
				t.Errorf("the record's stdout does not have what the terminal showed: %q", r.Stdout.Text)
			}
			if r.Limits.TimeoutMS != 0 || r.Limits.TimeoutSource != "interactive" {
				t.Errorf("record limits: timeout_ms %d, timeout_source %q; want 0, interactive", r.Limits.TimeoutMS, r.Limits.TimeoutSource)
			}
		})
	}
}

// waitState waits until process pid is in state (a letter of
// /proc/PID/stat: 'T' stopped).
func waitState(t *testing.T, pid int, state byte) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatal(err)
		}
		// pid (comm) state ...: comm may hold spaces, not ')'.
		if i := bytes.LastIndexByte(b, ')'); i > 0 && i+2 < len(b) && b[i+2] == state {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d never reached state %c: %s", pid, state, b)
		}
	}
}

// ttyAttack is a program that does to its stdin, a terminal, what a
// command could do to hurt the caller's: it sets raw mode without echo,
// makes the terminal exclusive (TIOCEXCL: no further open), sets a 1x1
// window (TIOCSWINSZ: SIGWINCH to the terminal's foreground group) and
// gives it the N_NULL line discipline (TIOCSETD: the terminal shows and
// reads nothing more). It writes how each went to the file it is given,
// since the terminal may show nothing by then.
const ttyAttack = `package main

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

func ioctl(req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, 0, req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

func main() {
	out, err := os.Create(os.Args[1])
	if err != nil {
		os.Exit(1)
	}
	defer out.Close()
	say := func(what string, err error) {
		if err != nil {
			fmt.Fprintf(out, "%s failed: %v\n", what, err)
		} else {
			fmt.Fprintf(out, "%s done\n", what)
		}
	}
	var t syscall.Termios
	say("TCGETS", ioctl(syscall.TCGETS, unsafe.Pointer(&t)))
	t.Lflag &^= syscall.ECHO | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
	t.Iflag &^= syscall.ICRNL | syscall.IXON
	t.Oflag &^= syscall.OPOST
	say("TCSETS", ioctl(syscall.TCSETS, unsafe.Pointer(&t)))
	say("TIOCEXCL", ioctl(syscall.TIOCEXCL, nil))
	ws := [4]uint16{1, 1, 0, 0}
	say("TIOCSWINSZ", ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws)))
	nNull := int32(27)
	say("TIOCSETD", ioctl(syscall.TIOCSETD, unsafe.Pointer(&nNull)))
}
`

// buildTTYAttack builds ttyAttack where every user can run it.
func buildTTYAttack(t *testing.T) string {
	t.Helper()
	goCmd := sandboxtest.RequireCommand(t, "go")
	dir, err := os.MkdirTemp("/var/tmp", "warden-tty-attack-")
	if err != nil {
		t.Skipf("requires a writable /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	src := filepath.Join(dir, "attack.go")
	if err := os.WriteFile(src, []byte(ttyAttack), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "attack")
	cmd := exec.Command(goCmd, "build", "-o", bin, src)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GO111MODULE=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	os.Chmod(bin, 0o755)
	return bin
}

// TestAdversarialTerminalIoctls: a command under warden run that runs
// stty raw -echo, then TIOCEXCL, TIOCSWINSZ and TIOCSETD N_NULL on its
// terminal, each of which succeeds inside, leaves the caller's terminal
// exactly as it was: termios (stty -g), line discipline, not exclusive (a
// new open works), window size. The control runs the same program on
// the test's terminal without warden and sees every change.
func TestAdversarialTerminalIoctls(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	sandboxtest.RequireCommand(t, "stty")
	attack := buildTTYAttack(t)
	warden := sandboxtest.BuildWarden(t)

	t.Run("control", func(t *testing.T) {
		dir := t.TempDir()
		o := newOuterTTY(t)
		before := o.state()
		report := filepath.Join(dir, "report")
		cmd := o.start(dir, dir, "sh", "-c", `stty raw -echo && "$0" "$1"`, attack, report)
		if code := waitExit(t, cmd); code != 0 {
			t.Fatalf("the attack without warden ended with %d", code)
		}
		after := o.state()
		if before.Termios == after.Termios || after.Ldisc != "27" || after.Exclusive != "1" || !strings.Contains(after.Winsize, "Row:1 Col:1 ") {
			t.Fatalf("without warden the attack did not change the terminal (before %+v, after %+v): the test would see nothing", before, after)
		}
	})

	for _, u := range ttyUsers(t) {
		t.Run(u.name, func(t *testing.T) {
			home, project, records := ttyDirs(t, u)
			o := newOuterTTY(t)
			before := o.state()
			rec := filepath.Join(records, "ioctls.json")
			argv := append(append(append([]string(nil), u.as...), warden, "run", "--audit-json", rec, "--"),
				scriptIn(t, project, u.uid, `echo before-attack; stty raw -echo && "$1" report`)...)
			argv = append(argv, attack)
			cmd := o.start(project, home, argv...)
			if code := waitExit(t, cmd); code != 0 {
				t.Fatalf("warden run ended with %d; the terminal showed:\n%q", code, o.shown())
			}
			b, err := os.ReadFile(filepath.Join(project, "report"))
			if err != nil {
				t.Fatal(err)
			}
			want := "TCGETS done\nTCSETS done\nTIOCEXCL done\nTIOCSWINSZ done\nTIOCSETD done\n"
			if string(b) != want {
				t.Fatalf("inside, the attack did not do everything on its terminal:\n%s", b)
			}
			if diff := cmp.Diff(before, o.state()); diff != "" {
				t.Errorf("the caller's terminal changed (-before +after):\n%s", diff)
			}
			// Not exclusive: it can still be opened, and still shows
			// what is written to it.
			f, err := os.OpenFile(o.path, os.O_RDWR|syscall.O_NOCTTY, 0)
			if err != nil {
				t.Fatalf("the caller's terminal cannot be opened after the run: %v", err)
			}
			f.WriteString("still-here\n")
			f.Close()
			o.waitFor(0, `still-here`)
			if r := readRecord(t, rec); !strings.Contains(r.Stdout.Text, "before-attack") {
				t.Errorf("the record's stdout does not have what the terminal showed: %q", r.Stdout.Text)
			}
		})
	}
}

// TestAdversarialTerminalStdinOnly: with stdin on the caller's terminal
// and stdout not (warden run -- cmd | less at a prompt), the caller's
// terminal is still never handed in, and warden does not take it either
// (it would read keys and set modes under the pager's feet): the
// command's stdin is /dev/null, it has no terminal (no /dev/tty), and the
// caller's terminal is as it was. The control runs the same command
// without warden and sees the caller's terminal as its stdin.
func TestAdversarialTerminalStdinOnly(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	warden := sandboxtest.BuildWarden(t)
	script := `readlink /proc/self/fd/0; [ -t 0 ] && echo stdin-tty || echo stdin-not-tty; (: < /dev/tty) 2>/dev/null && echo dev-tty || echo no-dev-tty`
	for _, u := range append([]ttyUser{{"control", nil, -1}}, ttyUsers(t)...) {
		t.Run(u.name, func(t *testing.T) {
			var argv []string
			var home, project string
			if u.name == "control" {
				home = t.TempDir()
				project = home
				argv = []string{"sh", "-c", script}
			} else {
				home, project, _ = ttyDirs(t, u)
				argv = append(append(append([]string(nil), u.as...), warden, "run", "--"), scriptIn(t, project, u.uid, script)...)
			}
			o := newOuterTTY(t)
			before := o.state()
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir = project
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=/tmp"}
			var out, errb bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = o.slave, &out, &errb
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v: %s%s", err, out.String(), errb.String())
			}
			got := out.String()
			want := "/dev/null\nstdin-not-tty\nno-dev-tty\n"
			if u.name == "control" {
				want = o.path + "\nstdin-tty\ndev-tty\n"
			}
			if got != want {
				t.Errorf("inside: %q, want %q", got, want)
			}
			if diff := cmp.Diff(before, o.state()); diff != "" {
				t.Errorf("the caller's terminal changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestAdversarialTerminalRestored: however a run at a terminal ends, the
// caller's terminal is set back exactly as it was, even when the command
// left its own terminal raw: the command's end, the timeout, a command
// that is not found, a sandbox that cannot be built (after warden made
// the caller's terminal raw), a SIGTERM sent to warden.
func TestAdversarialTerminalRestored(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	warden := sandboxtest.BuildWarden(t)
	for _, u := range ttyUsers(t) {
		for _, tt := range []struct {
			name    string
			args    []string
			started string // sent SIGTERM once this shows
			want    int
		}{
			{"command's end", []string{"--", "sh", "-c", "stty raw -echo; exit 3"}, "", 3},
			{"timeout", []string{"--timeout", "1s", "--", "sh", "-c", "stty raw -echo; exec sleep 100"}, "", 137},
			{"not found", []string{"--", "warden-no-such-command"}, "", 127},
			{"sandbox not built", []string{"--policy", "rw-root.yaml", "--", "true"}, "", 125},
			{"SIGTERM", []string{"--", "sh", "-c", "stty raw -echo; echo s-started; exec sleep 100"}, "s-started", 128 + 15},
		} {
			t.Run(u.name+"/"+tt.name, func(t *testing.T) {
				home, project, _ := ttyDirs(t, u)
				policy := "version: 1\nsandbox:\n  filesystem:\n    read_write: [/]\n"
				if err := os.WriteFile(filepath.Join(project, "rw-root.yaml"), []byte(policy), 0o644); err != nil {
					t.Fatal(err)
				}
				o := newOuterTTY(t)
				before := o.state()
				argv := append(append(append([]string(nil), u.as...), warden, "run"), tt.args...)
				cmd := o.start(project, home, argv...)
				if tt.started != "" {
					o.waitFor(0, tt.started+`\r?\n`)
					if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
						t.Fatal(err)
					}
				}
				if code := waitExit(t, cmd); code != tt.want {
					t.Errorf("warden run ended with %d, want %d; the terminal showed:\n%q", code, tt.want, o.shown())
				}
				if diff := cmp.Diff(before, o.state()); diff != "" {
					t.Errorf("the caller's terminal changed (-before +after):\n%s", diff)
				}
			})
		}
	}
}
