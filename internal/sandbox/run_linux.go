// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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
	tr := newTracer(spec.Trace)
	var cacheNote []string
	if spec.Cache != "" && diskBounded(spec.Limits) {
		cacheNote, spec.Cache = []string{noCacheBounded}, ""
	}
	if spec.Cache != "" {
		real, err := makeCache(spec)
		if err != nil {
			cacheNote = []string{fmt.Sprintf("no run cache (%v): build caches are read-only", err)}
		}
		spec.Cache = real
	}
	cfg, err := buildConfig(spec)
	if err != nil {
		return Result{}, err
	}
	// The view (binds, and masks found by walking the project) is
	// planned while init starts; init waits for its configuration.
	planned := make(chan error, 1)
	var v view
	var idm []idmapped // a root caller's idmapped mounts, for init
	go func() {
		var early *earlyUserns
		if cfg.HostID {
			early = startUserns(cfg.Project)
		}
		var err error
		v, err = planView(spec, cfg.Project)
		if err == nil && cfg.HostID {
			idm, err = prepareIdmapped(v.binds, cfg.Project, early)
		} else if early != nil {
			if r := early.wait(); r.err == nil {
				unix.Close(r.fd)
			}
		}
		planned <- err
	}()
	tr.mark("configuration")
	// The cgroup is made while init starts, too: init is joined to it
	// before it gets its configuration, and killed if it cannot be had.
	type cgroupMade struct {
		cg  *runCgroup
		err error
	}
	cgc := make(chan cgroupMade, 1)
	go func() {
		cg, err := newCgroup(spec.Limits, slices.Contains(spec.Degraded, LayerCgroup))
		cgc <- cgroupMade{cg, err}
	}()
	// Every return from here waits for both, so that nothing they make
	// is left behind.
	var cg *runCgroup
	var cgErr error
	cgWaited := false
	waitCgroup := func() {
		if !cgWaited {
			cgWaited = true
			m := <-cgc
			cg, cgErr = m.cg, m.err
			tr.mark("cgroup")
		}
	}
	defer func() {
		waitCgroup()
		if cg != nil {
			cg.remove()
		}
	}()
	planWaited := false
	var planErr error
	waitPlan := func() error {
		if !planWaited {
			planWaited = true
			planErr = <-planned
		}
		return planErr
	}
	defer func() {
		waitPlan()
		for _, m := range idm {
			unix.Close(m.fd)
		}
	}()

	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return Result{}, &SetupError{What: "socketpair: " + err.Error()}
	}
	parentEnd := os.NewFile(uintptr(fds[0]), "sandbox-control")
	childEnd := os.NewFile(uintptr(fds[1]), "sandbox-control-child")
	defer parentEnd.Close()

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
	attr := initAttr(cfg.HostID)
	// Init never gets the caller's terminal: with Spec.Terminal the
	// command's is a terminal of its own, and the caller's is raw until
	// Run returns.
	stdin, closeStdin, err := initStdin(spec.Stdin)
	if err != nil {
		childEnd.Close()
		return Result{}, err
	}
	defer closeStdin()
	var term *callerTerminal
	termOut := io.Writer(nil) // where the command's terminal shows
	if spec.Terminal {
		if term, err = newCallerTerminal(spec.Stdin, outTTY, errTTY); err != nil {
			childEnd.Close()
			return Result{}, err
		}
		defer term.close()
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
			childEnd.Close()
			return Result{}, err
		}
	}

	start, since := time.Now(), coarseNow()
	// Pdeathsig fires when the thread that forked init exits; keep this
	// goroutine on its thread until init is gone.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd, err := launch([]string{"/proc/self/exe", InitArg}, attr, stdin, outCap, errCap, childEnd)
	childEnd.Close()
	if err != nil {
		return Result{}, startFailure(err)
	}
	tr.mark("start init")
	// Init blocks reading its configuration, which it gets once its
	// rlimits are set; it builds the sandbox while the parent moves it
	// into its cgroup (on cgroup v1 a move can wait for an RCU grace
	// period, several milliseconds), and starts the command only on the
	// "go" that follows the move. So nothing the command starts is ever
	// outside.
	waitCgroup()
	var rlimits []rlimit
	var notes []string
	if cgErr == nil {
		// What no cgroup could bound, rlimits bound as well as they can.
		// Set by init on itself just before it starts the command:
		// they bound the command, not init's own set-up.
		var tmpfsSize int64
		cfg.CommandRlimits, tmpfsSize, notes = fallback(cg.missing, spec.Timeout, os.Getuid() == 0)
		cfg.TmpfsSize, cfg.TmpfsInodes = privateBounds(tmpfsSize, spec.Limits)
		rlimits = rlimitsFor(spec.Limits)
	}
	var msg []byte
	for _, f := range []func() error{
		func() error { return cgErr },
		func() error { return applyRlimits(cmd.pid, rlimits) },
		func() error {
			if err := waitPlan(); err != nil {
				return err
			}
			tr.mark("view planned")
			if testOnlyPlanned != nil {
				testOnlyPlanned()
			}
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
			var err error
			if msg, err = json.Marshal(cfg); err != nil {
				return &SetupError{What: "encode configuration: " + err.Error()}
			}
			var rights []byte
			if len(fds) > 0 {
				rights = unix.UnixRights(fds...)
			}
			if err := unix.Sendmsg(int(parentEnd.Fd()), msg, rights, nil, 0); err != nil {
				return &SetupError{What: "send configuration to init: " + err.Error()}
			}
			tr.mark("rlimits, configuration sent")
			return nil
		},
		func() error { return cg.add(cmd.pid) },
		func() error {
			// Init may already have ended, having reported why (a
			// setup step failed, the command is not found): that
			// report is read below, and decides.
			parentEnd.Write(goMessage)
			tr.mark("cgroup joined, go sent")
			return nil
		},
	} {
		if err := f(); err != nil {
			cmd.kill()
			cmd.wait()
			return Result{}, err
		}
	}

	stop := make(chan struct{})
	if spec.Signals != nil || term != nil {
		go forwardSignals(spec.Signals, term, cmd, stop)
	}
	why := make(chan string, 1) // "timeout", "cancel" or ""
	go func() {
		var timer <-chan time.Time
		if spec.Timeout > 0 {
			t := time.NewTimer(spec.Timeout)
			defer t.Stop()
			timer = t.C
		}
		select {
		case <-stop:
			why <- ""
			return
		case <-timer:
			why <- "timeout"
		case <-ctx.Done():
			why <- "cancel"
		}
		// Killing init, pid 1 of the namespace, kills every process in it.
		cmd.kill()
	}()

	var last report
	var got bool
	var listenErr error       // listeners that could not be taken
	var termErr error         // a terminal that could not be taken
	var early []audit.Syscall // refusals told as they happened
	started := false          // the command was forked
	buf := make([]byte, 64<<10)
	oob := make([]byte, unix.CmsgSpace(8*4))
	var served *Listeners
	defer func() {
		if served != nil {
			served.Close()
		}
	}()
	for {
		n, oobn, _, _, err := unix.Recvmsg(int(parentEnd.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err == unix.EINTR || err == unix.ECONNRESET {
			// ECONNRESET: init ended without reading all we sent (the
			// go); what it sent before is still queued.
			continue
		}
		fds := rightsIn(oob[:max(oobn, 0)])
		if n > 0 {
			var r report
			switch {
			case json.Unmarshal(buf[:n], &r) != nil:
				closeFDs(fds)
			case r.Listeners != nil:
				l, lerr := receiveListeners(r.Listeners, fds)
				if lerr != nil || spec.Network == nil {
					// Init made what it should not have, or
					// sent it wrong: the run stops.
					cmd.kill()
					listenErr = lerr
					continue
				}
				served = &l
				spec.Network.Serve(l)
			case r.Terminal:
				m, terr := receiveMaster(fds)
				if terr != nil || term == nil || term.attached() {
					// Init made what it should not have, or
					// sent it wrong: the run stops.
					if m != nil {
						m.Close()
					}
					cmd.kill()
					if terr == nil {
						terr = errors.New("init sent a terminal that was not asked for")
					}
					termErr = terr
					continue
				}
				term.attach(m, termOut)
			case r.Step != "":
				tr.step(r.Step, r.Micros)
			case r.BlockedPartial:
				early = append(early, r.Blocked...)
			case r.Started:
				started = true
			default:
				last, got = r, true
			}
		} else {
			closeFDs(fds)
		}
		if err != nil || n == 0 {
			break
		}
	}
	ws, ru, waitErr := cmd.wait()
	close(stop)
	if term != nil {
		// All it showed is captured before the output is read.
		term.drain()
	}
	tr.mark("command ended, init reaped")
	reason := <-why
	res := Result{Duration: time.Since(start), TimedOut: reason == "timeout"}
	if waitErr == nil {
		// Init's rusage covers every process it reaped.
		res.CPUTime = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	cg.stats(&res)
	res.Unenforced = append(append(notes, v.notes...), cacheNote...)
	if planWaited && planErr == nil {
		// Init is reaped: no process of the run is left to race it.
		var qnotes []string
		res.Quarantined, qnotes = v.post.run(spec.Quarantine, since)
		res.Unenforced = append(res.Unenforced, qnotes...)
		tr.mark("post-run check")
	}
	if spec.RecordChanges {
		res.Changes, res.ChangesTotal, res.ChangesTruncated = changesSince(v.writableRoots(), since)
	}
	defer tr.mark("statistics read, cgroup removed")
	res.Stdout, res.Stderr = outCap.Output(), errCap.Output()
	res.Refused = findRefusals(v, spec, cfg.Project, res.Stderr.String(), res.Stdout.String())
	res.Limits = spec.Limits
	if res.Limits.Nofile == 0 {
		res.Limits.Nofile = DefaultNofile
	}
	if res.Limits.Output == 0 {
		res.Limits.Output = DefaultOutputCap
	}
	if res.Limits.Memory == 0 && cg.memDir != "" {
		res.Limits.Memory = defaultMemory()
	}
	if res.Limits.Pids == 0 && cg.pidsDir != "" {
		res.Limits.Pids = DefaultPids
	}

	switch {
	case listenErr != nil:
		return res, &SetupError{What: "network listeners: " + listenErr.Error(), Hint: "this is a bug in warden; please report it"}
	case termErr != nil:
		return res, &SetupError{What: "the command's terminal: " + termErr.Error(), Hint: "this is a bug in warden; please report it"}
	case got && last.Error != "":
		return res, &SetupError{What: last.Error, Hint: last.Hint}
	case got && last.StartError != "":
		return res, &StartError{Msg: last.StartError, Status: last.Exit}
	case got && last.Done:
		res.ExitCode, res.Signal = last.Exit, last.Signal
		res.BlockedSyscalls, res.BlockedHow = last.Blocked, last.BlockedHow
		if last.BlockedDropped > 0 {
			res.BlockedHow += fmt.Sprintf("; %d refusals of further calls not listed", last.BlockedDropped)
		}
		if res.Signal != 0 {
			res.ExitCode = -1
		}
		return res, nil
	case started:
		// The command ran, and init ended before it could report: a
		// signal only the kernel sends (init takes the others), or
		// init's own failure. Every process of the sandbox died with it.
		res.ExitCode, res.Signal, res.InitKilled = -1, int(syscall.SIGKILL), true
		if ws.Signaled() {
			res.Signal = int(ws.Signal())
		}
		if len(early) > 0 {
			res.BlockedSyscalls = early
			res.BlockedHow = "seccomp user notification; init was killed, so counts are at least these"
		}
		return res, nil
	case reason != "", res.OOMKilled, res.PidsLimitHit:
		if len(early) > 0 {
			res.BlockedSyscalls = early
			res.BlockedHow = "seccomp user notification; the sandbox was killed, so counts are at least these"
		}
		// Killed by the timeout, or init itself fell to a limit (the
		// OOM killer, or no thread to be had): the whole sandbox died.
		res.ExitCode, res.Signal = -1, int(syscall.SIGKILL)
		return res, nil
	}
	return res, &SetupError{
		What: fmt.Sprintf("sandbox init ended without a report (%s)", initEnd(ws, waitErr)),
		Hint: "this is a bug in warden; please report it",
	}
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
	cfg := &config{
		Argv:       spec.Argv,
		Project:    project,
		Writable:   spec.Mode == WorkspaceWrite || spec.Mode == FullAccess,
		FullAccess: spec.Mode == FullAccess,
		FailAt:     testOnlyFailAt,
		Trace:      spec.Trace != nil,
		// A root caller's command runs as an unprivileged host uid,
		// unless the caller named that layer degraded.
		HostID: os.Getuid() == 0 && !slices.Contains(spec.Degraded, LayerHostUID),
	}
	// The scratch is mounted in the sandbox's /run, which exists where
	// the host has one.
	if fi, err := os.Stat("/run"); err == nil && fi.IsDir() {
		cfg.ExecScratch = true
	}
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
	for _, l := range spec.Degraded {
		switch l {
		case LayerLandlock:
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

// cleanEnv is the command's whole environment: the base variables, then
// spec.Env, a later value of a name replacing an earlier one.
func cleanEnv(spec Spec, scratch bool) []string {
	var env envList
	env.set("PATH", callerPath(os.Getenv("PATH")))
	if spec.Home != "" {
		env.set("HOME", spec.Home)
	} else {
		env.set("HOME", "/")
	}
	lang := os.Getenv("LANG")
	if lang == "" {
		lang = "C.UTF-8"
	}
	env.set("LANG", lang)
	if t := os.Getenv("TERM"); t != "" {
		env.set("TERM", t)
	}
	env.set("USER", "nobody")
	// Go runs the test binaries it links from GOTMPDIR (else /tmp, which
	// is noexec): point it at the private scratch where execution is
	// allowed.
	if scratch {
		env.set("GOTMPDIR", execScratch)
	}
	if spec.Network != nil {
		// Both cases: curl reads only the lower-case http_proxy.
		proxy := "http://" + ProxyAddr
		for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"} {
			env.set(k, proxy)
			env.set(strings.ToLower(k), proxy)
		}
		env.set("NO_PROXY", "localhost,127.0.0.1,::1")
		env.set("no_proxy", "localhost,127.0.0.1,::1")
	}
	if spec.Cache != "" {
		// The caller's caches are read-only inside (and trusted by the
		// host's tools later): build caches go to the run's own.
		env.set("XDG_CACHE_HOME", spec.Cache)
		env.set("npm_config_cache", filepath.Join(spec.Cache, "npm"))
	}
	for _, kv := range spec.Env {
		k, v, _ := strings.Cut(kv, "=")
		env.set(k, v)
	}
	return env.list
}

// envList is an environment in which each name appears once.
type envList struct{ list []string }

func (e *envList) set(k, v string) {
	for i, kv := range e.list {
		if strings.HasPrefix(kv, k+"=") {
			e.list[i] = k + "=" + v
			return
		}
	}
	e.list = append(e.list, k+"="+v)
}

// defaultPath is the sandbox's PATH when the caller has none.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// callerPath is the caller's PATH with relative and empty entries
// removed (inside the sandbox they would name the project), or the
// default when nothing is left.
func callerPath(p string) string {
	var keep []string
	for _, d := range filepath.SplitList(p) {
		if filepath.IsAbs(d) {
			keep = append(keep, d)
		}
	}
	if len(keep) == 0 {
		return defaultPath
	}
	return strings.Join(keep, string(filepath.ListSeparator))
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

// initEnd says how init ended.
func initEnd(ws syscall.WaitStatus, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case ws.Signaled():
		return "killed by " + ws.Signal().String()
	}
	return fmt.Sprintf("exit status %d", ws.ExitStatus())
}

// forwardSignals sends each signal from sigs to init, which passes it on
// to the command, until stop is closed. With a terminal, SIGINT and
// SIGQUIT go to its foreground process group instead, and Run takes
// SIGWINCH, which resizes it, and SIGCONT, which makes the caller's
// terminal raw again (warden was stopped and continued).
func forwardSignals(sigs <-chan os.Signal, term *callerTerminal, init *launched, stop <-chan struct{}) {
	var own chan os.Signal // taken here, not passed on
	if term != nil {
		own = make(chan os.Signal, 2)
		signal.Notify(own, syscall.SIGWINCH, syscall.SIGCONT)
		defer signal.Stop(own)
		defer term.restoreOnPanic()
		// A resize between reading the size and this is not missed.
		term.resize()
	}
	for {
		select {
		case <-stop:
			return
		case sig := <-own:
			if sig == syscall.SIGCONT {
				// Warden was stopped and continued: the caller's
				// shell may have set its own modes meanwhile.
				term.makeRaw()
			}
			term.resize()
		case sig := <-sigs:
			s, ok := sig.(syscall.Signal)
			if !ok || !forwarded[s] {
				continue
			}
			if term != nil {
				switch s {
				case syscall.SIGWINCH:
					term.resize()
					continue
				case syscall.SIGINT, syscall.SIGQUIT:
					if term.signal(s) {
						continue
					}
				}
			}
			init.signal(s)
		}
	}
}

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

// rightsIn returns the descriptors passed in a control message buffer.
func rightsIn(oob []byte) []int {
	if len(oob) == 0 {
		return nil
	}
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var fds []int
	for _, m := range msgs {
		if fs, err := unix.ParseUnixRights(&m); err == nil {
			fds = append(fds, fs...)
		}
	}
	return fds
}

func closeFDs(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}
