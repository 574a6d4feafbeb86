// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// A sandbox started ahead of time. Most of a cold run's set-up is not the
// run's own: the clone into six namespaces, the uid maps, and the second
// Go runtime's start in init come to about half of `warden run -- true`.
// A [Keeper] (warden serve) does that part before it is asked: it keeps
// one init started, blocked on its control socket, and hands it to the
// next run that asks on [WarmSocket]; the init makes the mounts no view
// needs meanwhile (premount_linux.go). The run then goes on exactly as a
// cold one (its own configuration, view, cgroup, rlimits, streams, egress
// and post-run check), but for three things that follow from init not
// being its child:
//
//   - its streams and umask reach init in a first message (adopted);
//   - it signals init through a pidfd, and serve, which reaps init,
//     sends init's status and CPU time on the connection the run took it
//     on (launched.waitServe);
//   - it dies with that connection: when the run's warden ends, however
//     it ends, serve kills the init it handed over, as the kernel kills a
//     cold init when its parent's thread ends (Pdeathsig). An init also
//     dies with serve.
//
// An init is handed over once, to a caller no more confined than serve:
// the same uid, gid and groups, capabilities, no_new_privs, seccomp mode,
// LSM label and namespaces (peerMatches). Whoever holds init's control
// socket chooses what the sandbox binds, so a process that a sandbox of
// its own confines (bubblewrap, a container, another agent's seccomp
// filter) must not get one and escape its own confinement through serve;
// it is refused, and its warden starts init itself. The caller compares
// serve's executable with its own (same file): an init from an older
// warden, replaced on disk since serve started, is never driven by a newer
// one. Any refusal or failure before the caller used init makes a cold
// start, never a weaker run.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/unixsock"
)

// WarmSocket is the name, in the state directory, of the socket on which
// a [Keeper] hands over a sandbox init started ahead of time.
const WarmSocket = "warm.sock"

// warmArg is init's second argument when a Keeper started it.
const warmArg = "warm"

// warmOffer is what a Keeper sends with an init: its pid and whether its
// maps are a root caller's (initAttr); the control socket and a pidfd
// come as rights. A root Keeper sends a third, the user namespace of the
// idmapped mounts of a project Idmap (serve's own uid and gid) owns
// (mappingUserns), made once when serve started: a root run then forks
// no process to make it. Error, alone, says why none is handed over.
//
// Cgroup, when set, is a run cgroup made ahead for a run of the default
// limits (Limits{}), with every controller they want, by a Keeper in the
// cgroups named by Cgroup.Own: a run of those limits, in those same
// cgroups, takes it rather than make its own, and removes it at its end
// as it would its own. Serve removes it too once the run has ended, if
// the run did not.
type warmOffer struct {
	Pid    int         `json:"pid,omitempty"`
	HostID bool        `json:"host_id,omitempty"`
	Idmap  *[2]uint32  `json:"idmap,omitempty"`
	Cgroup *warmCgroup `json:"cgroup,omitempty"`
	Error  string      `json:"error,omitempty"`
}

// warmCgroup is a runCgroup as a Keeper offers it.
type warmCgroup struct {
	// Own is the Keeper's /proc/self/cgroup: the cgroups the run's
	// directories were made in.
	Own      string   `json:"own"`
	ID       string   `json:"id"`
	Dirs     []string `json:"dirs"`
	MemDir   string   `json:"mem_dir,omitempty"`
	PidsDir  string   `json:"pids_dir,omitempty"`
	CPUDir   string   `json:"cpu_dir,omitempty"`
	AcctDir  string   `json:"acct_dir,omitempty"`
	MemV2    bool     `json:"mem_v2,omitempty"`
	PidsV2   bool     `json:"pids_v2,omitempty"`
	CPUV2    bool     `json:"cpu_v2,omitempty"`
	Versions []string `json:"versions,omitempty"`
}

// offerCgroup is cg as a Keeper whose /proc/self/cgroup is own offers it.
func offerCgroup(cg *runCgroup, own string) *warmCgroup {
	w := &warmCgroup{Own: own, ID: cg.id, Dirs: cg.dirs, MemDir: cg.memDir, PidsDir: cg.pidsDir, CPUDir: cg.cpuDir,
		AcctDir: cg.acctDir, MemV2: cg.memV2, PidsV2: cg.pidsV2, CPUV2: cg.cpuV2}
	for v := range cg.versions {
		w.Versions = append(w.Versions, v)
	}
	return w
}

// runCgroup is the cgroup a Keeper offered.
func (w *warmCgroup) runCgroup() *runCgroup {
	cg := &runCgroup{id: w.ID, dirs: w.Dirs, memDir: w.MemDir, pidsDir: w.PidsDir, cpuDir: w.CPUDir, acctDir: w.AcctDir,
		memV2: w.MemV2, pidsV2: w.PidsV2, cpuV2: w.CPUV2, versions: map[string]bool{}}
	for _, v := range w.Versions {
		cg.versions[v] = true
	}
	return cg
}

// spareCgroup makes a run cgroup for the default limits, to offer with
// an init: nil when this process cannot have every controller they want.
func spareCgroup() (*runCgroup, string) {
	if testOnlyNoSpareCgroup {
		return nil, ""
	}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, ""
	}
	cg, err := newCgroup(Limits{})
	if err != nil {
		return nil, ""
	}
	if len(cg.missing) > 0 || len(cg.dirs) == 0 {
		cg.remove()
		return nil, ""
	}
	return cg, string(own)
}

// exeID names an executable file.
type exeID struct {
	Dev, Ino, Size, Mtime int64
}

// warmStatus is init's end, as the Keeper reaped it.
type warmStatus struct {
	Status int   `json:"status"`
	UserNs int64 `json:"user_ns"`
	SysNs  int64 `json:"sys_ns"`
}

// adoptMsg is the first message to an init a Keeper started: the
// caller's umask; its streams come as rights.
type adoptMsg struct {
	Umask int `json:"umask"`
}

// exeOf identifies the executable of a process ("self" or a pid).
func exeOf(proc string) (exeID, error) {
	var st unix.Stat_t
	if err := unix.Stat("/proc/"+proc+"/exe", &st); err != nil {
		return exeID{}, err
	}
	return exeID{Dev: int64(st.Dev), Ino: int64(st.Ino), Size: st.Size, Mtime: st.Mtim.Nano()}, nil
}

// isServe says whether the process on the other end of fd runs as this
// user and from this very executable: a Keeper of the same warden, not
// an older one replaced on disk since it started (whose init would not
// understand this one), nor anything else listening there.
func isServe(fd int) error {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return err
	}
	if int(cred.Uid) != os.Getuid() {
		return errors.New("the socket is another user's")
	}
	own, err := exeOf("self")
	if err != nil {
		return err
	}
	if its, err := exeOf(strconv.Itoa(int(cred.Pid))); err != nil || its != own {
		return errors.New("warden serve runs another warden executable")
	}
	return nil
}

// adopted is init's side of a hand-over: it waits for the caller's
// streams, takes them as its own, and returns the caller's umask, the
// command's.
func adopted() (umask int, err error) {
	buf := make([]byte, 256)
	oob := make([]byte, unix.CmsgSpace(3*4))
	n, oobn, err := recvRights(ctlFD, buf, oob)
	if err != nil {
		return 0, err
	}
	fds := rightsIn(oob[:oobn])
	defer closeFDs(fds)
	var m adoptMsg
	if n == 0 || len(fds) != 3 || json.Unmarshal(buf[:n], &m) != nil {
		return 0, errors.New("bad hand-over")
	}
	for i, fd := range fds {
		if err := unix.Dup3(fd, i, 0); err != nil {
			return 0, err
		}
	}
	return m.Umask, nil
}

// Keeper keeps a sandbox init started ahead of time and hands it over on
// [WarmSocket] (see the top of warm_linux.go).
type Keeper struct {
	ln     *net.UnixListener
	hostID bool
	self   map[string]string // serve's own confinement, as peerMatches reads it
	// idmap is the user namespace that maps idmapOwner to hostID, sent
	// with every init (warmOffer.Idmap), or -1.
	idmap      int
	idmapOwner owner

	ready chan *spare   // the init waiting to be handed over
	taken chan struct{} // an init was handed over
	ended chan struct{} // a run that took one has ended
	// want is sent on by a caller that found no init ready, and waiting
	// counts those callers: the next init is started at once for them,
	// with no refill pause.
	want    chan struct{}
	waiting atomic.Int32
	failed  chan struct{} // closed when no more inits will be started
	stop    chan struct{} // closed by Close
	done    chan struct{} // closed when the starting thread has ended
	once    sync.Once
	// mounts is serve's /proc/self/mountinfo, which polls as changed
	// once serve's mount table has (mountGen): a descriptor the Go
	// runtime's poller never has, whose polls would take the change.
	mounts   int
	mountsMu sync.Mutex
	gen      uint64 // changes seen, under mountsMu
	// watch is another descriptor of it, which watchMounts waits on,
	// until unwatch (an eventfd) is written; watched is closed when it
	// has returned.
	watch, unwatch int
	watched        chan struct{}
}

// spare is an init a Keeper started, and the run cgroup made with it.
type spare struct {
	pid   int
	ctl   *os.File // the parent's end of its control socket
	pidfd int
	ended chan warmStatus // its status, once reaped
	// cg, when set, was made for a run of the default limits in the
	// cgroups own names (spareCgroup).
	cg  *runCgroup
	own string
	// gen is the Keeper's mountGen before the init was started: its
	// copy of the host's mount table is the one of then.
	gen uint64
}

// NewKeeper listens on dir's [WarmSocket] (replacing a stale one) and
// starts keeping an init ready, with a root caller's maps when serve is
// root (as a cold run has them without --degraded=host-uid).
func NewKeeper(dir string) (*Keeper, error) {
	self, err := confinement(os.Getpid())
	if err != nil {
		return nil, fmt.Errorf("warm sandbox: %w", err)
	}
	path := filepath.Join(dir, WarmSocket)
	ln, err := unixsock.Listen("unixpacket", path)
	if err != nil {
		return nil, fmt.Errorf("warm sandbox: %w", err)
	}
	k := &Keeper{ln: ln, hostID: os.Getuid() == 0, self: self, idmap: -1,
		ready: make(chan *spare, 1), taken: make(chan struct{}, 1), ended: make(chan struct{}, 1),
		want: make(chan struct{}, 1), failed: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	// Opened before the first init copies the mount table.
	if err := k.openMounts(); err != nil {
		ln.Close()
		os.Remove(path)
		return nil, fmt.Errorf("warm sandbox: %w", err)
	}
	if k.hostID {
		// Where it cannot be made, each run makes its own and says why.
		k.idmapOwner = owner{uint32(os.Getuid()), uint32(os.Getgid())}
		if fd, err := mappingUserns(k.idmapOwner); err == nil {
			k.idmap = fd
		}
	}
	first := make(chan error, 1)
	go k.starter(first)
	// The first init says whether this host can start one at all (user
	// namespaces refused, …): then there is no Keeper, and serve says
	// why.
	if err := <-first; err != nil {
		close(k.stop)
		<-k.done
		ln.Close()
		os.Remove(path)
		k.closeIdmap()
		k.closeMounts()
		return nil, fmt.Errorf("warm sandbox: %w", err)
	}
	k.watched = make(chan struct{})
	go k.watchMounts()
	go k.serve()
	return k, nil
}

// Close stops handing inits over and kills the one ready. The runs that
// took one end too: their inits die with the thread that started them.
func (k *Keeper) Close() error {
	k.once.Do(func() {
		close(k.stop)
		k.ln.Close()
		// The watcher first, so that no init it took out to check is
		// put back after the starter has discarded the one ready.
		unix.Write(k.unwatch, []byte{1, 0, 0, 0, 0, 0, 0, 0})
	})
	<-k.watched
	<-k.done
	k.closeIdmap()
	k.closeMounts()
	return nil
}

// openMounts opens what mountGen and watchMounts read: descriptors the Go
// runtime's poller never holds, whose own polls would take a change.
func (k *Keeper) openMounts() error {
	k.mounts, k.watch, k.unwatch = -1, -1, -1
	var err error
	if k.mounts, err = unix.Open("/proc/self/mountinfo", unix.O_RDONLY|unix.O_CLOEXEC, 0); err == nil {
		if k.watch, err = unix.Open("/proc/self/mountinfo", unix.O_RDONLY|unix.O_CLOEXEC, 0); err == nil {
			k.unwatch, err = unix.Eventfd(0, unix.EFD_CLOEXEC)
		}
	}
	if err != nil {
		k.closeMounts()
	}
	return err
}

func (k *Keeper) closeMounts() {
	for _, fd := range []*int{&k.mounts, &k.watch, &k.unwatch} {
		if *fd >= 0 {
			unix.Close(*fd)
			*fd = -1
		}
	}
}

// watchMounts replaces the init ready as soon as serve's mount table
// changes, rather than when a run asks for it (next), so that the run
// does not wait for one started anew.
func (k *Keeper) watchMounts() {
	defer close(k.watched)
	fds := []unix.PollFd{{Fd: int32(k.watch), Events: unix.POLLPRI}, {Fd: int32(k.unwatch), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err == unix.EINTR {
			continue
		} else if err != nil || fds[1].Revents != 0 {
			return
		}
		if fds[0].Revents&(unix.POLLPRI|unix.POLLERR) == 0 || testOnlyKeepAcrossMountChanges {
			continue
		}
		select {
		case sp := <-k.ready:
			if sp.gen == k.mountGen() {
				k.ready <- sp
				continue
			}
			k.replace(sp)
		default:
		}
	}
}

// mountGen counts the changes of serve's mount table seen so far. An
// init's mount namespace is a copy of serve's, made when it starts: where
// the host's mounts do not propagate (private), a change after that is
// not in it. Such an init is never handed over: a run gets the host's
// mounts as they are when it starts, as a cold run does.
func (k *Keeper) mountGen() uint64 {
	k.mountsMu.Lock()
	defer k.mountsMu.Unlock()
	fds := []unix.PollFd{{Fd: int32(k.mounts), Events: unix.POLLPRI}}
	if n, err := unix.Poll(fds, 0); err != nil || (n > 0 && fds[0].Revents&(unix.POLLPRI|unix.POLLERR) != 0) {
		k.gen++
	}
	return k.gen
}

// closeIdmap closes the Keeper's user namespace, if it has one: the
// runs that took it have their own descriptors.
func (k *Keeper) closeIdmap() {
	if k.idmap >= 0 {
		unix.Close(k.idmap)
		k.idmap = -1
	}
}

// starter starts inits, one at a time, as the one ready is taken. It runs
// on a thread of its own, which it ends when the Keeper is closed: every
// init it started dies with that thread (Pdeathsig).
func (k *Keeper) starter(first chan<- error) {
	runtime.LockOSThread()
	defer close(k.done)
start:
	for {
		sp, err := k.start()
		if first != nil {
			first <- err
			first = nil
		}
		if err != nil {
			// No init can be started (now): every run starts its own,
			// and says why if it fails.
			close(k.failed)
			break
		}
		select {
		case k.ready <- sp:
		case <-k.stop:
			sp.discard()
			break start
		}
		// The next is started once the run that takes this one has
		// ended, or a while after it was taken: not under the run's
		// feet, on a machine with few CPUs. A caller that asks in the
		// meantime, and waits, has it started at once: a run started
		// right after the last one ended (a script's loop) would
		// otherwise find none ready and start its own, the slowest way.
		select {
		case <-k.taken:
		case <-k.stop:
			break start
		}
		select {
		case <-k.want: // asked for by a caller served since, or still waiting
		default:
		}
		if k.waiting.Load() > 0 {
			continue
		}
		select {
		case <-k.ended:
			// Not under the feet of the caller's own end either (its
			// record, its exit).
			select {
			case <-time.After(refillPause):
			case <-k.want:
			case <-k.stop:
				break start
			}
		case <-time.After(refillAfter):
		case <-k.want:
		case <-k.stop:
			break start
		}
	}
	<-k.stop
	select {
	case sp := <-k.ready:
		sp.discard()
	default:
	}
}

// start starts one init, blocked on its control socket.
func (k *Keeper) start() (*spare, error) {
	gen := k.mountGen()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	parentEnd := os.NewFile(uintptr(fds[0]), "sandbox-control")
	childEnd := os.NewFile(uintptr(fds[1]), "sandbox-control-child")
	defer childEnd.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		parentEnd.Close()
		return nil, err
	}
	defer null.Close()
	pid, err := syscall.ForkExec("/proc/self/exe", []string{"/proc/self/exe", InitArg, warmArg}, &syscall.ProcAttr{
		Env:   []string{"GORACE=atexit_sleep_ms=0"},
		Dir:   "/",
		Files: []uintptr{null.Fd(), null.Fd(), null.Fd(), childEnd.Fd()},
		Sys:   initAttr(k.hostID),
	})
	if err != nil {
		parentEnd.Close()
		return nil, err
	}
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		syscall.Kill(pid, syscall.SIGKILL)
		syscall.Wait4(pid, nil, 0, nil)
		parentEnd.Close()
		return nil, err
	}
	sp := &spare{pid: pid, ctl: parentEnd, pidfd: pidfd, ended: make(chan warmStatus, 1), gen: gen}
	go sp.reap()
	sp.cg, sp.own = spareCgroup()
	return sp, nil
}

// reap waits for the init and sends its status on ended.
func (sp *spare) reap() {
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	for {
		if _, err := syscall.Wait4(sp.pid, &ws, 0, &ru); err != syscall.EINTR {
			break
		}
	}
	sp.ended <- warmStatus{Status: int(ws), UserNs: ru.Utime.Nano(), SysNs: ru.Stime.Nano()}
}

// discard kills an init never handed over, and closes what led to it.
func (sp *spare) discard() {
	sp.kill()
	<-sp.ended
	sp.ctl.Close()
	unix.Close(sp.pidfd)
	if sp.cg != nil {
		sp.cg.remove()
	}
}

// kill kills the init: through its pidfd, never a reused pid.
func (sp *spare) kill() {
	unix.PidfdSendSignal(sp.pidfd, unix.SIGKILL, nil, 0)
}

// serve takes the callers that ask for an init.
func (k *Keeper) serve() {
	for {
		c, err := k.ln.AcceptUnix()
		if err != nil {
			select {
			case <-k.stop:
				return
			default:
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return
		}
		go k.handOver(c)
	}
}

// handOver gives the ready init to the caller on c, if the caller may
// have it, and watches the run: init's status goes to the caller, and the
// caller's end kills init.
func (k *Keeper) handOver(c *net.UnixConn) {
	refuse := func(why string) {
		b, _ := json.Marshal(warmOffer{Error: why})
		c.Write(b)
		c.Close()
	}
	caller, err := k.mayHave(c)
	if err != nil {
		refuse(err.Error())
		return
	}
	defer func() {
		if caller >= 0 {
			unix.Close(caller)
		}
	}()
	sp, why := k.next()
	if sp == nil {
		refuse(why)
		return
	}
	offer := warmOffer{Pid: sp.pid, HostID: k.hostID}
	rights := []int{int(sp.ctl.Fd()), sp.pidfd}
	if k.idmap >= 0 {
		offer.Idmap = &[2]uint32{k.idmapOwner.uid, k.idmapOwner.gid}
		rights = append(rights, k.idmap)
	}
	if sp.cg != nil {
		offer.Cgroup = offerCgroup(sp.cg, sp.own)
	}
	b, _ := json.Marshal(offer)
	_, _, err = c.WriteMsgUnix(b, unix.UnixRights(rights...), nil)
	sp.ctl.Close()
	if err != nil {
		sp.kill()
		<-sp.ended
		unix.Close(sp.pidfd)
		c.Close()
		if sp.cg != nil {
			sp.cg.remove()
		}
		return
	}
	notify(k.taken)
	exited := caller // the watcher's now
	caller = -1
	go func() {
		defer unix.Close(exited)
		defer c.Close()
		defer unix.Close(sp.pidfd)
		gone := make(chan struct{})
		go func() {
			// The caller sends nothing: a read ends when its end is
			// closed, which is when its warden ends.
			var b [1]byte
			c.Read(b[:])
			close(gone)
		}()
		var st warmStatus
		select {
		case st = <-sp.ended:
		case <-gone:
			sp.kill()
			st = <-sp.ended
		}
		b, _ := json.Marshal(st)
		c.Write(b)
		notify(k.ended)
		if sp.cg != nil {
			// The run removes the cgroup at its end, or, if it did
			// not take it, when it lets go of serve's answer; a
			// warden killed before either leaves it here, to remove
			// once that warden has exited (not when it closed the
			// connection: one that declined the init, with other
			// maps, still runs in the cgroup).
			waitExit(exited)
			sp.cg.remove()
		}
	}()
}

// next returns the init ready, or the one being started, which it asks
// for at once; nil and why when none comes within readyWait.
func (k *Keeper) next() (*spare, string) {
	for range 2 {
		sp, why := k.nextReady()
		if sp == nil || testOnlyKeepAcrossMountChanges || sp.gen == k.mountGen() {
			return sp, why
		}
		k.replace(sp)
	}
	return nil, "the host's mounts keep changing"
}

// replace discards sp, taken from ready, whose mounts are the host's of
// before a change, and has the next init started at once.
func (k *Keeper) replace(sp *spare) {
	sp.discard()
	notify(k.taken)
	notify(k.want)
}

// nextReady takes the init ready, or waits for one a while.
func (k *Keeper) nextReady() (*spare, string) {
	select {
	case sp := <-k.ready:
		return sp, ""
	default:
	}
	k.waiting.Add(1)
	defer k.waiting.Add(-1)
	notify(k.want)
	var late <-chan time.Time
	if !testOnlyKeeperWaits {
		t := time.NewTimer(readyWait)
		defer t.Stop()
		late = t.C
	}
	select {
	case sp := <-k.ready:
		return sp, ""
	case <-k.failed:
		return nil, "warden serve can start no sandbox now"
	case <-k.stop:
		return nil, "warden serve is ending"
	case <-late:
		return nil, "no sandbox ready"
	}
}

// waitExit waits for the process of pidfd to exit.
func waitExit(pidfd int) {
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != unix.EINTR {
			return
		}
	}
}

// notify sends on c unless a send is pending.
func notify(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// testOnlyNoSpareCgroup keeps a Keeper from making cgroups ahead: the
// tests that count what a run leaves in the cgroup hierarchy run beside
// the Keeper of the warm pass, in the same process.
var testOnlyNoSpareCgroup bool

// refillAfter is how long after a hand-over the next init is started,
// when the run that took it has not ended by then. Tests set it to 0.
var refillAfter = 100 * time.Millisecond

// refillPause is how long after the end of a run that took an init the
// next one is started. Tests set it to 0.
var refillPause = 5 * time.Millisecond

// readyWait is how long a caller that finds no init ready waits for the
// one being started (about a millisecond): past it, the caller starts
// its own.
var readyWait = 50 * time.Millisecond

// testOnlyKeeperWaits makes a Keeper asked for an init when none is
// ready wait for the next however long it takes: tests that run every
// sandbox through a Keeper (WARDEN_TEST_WARM) check that each did.
var testOnlyKeeperWaits bool

// testOnlyKeepAcrossMountChanges makes a Keeper hand over the init ready
// however serve's mount table changed since it started: tests attack the
// init's own following of the host's mounts with it.
var testOnlyKeepAcrossMountChanges bool

// mayHave says whether the caller on c may have an init: it must be no
// more confined than serve itself.
//
// On success it returns a pidfd of the caller, which the caller of
// mayHave closes.
func (k *Keeper) mayHave(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	var cred *unix.Ucred
	pidfd := -1
	var cerr error
	raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
		if cerr == nil {
			pidfd, cerr = unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_PEERPIDFD)
		}
	})
	if cerr != nil {
		return -1, fmt.Errorf("who is asking: %v", cerr)
	}
	err = func() error {
		if int(cred.Uid) != os.Getuid() || int(cred.Gid) != os.Getgid() {
			return errors.New("another user")
		}
		peer, err := confinement(int(cred.Pid))
		if err != nil {
			return err
		}
		// The pidfd still names the process read above: its pid was
		// not reused in between.
		if err := unix.PidfdSendSignal(pidfd, 0, nil, 0); err != nil {
			return errors.New("the caller ended")
		}
		return peerMatches(k.self, peer)
	}()
	if err != nil {
		unix.Close(pidfd)
		return -1, err
	}
	return pidfd, nil
}

// confinedBy are the /proc/PID/status fields that tell how a process is
// confined: identity, capabilities, no_new_privs and seccomp.
var confinedBy = []string{"Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"}

// namespaces are the namespaces a caller must share with serve.
var namespaces = []string{"user", "mnt", "net", "pid", "ipc", "uts", "cgroup", "time"}

// confinement reads how process pid is confined: confinedBy, its
// namespaces and its LSM label.
func confinement(pid int) (map[string]string, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	status, err := procStatus(strconv.Itoa(pid))
	if err != nil {
		return nil, err
	}
	m := make(map[string]string)
	for _, f := range confinedBy {
		m[f] = "(absent)"
		if v, ok := status[f]; ok {
			m[f] = v
		}
	}
	for _, ns := range namespaces {
		var st unix.Stat_t
		if err := unix.Stat(dir+"/ns/"+ns, &st); err != nil {
			m["ns/"+ns] = "(absent)"
			continue
		}
		m["ns/"+ns] = fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	label, err := os.ReadFile(dir + "/attr/current")
	if err != nil {
		label = []byte("(absent)")
	}
	m["label"] = string(bytes.TrimRight(label, "\x00\n"))
	return m, nil
}

// peerMatches says which of peer's confinement differs from self's.
func peerMatches(self, peer map[string]string) error {
	for _, k := range append(append(append([]string(nil), confinedBy...), nsKeys()...), "label") {
		if self[k] != peer[k] {
			return fmt.Errorf("the caller is confined otherwise than warden serve (%s: %s, serve's %s)", k, peer[k], self[k])
		}
	}
	return nil
}

func nsKeys() []string {
	ks := make([]string, len(namespaces))
	for i, ns := range namespaces {
		ks[i] = "ns/" + ns
	}
	return ks
}

// askWarm asks the Keeper on path for an init, as early in a run as
// possible: the Keeper checks the caller while the run plans; takeWarm
// reads its answer.
// AskWarm asks the Keeper listening on path (warden serve's WarmSocket)
// for its init now, for a run to take later through Spec.WarmAsk: serve
// checks the caller meanwhile. A Keeper that does not answer makes a
// WarmAsk that says so, and the run starts its own init.
func AskWarm(path string) *WarmAsk {
	fd, err := askWarm(path)
	w := &WarmAsk{fd: fd, err: err}
	if err == nil {
		peek, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			unix.Close(fd)
			w.fd, w.err = -1, err
			return w
		}
		w.peek = os.NewFile(uintptr(peek), "warm-ask")
	}
	return w
}

// warmAnswer is serve's answer to a WarmAsk: the offer and the rights
// that came with it, each taken at most once; release closes what no one
// took.
type warmAnswer struct {
	mu     sync.Mutex
	offer  warmOffer
	init   []int      // init's control socket and pidfd, for takeWarm
	userns int        // the user namespace of offer.Idmap, or -1
	cg     *runCgroup // offer.Cgroup, until taken
	err    error
	// rlimitsErr is sameRlimits' for the init offered, set as the
	// answer is read, with umask, the caller's: both for takeWarm, off
	// its path when a goroutine of the run reads the answer first.
	rlimitsErr error
	umask      int
}

// readAnswer reads the answer of the Keeper on fd, which must be a
// Keeper of this warden (isServe).
func readAnswer(fd int) *warmAnswer {
	a := &warmAnswer{userns: -1}
	if a.err = isServe(fd); a.err != nil {
		return a
	}
	buf := make([]byte, 1024)
	oob := make([]byte, unix.CmsgSpace(3*4))
	n, oobn, err := recvRights(fd, buf, oob)
	fds := rightsIn(oob[:max(oobn, 0)])
	var o warmOffer
	switch {
	case err != nil:
	case n == 0:
		err = errors.New("warden serve closed the connection")
	case json.Unmarshal(buf[:n], &o) != nil:
		err = errors.New("warden serve's answer is not understood")
	case o.Error != "":
		err = errors.New(o.Error)
	case len(fds) != 2 && !(len(fds) == 3 && o.Idmap != nil):
		err = errors.New("warden serve sent no sandbox")
	}
	if err != nil {
		// Closing the connection kills an init that came with it.
		closeFDs(fds)
		a.err = err
		return a
	}
	a.offer, a.init = o, fds[:2]
	if len(fds) == 3 {
		a.userns = fds[2]
	}
	a.rlimitsErr, a.umask = sameRlimits(o.Pid), umask()
	if o.Cgroup != nil {
		a.cg = o.Cgroup.runCgroup()
	}
	return a
}

// takeInit hands init's descriptors over, once.
func (a *warmAnswer) takeInit() (warmOffer, []int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return warmOffer{}, nil, a.err
	}
	if a.init == nil {
		return warmOffer{}, nil, errWarmTaken
	}
	fds := a.init
	a.init = nil
	return a.offer, fds, nil
}

// takeUserns hands the user namespace over, once, if it maps o.
func (a *warmAnswer) takeUserns(o owner) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.userns < 0 || a.offer.Idmap == nil || *a.offer.Idmap != [2]uint32{o.uid, o.gid} {
		return -1
	}
	fd := a.userns
	a.userns = -1
	return fd
}

// takeCgroup hands the cgroup over, once, if this process is in the
// cgroups it was made in: it is then the run's to remove.
func (a *warmAnswer) takeCgroup() *runCgroup {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cg == nil {
		return nil
	}
	if own, err := os.ReadFile("/proc/self/cgroup"); err != nil || string(own) != a.offer.Cgroup.Own {
		return nil
	}
	cg := a.cg
	a.cg = nil
	return cg
}

// release closes and removes what no one took.
func (a *warmAnswer) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	closeFDs(a.init)
	a.init = nil
	if a.userns >= 0 {
		unix.Close(a.userns)
		a.userns = -1
	}
	if a.cg != nil {
		a.cg.remove()
		a.cg = nil
	}
}

// answer reads serve's answer, once, from the ask's own descriptor of
// the connection (the run may have closed its own by then).
func (w *WarmAsk) answer() *warmAnswer {
	w.once.Do(func() {
		if w.peek == nil {
			w.ans = &warmAnswer{userns: -1, err: cmp.Or(w.err, errors.New("no connection to warden serve"))}
			return
		}
		w.ans = readAnswer(int(w.peek.Fd()))
		w.peek.Close()
		w.peek = nil
	})
	return w.ans.(*warmAnswer)
}

// releaseAnswer closes what of serve's answer no run took; unread, it is
// never read.
func (w *WarmAsk) releaseAnswer() {
	w.once.Do(func() {
		if w.peek != nil {
			w.peek.Close()
			w.peek = nil
		}
		w.ans = &warmAnswer{userns: -1, err: errors.New("the ask for warden serve's sandbox was closed")}
	})
	if a, ok := w.ans.(*warmAnswer); ok {
		a.release()
	}
}

func askWarm(path string) (int, error) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err := unix.Connect(fd, &unix.SockaddrUnix{Name: path}); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// takeWarm takes the init the Keeper on fd (askWarm) offers, if it has
// hostID's maps, and adopts it with the streams s: on success init holds
// them and ctl is its control socket. a is the Keeper's answer when the
// run's WarmAsk read it already, else nil: it is read here. Any error
// means nothing was adopted: the caller starts init itself.
func takeWarm(fd int, a *warmAnswer, hostID bool, s *streams) (*launched, *os.File, error) {
	if a == nil {
		a = readAnswer(fd)
		defer a.release()
	}
	o, fds, err := a.takeInit()
	if err == nil && o.HostID != hostID {
		err = errors.New("warden serve's sandbox has other uid maps")
	}
	if err == nil {
		err = a.rlimitsErr
	}
	if err != nil {
		// Closing the connection kills an init that came with it.
		closeFDs(fds)
		unix.Close(fd)
		return nil, nil, err
	}
	ctl := os.NewFile(uintptr(fds[0]), "sandbox-control")
	l := &launched{pid: o.Pid, warm: true, pidfd: fds[1], serve: fd}
	msg, _ := json.Marshal(adoptMsg{Umask: a.umask})
	rights := unix.UnixRights(int(s.child[0].Fd()), int(s.child[1].Fd()), int(s.child[2].Fd()))
	if err := unix.Sendmsg(int(ctl.Fd()), msg, rights, nil, 0); err != nil {
		ctl.Close()
		unix.Close(l.pidfd)
		unix.Close(fd)
		return nil, nil, err
	}
	s.begin(l)
	return l, ctl, nil
}

// rlimits is the number of resource limits (RLIMIT_RTTIME is the last).
const rlimits = unix.RLIMIT_RTTIME + 1

// sameRlimits gives init the caller's resource limits, as a cold init
// inherits them: lower than serve's, or the hand-over is refused (init
// cannot raise a hard limit).
func sameRlimits(pid int) error {
	for r := range rlimits {
		var own, its unix.Rlimit
		if err := unix.Getrlimit(r, &own); err != nil {
			return err
		}
		if err := unix.Prlimit(pid, r, nil, &its); err != nil {
			return err
		}
		if own.Max > its.Max {
			return fmt.Errorf("warden serve's limit %d is lower than the caller's", r)
		}
		if own != its {
			if err := unix.Prlimit(pid, r, &own, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// umask reads the process's umask without changing it (umask(2) would,
// for a moment, under every other thread).
func umask() int {
	if m, err := procStatus("self"); err == nil {
		if v, err := strconv.ParseInt(m["Umask"], 8, 32); err == nil {
			return int(v)
		}
	}
	return 0o022
}

// procStatus reads /proc/PROC/status (PROC a pid or "self"): each
// field's value, trimmed.
func procStatus(proc string) (map[string]string, error) {
	b, err := os.ReadFile("/proc/" + proc + "/status")
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if name, val, ok := strings.Cut(line, ":"); ok {
			m[name] = strings.TrimSpace(val)
		}
	}
	return m, nil
}
