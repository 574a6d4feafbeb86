// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// The warm sandbox (warm_linux.go), attacked: a Keeper in a process of
// its own, as warden serve runs one, and callers that try to get an init
// they should not have, to keep one past their end, or to have one
// handed over twice.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// startKeeper starts the test binary as a Keeper (keepForTest), with env
// added, and returns its socket and process; the Keeper ends with the
// test.
func startKeeper(t *testing.T, env ...string) (string, *exec.Cmd) {
	t.Helper()
	sandboxtest.RequireUserNS(t)
	// A short path: a socket's is at most 108 bytes.
	dir, err := os.MkdirTemp("", "wk-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	line, cmd := helper(t, nil, syscall.SIGTERM, append([]string{envKeeper + "=" + dir}, env...)...)
	if line != "ready" {
		t.Fatalf("the Keeper did not start: %q", line)
	}
	return filepath.Join(dir, WarmSocket), cmd
}

// helper starts the test binary, through wrap if given, with env added
// (and envWarm taken away), and returns its first line of output and
// the process, which stop ends with the test.
func helper(t *testing.T, wrap []string, stop syscall.Signal, env ...string) (string, *exec.Cmd) {
	t.Helper()
	argv := append(append([]string(nil), wrap...), os.Args[0])
	cmd := exec.Command(argv[0], argv[1:]...)
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, envWarm+"=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(stop)
		cmd.Wait()
	})
	line, _ := bufio.NewReader(out).ReadString('\n')
	return strings.TrimSpace(line), cmd
}

// taker starts the test binary as a caller that takes an init from the
// Keeper on sock (takeForTest), through wrap (setpriv, unshare, …) if
// given, and returns its first line and the process, which holds the
// init until it is killed.
func taker(t *testing.T, sock string, wrap ...string) (string, *exec.Cmd) {
	t.Helper()
	return helper(t, wrap, syscall.SIGKILL, envTake+"="+sock)
}

// takenPid is the pid in a taker's "taken PID", or 0.
func takenPid(line string) int {
	pid, _ := strconv.Atoi(strings.TrimPrefix(line, "taken "))
	return pid
}

// gone waits for pid to end, and says whether it did: reaped, or a
// zombie (whoever inherits it here may never reap it).
func gone(pid int) bool {
	for range 1000 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// The state follows the command's name, in parentheses.
		if i := bytes.LastIndexByte(b, ')'); i > 0 && len(b) > i+2 && (b[i+2] == 'Z' || b[i+2] == 'X') {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// childrenOf lists the children of every thread of pid.
func childrenOf(t *testing.T, pid int) []int {
	t.Helper()
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var kids []int
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, w := range strings.Fields(string(b)) {
			if k, err := strconv.Atoi(w); err == nil {
				kids = append(kids, k)
			}
		}
	}
	return kids
}

// TestSandboxDiesWithWarden kills the warden that runs a sandbox, with
// SIGKILL, so that it cannot clean up: the sandbox's init and the
// command must end with it, whether init was started by that warden
// (cold, the parent-death signal, which a root caller's init must set
// again after changing its uid) or taken from a Keeper (warm, whose
// caller is not init's parent). Checked from outside, by pid.
func TestSandboxDiesWithWarden(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	for _, warm := range []bool{false, true} {
		t.Run(map[bool]string{false: "cold", true: "warm"}[warm], func(t *testing.T) {
			var sock string
			var keeper *exec.Cmd
			if warm {
				sock, keeper = startKeeper(t)
			}
			project := t.TempDir()
			_, cmd := helper(t, nil, syscall.SIGKILL, envHold+"="+project, envHoldWarm+"="+sock)
			for range 1000 {
				if _, err := os.Stat(filepath.Join(project, "started")); err == nil {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			parent := cmd.Process.Pid
			if warm {
				parent = keeper.Process.Pid
			}
			var inits []int
			for _, k := range childrenOf(t, parent) {
				if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", k)); bytes.Contains(b, []byte(InitArg)) && len(childrenOf(t, k)) > 0 {
					inits = append(inits, k)
				}
			}
			if len(inits) != 1 {
				t.Fatalf("found %d inits running a command under %d", len(inits), parent)
			}
			init := inits[0]
			command := childrenOf(t, init)
			cmd.Process.Kill()
			cmd.Wait()
			for _, p := range append([]int{init}, command...) {
				if !gone(p) {
					t.Errorf("process %d of the sandbox outlives the warden that ran it", p)
					syscall.Kill(p, syscall.SIGKILL)
				}
			}
		})
	}
}

// TestWarmRunIsTheCallers checks that a run through a Keeper is the
// caller's run: its output, status, stdin, umask and resource limits are
// the caller's, not the Keeper's (umask 077, a lower RLIMIT_MSGQUEUE).
func TestWarmRunIsTheCallers(t *testing.T) {
	sock, _ := startKeeper(t)
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_MSGQUEUE, &rl); err != nil || rl.Cur == keeperMsgqueue {
		t.Skipf("RLIMIT_MSGQUEUE is already %d here (%v)", keeperMsgqueue, err)
	}
	for _, warm := range []bool{false, true} {
		var out, errb bytes.Buffer
		spec := Spec{Argv: sh(`read x; echo "in=$x"; umask; awk '/^Max msgqueue size/ {print $4}' /proc/self/limits; exit 7`), Project: t.TempDir(),
			Stdin: strings.NewReader("hello\n"), Stdout: &out, Stderr: &errb, Timeout: time.Minute}
		if warm {
			spec.Warm = sock
		}
		res, err := Run(context.Background(), spec)
		if err != nil {
			t.Fatalf("warm %v: %v\nstderr: %s", warm, err, errb.String())
		}
		if res.Warm != warm {
			t.Errorf("warm %v: Result.Warm = %v", warm, res.Warm)
		}
		limit := strconv.FormatUint(rl.Cur, 10)
		if rl.Cur == unix.RLIM_INFINITY {
			limit = "unlimited"
		}
		want := fmt.Sprintf("in=hello\n%04o\n%s\n", umask(), limit)
		if out.String() != want || res.ExitCode != 7 {
			t.Errorf("warm %v: status %d, stdout %q, want 7 and %q", warm, res.ExitCode, out.String(), want)
		}
		if res.CPUTime <= 0 {
			t.Errorf("warm %v: no CPU time counted", warm)
		}
	}
}

// TestWarmRefusesConfinedCaller attempts to get an init from a Keeper as
// callers more confined than it: with no_new_privs (as a seccomp filter
// or Landlock domain requires), in a mount namespace of their own (as
// bubblewrap or a container puts them), and as another user. None gets
// one; the unconfined control does.
func TestWarmRefusesConfinedCaller(t *testing.T) {
	sandboxtest.RequireRoot(t)
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	unshare := sandboxtest.RequireCommand(t, "unshare")
	sock, _ := startKeeper(t)
	for _, tt := range []struct {
		name string
		wrap []string
		why  string // in the refusal
	}{
		{"no_new_privs", []string{setpriv, "--no-new-privs"}, "NoNewPrivs"},
		{"mount namespace", []string{unshare, "-m"}, "ns/mnt"},
		{"network namespace", []string{unshare, "-n"}, "ns/net"},
		{"bounding set", []string{setpriv, "--bounding-set", "-sys_admin"}, "Cap"},
		{"another user", []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}, "permission denied"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			line, _ := taker(t, sock, tt.wrap...)
			if !strings.HasPrefix(line, "refused: ") || !strings.Contains(line, tt.why) {
				t.Errorf("a caller with %s: %q, want refused for %s", tt.name, line, tt.why)
			}
		})
	}
	line, _ := taker(t, sock)
	if takenPid(line) == 0 {
		t.Errorf("the unconfined control got no init: %q", line)
	}
}

// TestWarmInitDiesWithCaller takes an init and kills the caller that
// holds it: the Keeper kills the init, as the kernel kills a cold init
// whose parent dies.
func TestWarmInitDiesWithCaller(t *testing.T) {
	sock, _ := startKeeper(t)
	line, cmd := taker(t, sock)
	pid := takenPid(line)
	if pid == 0 {
		t.Fatalf("no init taken: %q", line)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the init taken is not alive: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if !gone(pid) {
		t.Errorf("init %d outlives the caller that took it", pid)
	}
}

// TestWarmHandedOnce takes inits back to back: each is handed over once.
func TestWarmHandedOnce(t *testing.T) {
	sock, _ := startKeeper(t)
	seen := map[int]bool{}
	for i := range 4 {
		line, _ := taker(t, sock)
		pid := takenPid(line)
		switch {
		case pid == 0:
			t.Errorf("take %d: %q", i, line)
		case seen[pid]:
			t.Errorf("take %d: init %d handed over twice", i, pid)
		case pid != 0:
			seen[pid] = true
		}
	}
}

// TestWarmStartedWhenAsked: a caller that finds no init ready has the
// next started at once, rather than refused until the refill (an hour
// here): while the run that took the last one still runs, and in the
// pause after it ended. So a script's loop of warden runs, each started
// right after the last, takes an init every time.
func TestWarmStartedWhenAsked(t *testing.T) {
	sock, _ := startKeeper(t, envKeeperAsked+"=1")
	seen := map[int]bool{}
	take := func(when string) *exec.Cmd {
		line, cmd := taker(t, sock)
		pid := takenPid(line)
		if pid == 0 || seen[pid] {
			t.Fatalf("%s: %q", when, line)
		}
		seen[pid] = true
		return cmd
	}
	take("the first")
	held := take("while the run that took the first still runs")
	held.Process.Kill()
	held.Wait()
	// Its status reaches the Keeper, which then pauses before a refill
	// (an hour): the next caller asks in that pause.
	take("after the run that took the second ended")
}

// TestWarmDiesWithKeeper runs a command through a Keeper and kills the
// Keeper: the run ends, its sandbox killed, as a cold one ends with its
// warden.
func TestWarmDiesWithKeeper(t *testing.T) {
	sock, keeper := startKeeper(t)
	project := t.TempDir()
	done := make(chan error, 1)
	var res Result
	go func() {
		var err error
		res, err = Run(context.Background(), Spec{Argv: sh("touch started; exec sleep 3600"), Project: project,
			Mode: WorkspaceWrite, Warm: sock, Stdin: strings.NewReader(""), Timeout: time.Minute})
		done <- err
	}()
	for range 1000 {
		if _, err := os.Stat(filepath.Join(project, "started")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	keeper.Process.Kill()
	keeper.Wait()
	err := <-done
	if err == nil && (!res.InitKilled || res.TimedOut) {
		t.Errorf("the run went on without its Keeper: %+v", res)
	}
	if !res.Warm {
		t.Error("the run did not take its init from the Keeper")
	}
}

// TestWarmIdmapFromServe: a root Keeper sends, with every init, the user
// namespace that maps its own uid and gid to hostID. A root run in a
// project serve's owner owns makes its idmapped mount with it, forking no
// process; a project another user owns gets a namespace of its own, so
// that what the command writes is that user's on disk, never root's. An
// answer no run took leaves no descriptor open.
func TestWarmIdmapFromServe(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skipf("a root caller's idmapped mounts: running as uid %d", os.Getuid())
	}
	sock, _ := startKeeper(t)
	for _, tt := range []struct {
		name   string
		owner  [2]int
		forked int64 // user namespaces the run makes itself
	}{
		{"serve's owner", [2]int{0, 0}, 0},
		{"another owner", [2]int{4242, 4343}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			project := varTempDir(t)
			if err := os.Lchown(project, tt.owner[0], tt.owner[1]); err != nil {
				t.Fatal(err)
			}
			var out, errb strings.Builder
			spec := Spec{Project: project, Mode: WorkspaceWrite, Argv: []string{"sh", "-c", "echo new > new && echo ok"},
				Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Timeout: time.Minute, Warm: sock}
			spec.WarmAsk = AskWarm(sock)
			defer spec.WarmAsk.Close()
			before := usernsForked.Load()
			res, err := Run(context.Background(), spec)
			if err != nil || res.Status() != 0 || !res.Warm {
				t.Fatalf("run: %v (status %d, warm %v)\n%s%s", err, res.Status(), res.Warm, out.String(), errb.String())
			}
			if n := usernsForked.Load() - before; n != tt.forked {
				t.Errorf("the run made %d user namespaces itself, want %d", n, tt.forked)
			}
			var st syscall.Stat_t
			if err := syscall.Lstat(filepath.Join(project, "new"), &st); err != nil {
				t.Fatal(err)
			}
			if int(st.Uid) != tt.owner[0] || int(st.Gid) != tt.owner[1] {
				t.Errorf("new is owned by %d:%d on the host, want the project's owner %d:%d", st.Uid, st.Gid, tt.owner[0], tt.owner[1])
			}
		})
	}
	// An answer read, with its init and namespace, and never taken.
	before := openFDs(t)
	w := AskWarm(sock)
	if a := w.answer(); a.err != nil || a.userns < 0 || len(a.init) != 2 || a.offer.Idmap == nil || *a.offer.Idmap != [2]uint32{0, 0} {
		t.Fatalf("serve's answer: %v, namespace %d for %v, %d init descriptors", a.err, a.userns, a.offer.Idmap, len(a.init))
	}
	w.Close()
	if after := openFDs(t); after > before {
		t.Errorf("%d descriptors open after an answer no run took was closed, %d before", after, before)
	}
}

// TestWarmCgroupFromServe: a run of the default limits takes the cgroup
// warden serve made with its init: the command is inside it, and it is
// gone after the run, also when the run declined the init (other maps)
// and so let go of serve's connection early. A run of other limits makes
// its own; so does a run whose serve is in other cgroups than its own,
// and the one serve offered it is removed.
func TestWarmCgroupFromServe(t *testing.T) {
	sandboxtest.RequireRoot(t)
	sock, keeper := startKeeper(t)
	// made says whether a run directory was made by the Keeper k.
	made := func(d string, k *exec.Cmd) bool {
		return strings.HasPrefix(filepath.Base(d), fmt.Sprintf("%s%d-", cgroupPrefix, k.Process.Pid))
	}
	// runWith runs a sleep of its own under limits l through the Keeper
	// on path, and returns the run's cgroup directories, whether the
	// sleep was in each, and whether each is gone after the run.
	runWith := func(t *testing.T, path string, l Limits, degraded ...Layer) (dirs []string, in, gone map[string]bool) {
		t.Helper()
		withCgroupHook(t, func(ds []string) { dirs = ds })
		token := fmt.Sprintf("1003.%d", time.Now().UnixNano()%1000000)
		in, gone = map[string]bool{}, map[string]bool{}
		seen := make(chan struct{})
		go func() {
			defer close(seen)
			pid := waitProc(token)
			for _, d := range dirs {
				file := "tasks"
				if _, err := os.Stat(filepath.Join(d, file)); err != nil {
					file = "cgroup.procs"
				}
				in[d] = slices.Contains(strings.Fields(readTrim(filepath.Join(d, file))), strconv.Itoa(pid))
			}
			if pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}()
		var out strings.Builder
		spec := Spec{Project: t.TempDir(), Limits: l, Argv: []string{"sh", "-c", "sleep " + token + "; echo woke"},
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Timeout: time.Minute, Warm: path, Degraded: degraded}
		spec.WarmAsk = AskWarm(path)
		spec.Cgroup = StartCgroup(l, spec.WarmAsk)
		res, err := Run(context.Background(), spec)
		spec.Cgroup.Close()
		spec.WarmAsk.Close()
		<-seen
		if err != nil || res.Warm != (len(degraded) == 0) {
			t.Fatalf("run: %v (warm %v)\n%s", err, res.Warm, out.String())
		}
		for _, d := range dirs {
			_, err := os.Stat(d)
			gone[d] = errors.Is(err, os.ErrNotExist)
		}
		return dirs, in, gone
	}
	check := func(t *testing.T, k *exec.Cmd, dirs []string, in, gone map[string]bool, wantServe bool) {
		t.Helper()
		if len(dirs) < 2 {
			t.Fatalf("the run had %d cgroup directories (%v), want memory and pids", len(dirs), dirs)
		}
		for _, d := range dirs {
			if got := made(d, k); got != wantServe {
				t.Errorf("%s made by serve: %v, want %v", d, got, wantServe)
			}
			if !in[d] {
				t.Errorf("the command was not in %s", d)
			}
			if !gone[d] {
				t.Errorf("%s is left after the run", d)
			}
		}
	}
	t.Run("default limits", func(t *testing.T) {
		dirs, in, gone := runWith(t, sock, Limits{})
		check(t, keeper, dirs, in, gone, true)
	})
	t.Run("init declined", func(t *testing.T) {
		// Serve's init has a root caller's maps; this run wants others.
		dirs, in, gone := runWith(t, sock, Limits{}, LayerHostUID)
		check(t, keeper, dirs, in, gone, true)
	})
	t.Run("other limits", func(t *testing.T) {
		dirs, in, gone := runWith(t, sock, Limits{Pids: 500})
		check(t, keeper, dirs, in, gone, false)
	})
	t.Run("serve in other cgroups", func(t *testing.T) {
		other, err := os.MkdirTemp(ownPidsCgroup(t), "warden-test-serve-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			// Serve and its init have exited, but a task that is
			// exiting may keep the directory busy a moment.
			for try := 0; try < 100; try++ {
				os.Remove(filepath.Join(other, "warden"))
				if err := os.Remove(other); err == nil || errors.Is(err, os.ErrNotExist) {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Errorf("the test's cgroup %s is left", other)
		})
		// A short path: a socket's is at most 108 bytes.
		dir, err := os.MkdirTemp("", "wk-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		line, elsewhere := helper(t, []string{"sh", "-c", `echo $$ > "$1/cgroup.procs" && exec "$0"`, os.Args[0], other}, syscall.SIGTERM, envKeeper+"="+dir)
		if line != "ready" {
			t.Fatalf("the Keeper did not start: %q", line)
		}
		// Its offer was made in other: not the run's cgroups.
		t.Cleanup(func() { elsewhere.Process.Signal(syscall.SIGTERM); elsewhere.Wait() })
		dirs, in, gone := runWith(t, filepath.Join(dir, WarmSocket), Limits{})
		check(t, elsewhere, dirs, in, gone, false)
		var left []string
		filepath.WalkDir(filepath.Join(other, "warden"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), cgroupPrefix) {
				left = append(left, p)
			}
			return nil
		})
		if len(left) > 1 {
			t.Errorf("serve's offered cgroups are left after the run that did not take one: %v", left)
		}
	})
}
