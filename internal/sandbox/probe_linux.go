// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/seccomp"
)

// Probe finds out what containment this host offers the calling user and
// what a run would therefore enforce (warden doctor). It reads the
// kernel's answers and tries what can be tried:
//
//   - a process started with a run's namespace flags and id maps;
//   - per v1 hierarchy (memory, pids, cpu, cpuacct), a directory made and
//     removed under <own cgroup>/warden;
//   - per limit (memory, pids, cpu), the cgroup of a run whose policy
//     sets it, made, configured and joined by a helper process as such a
//     run would, then removed;
//   - one trial run of true under every default layer, in a temporary
//     project directory.
//
// These trials change the host only as runs do: a run's cgroup may enable
// a cgroup v2 controller in this process's cgroup.subtree_control and
// leaves the warden directory behind; stale run cgroups of dead warden
// processes are swept. The trial run re-executes /proc/self/exe as the
// sandbox init, so Probe works only from a binary that dispatches
// [InitArg] (warden itself, or a test binary whose TestMain does).
func Probe(ctx context.Context, o ProbeOptions) HostReport {
	f := HostFacts{OS: runtime.GOOS, UID: os.Getuid(), GID: os.Getgid(), NrOpen: -1}
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		f.Kernel = unix.ByteSliceToString(u.Release[:])
		f.Arch = unix.ByteSliceToString(u.Machine[:])
	}
	if n, err := readSysctl("fs.nr_open"); err == nil {
		f.NrOpen, _ = strconv.ParseInt(n, 10, 64)
	}
	f.Namespaces = probeNamespaces()
	f.Identity = probeIdentity()
	f.Landlock = probeLandlock()
	f.Seccomp = probeSeccomp()
	f.Cgroups = probeCgroups()
	f.Rlimits = probeRlimits()
	t := trialRun(ctx, o)
	return HostReport{Facts: f, Trial: t, Matrix: Assess(f, t)}
}

func readSysctl(name string) (string, error) {
	b, err := os.ReadFile("/proc/sys/" + strings.ReplaceAll(name, ".", "/"))
	return strings.TrimSpace(string(b)), err
}

// trueCommand is the command the trials start: it does nothing.
func trueCommand() string {
	if _, err := os.Stat("/bin/true"); err == nil {
		return "/bin/true"
	}
	if p, err := exec.LookPath("true"); err == nil {
		return p
	}
	return "/bin/true"
}

// probeNamespaces starts true with the namespace flags, id maps and
// ambient capabilities Run gives init.
func probeNamespaces() NamespaceFacts {
	var n NamespaceFacts
	for _, name := range []string{"kernel.unprivileged_userns_clone", "user.max_user_namespaces", "kernel.apparmor_restrict_unprivileged_userns"} {
		v, err := readSysctl(name)
		s := Sysctl{Name: name, Present: !errors.Is(err, os.ErrNotExist), Value: v}
		if err != nil && s.Present {
			s.Value = "unreadable: " + err.Error()
		}
		n.Sysctls = append(n.Sysctls, s)
	}
	cmd := exec.Command(trueCommand())
	cmd.SysProcAttr = initAttr(os.Getuid() == 0) // as Run starts init

	runtime.LockOSThread()
	err := cmd.Start()
	if err == nil {
		err = cmd.Wait()
	}
	runtime.UnlockOSThread()
	switch {
	case err == nil:
		n.Created = true
	case cmd.Process != nil:
		// Started, so the namespaces were made; true itself failed.
		n.Created = true
	default:
		var se *SetupError
		if errors.As(startFailure(err), &se) {
			n.Error, n.Hint = se.What, se.Hint
		}
	}
	return n
}

// probeIdentity finds the command's host ids and, for a root caller,
// tries an idmapped mount of a directory beside the trial run's project.
func probeIdentity() IdentityFacts {
	id := IdentityFacts{HostUID: os.Getuid(), HostGID: os.Getgid()}
	if _, err := os.Stat("/proc/self/ns/cgroup"); err == nil {
		id.CgroupNamespace = true
	}
	if os.Getuid() != 0 {
		return id
	}
	id.HostUID, id.HostGID = hostID, hostID
	tr := &IdmapTrial{}
	id.Idmap = tr
	dir, err := os.MkdirTemp("", "warden-doctor-idmap-")
	if err != nil {
		tr.Error = "make a directory to try: " + err.Error()
		return id
	}
	defer os.Remove(dir)
	tr.Dir = dir
	m, err := prepareIdmapped([]bind{{Path: dir, Writable: true, Dir: true}}, dir, nil)
	for _, x := range m {
		unix.Close(x.fd)
	}
	var se *SetupError
	switch {
	case errors.As(err, &se):
		tr.Error, tr.Hint = se.What, se.Hint
	case err != nil:
		tr.Error = err.Error()
	default:
		tr.OK = true
	}
	return id
}

func probeLandlock() LandlockFacts {
	var l LandlockFacts
	if b, err := os.ReadFile("/sys/kernel/security/lsm"); err == nil {
		l.LSMs = strings.TrimSpace(string(b))
	}
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		if err == nil {
			err = fmt.Errorf("ABI version %d", abi)
		}
		l.Error = err.Error()
		return l
	}
	l.ABI = abi
	// As installLandlock: the kernel's ABI, capped at go-landlock's.
	l.Used = min(abi, len(landlockConfigs))
	handled := landlockConfigs[l.Used-1].HandledAccessFS
	l.Filesystem = strings.Split(strings.Trim(handled.String(), "{}"), ",")
	l.Scoping = abi >= 6
	l.UnixSockets = handled&ll.AccessFSResolveUnix != 0
	return l
}

// seccompActions names the kernel's filter actions
// (/proc/sys/kernel/seccomp/actions_avail) by return value.
var seccompActions = map[uint32]string{
	unix.SECCOMP_RET_KILL_PROCESS: "kill_process",
	unix.SECCOMP_RET_KILL_THREAD:  "kill_thread",
	unix.SECCOMP_RET_TRAP:         "trap",
	unix.SECCOMP_RET_ERRNO:        "errno",
	unix.SECCOMP_RET_USER_NOTIF:   "user_notif",
	unix.SECCOMP_RET_TRACE:        "trace",
	unix.SECCOMP_RET_LOG:          "log",
	unix.SECCOMP_RET_ALLOW:        "allow",
}

func probeSeccomp() SeccompFacts {
	s := SeccompFacts{Mode: -1, Arch: runtime.GOARCH, Rules: len(seccomp.Rules)}
	if m, err := procStatus("self"); err == nil {
		s.Mode, _ = strconv.Atoi(m["Seccomp"])
	}
	if b, err := os.ReadFile("/proc/sys/kernel/seccomp/actions_avail"); err == nil {
		s.Actions = strings.Fields(string(b))
	}
	// A NULL program makes the kernel fail with EFAULT where filter mode
	// exists (EINVAL where not), without installing anything.
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, 0)
	switch errno {
	case unix.EFAULT:
		s.Filter = true
	case 0:
		s.Error = "seccomp accepted an empty filter"
	default:
		s.Error = "seccomp(SECCOMP_SET_MODE_FILTER): " + errno.Error()
	}
	arch := seccomp.ArchFor(runtime.GOARCH)
	if arch == nil {
		s.ProgramError = "no syscall table for " + runtime.GOARCH
		return s
	}
	if _, err := seccomp.Build(arch, seccomp.Rules); err != nil {
		s.ProgramError = err.Error()
		return s
	}
	// The filter kills calls from other ABIs, allows the rest, and
	// returns each rule's action; user notification only records.
	needed := map[uint32]bool{uint32(seccomp.KillProcess): true, uint32(seccomp.Allow): true}
	for _, r := range seccomp.Rules {
		needed[uint32(r.Action)&unix.SECCOMP_RET_ACTION_FULL] = true
	}
	notif := uint32(unix.SECCOMP_RET_USER_NOTIF)
	_, _, errno = unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&notif)))
	s.Notify = errno == 0
	for _, act := range slices.Sorted(maps.Keys(needed)) {
		name, ok := seccompActions[act]
		if !ok {
			name = fmt.Sprintf("action(%#x)", act)
		}
		s.Needed = append(s.Needed, name)
		a := act
		_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&a)))
		if errno != 0 {
			s.Missing = append(s.Missing, name)
		}
	}
	return s
}

func probeRlimits() []RlimitFact {
	var out []RlimitFact
	for _, r := range []struct {
		name string
		res  int
	}{{"nofile", unix.RLIMIT_NOFILE}, {"fsize", unix.RLIMIT_FSIZE}, {"nproc", unix.RLIMIT_NPROC}, {"as", unix.RLIMIT_AS}} {
		var lim unix.Rlimit
		if unix.Getrlimit(r.res, &lim) != nil {
			continue
		}
		out = append(out, RlimitFact{Name: r.name, Soft: rlimitValue(lim.Cur), Hard: rlimitValue(lim.Max)})
	}
	return out
}

func rlimitValue(v uint64) int64 {
	if v == unix.RLIM_INFINITY || v > 1<<62 {
		return -1
	}
	return int64(v)
}

func probeCgroups() CgroupFacts {
	c := CgroupFacts{DefaultMemory: defaultMemory()}
	host, herr := discoverCgroups()
	if herr != nil {
		c.Error = "cannot read this process's cgroups: " + herr.Error()
	}
	c.V2 = probeCgroupV2(host)
	for _, ctrl := range []string{"memory", "pids", "cpu", "cpuacct"} {
		c.V1 = append(c.V1, probeCgroupV1(host, ctrl))
	}
	mem := defaultMemory()
	for _, l := range []struct {
		name, value string
		limits      Limits
	}{
		{"memory", formatBytes(mem), Limits{Memory: mem}},
		{"pids", strconv.Itoa(DefaultPids), Limits{Pids: DefaultPids}},
		{"cpu", "1", Limits{CPU: 1}},
	} {
		c.Limits = append(c.Limits, trialCgroup(host, l.name, l.value, l.limits))
	}
	return c
}

// probeCgroupV2 describes the first cgroup2 mount, read only.
func probeCgroupV2(host *cgroupHost) *CgroupV2 {
	mnt := ""
	if f, err := os.Open("/proc/self/mountinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() && mnt == "" {
			pre, post, ok := strings.Cut(sc.Text(), " - ")
			pf, qf := strings.Fields(pre), strings.Fields(post)
			if ok && len(pf) >= 5 && len(qf) >= 1 && qf[0] == "cgroup2" {
				mnt = unescapeMount(pf[4])
			}
		}
		f.Close()
	}
	if mnt == "" {
		return nil
	}
	v := &CgroupV2{Mount: mnt, Controllers: []string{}, Delegated: []string{}}
	if b, err := os.ReadFile(filepath.Join(mnt, "cgroup.controllers")); err == nil {
		v.Controllers = strings.Fields(string(b))
	}
	if host != nil && host.v2 != "" {
		v.Dir = host.v2
		if b, err := os.ReadFile(filepath.Join(host.v2, "cgroup.subtree_control")); err == nil {
			v.Delegated = strings.Fields(string(b))
		}
	}
	return v
}

// probeName is a unique name for a trial directory. It has the shape of
// a run directory (run-<pid>-…), so that the sweep of a later run removes
// it should this process die before it does.
func probeName() string {
	var rnd [4]byte
	rand.Read(rnd[:])
	return fmt.Sprintf("%s%d-doctor%s", cgroupPrefix, os.Getpid(), hex.EncodeToString(rnd[:]))
}

// probeCgroupV1 makes and removes a directory under the caller's
// cgroup/warden in the v1 hierarchy of ctrl.
func probeCgroupV1(host *cgroupHost, ctrl string) CgroupV1 {
	v := CgroupV1{Controller: ctrl}
	switch {
	case host == nil:
		v.Error = "cannot read this process's cgroups"
		return v
	case host.v1[ctrl] == "" && host.v2Ctrls[ctrl]:
		v.Error = "no v1 hierarchy: the controller is on cgroup v2"
		return v
	case host.v1[ctrl] == "":
		v.Error = "no v1 hierarchy has the controller"
		return v
	}
	v.Dir = host.v1[ctrl]
	// As a run's: warden/ stays, the trial directory goes.
	base := filepath.Join(v.Dir, "warden")
	if err := os.MkdirAll(base, 0o755); err != nil {
		v.Error = err.Error()
		return v
	}
	dir := filepath.Join(base, probeName())
	if err := os.Mkdir(dir, 0o755); err != nil {
		v.Error = err.Error()
		return v
	}
	if err := os.Remove(dir); err != nil {
		v.Error = "made but could not remove: " + err.Error()
		return v
	}
	v.Writable = true
	return v
}

// trialCgroup makes the cgroup of a run whose policy asks for l, with the
// code a run uses, joins a helper process to it and removes it.
func trialCgroup(host *cgroupHost, name, value string, l Limits) CgroupTrial {
	tr := CgroupTrial{Limit: name, Value: value}
	// Where a run puts it, as place decides.
	if host != nil {
		switch {
		case host.v2Ctrls[name]:
			tr.Version = "v2"
			if host.v2 != "" {
				tr.Dir = filepath.Join(host.v2, "warden")
			}
		case host.v1[name] != "":
			tr.Version, tr.Dir = "v1", filepath.Join(host.v1[name], "warden")
		}
	}
	// Not degraded: a requested limit without its cgroup stops the run.
	cg, err := newCgroup(l)
	if err != nil {
		tr.Tried = true
		var se *SetupError
		if errors.As(err, &se) {
			tr.Error, tr.Hint = se.What, se.Hint
		} else {
			tr.Error = err.Error()
		}
		return tr
	}
	defer cg.remove()
	dir, v2 := map[string]string{"memory": cg.memDir, "pids": cg.pidsDir, "cpu": cg.cpuDir}[name],
		map[string]bool{"memory": cg.memV2, "pids": cg.pidsV2, "cpu": cg.cpuV2}[name]
	if dir == "" {
		tr.Error = "internal error: the run's cgroup has no " + name + " directory"
		return tr
	}
	tr.Version, tr.Dir = "v1", filepath.Dir(dir)
	if v2 {
		tr.Version = "v2"
	}
	// Join: a helper that waits on its stdin stands for init, which
	// waits on its configuration while the parent adds it.
	cat, err := exec.LookPath("cat")
	if err != nil {
		tr.Error = "joining not tried: no cat to stand for init: " + err.Error()
		return tr
	}
	r, w, err := os.Pipe()
	if err != nil {
		tr.Error = "joining not tried: " + err.Error()
		return tr
	}
	helper := exec.Command(cat)
	helper.Stdin, helper.Stdout, helper.Stderr = r, nil, nil
	err = helper.Start()
	r.Close()
	if err != nil {
		w.Close()
		tr.Error = "joining not tried: " + err.Error()
		return tr
	}
	jerr := cg.add(helper.Process.Pid)
	if jerr == nil {
		jerr = trialJoins(cg, helper.Process.Pid)
	}
	w.Close()
	helper.Wait()
	tr.Tried = true
	if jerr != nil {
		var se *SetupError
		if errors.As(jerr, &se) {
			tr.Error, tr.Hint = se.What, se.Hint
		} else {
			tr.Error = jerr.Error()
		}
		return tr
	}
	tr.OK = true
	return tr
}

// trialJoins joins pid to the v1 directories through the tasks files a
// run opens for init (runCgroup.joins). Init writes "0", its own thread;
// the helper is one thread, so its pid moves the same one.
func trialJoins(cg *runCgroup, pid int) error {
	js, fds, leave, err := cg.joins()
	if err != nil {
		return err
	}
	closeFDs(leave)
	defer closeFDs(fds)
	for k, fd := range fds {
		if _, err := unix.Write(fd, []byte(strconv.Itoa(pid))); err != nil && !js[k].Optional {
			return &SetupError{What: fmt.Sprintf("join cgroup %s: %v", js[k].Dir, err), Hint: joinHint}
		}
	}
	return nil
}

// trialRun runs true with every default layer, as warden run -- true
// would without a policy.
func trialRun(ctx context.Context, o ProbeOptions) Trial {
	t := Trial{Argv: []string{trueCommand()}, Unenforced: []string{}}
	base, err := os.MkdirTemp("", "warden-doctor-")
	if err != nil {
		t.Error = "make a project directory: " + err.Error()
		return t
	}
	defer os.RemoveAll(base)
	dir := filepath.Join(base, "project")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Error = "make a project directory: " + err.Error()
		return t
	}
	t.Project = dir
	stdin, err := os.Open(os.DevNull)
	if err != nil {
		t.Error = err.Error()
		return t
	}
	defer stdin.Close()
	// Where runs keep their caches, which a run makes when missing: a
	// directory there that cannot be made stops every run.
	cache := ""
	if o.CacheRoot != "" {
		cache = filepath.Join(o.CacheRoot, probeName())
		defer os.RemoveAll(cache)
	}
	t.Ran = true
	var out bytes.Buffer
	res, err := Run(ctx, Spec{
		Argv: t.Argv, Project: dir, Mode: WorkspaceWrite, Home: o.Home, Cache: cache,
		Timeout: time.Minute,
		Stdin:   stdin, Stdout: &out, Stderr: &out,
		// The network's listeners and resolver are made as in a run;
		// nothing serves them here.
		Network: &Network{Serve: func(l Listeners) { l.Close() }},
	})
	t.Status, t.Cgroup, t.BlockedHow = res.Status(), res.Cgroup, res.BlockedHow
	t.Unenforced = append(t.Unenforced, res.Unenforced...)
	var se *SetupError
	switch {
	case errors.As(err, &se):
		t.SetupFailed, t.Error, t.Hint = true, se.What, se.Hint
	case err != nil:
		t.Error = err.Error()
	case res.TimedOut:
		t.Error = "timed out after a minute"
	case res.Status() != 0:
		t.Error = fmt.Sprintf("%s exited with status %d: %s", t.Argv[0], res.Status(), strings.TrimSpace(out.String()))
	default:
		t.OK = true
	}
	return t
}
