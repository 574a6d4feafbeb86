// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// The parent's side of a run. Run goes through four stages, each a method
// of runner that reads what the ones before it left there:
//
//  1. plan: make the run cache, check the spec and build init's
//     configuration (buildConfig; the command's environment is
//     env_linux.go's); then start planning the view (view.go) and
//     making the run's cgroup (cgroup_linux.go), both while init starts.
//  2. launch: start init in its namespaces with the run's streams and,
//     with Spec.Terminal, the caller's terminal raw; set its rlimits,
//     send it its configuration once the view is planned, move it into
//     its cgroup, and tell it to go.
//  3. wait: enforce the timeout and cancellation, pass signals on, take
//     init's reports (the listeners, the terminal, refused calls, the
//     command's status) until it ends, and reap it (wait_linux.go).
//  4. collect: build the Result from what init reported and what the
//     parent measured, after the post-run check (wait_linux.go).
//
// What a stage makes that must not outlive the run (the cgroup, the
// idmapped mounts, the control socket, the caller's terminal state) it
// adds to the runner's cleanup, which Run runs, last first, however it
// returns.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/sandbox/seccomp"
)

// testOnlyFailAt, when set, makes init fail at that setup step.
var testOnlyFailAt string

// testOnlyPlanned, when set, is called once the view is planned, before
// init gets it: tests change the host there, as a racing process would.
var testOnlyPlanned func()

// initCaps are the capabilities init holds, inside its own user
// namespace only, while it builds the sandbox; it drops them all before
// the command starts.
var initCaps = []uintptr{
	unix.CAP_SYS_ADMIN,    // mount, pivot_root, sethostname
	unix.CAP_NET_ADMIN,    // bring up loopback
	unix.CAP_SETPCAP,      // empty the bounding set
	unix.CAP_DAC_OVERRIDE, // reach mount points in directories it does not own
	unix.CAP_SYS_CHROOT,
	unix.CAP_NET_BIND_SERVICE, // the network listeners on ports 53, 80 and 443
}

// sandboxID is the uid and gid the command has inside the sandbox.
const sandboxID = 65534

// Run runs spec.Argv in a new sandbox and waits for it. The error is a
// [*SetupError] when the sandbox could not be built (nothing ran), a
// [*StartError] when the command could not be started; otherwise the
// command's status is in the Result. Cancelling ctx kills the sandbox.
func Run(ctx context.Context, spec Spec) (Result, error) {
	rn := &runner{spec: spec, tr: newTracer(spec.Trace), warm: -1}
	defer rn.cleanup.clean()
	if err := rn.plan(); err != nil {
		return Result{}, err
	}
	if err := rn.launch(); err != nil {
		return Result{}, err
	}
	rn.wait(ctx)
	return rn.collect()
}

// runner is one call of Run as it goes through its stages: each stage
// sets its fields below, and the later ones read them.
type runner struct {
	spec Spec
	tr   *tracer
	// cleanup holds what the stages made that Run must undo.
	cleanup cleanup

	// Set by plan.
	cfg       *config
	cacheNote []string
	planned   chan error // the view's planning, once done
	// watchNote says what of the view could not be watched for the
	// host's replacing (heldwatch_linux.go).
	watchNote string
	// v and idm are the planned view and a root caller's idmapped
	// mounts, for init; set by the planning, read once planned is.
	v   view
	idm []idmapped
	// planWaited says planned was read (waitPlan); planErr is what it
	// said.
	planWaited bool
	planErr    error
	// warm is the connection to warden serve's Keeper (Spec.Warm), or
	// -1; warmErr says why there is none. warmAsk is the ask it came
	// from, which may have read the Keeper's answer already.
	warm    int
	warmErr error
	warmAsk *WarmAsk
	cgc     chan any // the run's cgroup, once made: a cgroupMade
	// cgWaited says cgc was read (waitCgroup); cg and cgErr are what it
	// gave.
	cgWaited bool
	cg       *runCgroup
	cgErr    error

	// Set by launch.
	parentEnd      *os.File // the control socket's end
	outCap, errCap *Capture
	term           *callerTerminal
	termOut        io.Writer // where the command's terminal shows
	start          time.Time
	since          unix.Timespec // for the post-run check and the changes
	cmd            *launched     // init
	fallbacks      []Fallback    // the limits that fell back to rlimits

	// Set by wait.
	last      report          // init's last report
	got       bool            // last was received
	listenErr error           // listeners that could not be taken
	termErr   error           // a terminal that could not be taken
	early     []audit.Syscall // refusals told as they happened
	started   bool            // the command was forked
	ws        syscall.WaitStatus
	ru        syscall.Rusage
	waitErr   error
	reason    string // "timeout", "cancel" or ""
}

// cleanup is what a run must undo when Run returns, in the gVisor
// pkg/cleanup style: each stage adds the undoing of what it made as it
// makes it, and Run calls clean once, however it returns.
type cleanup struct{ fns []func() }

// add adds f, to be called before every function added earlier.
func (c *cleanup) add(f func()) { c.fns = append(c.fns, f) }

// clean calls the functions added, last first. Each is deferred, as it
// would be in Run itself: a panic, in Run or in one of them, still runs
// the others.
func (c *cleanup) clean() {
	for _, f := range c.fns {
		defer f()
	}
}

// cgroupMade is the run's cgroup, or why it could not be had.
type cgroupMade struct {
	cg  *runCgroup
	err error
}

// prepared is what a run plans before init can be configured: the run
// cache, init's configuration, and the view (binds, and masks found by
// walking the project and the home), with the user namespace of a root
// caller's idmapped mounts in the making. Run prepares its own, or takes
// one begun while the command was judged (StartPlan).
type prepared struct {
	cache     string   // the spec's Cache, made and resolved
	cacheNote []string // why there is no run cache
	cfg       *config
	err       error // buildConfig's
	viewed    chan struct{}
	v         view
	viewErr   error
	early     *earlyUserns // cfg.HostID's, nil otherwise
}

// prepare makes the run cache and init's configuration from spec, and
// starts planning the view.
func prepare(spec Spec) *prepared {
	pr := &prepared{viewed: make(chan struct{})}
	if spec.Cache != "" && diskBounded(spec.Limits) {
		pr.cacheNote, spec.Cache = []string{noCacheBounded}, ""
	}
	if spec.Cache != "" {
		real, err := makeCache(spec)
		if err != nil {
			pr.cacheNote = []string{fmt.Sprintf("no run cache (%v): build caches are read-only", err)}
		}
		spec.Cache = real
	}
	pr.cache = spec.Cache
	if pr.cfg, pr.err = buildConfig(spec); pr.err != nil {
		close(pr.viewed)
		return pr
	}
	if pr.cfg.HostID {
		pr.early = startUserns(pr.cfg.Project, spec.WarmAsk)
	}
	go func() {
		defer close(pr.viewed)
		pr.v, pr.viewErr = planView(spec, pr.cfg.Project)
		// encoding/json's decoder of init's reports, built here, while
		// the command is judged, rather than when the command's end is
		// reported and the run waits for it.
		json.Unmarshal([]byte(`{}`), new(report))
	}()
	return pr
}

// drop frees what a prepared plan no run took holds.
func (pr *prepared) drop() {
	<-pr.viewed
	pr.early.discard()
}

// plan builds init's configuration from the spec, and starts planning
// the view and making the cgroup, which init waits for.
func (rn *runner) plan() error {
	spec, tr := &rn.spec, rn.tr
	// Begun while the command was judged, if the caller asked, and
	// taken only for this very spec; else prepared here.
	pr := spec.Plan.take(*spec)
	if pr == nil {
		pr = prepare(*spec)
	} else {
		tr.mark("plan taken, begun while the command was judged")
	}
	rn.cacheNote, spec.Cache = pr.cacheNote, pr.cache
	if pr.err != nil {
		pr.drop()
		return pr.err
	}
	cfg := pr.cfg
	rn.cfg = cfg
	if spec.WarmAsk != nil {
		rn.warm, rn.warmErr = spec.WarmAsk.take()
		if rn.warm >= 0 {
			rn.warmAsk = spec.WarmAsk
		}
	}
	if spec.Warm != "" && (spec.WarmAsk == nil || errors.Is(rn.warmErr, errWarmTaken)) {
		// Asked first: warden serve checks the caller while the run
		// plans.
		rn.warm, rn.warmErr = askWarm(spec.Warm)
	}
	if rn.warm >= 0 {
		// Unless startInit hands it on.
		rn.cleanup.add(func() {
			if rn.warm >= 0 {
				unix.Close(rn.warm)
			}
		})
	}
	// The view is planned while init starts; init waits for its
	// configuration.
	planned := make(chan error, 1)
	rn.planned = planned
	go func() {
		<-pr.viewed
		rn.v = pr.v
		err := pr.viewErr
		if err == nil && cfg.HostID {
			rn.idm, err = prepareIdmapped(rn.v.binds, cfg.Project, pr.early)
		} else {
			pr.early.discard()
		}
		planned <- err
	}()
	tr.mark("configuration")
	// The cgroup is made while init starts, too: init is joined to it
	// before it gets its configuration, and killed if it cannot be had.
	if slices.Contains(spec.Degraded, LayerCgroup) {
		rn.cgc = make(chan any, 1)
		rn.cgc <- cgroupMade{noCgroup(spec.Limits), nil}
	} else if made := spec.Cgroup.take(spec.Limits); made != nil {
		// Begun while the command was judged; read straight from
		// there, with no goroutine between, that would wait for a
		// processor.
		rn.cgc = made
	} else {
		cgc := make(chan any, 1)
		rn.cgc = cgc
		go func() {
			cg, err := newCgroup(spec.Limits)
			cgc <- cgroupMade{cg, err}
		}()
	}
	// Every return from here waits for both, so that nothing they make
	// is left behind.
	rn.cleanup.add(func() {
		rn.waitCgroup()
		if rn.cg == nil {
			return
		}
		// Init's thread that started the command is in the run's v1
		// directories, and init itself in its v2 one, until it exits,
		// unless it reported it left them.
		if rn.cmd != nil && !(rn.got && rn.last.Done && rn.last.Left) {
			rn.cmd.awaitGone()
		}
		rn.cg.remove()
	})
	rn.cleanup.add(func() {
		rn.waitPlan()
		for _, m := range rn.idm {
			unix.Close(m.fd)
		}
	})
	return nil
}

// waitCgroup waits for the run's cgroup, the first time only.
func (rn *runner) waitCgroup() {
	if !rn.cgWaited {
		rn.cgWaited = true
		m := (<-rn.cgc).(cgroupMade)
		rn.cg, rn.cgErr = m.cg, m.err
		rn.tr.mark("cgroup")
	}
}

// waitPlan waits for the view's planning, the first time only, and
// returns its error.
func (rn *runner) waitPlan() error {
	if !rn.planWaited {
		rn.planWaited = true
		rn.planErr = <-rn.planned
	}
	return rn.planErr
}

// launch starts init, configures it and lets it start the command.
func (rn *runner) launch() error {
	spec, cfg, tr := rn.spec, rn.cfg, rn.tr
	liveOut, liveErr := spec.Stdout, spec.Stderr
	if liveOut == nil {
		liveOut = os.Stdout
	}
	if liveErr == nil {
		liveErr = os.Stderr
	}
	outTTY, errTTY := spec.Terminal && isTerminalWriter(liveOut), spec.Terminal && isTerminalWriter(liveErr)
	if sameWriter(liveOut, liveErr) {
		// One writer for both: the two copying goroutines take turns.
		lw := &lockedWriter{w: liveOut}
		liveOut, liveErr = lw, lw
	}
	// Both streams are streamed live through a pipe and captured, head
	// and tail, in memory.
	outCap, errCap := NewCapture(liveOut, spec.Limits.Output), NewCapture(liveErr, spec.Limits.Output)
	rn.outCap, rn.errCap = outCap, errCap
	// Init never gets the caller's terminal: with Spec.Terminal the
	// command's is a terminal of its own, and the caller's is raw until
	// Run returns.
	stdin, closeStdin, err := initStdin(spec.Stdin)
	if err != nil {
		return err
	}
	rn.cleanup.add(closeStdin)
	var term *callerTerminal
	termOut := io.Writer(nil) // where the command's terminal shows
	if spec.Terminal {
		if term, err = newCallerTerminal(spec.Stdin, outTTY, errTTY); err != nil {
			return err
		}
		rn.cleanup.add(term.close)
		switch {
		case outTTY:
			termOut = outCap
		case errTTY:
			termOut = errCap
		default:
			// Both streams are redirected: the echo of what is
			// typed still shows on the caller's terminal.
			termOut = term.file
		}
		cfg.Terminal = &term.cfg
		if err := term.makeRaw(); err != nil {
			return err
		}
	}
	rn.term, rn.termOut = term, termOut

	rn.start, rn.since = time.Now(), coarseNow()
	cmd, parentEnd, err := rn.startInit(stdin, outCap, errCap)
	if err != nil {
		return err
	}
	rn.cmd, rn.parentEnd = cmd, parentEnd
	rn.cleanup.add(func() { parentEnd.Close() })
	// Init blocks reading its configuration, which it gets once its
	// rlimits are set; it builds the sandbox while the parent moves it
	// into its cgroup v2 directory, if any, and starts the command only
	// on the "go" that follows the move, from the thread that has just
	// joined the v1 directories (runCgroup.joins). So nothing the
	// command starts is ever outside.
	rn.waitCgroup()
	cg, cgErr := rn.cg, rn.cgErr
	var rlimits []rlimit
	if cgErr == nil {
		// What no cgroup could bound, rlimits bound as well as they can.
		// Set by init on itself just before it starts the command:
		// they bound the command, not init's own set-up.
		var tmpfsSize int64
		cfg.CommandRlimits, tmpfsSize, rn.fallbacks = fallback(cg.missing, spec.Timeout, os.Getuid() == 0)
		cfg.TmpfsSize, cfg.TmpfsInodes = privateBounds(tmpfsSize, spec.Limits)
		rlimits = rlimitsFor(spec.Limits)
	}
	var msg []byte
	// gone: init ended during its set-up, having reported why (a step
	// failed); nothing more is sent, and the report decides.
	gone := false
	send := func(what string, b, rights []byte) error {
		err := unix.Sendmsg(int(parentEnd.Fd()), b, rights, nil, 0)
		if errors.Is(err, unix.EPIPE) || errors.Is(err, unix.ECONNRESET) {
			gone = true
			return nil
		}
		if err != nil {
			return &SetupError{What: "send " + what + " to init: " + err.Error()}
		}
		return nil
	}
	for _, f := range []func() error{
		func() error { return cgErr },
		func() error { return applyRlimits(cmd.pid, rlimits) },
		func() error {
			// What init's first mounts need (config.base): they are
			// made while the view is planned.
			b, err := cfg.marshal()
			if err != nil {
				return &SetupError{What: "encode configuration: " + err.Error()}
			}
			if err := send("the first configuration", b, nil); err != nil {
				return err
			}
			tr.mark("rlimits, base configuration sent")
			return nil
		},
		func() error {
			if err := rn.waitPlan(); err != nil {
				return err
			}
			tr.mark("view planned")
			if testOnlyPlanned != nil {
				testOnlyPlanned()
			}
			v, idm := rn.v, rn.idm
			if err := checkDiskBound(spec, v); err != nil {
				return err
			}
			if err := recheckIdmapped(idm); err != nil {
				return err
			}
			cfg.Binds, cfg.Masks, cfg.Home = v.binds, v.masks, v.home
			cfg.CgroupV2 = cg.v2Dir()
			var fds []int
			for _, m := range idm {
				cfg.Idmapped = append(cfg.Idmapped, m.path)
				fds = append(fds, m.fd)
			}
			joins, tasks, leave, err := cg.joins()
			if err != nil {
				return err
			}
			defer closeFDs(tasks)
			defer closeFDs(leave)
			cfg.CgroupJoin, cfg.CgroupLeave = joins, len(leave) > 0
			fds = append(append(fds, tasks...), leave...)
			if msg, err = cfg.marshal(); err != nil {
				return &SetupError{What: "encode configuration: " + err.Error()}
			}
			var rights []byte
			if len(fds) > 0 {
				rights = unix.UnixRights(fds...)
			}
			if err := send("the configuration", msg, rights); err != nil {
				return err
			}
			tr.mark("configuration sent")
			return nil
		},
		func() error { return cg.add(cmd.pid) },
		func() error {
			// Init may already have ended, having reported why (a
			// setup step failed, the command is not found): that
			// report is read below, and decides.
			if spec.SignalsReady != nil {
				<-spec.SignalsReady
			}
			parentEnd.Write(goMessage)
			tr.mark("cgroup joined, go sent")
			return nil
		},
	} {
		if err := f(); err != nil {
			cmd.kill()
			cmd.wait(true)
			return err
		}
		if gone {
			return nil
		}
	}
	return nil
}

// startInit starts init, or takes one warden serve started ahead of time
// (Spec.Warm), with the run's streams, and returns it with the parent's
// end of its control socket.
func (rn *runner) startInit(stdin io.Reader, stdout, stderr io.Writer) (*launched, *os.File, error) {
	if rn.warm >= 0 {
		s, err := newStreams(stdin, stdout, stderr)
		if err != nil {
			return nil, nil, startFailure(err)
		}
		// takeWarm closes the connection, or passes it to cmd.
		fd := rn.warm
		rn.warm = -1
		var a *warmAnswer
		if rn.warmAsk != nil {
			a = rn.warmAsk.answer()
		}
		cmd, ctl, err := takeWarm(fd, a, rn.cfg.HostID, s)
		if err == nil {
			rn.tr.mark("init taken from warden serve")
			return cmd, ctl, nil
		}
		s.abort()
		rn.tr.mark("no init from warden serve: " + err.Error())
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, &SetupError{What: "socketpair: " + err.Error()}
	}
	parentEnd := os.NewFile(uintptr(fds[0]), "sandbox-control")
	childEnd := os.NewFile(uintptr(fds[1]), "sandbox-control-child")
	// Pdeathsig fires when the thread that forked init exits; keep this
	// goroutine on its thread until init is gone.
	runtime.LockOSThread()
	rn.cleanup.add(runtime.UnlockOSThread)
	cmd, err := launch([]string{"/proc/self/exe", InitArg}, initAttr(rn.cfg.HostID), stdin, stdout, stderr, childEnd)
	childEnd.Close()
	if err != nil {
		parentEnd.Close()
		return nil, nil, startFailure(err)
	}
	rn.tr.mark("start init")
	return cmd, parentEnd, nil
}

// buildConfig validates spec and resolves its paths on the host.
func buildConfig(spec Spec) (*config, error) {
	if len(spec.Argv) == 0 {
		return nil, &SetupError{What: "no command given"}
	}
	switch spec.Mode {
	case "", ReadOnly, WorkspaceWrite, FullAccess:
	default:
		return nil, &SetupError{What: fmt.Sprintf("unknown sandbox mode %q", spec.Mode),
			Hint: "use read-only, workspace-write or full-access"}
	}
	if l := spec.Limits; l.Memory < 0 || l.Pids < 0 || l.CPU < 0 || l.Nofile < 0 || l.Fsize < 0 || l.Output < 0 || l.Disk < 0 || l.Inodes < 0 {
		return nil, &SetupError{What: fmt.Sprintf("negative limit in %+v", l), Hint: "limits are positive; zero means the default"}
	}
	project, err := resolveDir(spec.Project)
	if err != nil {
		return nil, &SetupError{What: "project directory: " + err.Error(), Hint: "pass an existing directory with --project"}
	}
	dir := project
	if spec.Dir != "" {
		if dir, err = resolveDir(spec.Dir); err != nil {
			return nil, &SetupError{What: "working directory: " + err.Error()}
		}
		if dir != project && !within(dir, project) {
			return nil, &SetupError{What: fmt.Sprintf("working directory %s is not in the project %s", dir, project)}
		}
	}
	cfg := &config{
		Argv:       spec.Argv,
		Project:    project,
		Dir:        dir,
		Writable:   spec.Mode == WorkspaceWrite || spec.Mode == FullAccess,
		FullAccess: spec.Mode == FullAccess,
		FailAt:     testOnlyFailAt,
		Trace:      spec.Trace != nil,
		// A root caller's command runs as an unprivileged host uid,
		// unless the caller named that layer degraded.
		HostID: os.Getuid() == 0 && !slices.Contains(spec.Degraded, LayerHostUID),
	}
	cfg.ExecScratch = hasExecScratch()
	if spec.Network != nil {
		if spec.Network.Serve == nil {
			return nil, &SetupError{What: "network: no one to serve its listeners", Hint: "this is a bug in warden; please report it"}
		}
		rc, err := hostResolvConf()
		if err != nil {
			return nil, &SetupError{What: "resolve /etc/resolv.conf: " + err.Error(), Hint: "make /etc/resolv.conf resolvable, or remove it"}
		}
		cfg.Network, cfg.ResolvConf = true, rc
	}
	cfg.Env = cleanEnv(spec, cfg.ExecScratch)
	if len(spec.AllowSyscalls) > 0 {
		// Checked here, so that a bad name stops the run before init.
		if _, err := seccomp.Program(runtime.GOARCH, seccomp.Options{Allow: spec.AllowSyscalls}); err != nil {
			return nil, &SetupError{What: "allowed system calls: " + err.Error(), Hint: "name calls that the sandbox's seccomp table refuses"}
		}
		cfg.AllowSyscalls = spec.AllowSyscalls
	}
	for _, r := range spec.Readable {
		if !filepath.IsAbs(r) {
			return nil, &SetupError{What: fmt.Sprintf("readable path %q is not absolute", r), Hint: "name readable paths from /"}
		}
	}
	cfg.Readable = spec.Readable
	cfg.WatchConnect = spec.Network != nil && spec.Network.Connected != nil
	for _, l := range spec.Degraded {
		switch l {
		case LayerLandlock:
			if spec.Readable != nil {
				return nil, &SetupError{What: "the paths the command may read are enforced by Landlock alone, which --degraded=landlock turns off",
					Hint: "run with Landlock, or without the list of readable paths"}
			}
			cfg.NoLandlock = true
		case LayerSeccomp:
			cfg.NoSeccomp = true
		case LayerCgroup:
			// Read by newCgroup: requested limits fall back to
			// rlimits instead of failing.
		case LayerWalk:
			// Read by planView: a project past the walk's bound runs.
		case LayerHostUID:
			// Read above: a root caller's command keeps host uid 0.
		default:
			return nil, &SetupError{What: fmt.Sprintf("unknown layer %q to run without", l), Hint: fmt.Sprintf("layers that can be turned off: %v", Layers)}
		}
	}
	return cfg, nil
}

// resolveDir resolves the directory p (the project) on the host, one
// component at a time as the other paths of a run (see hostResolver).
// The caller chose it: links on the way are followed, as the kernel
// would.
func resolveDir(p string) (string, error) {
	if p == "" {
		return "", errors.New("not set")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	r := newHostResolver()
	defer r.close()
	f, err := r.stat(abs, resolveHow{})
	if err != nil {
		return "", err
	}
	if !f.isDir() {
		return "", fmt.Errorf("%s is not a directory", f.path)
	}
	return f.path, nil
}

// startFailure explains why init could not be started.
func startFailure(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) && (errno == syscall.EPERM || errno == syscall.EACCES || errno == syscall.ENOSPC || errno == syscall.EINVAL) {
		return &SetupError{
			What: "cannot create the sandbox namespaces: " + err.Error(),
			Hint: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces>0, kernel.apparmor_restrict_unprivileged_userns=0) or run as root",
		}
	}
	return &SetupError{What: "start sandbox init: " + err.Error()}
}

// sameWriter reports whether a and b are the same comparable writer.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// lockedWriter serialises writes to one writer shared by two streams.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// tracer prints the time of each stage of a run when tracing is on.
type tracer struct {
	w     io.Writer
	start time.Time
	last  time.Time
}

func newTracer(w io.Writer) *tracer {
	now := time.Now()
	return &tracer{w: w, start: now, last: now}
}

// mark ends a stage of the parent.
func (t *tracer) mark(what string) {
	if t.w == nil {
		return
	}
	now := time.Now()
	fmt.Fprintf(t.w, "warden: trace: %8.3fms %8.3fms parent: %s\n",
		ms(now.Sub(t.start)), ms(now.Sub(t.last)), what)
	t.last = now
}

// step prints a setup step init reported.
func (t *tracer) step(what string, us int64) {
	if t.w == nil {
		return
	}
	fmt.Fprintf(t.w, "warden: trace: %8.3fms %8.3fms init: %s\n",
		ms(time.Since(t.start)), float64(us)/1000, what)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// initAttr is how init is started: in new user (uid and gid 65534 inside,
// the caller's outside), mount, pid, net, ipc and uts namespaces, with the
// capabilities it needs there, killed if the thread that forked it ends.
//
// With asHostID (a root caller), 65534 inside is [hostID] outside instead,
// and 0 stays 0: init keeps the caller's identity, which it needs to build
// the view (root's 0700 directories, tmpfs files it creates), and
// switches itself to 65534, groups dropped, just before it starts the
// command (dropPrivileges). Setgroups is allowed for that, which is safe
// here: the maps are written by root, not by an unprivileged user who
// could use it to shed a group that denies access.
func initAttr(asHostID bool) *syscall.SysProcAttr {
	uids := []syscall.SysProcIDMap{{ContainerID: sandboxID, HostID: os.Getuid(), Size: 1}}
	gids := []syscall.SysProcIDMap{{ContainerID: sandboxID, HostID: os.Getgid(), Size: 1}}
	if asHostID {
		uids = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: sandboxID, HostID: hostID, Size: 1}}
		gids = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: sandboxID, HostID: hostID, Size: 1}}
	}
	return &syscall.SysProcAttr{
		Cloneflags: unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID |
			unix.CLONE_NEWNET | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS,
		UidMappings:                uids,
		GidMappings:                gids,
		GidMappingsEnableSetgroups: asHostID,
		AmbientCaps:                initCaps,
		Pdeathsig:                  syscall.SIGKILL,
		// A session of its own: a signal to a process group the caller
		// is in (kill(0), the terminal's foreground group) cannot come
		// from the sandbox, whose processes are in no group outside it,
		// and the caller's terminal is not the command's controlling
		// terminal (no /dev/tty, no job-control ioctls, no TIOCSTI); it
		// is not even among its descriptors (initStdin). Signals for the
		// command come through Spec.Signals, or, with Spec.Terminal,
		// from its own terminal.
		Setsid: true,
	}
}
