// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Resource limit attacks: each exhausts a resource from inside and checks
// from outside (the cgroup files, the host's files) that the limit held.
// The cgroup tests need root; as another user, requested limits must fail
// closed (TestLimitsAsUnprivilegedUser reruns that check as uid 65534).

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// withCgroupHook calls f with the run's cgroup directories once init has
// joined them, before the command starts.
func withCgroupHook(t *testing.T, f func(dirs []string)) {
	t.Helper()
	testOnlyCgroupHook = f
	t.Cleanup(func() { testOnlyCgroupHook = nil })
}

// ctrlDir picks the directory of dirs that has file.
func ctrlDir(dirs []string, file string) string {
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, file)); err == nil {
			return d
		}
	}
	return ""
}

func readTrim(p string) string {
	b, _ := os.ReadFile(p)
	return strings.TrimSpace(string(b))
}

func TestLimitForkBomb(t *testing.T) {
	sandboxtest.RequireRoot(t)
	const limit = 64
	var (
		mu      sync.Mutex
		pidsDir string
		maxSeen int64
		procs   int
		polled  int
	)
	done := make(chan struct{})
	var wg sync.WaitGroup
	withCgroupHook(t, func(dirs []string) {
		d := ctrlDir(dirs, "pids.max")
		mu.Lock()
		pidsDir = d
		mu.Unlock()
		if d == "" {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				case <-time.After(5 * time.Millisecond):
				}
				cur, err := strconv.ParseInt(readTrim(filepath.Join(d, "pids.current")), 10, 64)
				if peak, err := strconv.ParseInt(readTrim(filepath.Join(d, "pids.peak")), 10, 64); err == nil {
					cur = max(cur, peak)
				}
				n := len(strings.Fields(readTrim(filepath.Join(d, "cgroup.procs"))))
				mu.Lock()
				if err == nil {
					maxSeen = max(maxSeen, cur)
					polled++
				}
				procs = max(procs, n)
				mu.Unlock()
			}
		}()
	})
	// The run ends by the timeout, or by itself once the shells give up
	// on forking; either way the limit must hold throughout. Every shell of
	// the bomb waits for its own children: a bomb whose first shell returns
	// at once ends the run as soon as that shell does (the sandbox kills
	// what the command leaves behind), which may be before the limit is
	// reached.
	argv := sh("while :; do sleep 1000 & done")
	if haveCmd("bash") {
		argv = []string{"bash", "-c", ":(){ :|:& wait; };:"}
	}
	start := time.Now()
	o := run(t, Spec{Argv: argv, Timeout: 3 * time.Second, Limits: Limits{Pids: limit}})
	close(done)
	wg.Wait()
	if o.err != nil {
		t.Fatal(o.err)
	}
	mu.Lock()
	defer mu.Unlock()
	if pidsDir == "" {
		t.Fatal("the run had no pids cgroup")
	}
	t.Logf("pids.current peaked at %d over %d polls, %d processes at most; result %+v", maxSeen, polled, procs, o.res)
	if maxSeen > limit || procs > limit {
		t.Errorf("the sandbox held %d tasks, %d processes; limit %d", maxSeen, procs, limit)
	}
	if maxSeen < limit/2 {
		t.Errorf("the fork bomb never came near the limit (%d of %d): the test proves nothing", maxSeen, limit)
	}
	if !o.res.PidsLimitHit {
		t.Error("Result.PidsLimitHit is false")
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the run took %v", d)
	}
	if _, err := os.Stat(pidsDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run's cgroup %s is still there: %v", pidsDir, err)
	}
}

func TestLimitMemory(t *testing.T) {
	sandboxtest.RequireRoot(t)
	const limit = 256 << 20
	var memDir string
	withCgroupHook(t, func(dirs []string) {
		memDir = ctrlDir(dirs, "memory.limit_in_bytes")
		if memDir == "" {
			memDir = ctrlDir(dirs, "memory.max")
		}
	})
	o := run(t, Spec{Limits: Limits{Memory: limit}, Argv: sh(
		"if command -v python3 >/dev/null; then exec python3 -c 'b = bytearray(4 << 30); print(\"ALLOCATED\")'; " +
			"else head -c 4G /dev/zero | tail; echo ALLOCATED; fi")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if memDir == "" {
		t.Fatal("the run had no memory cgroup")
	}
	st := o.res.Status()
	if strings.Contains(o.stdout, "ALLOCATED") || (st != 137 && !strings.Contains(o.stderr, "MemoryError")) {
		t.Errorf("4 GiB allocation under a 256 MiB limit: status %d, stdout %q", st, o.stdout)
	}
	if st == 137 && !o.res.OOMKilled {
		t.Error("killed, but Result.OOMKilled is false")
	}
	// From the cgroup: the host never gave the sandbox more than the limit.
	if o.res.PeakMemory <= 0 || o.res.PeakMemory > limit {
		t.Errorf("peak memory %d, want in (0, %d]", o.res.PeakMemory, limit)
	}
}

func TestLimitNofile(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  int64
		want string
	}{{"set", 321, "321"}, {"default", 0, strconv.Itoa(DefaultNofile)}} {
		t.Run(tt.name, func(t *testing.T) {
			o := run(t, Spec{Limits: Limits{Nofile: tt.set}, Argv: sh("ulimit -n; ulimit -Hn; ulimit -c")})
			if o.err != nil {
				t.Fatal(o.err)
			}
			if got := strings.Fields(o.stdout); len(got) != 3 || got[0] != tt.want || got[1] != tt.want || got[2] != "0" {
				t.Errorf("soft, hard nofile and core = %q; want %s, %s, 0", got, tt.want, tt.want)
			}
		})
	}
}

// TestLimitFailClosedRlimit: an rlimit the kernel refuses (above
// fs.nr_open, for root too) stops the run.
func TestLimitFailClosedRlimit(t *testing.T) {
	project := t.TempDir()
	os.Chmod(project, 0o777)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Limits: Limits{Nofile: 1 << 40}, Argv: sh("echo ran > ran")})
	var se *SetupError
	if !errors.As(o.err, &se) || !strings.Contains(se.Error(), "sandbox unavailable: rlimit nofile") {
		t.Errorf("err = %v, want a SetupError for rlimit nofile", o.err)
	}
	if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
		t.Error("the command ran without its rlimit")
	}
}

func TestLimitFsize(t *testing.T) {
	const limit = 1 << 20
	project := t.TempDir()
	os.Chmod(project, 0o777)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Limits: Limits{Fsize: limit},
		Argv: sh("head -c 5000000 /dev/zero > big; echo rc=$?")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	fi, err := os.Stat(filepath.Join(project, "big"))
	if err != nil {
		t.Fatalf("control: the file was not written at all: %v", err)
	}
	if fi.Size() > limit {
		t.Errorf("the file grew to %d bytes; limit %d", fi.Size(), limit)
	}
	// SIGXFSZ kills head (128+25); with the signal ignored, EFBIG.
	if !strings.Contains(o.stdout, "rc=153") && !strings.Contains(o.stderr, "File too large") {
		t.Errorf("the write did not fail with SIGXFSZ or EFBIG: %q %q", o.stdout, o.stderr)
	}
}

func TestLimitCPU(t *testing.T) {
	sandboxtest.RequireRoot(t)
	sandboxtest.RequireCommand(t, "timeout")
	o := run(t, Spec{Limits: Limits{CPU: 0.25}, Argv: []string{"timeout", "2", "sh", "-c", "while :; do :; done"}})
	if o.err != nil {
		t.Fatal(o.err)
	}
	t.Logf("CPU time %v under a 0.25 CPU quota, cgroup %s", o.res.CPUTime, o.res.Cgroup)
	// Unlimited, the loop would take ~2 s of CPU; the quota allows ~0.5 s.
	// A loose bound: no wall-clock assertion.
	if o.res.CPUTime > 750*time.Millisecond {
		t.Errorf("the busy loop used %v of CPU; the 0.25 CPU quota allows about 0.5 s", o.res.CPUTime)
	}
	if o.res.CPUTime < 50*time.Millisecond {
		t.Errorf("CPU time %v: the accounting does not work, so the test proves nothing", o.res.CPUTime)
	}
}

// TestLimitDefaults: with no limits asked, root gets the default pids and
// memory limits in a cgroup.
func TestLimitDefaults(t *testing.T) {
	sandboxtest.RequireRoot(t)
	var pidsMax, memMax string
	withCgroupHook(t, func(dirs []string) {
		pidsMax = readTrim(filepath.Join(ctrlDir(dirs, "pids.max"), "pids.max"))
		if d := ctrlDir(dirs, "memory.limit_in_bytes"); d != "" {
			memMax = readTrim(filepath.Join(d, "memory.limit_in_bytes"))
		} else if d := ctrlDir(dirs, "memory.max"); d != "" {
			memMax = readTrim(filepath.Join(d, "memory.max"))
		}
	})
	o := run(t, Spec{Argv: []string{"true"}})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if pidsMax != strconv.Itoa(DefaultPids) || memMax != strconv.FormatInt(defaultMemory(), 10) {
		t.Errorf("pids.max %q, memory limit %q; want %d, %d", pidsMax, memMax, DefaultPids, defaultMemory())
	}
	if o.res.Cgroup == "" || len(o.res.Unenforced) != 0 || o.res.PeakMemory == 0 {
		t.Errorf("result %+v: want a cgroup, nothing unenforced, a peak memory", o.res)
	}
}

// ownPidsCgroup is this process's directory in the hierarchy that has
// the pids controller; the test is skipped where there is none.
func ownPidsCgroup(t *testing.T) string {
	t.Helper()
	host, err := discoverCgroups()
	if err != nil {
		t.Fatal(err)
	}
	own := host.v1["pids"]
	if host.v2Ctrls["pids"] {
		own = host.v2
	}
	if own == "" {
		t.Skipf("no pids cgroup on this host (v1 %v, v2 controllers %v)", host.v1, host.v2Ctrls)
	}
	return own
}

func TestLimitSweepStale(t *testing.T) {
	sandboxtest.RequireRoot(t)
	own := ownPidsCgroup(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(own, "warden")
	stale := filepath.Join(base, fmt.Sprintf("%s%d-deadbeef", cgroupPrefix, dead.Process.Pid))
	live := filepath.Join(base, fmt.Sprintf("%s%d-keepme", cgroupPrefix, os.Getpid()))
	for _, d := range []string{stale, live} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(d)
	}
	o := run(t, Spec{Argv: []string{"true"}})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale cgroup %s of a dead warden was not swept: %v", stale, err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the empty cgroup of a live warden was swept: %v", err)
	}
}

// TestLimitFailClosedUnprivileged: without cgroups, a requested limit stops
// the run; the defaults fall back and say so.
func TestLimitFailClosedUnprivileged(t *testing.T) {
	if os.Getuid() == 0 {
		// As root, as a host without cgroup rights would be; the rerun
		// as uid 65534 has none for real.
		noCgroups(t)
	}
	for _, l := range []Limits{{Memory: 256 << 20}, {Pids: 64}, {CPU: 0.5}} {
		project := t.TempDir()
		os.Chmod(project, 0o777)
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Limits: l, Argv: sh("echo ran > ran")})
		var se *SetupError
		if !errors.As(o.err, &se) || !strings.Contains(se.Error(), "sandbox unavailable: cgroup ") || se.Hint == "" {
			t.Errorf("limits %+v: err = %v, want a SetupError naming the cgroup, with a hint", l, o.err)
		}
		if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
			t.Errorf("limits %+v: the command ran without its limit", l)
		}
	}
	o := run(t, Spec{Argv: sh("ulimit -n")})
	if o.err != nil || strings.TrimSpace(o.stdout) != strconv.Itoa(DefaultNofile) {
		t.Errorf("default run: err %v, nofile %q", o.err, o.stdout)
	}
	if len(o.res.Unenforced) == 0 {
		t.Error("the default cgroup limits were skipped without saying so")
	}
}

// TestLimitsAsUnprivilegedUser reruns the limit tests as uid 65534.
func TestLimitsAsUnprivilegedUser(t *testing.T) {
	if os.Getenv(envNested) != "" {
		t.Skip("already running as the unprivileged user")
	}
	rerunAsNobody(t, "^TestLimit")
}

// noCgroups makes cgroups unavailable for the rest of the test, as for a
// user without cgroup rights; the rerun as uid 65534 has none anyway.
func noCgroups(t *testing.T) {
	testOnlyNoCgroup = true
	t.Cleanup(func() { testOnlyNoCgroup = false })
}

func noteWith(res Result, s string) bool {
	for _, n := range res.Unenforced {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// TestLimitFallbackMemory: without a cgroup, --degraded=cgroup bounds each
// process's private memory with RLIMIT_DATA and each private tmpfs by size.
// It runs the real warden binary as a user without cgroups (uid 65534):
// the race detector's runtime, which a test binary serving as init may
// carry, cannot itself live under such a limit.
func TestLimitFallbackMemory(t *testing.T) {
	if !haveCmd("python3") {
		t.Skip("requires python3 on PATH to allocate memory")
	}
	warden := sandboxtest.BuildWarden(t)
	dir := varTempDir(t)
	os.Chmod(dir, 0o777)
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\nsandbox:\n  limits: {memory: 256MiB}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `python3 -c 'b = bytearray(1 << 30); print("ALLOCATED")'; ` +
		`python3 -c 'b = bytearray(64 << 20); print("SMALL OK")'; ` +
		`head -c 400000000 /dev/zero > /tmp/fill; wc -c < /tmp/fill`
	// The project is a directory of the home (the home is never one),
	// and the script one of the project's: the policy judges what it can
	// read before the sandbox is built, and would ask about the read of
	// /tmp on a command line.
	project := filepath.Join(dir, "proj")
	os.Mkdir(project, 0o777)
	os.Chmod(project, 0o777)
	attack := filepath.Join(project, "fill.sh")
	if err := os.WriteFile(attack, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	wardenRun := func(args ...string) (string, string, error) {
		argv := append([]string{warden, "run", "--policy", policy, "--project", project}, args...)
		if os.Getuid() == 0 {
			argv = append([]string{sandboxtest.RequireCommand(t, "setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", "--"}, argv...)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		t.Logf("%q: %v\nstdout: %s\nstderr: %s", args, err, out.String(), errb.String())
		return out.String(), errb.String(), err
	}
	// Requested without --degraded: nothing runs.
	_, stderr, err := wardenRun("--", "true")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 125 || !strings.Contains(stderr, "cgroup memory 256MiB") {
		t.Fatalf("without --degraded: %v, want status 125 naming the memory cgroup", err)
	}
	stdout, stderr, err := wardenRun("--degraded=cgroup", "--", "sh", attack)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout, "ALLOCATED") || !strings.Contains(stderr, "MemoryError") {
		t.Errorf("a 1 GiB allocation under a 256 MiB fallback succeeded")
	}
	if !strings.Contains(stdout, "SMALL OK") {
		t.Error("control: a 64 MiB allocation failed, so the test proves nothing")
	}
	if n, _ := strconv.Atoi(lastLine(stdout)); n == 0 || n > 256<<20 {
		t.Errorf("/tmp took %d bytes, want at most 256 MiB", n)
	}
	if !strings.Contains(stderr, "RLIMIT_DATA") {
		t.Error("the fallback was not stated on stderr")
	}
}

// TestLimitFallbackPids: RLIMIT_NPROC counted in the sandbox's own user
// namespace bounds processes; for root, whom the kernel exempts, the run
// says it is not enforced.
func TestLimitFallbackPids(t *testing.T) {
	noCgroups(t)
	token := fmt.Sprintf("1001.%d", time.Now().UnixNano()%1000000)
	// The spawning runs in a subshell, whose end at the first fork the
	// limit refuses leaves the outer shell, which then counts the
	// sandbox's processes without forking (a glob of /proc, its own pid
	// namespace): the sleeps that got through are alive until the run
	// ends. Counting from outside instead (sampling /proc) missed them
	// when the refusal came fast and the run ended between two samples.
	o := run(t, Spec{Limits: Limits{Pids: 32}, Degraded: []Layer{LayerCgroup}, Timeout: 20 * time.Second, Argv: sh(fmt.Sprintf(
		"(for i in $(seq 200); do sleep %s & done) 2>/dev/null; set -- /proc/[0-9]*; echo \"$#\"", token))})
	if o.err != nil {
		t.Fatal(o.err)
	}
	// The fallback is named, as asked, with its note.
	if fs := o.res.Fallbacks; len(fs) == 0 || fs[len(fs)-1].Limit != "requested pids 32" || !fs[len(fs)-1].Requested || !noteWith(o.res, fs[len(fs)-1].Note) {
		t.Errorf("the fallbacks do not name requested pids 32 with its note: %+v", fs)
	}
	if left := findProcs(token); len(left) != 0 {
		t.Errorf("processes outlived the run: %v", left)
	}
	if os.Getuid() == 0 {
		if !noteWith(o.res, "not enforced: RLIMIT_NPROC does not apply to root") {
			t.Errorf("root: the pids fallback was not said to be unenforced: %q", o.res.Unenforced)
		}
		return
	}
	if !noteWith(o.res, "RLIMIT_NPROC") {
		t.Errorf("the fallback was not stated: %q", o.res.Unenforced)
	}
	// init, the shell and the sleeps that got through: RLIMIT_NPROC is
	// the 32 asked plus room for init's threads.
	n, err := strconv.Atoi(strings.TrimSpace(o.stdout))
	if err != nil {
		t.Fatalf("the command did not count its processes: %q (stderr %q)", o.stdout, o.stderr)
	}
	t.Logf("%d processes in the sandbox after 200 spawned", n)
	if n < 3 || n > 1+32+initThreads {
		t.Errorf("%d processes ran at once of 200 spawned under a 32-process fallback", n)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// waitProc polls until a process whose command line holds token
// exists, and returns its pid, or 0 after a minute.
func waitProc(token string) int {
	for range 6000 {
		if ps := findProcs(token); len(ps) > 0 {
			pid, _, _ := strings.Cut(ps[0], ":")
			n, _ := strconv.Atoi(pid)
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}

// procCgroups is /proc/PID/cgroup: each hierarchy's controllers
// ("memory", "pids", "cpu,cpuacct", "" for v2) to the process's path.
func procCgroups(pid int) map[string]string {
	m := map[string]string{}
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.SplitN(line, ":", 3); len(f) == 3 {
			m[f[1]] = f[2]
		}
	}
	return m
}

// TestCgroupHoldsTheCommand: the command and what it forks are in every
// cgroup of the run (init's start-command thread joins the v1 ones just
// before the fork), seen from outside while the run is on.
func TestCgroupHoldsTheCommand(t *testing.T) {
	sandboxtest.RequireRoot(t)
	var dirs []string
	withCgroupHook(t, func(ds []string) { dirs = ds })
	token := fmt.Sprintf("1002.%d", time.Now().UnixNano()%1000000)
	type seen struct {
		pid  int
		in   map[string]bool // run directory -> holds pid
		tree map[string]string
	}
	got := make(chan seen, 1)
	go func() {
		pid := waitProc(token)
		s := seen{pid: pid, in: map[string]bool{}, tree: procCgroups(pid)}
		for _, d := range dirs {
			file := "tasks"
			if _, err := os.Stat(filepath.Join(d, file)); err != nil {
				file = "cgroup.procs"
			}
			s.in[d] = slices.Contains(strings.Fields(readTrim(filepath.Join(d, file))), strconv.Itoa(pid))
		}
		if pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		got <- s
	}()
	// The sleep is the shell's child: a grandchild of init.
	o := run(t, Spec{Limits: Limits{CPU: 1}, Argv: sh("sleep " + token + "; echo woke")})
	s := <-got
	if o.err != nil {
		t.Fatal(o.err)
	}
	if s.pid == 0 {
		t.Fatal("the command never showed up")
	}
	if len(dirs) < 3 {
		t.Fatalf("the run had %d cgroup directories (%v), want memory, pids and cpu", len(dirs), dirs)
	}
	for _, d := range dirs {
		if !s.in[d] {
			t.Errorf("the command (pid %d) is not in %s; its cgroups: %v", s.pid, d, s.tree)
		}
	}
	if o.res.CPUTime <= 0 && !strings.Contains(o.res.Cgroup, "v2") {
		t.Logf("no CPU time measured (cpuacct not joined): %+v", o.res)
	}
}

// TestDegradedCgroupMakesNone: --degraded=cgroup makes and joins no
// cgroup, even where one could be had; the limits fall back to rlimits
// and the run says so.
func TestDegradedCgroupMakesNone(t *testing.T) {
	sandboxtest.RequireRoot(t)
	var dirs []string
	withCgroupHook(t, func(ds []string) { dirs = ds })
	token := fmt.Sprintf("1003.%d", time.Now().UnixNano()%1000000)
	got := make(chan map[string]string, 1)
	go func() {
		pid := waitProc(token)
		m := procCgroups(pid)
		if pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		got <- m
	}()
	o := run(t, Spec{Limits: Limits{Pids: 100}, Degraded: []Layer{LayerCgroup}, Argv: sh("sleep " + token)})
	tree := <-got
	if o.err != nil {
		t.Fatal(o.err)
	}
	if len(tree) == 0 {
		t.Fatal("the command never showed up")
	}
	if len(dirs) != 0 || o.res.Cgroup != "" {
		t.Errorf("a cgroup was made: directories %v, Result.Cgroup %q", dirs, o.res.Cgroup)
	}
	for ctrl, p := range tree {
		if strings.Contains(p, "/warden/"+cgroupPrefix) {
			t.Errorf("the command is in a run cgroup: %s:%s", ctrl, p)
		}
	}
	if fs := o.res.Fallbacks; len(fs) == 0 || !strings.Contains(fs[len(fs)-1].Note, "no cgroup (--degraded=cgroup)") {
		t.Errorf("the fallbacks do not say why there is no cgroup: %+v", fs)
	}
}

// TestCgroupAskRemoved: a cgroup begun ahead that no run took (the command
// was refused) is removed by Close, leaving no directory behind.
func TestCgroupAskRemoved(t *testing.T) {
	sandboxtest.RequireRoot(t)
	c := StartCgroup(Limits{CPU: 1}, nil)
	m := (<-c.made).(cgroupMade)
	if m.err != nil || m.cg == nil || len(m.cg.dirs) == 0 {
		t.Skipf("no cgroup could be made here: %v", m.err)
	}
	dirs := m.cg.dirs
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("%s was not made: %v", d, err)
		}
	}
	c.made <- m
	c.Close()
	for _, d := range dirs {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s is still there after Close (%v)", d, err)
		}
	}
}
