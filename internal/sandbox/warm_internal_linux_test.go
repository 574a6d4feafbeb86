// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/seccomp"
)

// helperMode runs the test binary as what the environment asks, when it
// asks: a caller that takes an init from a Keeper (envTake), a Keeper in
// a process of its own (envKeeper), or, with WARDEN_TEST_WARM, the tests
// themselves with a Keeper that every integration test's run takes its
// init from (testWarm, warmRun).
func helperMode(m *testing.M) (int, bool) {
	if path := os.Getenv(envTake); path != "" {
		return takeForTest(path), true
	}
	if dir := os.Getenv(envKeeper); dir != "" {
		return keepForTest(dir), true
	}
	if project := os.Getenv(envHold); project != "" {
		return holdForTest(project, os.Getenv(envHoldWarm)), true
	}
	if os.Getenv(envUnderSeccomp) != "" {
		return underSeccompForTest(), true
	}
	if os.Getenv(envWarm) != "" {
		return runWarm(m), true
	}
	return 0, false
}

// envUnderSeccomp makes the test binary put itself under Warden's
// seccomp filter and say what underSeccomp says then.
const envUnderSeccomp = "WARDEN_TEST_UNDER_SECCOMP"

func underSeccompForTest() int {
	fmt.Println("before", underSeccomp())
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fmt.Println(err)
		return 1
	}
	if _, err := seccomp.Install(seccomp.Options{}); err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("after", underSeccomp())
	return 0
}

// TestUnderSeccomp: a process under a seccomp filter knows it, one that
// is not does too (Nested).
func TestUnderSeccomp(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envUnderSeccomp+"=1")
	b, err := cmd.CombinedOutput()
	if got, want := string(b), "before false\nafter true\n"; err != nil || got != want {
		t.Errorf("under seccomp: %q (%v), want %q", got, err, want)
	}
}

// envWarm asks TestMain for a Keeper.
const envWarm = "WARDEN_TEST_WARM"

// envTake makes the test binary a caller that takes an init from the
// Keeper on that socket (takeForTest).
const envTake = "WARDEN_TEST_WARM_TAKE"

// takeForTest takes an init from the Keeper on path and says so on
// stdout, "taken PID" or "refused: WHY"; then it holds the init until it
// is killed.
func takeForTest(path string) int {
	fd, err := askWarm(path)
	if err != nil {
		fmt.Printf("refused: %v\n", err)
		return 0
	}
	s, err := newStreams(strings.NewReader(""), io.Discard, io.Discard)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	l, _, err := takeWarm(fd, nil, os.Getuid() == 0, s)
	if err != nil {
		fmt.Printf("refused: %v\n", err)
		return 0
	}
	fmt.Printf("taken %d\n", l.pid)
	time.Sleep(time.Hour)
	return 0
}

// envKeeper makes the test binary a Keeper in that directory, with a
// umask and a resource limit of its own (keepForTest). With
// envKeeperAsked set too, the Keeper starts a next init only when a
// caller asks for it: its refill times are an hour, and a caller that
// finds none ready waits a minute at most, as a run would wait
// readyWait.
const (
	envKeeper      = "WARDEN_TEST_KEEPER"
	envKeeperAsked = "WARDEN_TEST_KEEPER_ASKED"
	// envKeeperStale keeps an init ready across changes of the mount
	// table (testOnlyKeepAcrossMountChanges).
	envKeeperStale = "WARDEN_TEST_KEEPER_STALE"
)

// keeperMsgqueue is the soft RLIMIT_MSGQUEUE of keepForTest, which the
// command of a run must not see.
const keeperMsgqueue = 4096

// keepForTest is a Keeper as warden serve runs one, in a process of its
// own whose umask (077) and soft RLIMIT_MSGQUEUE differ from the
// caller's. It says "ready" on stdout and runs until SIGTERM.
func keepForTest(dir string) int {
	unix.Umask(0o077)
	var rl unix.Rlimit
	unix.Getrlimit(unix.RLIMIT_MSGQUEUE, &rl)
	rl.Cur = keeperMsgqueue
	if err := unix.Setrlimit(unix.RLIMIT_MSGQUEUE, &rl); err != nil {
		fmt.Println(err)
		return 1
	}
	// Asked before its first init is ready, it waits for it: a test
	// that means to take one always does.
	testOnlyKeeperWaits = true
	if os.Getenv(envKeeperAsked) != "" {
		refillAfter, refillPause, readyWait, testOnlyKeeperWaits = time.Hour, time.Hour, time.Minute, false
	}
	testOnlyKeepAcrossMountChanges = os.Getenv(envKeeperStale) != ""
	k, err := NewKeeper(dir)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("ready")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	<-sig
	k.Close()
	return 0
}

// envHold makes the test binary a warden that runs a sandbox in that
// project and holds it (holdForTest); envHoldWarm names a Keeper's socket
// to take its init from.
const (
	envHold     = "WARDEN_TEST_HOLD"
	envHoldWarm = "WARDEN_TEST_HOLD_WARM"
)

// holdForTest says "starting", runs a command that writes "started" in
// project and sleeps for an hour, and waits for it: a warden the tests
// kill.
func holdForTest(project, warm string) int {
	fmt.Println("starting")
	res, err := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "touch started; exec sleep 3600"},
		Project: project, Mode: WorkspaceWrite, Warm: warm, Stdin: strings.NewReader(""), Timeout: time.Hour})
	fmt.Println(res.Status(), err)
	return 0
}

// testWarm is the socket of the Keeper TestMain started, or "".
var testWarm string

func runWarm(m *testing.M) int {
	dir, err := os.MkdirTemp("", "warden-keeper-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Its cgroups made ahead would count among those the tests see a
	// run leave behind (TestWarmCgroupFromServe has a Keeper of its own).
	refillAfter, refillPause, testOnlyKeeperWaits, testOnlyNoSpareCgroup = 0, 0, true, true
	k, err := NewKeeper(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", envWarm, err)
		return 1
	}
	defer k.Close()
	testWarm = filepath.Join(dir, WarmSocket)
	return m.Run()
}

// warmRun is [Run] as the integration tests call it: through TestMain's
// Keeper, if there is one, and an error if the run started its own init
// instead, or took one with other maps than it needs.
func warmRun(ctx context.Context, spec Spec) (Result, error) {
	// Asked ahead, as warden run asks while it judges the command; the
	// Keeper's path too, which a rerun of the same spec asks again.
	spec.Warm = testWarm
	if testWarm != "" {
		spec.WarmAsk = AskWarm(testWarm)
		defer spec.WarmAsk.Close()
		// The cgroup too is begun ahead, as warden run begins it
		// while it judges the command.
		if !slices.Contains(spec.Degraded, LayerCgroup) {
			spec.Cgroup = StartCgroup(spec.Limits, spec.WarmAsk)
			defer spec.Cgroup.Close()
		}
	}
	res, err := Run(ctx, spec)
	// A root caller's run without host-uid maps needs other maps than
	// the Keeper's: it starts its own init, as it should.
	otherMaps := os.Getuid() == 0 && slices.Contains(spec.Degraded, LayerHostUID)
	switch {
	case testWarm == "" || err != nil:
	case !res.Warm && !otherMaps:
		err = fmt.Errorf("the run started its own init, not the one %s keeps", testWarm)
	case res.Warm && otherMaps:
		err = fmt.Errorf("the run took an init with host-uid maps from %s", testWarm)
	}
	return res, err
}

// TestWarmAskTakenOnce: a Keeper asked ahead is taken by one run only;
// one that does not answer says why; Close after a take, or twice, or
// of none, does nothing.
func TestWarmAskTakenOnce(t *testing.T) {
	none := AskWarm(filepath.Join(t.TempDir(), WarmSocket))
	if _, err := none.take(); err == nil {
		t.Error("a Keeper that is not there was taken")
	}
	none.Close()
	var nilAsk *WarmAsk
	nilAsk.Close()

	a, b, err := socketPair()
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(b)
	w := &WarmAsk{fd: a}
	if fd, err := w.take(); fd != a || err != nil {
		t.Fatalf("take: %d, %v; want %d", fd, err, a)
	}
	if _, err := w.take(); !errors.Is(err, errWarmTaken) {
		t.Errorf("second take: %v, want %v", err, errWarmTaken)
	}
	w.Close()
	w.Close()
	// The run owns the taken descriptor: Close left it open.
	if _, err := unix.Write(a, []byte("x")); err != nil {
		t.Errorf("the taken descriptor was closed: %v", err)
	}
	unix.Close(a)
}

func socketPair() (int, int, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, -1, err
	}
	return fds[0], fds[1], nil
}

// TestCgroupAskTakenOnce: a cgroup begun ahead is taken by a run with the
// limits it was made for, once; Close removes one no run took, and does
// nothing to one a run took (the run removes it).
func TestCgroupAskTakenOnce(t *testing.T) {
	var nilAsk *CgroupAsk
	if nilAsk.take(Limits{}) != nil {
		t.Error("a nil CgroupAsk was taken")
	}
	nilAsk.Close()
	c := &CgroupAsk{limits: Limits{CPU: 1}, made: make(chan any, 1)}
	if c.take(Limits{CPU: 2}) != nil {
		t.Error("a cgroup made for other limits was taken")
	}
	if c.take(Limits{CPU: 1}) == nil {
		t.Fatal("the cgroup was not taken")
	}
	if c.take(Limits{CPU: 1}) != nil {
		t.Error("the cgroup was taken twice")
	}
	c.Close() // taken: returns at once, though nothing was made
}
