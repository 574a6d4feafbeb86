// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/callerid"
	"warden.dev/warden/internal/sandbox/seccomp"
)

// ctlFD is the control socket init inherits.
const ctlFD = 3

// Init is the sandbox init: the process the parent started in fresh
// namespaces. It never returns. Call it only when os.Args[1] is [InitArg].
func Init() {
	// Capabilities, no_new_privs and the bounding set are per thread:
	// everything from here to starting the command happens on this one.
	runtime.LockOSThread()
	// Descriptors inherited from whoever started warden must not reach
	// the command; this also marks the control socket close-on-exec.
	if err := unix.CloseRange(ctlFD, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		os.Exit(125)
	}
	// The signals in caught are taken from here on: one for the command
	// (from the parent, the terminal, or the command's own kill of pid 1)
	// is passed on once it runs, and none ends init early.
	// Registering each signal is a round trip to the runtime's signal
	// thread: done beside the setup, and waited for before the command
	// starts.
	sigs, sigsReady := make(chan os.Signal, 16), make(chan struct{})
	go func() {
		signal.Notify(sigs, caught...)
		close(sigsReady)
	}()
	ctl := os.NewFile(ctlFD, "sandbox-control")
	i := &initProc{ctl: ctl, sigs: sigs, sigsReady: sigsReady}
	// The set-up makes what the command sees (mount points, the exec
	// scratch's directory, resolv.conf) as 0755 and 0644 whatever the
	// caller's umask, which is the command's (runCommand).
	i.umask = unix.Umask(0o022)
	if len(os.Args) > 2 && os.Args[2] == warmArg {
		// Started ahead of time by warden serve (warm_linux.go): what
		// no caller's configuration changes is done while it waits, the
		// mounts no view needs among it, and the caller that takes it
		// sends its streams and umask first.
		i.ahead = prework()
		i.premount()
		var err error
		if i.umask, err = adopted(); err != nil {
			os.Exit(125)
		}
	}
	// The configuration comes twice: first as soon as the parent has
	// the run's cgroup, for the mounts no view needs (setupBase), made
	// while the parent still plans the view; then whole, with the view,
	// once it is planned (the fields setupBase read unchanged).
	buf := make([]byte, 1<<20)
	base := receiveConfig(ctl, buf, nil)
	i.cfg = base
	if i.ahead.mounted != nil {
		i.adoptMounts()
	} else {
		i.setupBase()
	}
	// A root caller's idmapped mounts come with the whole
	// configuration. So do the cgroup v1 tasks files it joins, after
	// them.
	oob := make([]byte, unix.CmsgSpace((maxIdmapped+2*maxJoins)*4))
	cfg := receiveConfig(ctl, buf, &oob)
	fds := rightsIn(oob)
	joins := len(cfg.CgroupJoin)
	if cfg.CgroupLeave {
		joins *= 2
	}
	if len(fds) != len(cfg.Idmapped)+joins {
		fail(ctl, fmt.Sprintf("configuration came with %d descriptors, want %d", len(fds), len(cfg.Idmapped)+joins), "")
	}
	if cfg.base() != base.base() {
		fail(ctl, "the configuration changed after the first mounts were made", "")
	}
	i.cfg = cfg
	i.idmapFDs, i.tasksFDs, i.leaveFDs = fds[:len(cfg.Idmapped)], fds[len(cfg.Idmapped):len(cfg.Idmapped)+len(cfg.CgroupJoin)],
		fds[len(cfg.Idmapped)+len(cfg.CgroupJoin):]
	i.setupView()
	i.runCommand()
}

// receiveConfig reads one configuration from the parent into buf, and
// the rights that came with it into *oob (cut to what came), if oob is
// not nil. Init ends if the parent is gone.
func receiveConfig(ctl *os.File, buf []byte, oob *[]byte) config {
	var space []byte
	if oob != nil {
		space = *oob
	}
	n, oobn, err := recvRights(ctlFD, buf, space)
	if err != nil || n == 0 {
		os.Exit(125)
	}
	if oob != nil {
		*oob = space[:oobn]
	} else if oobn > 0 {
		closeFDs(rightsIn(space[:oobn]))
	}
	cfg, err := decodeConfig(buf[:n])
	if err != nil {
		fail(ctl, "decode configuration: "+err.Error(), "")
	}
	return cfg
}

type initProc struct {
	cfg       config
	ctl       *os.File
	sigs      chan os.Signal
	sigsReady chan struct{}
	blocked   blockedLog
	// seen keeps the binaries behind the command's connections, trusted
	// on first use (config.WatchConnect).
	seen callerid.TOFU
	tty  *os.File // the command's terminal (config.Terminal), or nil
	// idmapFDs are the idmapped mounts of cfg.Idmapped, in order, and
	// attached the roots init has attached them at.
	idmapFDs []int
	// tasksFDs are the tasks files of cfg.CgroupJoin, in order, and
	// leaveFDs those of the directories above them (cfg.CgroupLeave).
	tasksFDs, leaveFDs []int
	attached           []string
	// covers are the tmpfs mounts over directories the command could
	// not search (coverAbove).
	covers []string
	// ahead is what a warm init did before its caller took it.
	ahead preworked
	// propagation is how the mounts copied from the host's are made to
	// propagate, in the first step: private, or, for mounts made ahead,
	// slave until a run takes them (premount).
	propagation uintptr
	// maskMade: maskFile exists; procSys: /proc and /sys are mounted
	// already (premount).
	maskMade, procSys bool
	// umask is the caller's, which the command gets.
	umask int
	// failed, while soft, is the first step that failed, which ends
	// init only at the run; the steps after it do nothing.
	soft   bool
	failed *report
}

// preworked is what an init warden serve started ahead of time does
// while it waits for a caller (prework): the sandbox's network
// namespace's loopback up, its socket buffers capped and its listeners
// bound, and its host name set, which no configuration changes, and the
// configuration's and reports' JSON codecs and the seccomp program built
// once, so that their first use is not on the run's path; and the mounts
// no view needs, which premount makes so that the run still sees the
// host's mount table as it is when the run starts.
type preworked struct {
	// capped: the namespace's socket buffers are capped, which a run
	// then does not do again when it mounts /proc.
	loopback, hostname, capped bool
	// listeners are the network listeners (bindListeners), bound once
	// the namespace's socket buffers were capped, as a run binds them
	// after mounting /proc; nil when either failed, to do again at the
	// run. Closed at the run if it has no network.
	listeners []int
	// mounted is the base configuration the mounts no view needs were
	// made for ahead (premount), /proc and /sys with them; nil when
	// none were. failed is the step of them that failed, if one did:
	// the run that takes this init then fails with it.
	mounted *baseConfig
	failed  *report
}

// prework does a warm init's work ahead of its caller (see preworked).
// A step that fails is done again, and fails the run, in setup.
func prework() preworked {
	var p preworked
	p.loopback = loopbackUp() == nil
	p.hostname = unix.Sethostname([]byte(hostname)) == nil
	// The namespace's /proc/sys/net through the host's /proc: net
	// sysctls are the writer's namespace's.
	if p.capped = limitSocketBuffers("/proc/sys") == nil; p.capped {
		p.listeners, _ = bindListeners()
	}
	var cfg config
	if b, err := cfg.marshal(); err == nil {
		decodeConfig(b)
	}
	json.Marshal(report{})
	for _, watch := range []bool{false, true} {
		seccomp.Program(runtime.GOARCH, seccomp.Options{Notify: true, Watch: watch})
	}
	return p
}

// hostname is the sandbox's host name.
const hostname = "warden"

// forwarded are the signals passed on to the command: those a shell or a
// supervisor sends to ask a program to stop, reload or redraw. Job
// control stops (SIGTSTP, SIGTTIN, SIGTTOU) are not: stopping the
// command alone would leave warden waiting on it.
var forwarded = map[syscall.Signal]bool{
	syscall.SIGHUP: true, syscall.SIGINT: true, syscall.SIGQUIT: true, syscall.SIGTERM: true,
	syscall.SIGUSR1: true, syscall.SIGUSR2: true, syscall.SIGWINCH: true, syscall.SIGCONT: true,
	syscall.SIGALRM: true,
}

// caught are the signals init takes rather than die of: the forwarded
// ones, and those the command could send init (pid 1 of its namespace, so
// only signals it handles reach it) to end the run. Handled, not ignored,
// so that the command starts with default dispositions.
var caught = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGWINCH, syscall.SIGCONT, syscall.SIGALRM,
	// Sent with kill, these would crash the Go runtime: taken and
	// dropped (a fault of init's own is still one).
	syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGILL, syscall.SIGTRAP,
	syscall.SIGABRT, syscall.SIGSYS, syscall.SIGPIPE, syscall.SIGVTALRM, syscall.SIGPROF,
}

// stepError is a failed setup step with a hint.
type stepError struct{ what, hint string }

func (e *stepError) Error() string { return e.what }

func fail(ctl *os.File, what, hint string) {
	send(ctl, report{Error: what, Hint: hint})
	os.Exit(125)
}

func send(ctl *os.File, r report) {
	b, _ := json.Marshal(r)
	ctl.Write(b)
}

func jsonReport(r report) ([]byte, error) { return json.Marshal(r) }

// step runs one setup step; any error stops init (fail closed), or,
// while soft, every step after it, and init at the run.
func (i *initProc) step(name string, f func() error) {
	if i.failed != nil {
		return
	}
	var t0 time.Time
	if i.cfg.Trace {
		t0 = time.Now()
	}
	err := error(nil)
	if i.cfg.FailAt == name {
		err = errors.New("injected failure")
	} else {
		err = f()
	}
	if err == nil {
		if i.cfg.Trace {
			send(i.ctl, report{Step: name, Micros: time.Since(t0).Microseconds()})
		}
		return
	}
	r := report{Error: name + ": " + err.Error(), Hint: hintFor(err)}
	var se *stepError
	if errors.As(err, &se) {
		r = report{Error: name + ": " + se.what, Hint: se.hint}
	}
	if i.soft {
		i.failed = &r
		return
	}
	fail(i.ctl, r.Error, r.Hint)
}

// traceSince reports, when the run is traced, a step that took since t0.
func (i *initProc) traceSince(name string, t0 time.Time) {
	if i.cfg.Trace {
		send(i.ctl, report{Step: name, Micros: time.Since(t0).Microseconds()})
	}
}

func hintFor(err error) string {
	switch {
	case errors.Is(err, unix.EPERM), errors.Is(err, unix.EACCES):
		return "the kernel refused the operation inside a user namespace; check that user namespaces are allowed and no LSM (AppArmor, SELinux) restricts them"
	case errors.Is(err, unix.ENOSYS):
		return "the kernel is too old: Linux 5.12 or newer is needed"
	}
	return "this host does not support a layer of the sandbox"
}

// testWritableRoot, as config.FailAt, leaves / writable (still nosuid,
// nodev) instead of failing a step, so that tests can show Landlock
// holding by itself.
const testWritableRoot = "test: writable root"

const (
	newRoot = "/newroot"
	oldRoot = "/oldroot"
)

// setupBase makes the mounts that no view needs: the new root with the
// host's read-only, the private tmpfs, /dev, /tmp, /run and the exec
// scratch. It reads only the fields of config.base.
func (i *initProc) setupBase() {
	i.step("make mounts private", func() error {
		return unix.Mount("", "/", "", unix.MS_REC|cmp.Or(i.propagation, unix.MS_PRIVATE), "")
	})
	i.step("prepare new root", func() error {
		// bubblewrap's double pivot: a small tmpfs becomes / while the
		// host tree, moved to /oldroot, is the source of every bind.
		if err := unix.Mount("warden", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=64k,mode=0755"); err != nil {
			return err
		}
		for _, d := range []string{"/tmp/newroot", "/tmp/oldroot"} {
			if err := os.Mkdir(d, 0o755); err != nil {
				return err
			}
		}
		if err := unix.Chdir("/tmp"); err != nil {
			return err
		}
		if err := unix.PivotRoot(".", "oldroot"); err != nil {
			return fmt.Errorf("pivot_root: %w", err)
		}
		return unix.Chdir("/")
	})
	i.setupTree()
}

// setupTree makes the mounts of setupBase in the new root: the host's
// tree read-only, and over it the private tmpfs, /dev, /tmp, /run and
// the exec scratch.
func (i *initProc) setupTree() {
	i.step("bind / read-only", func() error {
		if err := unix.Mount(oldRoot, newRoot, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return err
		}
		flags := uint64(unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV)
		if i.cfg.FullAccess || i.cfg.FailAt == testWritableRoot {
			flags &^= unix.MOUNT_ATTR_RDONLY
		}
		return setattr(newRoot, flags)
	})
	i.step("mount private tmpfs", i.mountPrivate)
	i.step("mount /dev", i.mountDev)
	i.step("mount /tmp", func() error { return bindPrivate("tmp", newRoot+"/tmp", false) })
	i.step("mount /run", func() error {
		if _, err := os.Lstat(newRoot + "/run"); errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return bindPrivate("run", newRoot+"/run", false)
	})
	i.step("mount exec scratch", func() error {
		if !i.cfg.ExecScratch {
			return nil
		}
		p := newRoot + execScratch
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		// Executable, unlike /tmp: toolchains that run what they just
		// linked (go test, via GOTMPDIR) need one such place.
		return bindPrivate("exec", p, true)
	})
}

// setupView makes the rest of the sandbox from the whole configuration:
// the view (the home, the binds, the masks), /proc and /sys over it, the
// new root entered, the network and the terminal.
func (i *initProc) setupView() {
	if i.procSys && i.viewBelow("/proc", "/sys") {
		// Made ahead, they would be under what the view binds there, not
		// over it as in a run that makes them now.
		i.step("unmount /proc and /sys made ahead", i.unmountProcSys)
	}
	i.step("hide home", i.hideHome)
	i.step("bind project", i.bindAll)
	if i.cfg.Network {
		i.step("point DNS at the stub", i.pointResolver)
	}
	i.step("bound private tmpfs", i.boundPrivate)
	i.step("mask sensitive paths", i.mask)
	if !i.procSys {
		i.step("mount /proc", func() error { return mountProc(i.ahead.capped) })
		i.step("mount /sys", i.mountSys)
	}
	i.step("bind the run's cgroup", i.bindCgroup)
	i.step("enter new root", func() error {
		if err := unix.Unmount(oldRoot, unix.MNT_DETACH); err != nil {
			return err
		}
		old, err := unix.Open("/", unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(old)
		if err := unix.Chdir(newRoot); err != nil {
			return err
		}
		// runc's pivot_root(".", "."): the old root ends up on top of
		// the new one and is detached at once.
		if err := unix.PivotRoot(".", "."); err != nil {
			return fmt.Errorf("pivot_root: %w", err)
		}
		if err := unix.Fchdir(old); err != nil {
			return err
		}
		if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
			return err
		}
		return unix.Chdir("/")
	})
	// Done already by a warm init (prework), then nothing is left to do.
	i.step("set hostname", func() error {
		if i.ahead.hostname {
			return nil
		}
		return unix.Sethostname([]byte(hostname))
	})
	i.step("bring up loopback", func() error {
		if i.ahead.loopback {
			return nil
		}
		return loopbackUp()
	})
	if i.cfg.Network {
		i.step("make network listeners", i.makeListeners)
	} else {
		closeFDs(i.ahead.listeners)
		i.ahead.listeners = nil
	}
	if i.cfg.Terminal != nil {
		i.step("make the terminal", i.makeTerminal)
	}
	i.step("enter project", func() error { return unix.Chdir(i.cfg.Project) })
	// Privileges are dropped in runCommand, once init has its cgroup
	// namespace.
}

func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// dropPrivileges leaves this thread, and so the command it starts, with no
// capability at all and no way to gain one; with hostID, also as uid and
// gid 65534 ([hostID] outside) with no supplementary group.
func dropPrivileges(hostID bool) error {
	// Other threads of init keep their capabilities until init exits;
	// non-dumpable keeps the command from ptracing or reading them.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_DUMPABLE: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_NO_NEW_PRIVS: %w", err)
	}
	last, err := lastCap()
	if err != nil {
		return err
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			return fmt.Errorf("PR_CAPBSET_DROP %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_CAP_AMBIENT_CLEAR_ALL: %w", err)
	}
	if hostID {
		if err := becomeSandboxID(); err != nil {
			return err
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	// Check, rather than trust, the result.
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	for _, d := range data {
		if d.Effective != 0 || d.Permitted != 0 || d.Inheritable != 0 {
			return errors.New("capabilities still present after capset")
		}
	}
	return nil
}

// installSeccomp loads package seccomp's filter. It needs the
// no_new_privs that dropPrivileges set on this thread. Refused calls go
// through a listener served by init, which records them; on a kernel
// without user notification the kernel refuses them itself, unrecorded.
func (i *initProc) installSeccomp() error {
	opts := seccomp.Options{Notify: true, Allow: i.cfg.AllowSyscalls, Watch: i.cfg.WatchConnect}
	listener, err := seccomp.Install(opts)
	if errors.Is(err, seccomp.ErrNoListener) {
		// Nothing is watched either: the proxy finds who holds each
		// connection's socket instead (package callerid).
		opts.Notify, opts.Watch = false, false
		_, err = seccomp.Install(opts)
		i.blocked.how = "not recorded: " + seccomp.ErrNoListener.Error()
		if err == nil && i.cfg.WatchConnect {
			i.notWatching(seccomp.ErrNoListener.Error())
		}
	}
	if err != nil {
		return &stepError{err.Error(), "the kernel must support seccomp filters (CONFIG_SECCOMP_FILTER, Linux 4.14 or newer) on x86_64; or run with --degraded=seccomp"}
	}
	if listener < 0 {
		return nil
	}
	// Never the command's.
	if _, err := unix.FcntlInt(uintptr(listener), unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
		return fmt.Errorf("listener close-on-exec: %w", err)
	}
	i.blocked.how = "seccomp user notification"
	i.blocked.notify = func(c audit.Syscall) { send(i.ctl, report{Blocked: []audit.Syscall{c}, BlockedPartial: true}) }
	var watch func(seccomp.Event) func()
	if i.cfg.WatchConnect {
		watch = i.watchConnect
		// Said before any connection: from now on, every one is
		// reported before it is made.
		send(i.ctl, report{Connected: &Connection{}})
	}
	go seccomp.Serve(listener, i.blocked.add, watch)
	return nil
}

// notWatching tells the parent, before the command starts, that no
// connection will be reported, and why (Network.Connected).
func (i *initProc) notWatching(why string) {
	send(i.ctl, report{Connected: &Connection{Err: why}})
}

// watchConnect reads who is making a TCP connection (a connect, or a
// send with MSG_FASTOPEN, on descriptor e.Args[0] of process e.PID),
// while the call waits, and returns the report to send once the call is
// known to be still pending. A descriptor that is not a socket makes no
// report (the call fails or is not a connection).
func (i *initProc) watchConnect(e seccomp.Event) func() {
	proc := "/proc/" + strconv.Itoa(e.PID)
	// The descriptor's file, followed: a socket's inode number is the
	// one sock_diag gives the proxy (package callerid reads it so too).
	var st unix.Stat_t
	if unix.Stat(proc+"/fd/"+strconv.FormatUint(e.Args[0]&0xffffffff, 10), &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK || st.Ino > 1<<32-1 {
		return nil
	}
	c := &Connection{Inode: uint32(st.Ino), PID: e.PID}
	var err error
	if c.Exe, err = os.Readlink(proc + "/exe"); err != nil {
		c.Err = "the caller's executable cannot be read: " + err.Error()
	} else if strings.HasSuffix(c.Exe, " (deleted)") {
		c.Err = "the caller runs a deleted executable: " + c.Exe
	} else {
		c.Err = i.seen.Check(proc+"/exe", c.Exe)
	}
	for p := callerid.Parent("/proc", e.PID); p > 1 && c.Err == ""; p = callerid.Parent("/proc", p) {
		pp := "/proc/" + strconv.Itoa(p)
		exe, err := os.Readlink(pp + "/exe")
		if err != nil {
			break
		}
		c.Ancestors = append(c.Ancestors, exe)
		c.Err = i.seen.Check(pp+"/exe", exe)
	}
	if c.Err != "" {
		c.Exe, c.Ancestors = "", nil
	}
	return func() { send(i.ctl, report{Connected: c}) }
}

// awaitGo waits for the parent's go: until then the command must not
// start, as init may not be in its cgroup yet. Anything else (the parent
// gone, a stray message) stops the run.
func (i *initProc) awaitGo() error {
	buf := make([]byte, 64)
	n, err := i.ctl.Read(buf)
	if err != nil {
		return fmt.Errorf("read from the parent: %w", err)
	}
	if string(buf[:n]) != string(goMessage) {
		return fmt.Errorf("unexpected message from the parent: %q", buf[:n])
	}
	return nil
}

// maxJoins bounds cfg.CgroupJoin: memory, pids, cpu and cpuacct.
const maxJoins = 4

// joinCgroups moves this thread, the one that starts the command, into
// each cgroup v1 directory of cfg.CgroupJoin (runCgroup.joins says why
// this thread alone), and closes the tasks files.
func (i *initProc) joinCgroups() error {
	defer closeFDs(i.tasksFDs)
	for k, fd := range i.tasksFDs {
		j := i.cfg.CgroupJoin[k]
		if _, err := unix.Write(fd, []byte("0")); err != nil && !j.Optional {
			return &stepError{fmt.Sprintf("join cgroup %s: %v", j.Dir, err), joinHint}
		}
	}
	return nil
}

// maxBlocked bounds the distinct refused calls a run records.
const maxBlocked = 64

// blockedLog aggregates the calls the filter refused, by name.
type blockedLog struct {
	how    string
	notify func(audit.Syscall) // called for each new entry
	mu     sync.Mutex          // guards the fields below
	byName map[string]int      // index in calls
	calls  []audit.Syscall
	// dropped counts refusals of calls not recorded past maxBlocked.
	dropped int
}

func (b *blockedLog) add(e seccomp.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	name := e.Syscall
	if name == "" {
		name = fmt.Sprintf("syscall %d", e.Nr)
	}
	if i, ok := b.byName[name]; ok {
		b.calls[i].Count++
		return
	}
	if len(b.calls) == maxBlocked {
		b.dropped++
		return
	}
	if b.byName == nil {
		b.byName = map[string]int{}
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", e.PID))
	b.byName[name] = len(b.calls)
	c := audit.Syscall{
		Syscall: name, Errno: "EPERM", Count: 1, PID: e.PID,
		Command: strings.TrimSpace(string(comm)), Args: e.Args[:argCount(name)],
	}
	b.calls = append(b.calls, c)
	// Told at once, so that a run the timeout kills still has it.
	if b.notify != nil {
		b.notify(c)
	}
}

func (b *blockedLog) list() []audit.Syscall {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]audit.Syscall(nil), b.calls...)
}

// argCount is how many arguments of a refused call are worth recording:
// the ones rules look at, and the first two otherwise.
func argCount(name string) int {
	switch name {
	case "socket", "socketpair", "clone", "unshare", "personality":
		return 2
	case "ioctl":
		return 2
	}
	return 1
}

// lastCap is read once, before Landlock: a list of readable paths
// (Spec.Readable) may leave /proc out.
var lastCap = sync.OnceValues(func() (int, error) {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 0, err
	}
	var n int
	if _, err := fmt.Sscanf(string(b), "%d", &n); err != nil {
		return 0, fmt.Errorf("cap_last_cap: %w", err)
	}
	return n, nil
})

// runCommand starts the command, reaps every process until it exits and
// reports its status. It never returns.
func (i *initProc) runCommand() {
	env := i.cfg.Env
	for _, kv := range env {
		if len(kv) > 5 && kv[:5] == "PATH=" {
			os.Setenv("PATH", kv[5:])
		}
	}
	path, err := exec.LookPath(i.cfg.Argv[0])
	if err != nil {
		status := 127
		if !errors.Is(err, exec.ErrNotFound) {
			status = 126
		}
		send(i.ctl, report{StartError: fmt.Sprintf("%s: %v", i.cfg.Argv[0], err), Exit: status})
		os.Exit(status)
	}
	if !filepath.IsAbs(path) {
		path, _ = filepath.Abs(path)
	}
	unix.Umask(i.umask)
	// Close everything from 3 up (the control socket included) in the
	// command; init's own descriptors are close-on-exec already.
	if err := unix.CloseRange(ctlFD, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		fail(i.ctl, "close descriptors: "+err.Error(), "")
	}
	lastCap()
	if !i.cfg.NoLandlock {
		i.step("landlock", func() error { return installLandlock(&i.cfg) })
	}
	<-i.sigsReady
	i.step("wait for the cgroup", i.awaitGo)
	i.step("join the cgroups", i.joinCgroups)
	// Init is in the run's cgroups now: they become the root of the
	// command's cgroup namespace, which takes CAP_SYS_ADMIN, so before
	// privileges go, and unshare, so before seccomp refuses it.
	i.step("enter cgroup namespace", func() error { return unix.Unshare(unix.CLONE_NEWCGROUP) })
	i.step("drop privileges", func() error { return dropPrivileges(i.cfg.HostID) })
	// The kernel forgets the parent-death signal when a process changes
	// its uid, as a root caller's init just did: set again, so that init
	// still dies with the thread that started it (warden run's, or warden
	// serve's for a warm init).
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		fail(i.ctl, "parent-death signal: "+err.Error(), "")
	}
	// Last, so that no setup step runs under it; TSYNC covers every
	// thread of init, and the command inherits it.
	if !i.cfg.NoSeccomp {
		i.step("seccomp filter", i.installSeccomp)
	} else if i.cfg.WatchConnect {
		i.notWatching("seccomp is off (--degraded=seccomp)")
	}
	if err := setCommandRlimits(i.cfg.CommandRlimits); err != nil {
		fail(i.ctl, err.Error(), "the hard limit of this user is lower; lower the limit in the policy")
	}
	t0 := time.Now()
	// syscall.ForkExec, not os.StartProcess: init reaps with wait4 and
	// needs no pidfd, whose first use costs a probing fork.
	files, sys := i.commandStdio()
	pid, err := syscall.ForkExec(path, i.cfg.Argv, &syscall.ProcAttr{
		Dir:   i.cfg.Dir,
		Env:   env,
		Files: files,
		Sys:   sys,
	})
	if err != nil {
		status := 126
		if errors.Is(err, os.ErrNotExist) {
			status = 127
		}
		send(i.ctl, report{StartError: fmt.Sprintf("%s: %v", i.cfg.Argv[0], err), Exit: status})
		os.Exit(status)
	}
	i.traceSince("start command", t0)
	send(i.ctl, report{Started: true})
	go watchCaller()
	go func() {
		for sig := range i.sigs {
			if s, ok := sig.(syscall.Signal); ok && forwarded[s] {
				syscall.Kill(pid, s)
			}
		}
	}()
	for {
		var ws syscall.WaitStatus
		reaped, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			fail(i.ctl, "wait: "+err.Error(), "")
		}
		if reaped != pid {
			continue // an orphan, reaped
		}
		i.traceSince("command ran", t0)
		t1 := time.Now()
		i.endRest()
		i.traceSince("the rest killed and reaped", t1)
		r := report{Done: true, Exit: ws.ExitStatus(), Blocked: i.blocked.list(), BlockedHow: i.blocked.how, BlockedDropped: i.blocked.dropped}
		if ws.Signaled() {
			r.Signal = int(ws.Signal())
		}
		r.CPU = cpuTime(unix.RUSAGE_SELF) + cpuTime(unix.RUSAGE_CHILDREN)
		t1 = time.Now()
		r.Left = i.leaveCgroups()
		i.closeStdio()
		i.traceSince("cgroups left, streams closed", t1)
		send(i.ctl, r)
		os.Exit(0)
	}
}

// endRest kills and reaps every process the command left behind: init
// is pid 1 of the sandbox's pid namespace, every other process in it its
// descendant, so once it has no child left, none is left at all. Done is
// sent after, so that the parent's post-run check looks at files no
// process of the sandbox can change any more, and need not wait for
// init's own exit (the namespaces' teardown) to know it.
func (i *initProc) endRest() {
	unix.Kill(-1, unix.SIGKILL)
	for {
		_, err := syscall.Wait4(-1, nil, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return // ECHILD: none left
		}
	}
}

// leaveCgroups moves init's thread, the one that joined the run's cgroup
// v1 directories to start the command, to the directories above them,
// and says whether it is in none of the run's any more.
func (i *initProc) leaveCgroups() bool {
	defer closeFDs(i.leaveFDs)
	if len(i.leaveFDs) == 0 || i.cfg.CgroupV2 != "" {
		return false
	}
	for _, fd := range i.leaveFDs {
		if _, err := unix.Write(fd, []byte("0")); err != nil {
			return false
		}
	}
	return true
}

// closeStdio points init's standard streams at /dev/null: the command's
// output ends for the parent once no process of the sandbox holds them,
// init included, without waiting for init's exit.
func (i *initProc) closeStdio() {
	if i.tty != nil {
		i.tty.Close()
	}
	null, err := unix.Open("/dev/null", unix.O_RDWR|unix.O_CLOEXEC, 0)
	for fd := 0; fd < 3; fd++ {
		if err == nil {
			unix.Dup3(null, fd, 0)
		} else {
			unix.Close(fd)
		}
	}
	if err == nil {
		unix.Close(null)
	}
}

// cpuTime is the processor time of who (getrusage), in nanoseconds.
func cpuTime(who int) int64 {
	var ru unix.Rusage
	if unix.Getrusage(who, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// watchCaller ends init, and with it every process of the sandbox, when
// the warden that runs the sandbox has ended, however it ended: it never
// writes to the control socket after the go, so a read ends only when
// its end is closed. This holds where the parent-death signal does not:
// a warm init's caller is not its parent.
func watchCaller() {
	var b [64]byte
	for {
		n, err := unix.Read(ctlFD, b[:])
		if err == unix.EINTR || (err == nil && n > 0) {
			continue
		}
		os.Exit(125)
	}
}
