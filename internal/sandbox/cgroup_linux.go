// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Each run gets its own cgroup, <own>/warden/run-<pid>-<random>, where
// <own> is the caller's cgroup in that hierarchy (never the hierarchy's
// root unless the caller lives there) and <pid> is the warden process that
// made it. A controller is used on cgroup v2 when the unified hierarchy
// has it and it is delegated to the caller's cgroup (listed in its
// cgroup.subtree_control, or enabled there by us); otherwise on the v1
// hierarchy that has it. The parent writes init's pid into every run
// directory before it sends init its configuration, so nothing the
// command starts is outside. After the run the directories are removed;
// the ones a killed warden left behind are swept at the next start.

// cgroupPrefix starts the name of every run directory.
const cgroupPrefix = "run-"

// testOnlyCgroupHook, when set, is called with the run's cgroup
// directories once init is in them.
var testOnlyCgroupHook func(dirs []string)

// cgroupHost is what this host offers: the v1 hierarchies by controller
// and the unified hierarchy, each with the caller's own directory in it.
type cgroupHost struct {
	v1 map[string]string // controller -> the caller's directory
	v2 string            // the caller's directory on the unified hierarchy, or ""
	// v2Ctrls are the controllers the unified hierarchy has at its root.
	v2Ctrls map[string]bool
}

func discoverCgroups() (*cgroupHost, error) {
	own := map[string]string{} // v1 controller (or "" for v2) -> path
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if f[0] == "0" && f[1] == "" {
			own[""] = f[2]
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			own[c] = f[2]
		}
	}
	h := &cgroupHost{v1: map[string]string{}, v2Ctrls: map[string]bool{}}
	mi, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer mi.Close()
	sc := bufio.NewScanner(mi)
	for sc.Scan() {
		// id parent maj:min root mountpoint opts [optional...] - fstype source superopts
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(qf) < 3 {
			continue
		}
		root, mnt := unescapeMount(pf[3]), unescapeMount(pf[4])
		switch qf[0] {
		case "cgroup2":
			p, ok := own[""]
			if dir, ok2 := under(mnt, root, p); ok && ok2 && h.v2 == "" {
				h.v2 = dir
				if b, err := os.ReadFile(filepath.Join(mnt, "cgroup.controllers")); err == nil {
					for _, c := range strings.Fields(string(b)) {
						h.v2Ctrls[c] = true
					}
				}
			}
		case "cgroup":
			for _, c := range strings.Split(qf[2], ",") {
				p, ok := own[c]
				if !ok {
					continue
				}
				if dir, ok2 := under(mnt, root, p); ok2 && h.v1[c] == "" {
					h.v1[c] = dir
				}
			}
		}
	}
	return h, sc.Err()
}

// under maps a cgroup path to a directory of a mount whose root is root.
func under(mnt, root, path string) (string, bool) {
	if root == "/" {
		return filepath.Join(mnt, path), true
	}
	rel, ok := strings.CutPrefix(path, root)
	if !ok || (rel != "" && rel[0] != '/') {
		return "", false
	}
	return filepath.Join(mnt, rel), true
}

func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// runCgroup is the cgroup of one run.
type runCgroup struct {
	id   string
	dirs []string // every run directory, to join and to remove
	// Where each controller ended up; "" when not used.
	memDir, pidsDir, cpuDir, acctDir string
	memV2, pidsV2, cpuV2             bool
	versions                         map[string]bool
	// missing are the controllers this run wanted and could not have.
	missing []cgroupWant
}

// cgroupWant is one controller a run asks for.
type cgroupWant struct {
	ctrl     string
	required bool // requested by the spec; else a best-effort default
	what     string
	value    int64 // bytes, processes, or (cpu) millicores
	err      error // why it could not be had
	// files are written in order: v1 and v2 names differ.
	v1, v2 [][2]string
}

// wants lists the controllers for l, with their settings.
func cgroupWants(l Limits) []cgroupWant {
	var ws []cgroupWant
	mem, memReq := l.Memory, l.Memory > 0
	if !memReq {
		mem = defaultMemory()
	}
	ms := strconv.FormatInt(mem, 10)
	ws = append(ws, cgroupWant{ctrl: "memory", required: memReq, what: "memory " + formatBytes(mem), value: mem,
		// memsw must follow the plain limit; it exists only with swap
		// accounting (else swappiness 0 keeps the group out of swap).
		// kmem.tcp: v1 charges TCP socket buffers only with a limit of
		// their own (v2 charges them to memory.max).
		v1: [][2]string{{"memory.limit_in_bytes", ms}, {"?memory.memsw.limit_in_bytes", ms}, {"!memory.swappiness", "0"}, {"?memory.kmem.tcp.limit_in_bytes", ms}},
		v2: [][2]string{{"memory.max", ms}, {"?memory.swap.max", "0"}},
	})
	pids, pidsReq := l.Pids, l.Pids > 0
	if !pidsReq {
		pids = DefaultPids
	}
	ps := strconv.FormatInt(pids, 10)
	ws = append(ws, cgroupWant{ctrl: "pids", required: pidsReq, what: "pids " + ps, value: pids,
		v1: [][2]string{{"pids.max", ps}}, v2: [][2]string{{"pids.max", ps}}})
	if l.CPU > 0 {
		const period = 100000
		quota := int64(math.Ceil(l.CPU * period))
		quota = max(quota, 1000)
		q := strconv.FormatInt(quota, 10)
		ws = append(ws, cgroupWant{ctrl: "cpu", required: true, what: "cpu " + strconv.FormatFloat(l.CPU, 'g', -1, 64), value: int64(math.Ceil(l.CPU * 1000)),
			v1: [][2]string{{"cpu.cfs_period_us", strconv.Itoa(period)}, {"cpu.cfs_quota_us", q}},
			v2: [][2]string{{"cpu.max", q + " " + strconv.Itoa(period)}}})
	}
	return ws
}

// defaultMemory is DefaultMemory, or half the host's RAM if less.
func defaultMemory() int64 {
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) == nil {
		if half := int64(si.Totalram) * int64(si.Unit) / 2; half > 0 && half < DefaultMemory {
			return half
		}
	}
	return DefaultMemory
}

// testOnlyNoCgroup, when set, makes every controller unavailable, as on
// a host without cgroup rights.
var testOnlyNoCgroup bool

// newCgroup sweeps stale run directories, then makes and configures this
// run's. A required controller that cannot be set up is a *SetupError; a
// default one that cannot be had is listed in missing for the rlimit
// fallback. It returns a cgroup with no directories when nothing could
// be made.
func newCgroup(l Limits) (*runCgroup, error) {
	var rnd [4]byte
	rand.Read(rnd[:])
	cg := &runCgroup{
		id:       fmt.Sprintf("%s%d-%s", cgroupPrefix, os.Getpid(), hex.EncodeToString(rnd[:])),
		versions: map[string]bool{},
	}
	host, herr := discoverCgroups()
	made := map[string]bool{} // run directories already made
	for _, w := range cgroupWants(l) {
		dir, v2, err := cg.place(host, herr, w.ctrl, made)
		if testOnlyNoCgroup {
			err = fmt.Errorf("cgroups made unavailable by a test: %w", unix.EACCES)
		}
		if err == nil {
			files := w.v1
			if v2 {
				files = w.v2
			}
			err = writeSettings(dir, files)
		}
		if err != nil {
			if w.required {
				cg.remove()
				return nil, cgroupError(w.ctrl, w.what, err)
			}
			w.err = err
			cg.missing = append(cg.missing, w)
			continue
		}
		if v2 {
			cg.versions["v2"] = true
		} else {
			cg.versions["v1"] = true
		}
		switch w.ctrl {
		case "memory":
			cg.memDir, cg.memV2 = dir, v2
		case "pids":
			cg.pidsDir, cg.pidsV2 = dir, v2
		case "cpu":
			cg.cpuDir, cg.cpuV2 = dir, v2
		}
	}
	// CPU accounting, best effort: cpu.stat on v2 has it in any group;
	// on v1 it is the cpuacct controller.
	if len(cg.dirs) > 0 && !(cg.cpuV2 || cg.memV2 || cg.pidsV2) {
		if dir, _, err := cg.place(host, herr, "cpuacct", made); err == nil {
			// Not in dirs: joining it is best effort.
			cg.dirs = cg.dirs[:len(cg.dirs)-1]
			cg.acctDir = dir
		}
	}
	if len(cg.dirs) == 0 {
		return &runCgroup{missing: cg.missing}, nil
	}
	return cg, nil
}

// errDegradedCgroup is why a run with --degraded=cgroup has none.
var errDegradedCgroup = errors.New("--degraded=cgroup")

// noCgroup is the cgroup of a run asked to go without one
// (LayerCgroup in Spec.Degraded): nothing is made or joined, and every
// limit falls back to rlimits.
func noCgroup(l Limits) *runCgroup {
	cg := &runCgroup{}
	for _, w := range cgroupWants(l) {
		w.err = errDegradedCgroup
		cg.missing = append(cg.missing, w)
	}
	return cg
}

// place finds or makes the run directory for ctrl.
func (cg *runCgroup) place(host *cgroupHost, herr error, ctrl string, made map[string]bool) (string, bool, error) {
	if herr != nil {
		return "", false, fmt.Errorf("cannot read this process's cgroups: %w", herr)
	}
	if host.v2Ctrls[ctrl] {
		if host.v2 == "" {
			return "", true, fmt.Errorf("the cgroup v2 controller is not reachable from this process's cgroup")
		}
		if err := delegate(host.v2, ctrl); err != nil {
			return "", true, err
		}
		dir, err := cg.mkRun(host.v2, ctrl, true, made)
		return dir, true, err
	}
	own, ok := host.v1[ctrl]
	if !ok {
		return "", false, errors.New("no cgroup v1 or v2 hierarchy has the controller")
	}
	dir, err := cg.mkRun(own, ctrl, false, made)
	return dir, false, err
}

// delegate checks that ctrl is enabled for the children of own, enabling
// it if the kernel lets us (it does not when own holds processes).
func delegate(own, ctrl string) error {
	b, err := os.ReadFile(filepath.Join(own, "cgroup.subtree_control"))
	if err != nil {
		return err
	}
	for _, c := range strings.Fields(string(b)) {
		if c == ctrl {
			return nil
		}
	}
	if err := os.WriteFile(filepath.Join(own, "cgroup.subtree_control"), []byte("+"+ctrl), 0); err != nil {
		return fmt.Errorf("cgroup v2 controller not delegated to %s: %w", own, err)
	}
	return nil
}

// mkRun makes own/warden/<id>, sweeping stale siblings first.
func (cg *runCgroup) mkRun(own, ctrl string, v2 bool, made map[string]bool) (string, error) {
	base := filepath.Join(own, "warden")
	dir := filepath.Join(base, cg.id)
	if v2 {
		if err := os.Mkdir(base, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return "", err
		}
		// The run's controllers must be enabled in warden/ too.
		if err := os.WriteFile(filepath.Join(base, "cgroup.subtree_control"), []byte("+"+ctrl), 0); err != nil {
			return "", fmt.Errorf("enable %s in %s: %w", ctrl, base, err)
		}
	}
	if made[dir] {
		return dir, nil
	}
	sweepStale(base)
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	made[dir] = true
	cg.dirs = append(cg.dirs, dir)
	return dir, nil
}

// writeSettings writes each file of dir. A name starting with "?" is
// skipped when the file does not exist; one starting with "!" is written
// only when the one before was skipped.
func writeSettings(dir string, files [][2]string) error {
	skipped := false
	for _, f := range files {
		name, optional := strings.CutPrefix(f[0], "?")
		name, fallback := strings.CutPrefix(name, "!")
		if fallback && !skipped {
			continue
		}
		p := filepath.Join(dir, name)
		if optional || fallback {
			if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
				skipped = true
				continue
			}
		}
		skipped = false
		if err := os.WriteFile(p, []byte(f[1]), 0); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	return nil
}

func cgroupError(ctrl, what string, err error) error {
	hint := fmt.Sprintf("remove limits.%s from the policy, or make cgroups available to warden", ctrl)
	switch {
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM), errors.Is(err, unix.EROFS):
		hint = fmt.Sprintf("run warden as root, or on a cgroup v2 host inside a delegated subtree (e.g. systemd-run --user --scope -p Delegate=yes warden run ...); or remove limits.%s from the policy", ctrl)
	case errors.Is(err, unix.EBUSY):
		hint = fmt.Sprintf("the %s controller cannot be enabled below a cgroup that holds processes: start warden in its own leaf of a delegated cgroup v2 subtree", ctrl)
	}
	return &SetupError{What: fmt.Sprintf("cgroup %s: %v", what, err), Hint: hint}
}

// sweepStale removes the run directories under base whose warden process
// is gone and that hold no process. A directory of a live warden is left
// alone even when empty: that run may not have joined it yet.
func sweepStale(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), cgroupPrefix) {
			continue
		}
		pidStr, _, _ := strings.Cut(strings.TrimPrefix(e.Name(), cgroupPrefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if err == nil && pid > 0 && !errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
			continue // its warden is alive (or the pid was reused)
		}
		dir := filepath.Join(base, e.Name())
		if procs, err := os.ReadFile(filepath.Join(dir, "cgroup.procs")); err != nil || len(strings.TrimSpace(string(procs))) != 0 {
			continue
		}
		os.Remove(dir)
	}
}

// add moves pid, init, into the run's cgroup v2 directory, if it has
// one: v2 moves whole processes, through cgroup.procs. The v1
// directories are joined by init itself (joins).
func (cg *runCgroup) add(pid int) error {
	if d := cg.v2Dir(); d != "" {
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			return &SetupError{What: fmt.Sprintf("join cgroup %s: %v", d, err), Hint: joinHint}
		}
	}
	if testOnlyCgroupHook != nil {
		testOnlyCgroupHook(append([]string(nil), cg.dirs...))
	}
	return nil
}

const joinHint = "run warden as root or in a delegated cgroup"

// cgroupJoin is a cgroup v1 directory init joins from the thread that
// starts the command, through the directory's tasks file, opened here
// and passed to init with its configuration.
type cgroupJoin struct {
	Dir string `json:"dir"`
	// Optional joins (cpuacct, for the CPU time figure) may fail.
	Optional bool `json:"optional,omitempty"`
}

// joins opens the tasks file of each v1 run directory, write-only, for
// init. A thread that writes "0" to a v1 tasks file moves only itself,
// which the kernel does without taking cgroup_threadgroup_rwsem for
// writing, so without waiting for an RCU grace period: moving init from
// the parent through cgroup.procs waited for one on every run (several
// milliseconds, most of a run's start-up). The command, forked by that
// thread, is born inside; init's other threads stay out, as its own
// start-up memory always did (v1 charges do not move with a task). The
// file is opened here, by the caller: v1 checks the credentials the
// file was opened with.
//
// leave are the tasks files of the directories the run's are made in,
// one for each join, for init's thread to leave by once the command and
// everything it started have ended: the parent can then remove the
// run's directories at once, without waiting for init's own exit. None
// when one of them cannot be opened (the parent then waits for init).
func (cg *runCgroup) joins() (js []cgroupJoin, fds, leave []int, err error) {
	v2 := cg.v2Dir()
	for _, d := range cg.dirs {
		if d != v2 {
			js = append(js, cgroupJoin{Dir: d})
		}
	}
	if cg.acctDir != "" {
		js = append(js, cgroupJoin{Dir: cg.acctDir, Optional: true})
	}
	for k, j := range js {
		fd, err := unix.Open(filepath.Join(j.Dir, "tasks"), unix.O_WRONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			if j.Optional {
				cg.acctDir = ""
				js = js[:k]
				break
			}
			closeFDs(fds)
			return nil, nil, nil, &SetupError{What: fmt.Sprintf("join cgroup %s: %v", j.Dir, err), Hint: joinHint}
		}
		fds = append(fds, fd)
	}
	for _, j := range js {
		fd, err := unix.Open(filepath.Join(filepath.Dir(j.Dir), "tasks"), unix.O_WRONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			closeFDs(leave)
			return js, fds, nil, nil
		}
		leave = append(leave, fd)
	}
	return js, fds, leave, nil
}

// version is "v1", "v2", "v1+v2" or "".
func (cg *runCgroup) version() string {
	switch {
	case cg.versions["v1"] && cg.versions["v2"]:
		return "v1+v2"
	case cg.versions["v1"]:
		return "v1"
	case cg.versions["v2"]:
		return "v2"
	}
	return ""
}

// stats fills in what the cgroup measured. Call it after init is gone and
// before remove.
func (cg *runCgroup) stats(res *Result) {
	res.Cgroup = cg.version()
	if cg.memDir != "" {
		if cg.memV2 {
			res.PeakMemory = readInt(filepath.Join(cg.memDir, "memory.peak"))
			res.OOMKilled = readKey(filepath.Join(cg.memDir, "memory.events"), "oom_kill") > 0
		} else {
			res.PeakMemory = readInt(filepath.Join(cg.memDir, "memory.max_usage_in_bytes"))
			res.OOMKilled = readKey(filepath.Join(cg.memDir, "memory.oom_control"), "oom_kill") > 0
		}
	}
	if cg.pidsDir != "" {
		res.PidsLimitHit = readKey(filepath.Join(cg.pidsDir, "pids.events"), "max") > 0
	}
	switch {
	case cg.cpuV2:
		res.CPUTime = time.Duration(readKey(filepath.Join(cg.cpuDir, "cpu.stat"), "usage_usec")) * time.Microsecond
	case cg.memV2 || cg.pidsV2:
		d := cg.memDir
		if d == "" {
			d = cg.pidsDir
		}
		res.CPUTime = time.Duration(readKey(filepath.Join(d, "cpu.stat"), "usage_usec")) * time.Microsecond
	case cg.acctDir != "":
		res.CPUTime = time.Duration(readInt(filepath.Join(cg.acctDir, "cpuacct.usage")))
	}
}

// remove deletes the run directories, killing anything left in them.
func (cg *runCgroup) remove() {
	dirs := cg.dirs
	if cg.acctDir != "" {
		dirs = append(dirs[:len(dirs):len(dirs)], cg.acctDir)
	}
	for _, d := range dirs {
		for try := 0; ; try++ {
			err := os.Remove(d)
			if err == nil || errors.Is(err, os.ErrNotExist) || try == 100 {
				break
			}
			// Init's death kills the pid namespace, but exiting tasks
			// may linger a moment; v1 has no cgroup.kill.
			if b, err := os.ReadFile(filepath.Join(d, "cgroup.procs")); err == nil {
				for _, f := range strings.Fields(string(b)) {
					if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func readInt(p string) int64 {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n
}

// readKey reads the value of key from a "key value" per line file.
func readKey(p, key string) int64 {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, " ")
		if ok && k == key {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}
