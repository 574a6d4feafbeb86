// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"fmt"
	"strconv"
	"strings"
)

// Rows of the honesty matrix ([Coverage.Layer]).
const (
	rowFilesystem = "filesystem"
	rowHome       = "home"
	rowLandlock   = "landlock"
	rowSeccomp    = "seccomp"
	rowNetwork    = "network"
	rowProcesses  = "processes"
	rowIdentity   = "identity"
	rowMemory     = "memory"
	rowPids       = "pids"
	rowCPU        = "cpu"
	rowRlimits    = "rlimits"
	rowTimeout    = "timeout"
	rowEgress     = "egress"
)

const everyRun = "every run"

// runUID is the uid and gid a command has inside the sandbox (sandboxID,
// which only Linux builds define).
const runUID = 65534

// rootRunUID is the uid and gid a root caller's command has outside
// (hostID, which only Linux builds define).
const rootRunUID = 0x7ffd0000

// notLinux is what a host without Linux namespaces offers.
const notLinux = "not Linux: nothing can be contained"

// nsRows are the layers that exist only through a run's namespaces.
var nsRows = []string{rowFilesystem, rowHome, rowNetwork, rowProcesses, rowIdentity, rowTimeout, rowEgress}

// setupStages attribute a failed trial run to the layers whose setup
// failed, by the start of its [SetupError]'s What: the parent's steps
// first, then init's steps ("<step>: <error>"). A failure not listed here
// is attributed to no layer, and every row that depends on the trial
// becomes Unverified.
var setupStages = []struct {
	prefix string
	rows   []string
}{
	{"read_write path ", []string{rowFilesystem}},
	{"read_only path ", []string{rowFilesystem}},
	{"hide ", []string{rowFilesystem}},
	{"mask ", []string{rowFilesystem}},
	{"cgroup memory ", []string{rowMemory}},
	{"cgroup pids ", []string{rowPids}},
	{"cgroup cpu ", []string{rowCPU}},
	{"unprivileged identity for a root caller: ", []string{rowIdentity}},
	{"cannot create the sandbox namespaces: ", nsRows},
	{"start sandbox init: ", nsRows},
	// The rlimits that stand in for a missing cgroup, then the others.
	{"rlimit memory ", []string{rowMemory}},
	{"rlimit pids ", []string{rowPids}},
	{"rlimit cpu ", []string{rowCPU}},
	{"rlimit ", []string{rowRlimits}},
	// "join cgroup <dir>: …" is attributed by its directory.
	{"make mounts private: ", []string{rowFilesystem}},
	{"prepare new root: ", []string{rowFilesystem}},
	{"bind / read-only: ", []string{rowFilesystem}},
	{"mount private tmpfs: ", []string{rowFilesystem}},
	{"mount /dev: ", []string{rowFilesystem}},
	{"mount /tmp: ", []string{rowFilesystem}},
	{"mount /run: ", []string{rowFilesystem}},
	{"mount exec scratch: ", []string{rowFilesystem}},
	{"hide home: ", []string{rowHome}},
	{"bind project: ", []string{rowFilesystem}},
	{"bound private tmpfs: ", []string{rowFilesystem}},
	{"mask sensitive paths: ", []string{rowFilesystem}},
	{"mount /proc: ", []string{rowFilesystem}},
	{"mount /sys: ", []string{rowFilesystem}},
	{"enter new root: ", []string{rowFilesystem}},
	{"set hostname: ", []string{rowProcesses}},
	{"bring up loopback: ", []string{rowNetwork}},
	{"make network listeners: ", []string{rowEgress}},
	{"point DNS at the stub: ", []string{rowEgress}},
	{"enter project: ", []string{rowFilesystem}},
	{"drop privileges: ", []string{rowIdentity}},
	{"wait for the cgroup: ", []string{rowMemory, rowPids, rowCPU}},
	{"enter cgroup namespace: ", []string{rowProcesses}},
	{"landlock: ", []string{rowLandlock}},
	{"seccomp filter: ", []string{rowSeccomp}},
}

// Assess derives the honesty matrix from a host's facts and its trial run.
// It is a pure function: everything it knows is in f and t.
//
// A row is Enforced only when the facts say the host has the mechanism
// and the trial run applied it (for a limit only a policy sets, cpu, the
// cgroup trial stands in for it, as the trial run sets none); when the
// trial failed at a layer, that
// layer fails closed (a run stops with 125) and every other layer that
// depends on the trial is Unverified. Where the facts and the trial
// disagree, the row is Unverified.
func Assess(f HostFacts, t Trial) []Coverage {
	if f.OS != "linux" {
		return assessNotLinux(f)
	}
	a := &assessor{f: f, t: t, failed: failedRows(f, t)}
	for _, u := range t.Unenforced {
		if !strings.HasPrefix(u, "default "+rowMemory+" ") && !strings.HasPrefix(u, "default "+rowPids+" ") {
			a.unknown = append(a.unknown, u)
		}
	}
	return []Coverage{
		a.filesystem(), a.homeVisible(), a.homeHidden(), a.landlock(), a.seccomp(), a.network(), a.processes(), a.identity(),
		a.cgroupDefault(rowMemory), a.cgroupLimit(rowMemory),
		a.cgroupDefault(rowPids), a.cgroupLimit(rowPids),
		a.cgroupLimit(rowCPU),
		a.rlimits(), a.timeout(), a.egress(),
	}
}

// failedRows are the rows a failed trial run is attributed to.
func failedRows(f HostFacts, t Trial) map[string]bool {
	out := map[string]bool{}
	if !t.SetupFailed {
		return out
	}
	if dir, ok := strings.CutPrefix(t.Error, "join cgroup "); ok {
		for _, tr := range f.Cgroups.Limits {
			if tr.Dir != "" && strings.HasPrefix(dir, tr.Dir+"/") {
				out[tr.Limit] = true
			}
		}
		if len(out) == 0 {
			// Every run joins both default cgroups: either may be it.
			out[rowMemory], out[rowPids] = true, true
		}
		return out
	}
	for _, s := range setupStages {
		if strings.HasPrefix(t.Error, s.prefix) {
			for _, r := range s.rows {
				out[r] = true
			}
			break
		}
	}
	return out
}

type assessor struct {
	f      HostFacts
	t      Trial
	failed map[string]bool
	// unknown are the trial run's notes of what it did not enforce as
	// asked that name neither default cgroup limit: doctor cannot tell
	// which layer they weaken, so it vouches for none.
	unknown []string
}

// settle sets c's status from doctor's own check of the mechanism (ok, or
// why not and the fix) and the trial run.
func (a *assessor) settle(c Coverage, ok bool, why, hint string) Coverage {
	t := a.t
	switch {
	case t.OK && ok && len(a.unknown) > 0:
		c.Status = Unverified
		c.Detail = "the trial run did not enforce everything as asked, in ways doctor cannot attribute: " + strings.Join(a.unknown, "; ")
		c.Hint = "doctor does not know these notes: read them (warden run prints them as warnings) before relying on this host"
	case t.OK && ok:
		c.Status = Enforced
	case t.OK:
		c.Status = Unverified
		c.Detail = fmt.Sprintf("doctor found %s, yet the trial run succeeded", why)
		c.Hint = hint
	case a.failed[c.Layer]:
		c.Status = FailsClosed
		c.Detail = "a run stops with 125: sandbox unavailable: " + t.Error
		c.Hint = t.Hint
		if c.Hint == "" {
			c.Hint = hint
		}
	case !ok:
		c.Status = FailsClosed
		c.Detail = "a run stops with 125: " + why
		c.Hint = hint
	case !t.Ran:
		c.Status = Unverified
		c.Detail = "no trial run: " + t.Error
		c.Hint = joinSentences(t.Hint, "then run warden doctor again")
	default:
		c.Status = Unverified
		c.Detail = "the trial run failed, so doctor did not see this layer applied: " + t.describe()
		c.Hint = a.retryHint()
	}
	// --degraded=cgroup helps only a cgroup that cannot be made, which
	// cgroupLimit says itself; a failed join stops the run regardless.
	if c.Status == FailsClosed && c.Degraded != "" && c.Degraded != LayerCgroup &&
		!strings.Contains(c.Hint, "run with --degraded="+string(c.Degraded)) {
		c.Hint = joinSentences(c.Hint, fmt.Sprintf("or, by choice, run with --degraded=%s", c.Degraded))
	}
	return c
}

// retryHint is the hint of a row the failed trial run did not reach.
func (a *assessor) retryHint() string {
	var layers []string
	for _, r := range []string{rowFilesystem, rowLandlock, rowSeccomp, rowNetwork, rowProcesses, rowIdentity,
		rowMemory, rowPids, rowCPU, rowRlimits, rowTimeout} {
		if a.failed[r] {
			layers = append(layers, r)
		}
	}
	if len(layers) == 0 {
		return joinSentences(a.t.Hint, "then run warden doctor again")
	}
	return "fix what stops the trial run (" + strings.Join(layers, ", ") + "), then run warden doctor again"
}

// describe is the trial's failure in a sentence.
func (t Trial) describe() string {
	switch {
	case t.SetupFailed:
		return "sandbox unavailable: " + t.Error
	case t.Error != "":
		return t.Error
	}
	return fmt.Sprintf("%s exited with status %d", strings.Join(t.Argv, " "), t.Status)
}

func (a *assessor) nsCheck() (bool, string, string) {
	ns := a.f.Namespaces
	return ns.Created, "that it cannot create the sandbox namespaces: " + ns.Error, ns.Hint
}

func (a *assessor) filesystem() Coverage {
	ok, why, hint := a.nsCheck()
	return a.settle(Coverage{
		Layer: rowFilesystem, When: everyRun,
		Mechanism: "mount namespace: / read-only, the project read-write but for its protected paths, " +
			"private noexec /tmp and /dev/shm, an executable scratch in a private /run, a fresh /proc, " +
			"a fresh /sys of the sandbox's network namespace with the host's firmware and DMI identity masked, a minimal /dev, " +
			"the sensitive set masked in the home and the project",
		Detail: "a command can read any file the caller can read outside the masked sensitive set",
	}, ok, why, hint)
}

// homeVisible and homeHidden are the two home modes
// (sandbox.filesystem.home), and what each shows of the caller's home.
// The trial run is a visible one; a hidden home is made of the same
// mounts (a tmpfs, binds), which the trial made too.
func (a *assessor) homeVisible() Coverage {
	ok, why, hint := a.nsCheck()
	return a.settle(Coverage{
		Layer: rowHome, When: "home: visible",
		Mechanism: "the default: the home read-only, its sensitive set masked at their fixed places, and the names of the set found " +
			fmt.Sprintf("to depth %d below the home (at most %d entries in %d directories, caches, toolchains, network and FUSE filesystems not entered)", maxHomeDepth, maxHomeEntries, maxHomeDirs),
		Detail: fmt.Sprintf("with the home visible, a private key or dotenv file deeper than %d directories in the home, or in a skipped cache, is readable; "+
			"sandbox.filesystem.home: hidden shows none of the home", maxHomeDepth),
	}, ok, why, hint)
}

func (a *assessor) homeHidden() Coverage {
	ok, why, hint := a.nsCheck()
	return a.settle(Coverage{
		Layer: rowHome, When: "home: hidden",
		Mechanism: "an empty read-only tmpfs over the home; only the project, the toolchain caches (Go modules, cargo, rustup, npm, Maven, Gradle, pip, uv…) " +
			"read-only and the policy's read_write and read_only paths bound back",
	}, ok, why, hint)
}

func (a *assessor) landlock() Coverage {
	l := a.f.Landlock
	c := Coverage{Layer: rowLandlock, When: everyRun, Degraded: LayerLandlock,
		Mechanism: "Landlock"}
	if l.ABI >= 1 {
		c.Mechanism = fmt.Sprintf("Landlock ABI %d", l.Used)
		if l.ABI != l.Used {
			c.Mechanism += fmt.Sprintf(" (the kernel has ABI %d)", l.ABI)
		}
		c.Mechanism += ": writes only to the writable binds (the project, read_write paths, the run cache), " +
			"/tmp, /dev/shm, /run and four devices; no device nodes"
		notes := []string{"rights handled: " + strings.Join(l.Filesystem, ", ")}
		if l.Scoping {
			notes = append(notes, "signals and abstract Unix sockets cannot reach outside the sandbox (scoping, ABI 6)")
		} else {
			notes = append(notes, "no signal and abstract-socket scoping below ABI 6: the pid and network namespaces alone keep those in")
		}
		if !l.UnixSockets {
			notes = append(notes, "below ABI 9 Landlock does not control connecting to pathname Unix sockets: "+
				"the seccomp filter, which refuses Unix sockets but connected pairs, does")
		}
		notes = append(notes, "absent only by choice: --degraded=landlock")
		c.Detail = strings.Join(notes, "; ")
	}
	why := "no Landlock (" + l.Error + ")"
	if l.Error == "" {
		why = "no Landlock"
	}
	return a.settle(c, l.ABI >= 1, why,
		"Linux 5.13 or newer with CONFIG_SECURITY_LANDLOCK=y and landlock in the lsm= boot parameter is needed")
}

func (a *assessor) seccomp() Coverage {
	s := a.f.Seccomp
	c := Coverage{Layer: rowSeccomp, When: everyRun, Degraded: LayerSeccomp,
		Mechanism: fmt.Sprintf("seccomp filter for %s (%d calls): other syscall ABIs kill the process, the listed calls fail with EPERM", s.Arch, s.Rules)}
	notes := []string{"also refuses Unix sockets (but stream and seqpacket pairs), VM sockets and " +
		"every address family but inet, inet6 and netlink"}
	switch h := a.t.BlockedHow; {
	case h == "":
	case strings.HasPrefix(h, "not recorded"):
		notes = append(notes, "refused calls are "+h)
	default:
		notes = append(notes, "refused calls are recorded ("+h+")")
	}
	if s.Mode == 2 {
		notes = append(notes, "warden itself runs under an outer seccomp filter, which stays in force too")
	}
	c.Detail = strings.Join(append(notes, "absent only by choice: --degraded=seccomp"), "; ")
	ok, why := true, ""
	switch {
	case s.ProgramError != "":
		ok, why = false, "no filter for this architecture: "+s.ProgramError
	case !s.Filter:
		ok, why = false, "no seccomp filter mode ("+s.Error+")"
	case len(s.Missing) > 0:
		ok, why = false, "the kernel lacks the filter actions "+strings.Join(s.Missing, ", ")
	}
	return a.settle(c, ok, why,
		"the kernel must support seccomp filters (CONFIG_SECCOMP_FILTER, Linux 4.14 or newer) on x86_64")
}

// socketBufferMax is the most one TCP socket of the sandbox's network
// namespace holds each way, received and unsent, in bytes (init sets it:
// network_linux.go).
const socketBufferMax = 256 << 10

func (a *assessor) network() Coverage {
	ok, why, hint := a.nsCheck()
	return a.settle(Coverage{Layer: rowNetwork, When: everyRun,
		Mechanism: "network namespace with only loopback",
		Detail:    "nothing outside the sandbox can be reached, the host's loopback included; " + a.socketBuffers(),
	}, ok, why, hint)
}

// socketBuffers is the doctor's line on socket buffer memory: the cap
// each socket has, and who pays for it.
func (a *assessor) socketBuffers() string {
	s := fmt.Sprintf("socket buffers: a TCP socket grows to %d KiB each way at most (the namespace's tcp_rmem, tcp_wmem; SO_RCVBUF may ask twice the host's rmem_max); ",
		socketBufferMax>>10)
	v := ""
	for _, tr := range a.f.Cgroups.Limits {
		if tr.Limit == rowMemory {
			v = tr.Version
		}
	}
	switch v {
	case "v2":
		s += "the sandbox's are charged to its memory cgroup (v2)"
	case "v1":
		s += "the sandbox's are charged to its memory.kmem.tcp limit, its memory limit (v1)"
	default:
		s += "without a memory cgroup the sandbox's are bounded only by its descriptors"
	}
	return s + fmt.Sprintf("; warden's ends of its %d connections to the proxy hold %d MiB at most", proxyMaxConns, proxyMaxConns*2*socketBufferMax>>20)
}

// proxyMaxConns is the egress proxy's default Limits.MaxConns (the
// sandbox package does not import the proxy).
const proxyMaxConns = 512

func (a *assessor) processes() Coverage {
	ok, why, hint := a.nsCheck()
	return a.settle(Coverage{Layer: rowProcesses, When: everyRun,
		Mechanism: "pid, ipc, uts and cgroup namespaces (the command's cgroup is its run's, shown as /); descriptors from 3 up closed",
	}, ok, why, hint)
}

func (a *assessor) identity() Coverage {
	ok, why, hint := a.nsCheck()
	id := a.f.Identity
	c := Coverage{Layer: rowIdentity, When: everyRun,
		Mechanism: fmt.Sprintf("user namespace: uid and gid %d inside (uid %d, gid %d outside), no capabilities, no_new_privs",
			runUID, a.f.UID, a.f.GID)}
	if a.f.UID != 0 {
		return a.settle(c, ok, why, hint)
	}
	// A root caller's command runs as an id that owns nothing, through
	// an idmapped project; degraded, it is host uid 0 again.
	c.Degraded = LayerHostUID
	c.Mechanism = fmt.Sprintf("user namespace: uid and gid %d inside, %d outside (an id no host user, group, file or process has), "+
		"no supplementary groups, no capabilities, no_new_privs; the project and writable paths idmapped so that their owner's files are its own",
		runUID, rootRunUID)
	c.Detail = "files the command creates are the project owner's on disk; a directory above the project that only root may search " +
		"(root's home) shows only the project, the run cache and the toolchains on PATH; absent only by choice: --degraded=host-uid, " +
		"with which the command is host uid 0 without capabilities and reads every file only root may read"
	if ok {
		switch tr := id.Idmap; {
		case tr == nil:
			ok, why, hint = false, "no trial of an idmapped mount", "run warden doctor again"
		case !tr.OK:
			ok, why, hint = false, "that an idmapped mount cannot be made: "+tr.Error, tr.Hint
		}
	}
	return a.settle(c, ok, why, hint)
}

// cgroupTrial returns the trial of the limit, or an untried one.
func (a *assessor) cgroupTrial(limit string) CgroupTrial {
	for _, tr := range a.f.Cgroups.Limits {
		if tr.Limit == limit {
			return tr
		}
	}
	return CgroupTrial{Limit: limit, Error: "doctor did not try this cgroup"}
}

func cgroupMechanism(tr CgroupTrial) string {
	var m string
	switch {
	case tr.Version == "":
		return "cgroup " + tr.Limit + " controller (no hierarchy has it)"
	case tr.Dir == "":
		m = fmt.Sprintf("cgroup %s %s (not reachable from this process's cgroup)", tr.Version, tr.Limit)
	default:
		m = fmt.Sprintf("cgroup %s %s under %s", tr.Version, tr.Limit, tr.Dir)
	}
	if tr.Limit == rowMemory {
		m += ", swap off"
	}
	return m
}

// unenforced returns the trial run's note that it did not enforce the
// default limit as a cgroup: the rlimit it fell back to, or why it has
// none.
func (a *assessor) unenforced(limit string) string {
	for _, u := range a.t.Unenforced {
		if strings.HasPrefix(u, "default "+limit+" ") {
			return u
		}
	}
	return ""
}

// defaultValue is the default a run sets for limit, as text.
func (a *assessor) defaultValue(limit string) string {
	if limit == rowPids {
		return strconv.Itoa(DefaultPids)
	}
	m := a.f.Cgroups.DefaultMemory
	if m <= 0 {
		m = DefaultMemory
	}
	if m < DefaultMemory {
		return formatBytes(m) + " (half the RAM)"
	}
	return formatBytes(m)
}

// cgroupDefault is the row of a best-effort default limit: a run that
// cannot have the cgroup goes on without it and says so. The trial run is
// such a run, so it decides.
func (a *assessor) cgroupDefault(limit string) Coverage {
	tr := a.cgroupTrial(limit)
	c := Coverage{Layer: limit, When: "default " + a.defaultValue(limit), Mechanism: cgroupMechanism(tr)}
	if !a.t.OK {
		// settle tells whether the trial failed at this layer.
		return a.settle(c, true, "", "")
	}
	note := a.unenforced(limit)
	_, fallback, hasFallback := strings.Cut(note, "; instead ")
	switch {
	case len(a.unknown) > 0:
		c.Status = Unverified
		c.Detail = "the trial run did not enforce everything as asked, in ways doctor cannot attribute: " + strings.Join(a.unknown, "; ")
	case note != "":
		// The run had no cgroup for it, and says so: either an
		// rlimit stands in, per process, or nothing does.
		c.Status, c.Mechanism = NotEnforced, "none: no cgroup can be made"
		if hasFallback {
			c.Status, c.Fallback = FallbackOnly, fallback
		}
		c.Detail = fmt.Sprintf("a run whose policy does not set limits.%s says so: %s", limit, note)
		c.Hint = "give warden a cgroup: run it as root, or inside a delegated cgroup v2 subtree " +
			"(e.g. systemd-run --user --scope -p Delegate=yes warden run ...)"
	case a.t.Cgroup == "":
		c.Status = Unverified
		c.Detail = "the trial run reported neither a cgroup nor that it went without one"
	case !tr.Tried:
		c.Status = Enforced
		c.Mechanism = "cgroup " + a.t.Cgroup + " " + limit
	case !tr.OK:
		c.Status = Unverified
		c.Detail = fmt.Sprintf("the trial run had a cgroup (%s), yet doctor's cgroup trial failed: %s", a.t.Cgroup, tr.Error)
	case !strings.Contains(a.t.Cgroup, tr.Version):
		c.Status = Unverified
		c.Detail = fmt.Sprintf("doctor's cgroup trial used cgroup %s, the trial run %s", tr.Version, a.t.Cgroup)
	default:
		c.Status = Enforced
	}
	return c
}

// cgroupLimit is the row of a limit the policy sets: enforced, or the run
// stops with 125. A run makes its cgroup before anything else, so a
// cgroup trial that fails is a run that fails, whatever the trial run did.
func (a *assessor) cgroupLimit(limit string) Coverage {
	tr := a.cgroupTrial(limit)
	c := Coverage{Layer: limit, When: "limits." + limit, Mechanism: cgroupMechanism(tr), Degraded: LayerCgroup}
	if limit == rowCPU {
		c.Detail = "no CPU limit unless the policy sets one"
	}
	// The trial run joins the default cgroups of memory and pids (not
	// cpu): where it had one, it must agree with the cgroup trial.
	note := a.unenforced(limit)
	hadDefault := limit != rowCPU && a.t.OK && a.t.Cgroup != "" && note == ""
	switch {
	case !tr.Tried:
		c.Status, c.Detail = Unverified, "doctor could not try the cgroup: "+tr.Error
	case !tr.OK && hadDefault:
		c.Status = Unverified
		c.Detail = "the trial run had a cgroup for its default, yet doctor's cgroup trial failed: " + tr.Error
	case !tr.OK:
		c.Status = FailsClosed
		c.Detail = fmt.Sprintf("a run whose policy sets limits.%s stops with 125: sandbox unavailable: %s", limit, tr.Error)
		c.Hint = joinSentences(tr.Hint, "or, by choice, run with --degraded=cgroup, which falls back to per-process rlimits and says what they bound")
	case limit != rowCPU && a.t.OK && note != "":
		c.Status = Unverified
		c.Detail = "doctor's cgroup trial worked, yet the trial run went without it: " + note
	default:
		c = a.settle(c, true, "", "")
	}
	return c
}

func (a *assessor) rlimits() Coverage {
	f := a.f
	nofile, fsize := f.rlimit("nofile"), f.rlimit("fsize")
	maxNofile, maxFsize := "up to "+limitText(nofile.Hard), "up to "+limitText(fsize.Hard)
	if f.UID == 0 {
		// Root may raise its hard limits (CAP_SYS_RESOURCE), nofile up
		// to fs.nr_open.
		maxNofile, maxFsize = "up to fs.nr_open ("+limitText(f.NrOpen)+")", "unlimited"
	}
	if maxFsize == "up to unlimited" {
		maxFsize = "unlimited"
	}
	c := Coverage{Layer: rowRlimits, When: everyRun,
		Mechanism: fmt.Sprintf("rlimits set on init, soft = hard: nofile %d, core 0; limits.nofile and limits.fsize from the policy", DefaultNofile),
		Detail: fmt.Sprintf("here a policy's limits.nofile may be %s and limits.fsize %s; "+
			"a limit this user may not set stops the run with 125", maxNofile, maxFsize),
	}
	ok := f.UID == 0 || nofile.Hard < 0 || nofile.Hard >= DefaultNofile
	why := fmt.Sprintf("a hard RLIMIT_NOFILE of %d, below the %d a run sets", nofile.Hard, DefaultNofile)
	return a.settle(c, ok, why, "raise this user's hard open-file limit (ulimit -Hn), or run warden as root")
}

func (a *assessor) timeout() Coverage {
	ok, why, hint := a.nsCheck()
	return a.settle(Coverage{Layer: rowTimeout, When: "--timeout, limits.timeout",
		Mechanism: "the parent kills init, pid 1 of the run's pid namespace, and with it every process of the sandbox",
		Detail: "a run is killed after 10m unless limits.timeout or --timeout says otherwise (--timeout 0: none, said and recorded); " +
			"an interactive terminal session has none but the policy's or --timeout's, a warden mcp --sandbox server none but --timeout's",
	}, ok, why, hint)
}

func (a *assessor) egress() Coverage {
	ok, why, hint := a.nsCheck()
	return a.settle(Coverage{Layer: rowEgress, When: everyRun,
		Mechanism: "the egress proxy and DNS stub in the warden parent, outside the sandbox, on sockets bound inside its network namespace: " +
			"the policy's network rules decide (default deny), names resolved once outside, only checked addresses dialed",
		Detail: "without network rules in the policy nothing is reachable; loopback, link-local and metadata addresses never are",
	}, ok, why, hint)
}

// assessNotLinux is the matrix of a host without Linux namespaces: warden
// run stops with 125 there.
func assessNotLinux(f HostFacts) []Coverage {
	fake := &assessor{f: f}
	rows := []Coverage{
		{Layer: rowFilesystem, When: everyRun},
		{Layer: rowHome, When: "home: visible"},
		{Layer: rowHome, When: "home: hidden"},
		{Layer: rowLandlock, When: everyRun},
		{Layer: rowSeccomp, When: everyRun},
		{Layer: rowNetwork, When: everyRun},
		{Layer: rowProcesses, When: everyRun},
		{Layer: rowIdentity, When: everyRun},
		{Layer: rowMemory, When: "default " + fake.defaultValue(rowMemory)},
		{Layer: rowMemory, When: "limits.memory"},
		{Layer: rowPids, When: "default " + fake.defaultValue(rowPids)},
		{Layer: rowPids, When: "limits.pids"},
		{Layer: rowCPU, When: "limits.cpu"},
		{Layer: rowRlimits, When: everyRun},
		{Layer: rowTimeout, When: "--timeout, limits.timeout"},
		{Layer: rowEgress, When: everyRun},
	}
	for i := range rows {
		rows[i].Status = FailsClosed
		rows[i].Mechanism = "none"
		rows[i].Detail = fmt.Sprintf("%s (this is %s); warden run stops with 125", notLinux, f.OS)
		rows[i].Hint = "run warden on Linux, for example in a Linux VM or container"
	}
	return rows
}

// rlimit returns the named rlimit, unlimited when it was not read.
func (f HostFacts) rlimit(name string) RlimitFact {
	for _, r := range f.Rlimits {
		if r.Name == name {
			return r
		}
	}
	return RlimitFact{Name: name, Soft: -1, Hard: -1}
}

func limitText(n int64) string {
	if n < 0 {
		return "unlimited"
	}
	return strconv.FormatInt(n, 10)
}

// joinSentences joins two clauses with "; ", either may be empty.
func joinSentences(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
