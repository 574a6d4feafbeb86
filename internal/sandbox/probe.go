// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file holds what [Probe] reports (warden doctor, docs/spec.md §8 "Honesty
// matrix"): the facts it gathered about the host, one real trial run, and
// the matrix derived from both by [Assess]. The JSON field names are part of
// warden doctor --json's output and stay stable; a field is only ever added.
//
// Rules:
//
//   - Facts are measured, not assumed: namespaces, cgroups and the trial
//     are tried for real; only what cannot be tried without changing the
//     host (Landlock, seccomp) is read from the kernel's answers.
//   - A layer is Enforced only when the facts say the host has it and
//     doctor saw it work: applied by the trial run, or, for a limit a run
//     sets only when its policy asks, its cgroup made, configured and
//     joined as such a run does it. Anything doctor could not see for
//     itself is Unverified, never Enforced.

// ProbeOptions are the parts of a real run that [Probe]'s trial copies.
type ProbeOptions struct {
	// Home is the caller's home directory, masked in the trial as in a
	// run ([Spec.Home]).
	Home string
	// CacheRoot is the directory that holds runs' caches ([Spec.Cache]
	// is one directory in it), or empty when runs have none. The trial
	// has its cache there, in a directory of its own that it removes.
	CacheRoot string
}

// HostReport is what [Probe] found: the host's facts, the trial run, and
// the honesty matrix [Assess] derived from them.
type HostReport struct {
	Facts  HostFacts  `json:"facts"`
	Trial  Trial      `json:"trial"`
	Matrix []Coverage `json:"matrix"`
}

// Findings returns the rows of the matrix that a run does not fully
// enforce on this host (see [Coverage.Finding]).
func (r HostReport) Findings() []Coverage {
	var out []Coverage
	for _, c := range r.Matrix {
		if c.Finding() {
			out = append(out, c)
		}
	}
	return out
}

// HostFacts are the host's answers, gathered by [Probe] as the calling user.
type HostFacts struct {
	// OS is the operating system (GOOS); only "linux" has a sandbox.
	OS string `json:"os"`
	// Kernel is the kernel release and Arch the machine (uname -r, -m).
	Kernel string `json:"kernel"`
	Arch   string `json:"arch"`
	// UID and GID are the real ids doctor ran as, which a run would have
	// outside its namespaces.
	UID int `json:"uid"`
	GID int `json:"gid"`

	Namespaces NamespaceFacts `json:"namespaces"`
	Identity   IdentityFacts  `json:"identity"`
	Landlock   LandlockFacts  `json:"landlock"`
	Seccomp    SeccompFacts   `json:"seccomp"`
	Cgroups    CgroupFacts    `json:"cgroups"`
	// Rlimits are this process's limits for nofile, fsize, nproc and as.
	Rlimits []RlimitFact `json:"rlimits"`
	// NrOpen is fs.nr_open, the most RLIMIT_NOFILE can be raised to; -1
	// when unknown.
	NrOpen int64 `json:"nr_open"`
}

// NamespaceFacts say whether this user can create a run's namespaces.
type NamespaceFacts struct {
	// Created reports that a process was started with the namespace
	// flags and id maps [Run] uses for init (new user, mount, pid,
	// network, ipc and uts namespaces; uid and gid 65534 inside).
	Created bool `json:"created"`
	// Error and Hint say why it could not be, as a run would.
	Error string `json:"error,omitempty"`
	Hint  string `json:"hint,omitempty"`
	// Sysctls are the settings that govern unprivileged user namespaces.
	Sysctls []Sysctl `json:"sysctls"`
}

// IdentityFacts say who a run's command is on the host.
type IdentityFacts struct {
	// HostUID and HostGID are the command's ids outside its namespaces:
	// the caller's, or for a root caller an unprivileged id that no host
	// user, group, file or process has.
	HostUID int `json:"host_uid"`
	HostGID int `json:"host_gid"`
	// Idmap is the trial of the idmapped mount through which a root
	// caller's command owns the project: nil for any other caller, who
	// needs none.
	Idmap *IdmapTrial `json:"idmap,omitempty"`
	// CgroupNamespace reports that the kernel has cgroup namespaces
	// (/proc/self/ns/cgroup): every run's command starts in its own,
	// rooted at the run's cgroup.
	CgroupNamespace bool `json:"cgroup_namespace"`
}

// IdmapTrial is an idmapped mount of a directory made as a root caller's
// run makes one of its project, then closed.
type IdmapTrial struct {
	// Dir is the directory tried, where the trial run has its project.
	Dir string `json:"dir"`
	// OK reports that the mount was made.
	OK bool `json:"ok"`
	// Error and Hint are the setup error a run stops with (exit 125).
	Error string `json:"error,omitempty"`
	Hint  string `json:"hint,omitempty"`
}

// Sysctl is one kernel setting under /proc/sys.
type Sysctl struct {
	// Name is the dotted name, e.g. "user.max_user_namespaces".
	Name string `json:"name"`
	// Present is false when this kernel does not have the setting.
	Present bool   `json:"present"`
	Value   string `json:"value,omitempty"`
}

// LandlockFacts describe the kernel's Landlock.
type LandlockFacts struct {
	// ABI is the kernel's Landlock ABI version; 0 when it has none.
	ABI int `json:"abi"`
	// Error is why the version could not be read, when ABI is 0.
	Error string `json:"error,omitempty"`
	// Used is the ABI a run restricts itself with: ABI, capped at the
	// newest one Warden's go-landlock knows.
	Used int `json:"used"`
	// Filesystem lists the file access rights a run's ruleset handles at
	// Used (go-landlock's names: execute, write_file, ...).
	Filesystem []string `json:"filesystem"`
	// Scoping reports signal and abstract Unix socket scoping (ABI 6);
	// runs do not use it yet.
	Scoping bool `json:"scoping"`
	// UnixSockets reports that connecting to pathname Unix sockets is a
	// right Landlock controls (resolve_unix, ABI 9).
	UnixSockets bool `json:"unix_sockets"`
	// LSMs is the kernel's list of active security modules, when
	// /sys/kernel/security/lsm is readable.
	LSMs string `json:"lsms,omitempty"`
}

// SeccompFacts describe the kernel's seccomp and Warden's filter for it.
type SeccompFacts struct {
	// Filter reports that the kernel has seccomp filter mode (it answered
	// SECCOMP_GET_ACTION_AVAIL).
	Filter bool `json:"filter"`
	// Error is why not.
	Error string `json:"error,omitempty"`
	// Mode is this process's own seccomp mode from /proc/self/status: 0
	// none, 1 strict, 2 filtered already (an outer sandbox; its filter
	// stays in force under Warden's); -1 when unknown.
	Mode int `json:"mode"`
	// Actions are the filter actions the kernel offers
	// (/proc/sys/kernel/seccomp/actions_avail), e.g. kill_process,
	// errno, user_notif, allow.
	Actions []string `json:"actions"`
	// Needed are the actions Warden's filter returns, and Missing those
	// of them the kernel refused.
	Needed  []string `json:"needed"`
	Missing []string `json:"missing,omitempty"`
	// Notify reports that the kernel offers user notification
	// (user_notif), through which a run records the calls it refuses.
	Notify bool `json:"notify"`
	// Arch is the architecture of Warden's filter (GOARCH).
	Arch string `json:"arch"`
	// Rules is the number of system calls the filter names.
	Rules int `json:"rules"`
	// ProgramError is why Warden has no filter for this architecture;
	// empty when it has one.
	ProgramError string `json:"program_error,omitempty"`
}

// CgroupFacts describe the cgroups this process can use.
type CgroupFacts struct {
	// Error is why this process's cgroups could not be read.
	Error string `json:"error,omitempty"`
	// V2 is the unified hierarchy; nil when none is mounted.
	V2 *CgroupV2 `json:"v2"`
	// V1 lists the memory, pids, cpu and cpuacct v1 hierarchies.
	V1 []CgroupV1 `json:"v1"`
	// Limits are the trials of a run's cgroup, one per limit.
	Limits []CgroupTrial `json:"limits"`
	// DefaultMemory is the memory limit a run sets by default, in bytes.
	DefaultMemory int64 `json:"default_memory"`
}

// CgroupV2 is the unified hierarchy as this process sees it.
type CgroupV2 struct {
	// Mount is where it is mounted.
	Mount string `json:"mount"`
	// Dir is this process's cgroup on it; empty when the mount does not
	// reach it.
	Dir string `json:"dir"`
	// Controllers are the controllers at its root (cgroup.controllers).
	Controllers []string `json:"controllers"`
	// Delegated are the controllers enabled for Dir's children (its
	// cgroup.subtree_control), which a run's cgroup can use.
	Delegated []string `json:"delegated"`
}

// CgroupV1 is one v1 hierarchy as this process sees it.
type CgroupV1 struct {
	Controller string `json:"controller"`
	// Dir is this process's cgroup in the hierarchy; empty when no v1
	// hierarchy has the controller.
	Dir string `json:"dir,omitempty"`
	// Writable reports that a directory could be made, and removed
	// again, under Dir/warden, where runs make theirs.
	Writable bool `json:"writable"`
	// Error is why not.
	Error string `json:"error,omitempty"`
}

// CgroupTrial is the cgroup of a run whose policy sets one limit (without
// --degraded=cgroup), made, configured and joined by a helper process as
// such a run would, then removed.
type CgroupTrial struct {
	// Limit is the policy's field: "memory", "pids" or "cpu".
	Limit string `json:"limit"`
	// Value is the limit tried, e.g. "4GiB".
	Value string `json:"value"`
	// Version is "v1" or "v2", the hierarchy a run uses for it; empty
	// when none has it.
	Version string `json:"version,omitempty"`
	// Dir is where the run directories are made (<own cgroup>/warden).
	Dir string `json:"dir,omitempty"`
	// Tried reports that the trial reached a verdict; when false, Error
	// says why doctor could not try.
	Tried bool `json:"tried"`
	// OK reports that the cgroup was made, configured and joined.
	OK bool `json:"ok"`
	// Error and Hint are the setup error such a run stops with (exit
	// 125).
	Error string `json:"error,omitempty"`
	Hint  string `json:"hint,omitempty"`
}

// RlimitFact is one resource limit of this process.
type RlimitFact struct {
	// Name is nofile, fsize, nproc or as.
	Name string `json:"name"`
	// Soft and Hard are the limits; -1 means unlimited.
	Soft int64 `json:"soft"`
	Hard int64 `json:"hard"`
}

// Trial is one real run, with every default layer, of a command that does
// nothing.
type Trial struct {
	// Ran reports that the trial was attempted.
	Ran bool `json:"ran"`
	// Argv is the command and Project its project directory.
	Argv    []string `json:"argv"`
	Project string   `json:"project,omitempty"`
	// OK reports that the command ran and exited 0.
	OK bool `json:"ok"`
	// SetupFailed reports that the sandbox could not be built (a
	// [*SetupError]: the run would exit 125).
	SetupFailed bool `json:"setup_failed"`
	// Error is what failed (for a setup error, its What) and Hint its
	// fix.
	Error string `json:"error,omitempty"`
	Hint  string `json:"hint,omitempty"`
	// Status is the command's exit status ([Result.Status]).
	Status int `json:"status"`
	// Cgroup, Unenforced and BlockedHow are the run's [Result.Cgroup],
	// [Result.Unenforced] (what it could not enforce as asked, and any
	// fallback) and [Result.BlockedHow] (how it records refused calls).
	Cgroup     string   `json:"cgroup"`
	Unenforced []string `json:"unenforced"`
	BlockedHow string   `json:"blocked_how,omitempty"`
}

// Enforcement is what a run gets for one layer on this host.
type Enforcement string

// Values of [Coverage.Status].
const (
	// Enforced: the host has the mechanism and doctor saw it work (the
	// trial run applied it, or a cgroup trial made, set and joined it).
	Enforced Enforcement = "enforced"
	// FailsClosed: a run that needs the layer stops with status 125
	// before anything runs.
	FailsClosed Enforcement = "fails-closed"
	// NotEnforced: a run goes on without the layer, and says so on
	// stderr and in [Result.Unenforced] (the best-effort default limits).
	NotEnforced Enforcement = "not-enforced"
	// FallbackOnly: a run goes on with a weaker stand-in for the layer,
	// named in [Coverage.Fallback].
	FallbackOnly Enforcement = "fallback"
	// Unverified: doctor could not see for itself whether a run applies
	// the layer; it claims nothing.
	Unverified Enforcement = "unverified"
	// NotContained: Warden has no mechanism for the boundary yet, on any
	// host.
	NotContained Enforcement = "not-contained"
)

// Coverage is one row of the honesty matrix: what one layer of a run is on
// this host.
type Coverage struct {
	// Layer is one of filesystem, landlock, seccomp, network, processes,
	// identity, memory, pids, cpu, rlimits, timeout, egress.
	Layer string `json:"layer"`
	// When says which runs the row is about: "every run", "default 4GiB"
	// (a run whose policy does not set the limit), "limits.memory" (a
	// run whose policy does).
	When   string      `json:"when"`
	Status Enforcement `json:"status"`
	// Mechanism is what enforces the layer, or would.
	Mechanism string `json:"mechanism"`
	// Detail says what the mechanism leaves open when enforced, and why
	// the layer fails or is not enforced otherwise.
	Detail string `json:"detail,omitempty"`
	// Hint is how to fix what is not enforced.
	Hint string `json:"hint,omitempty"`
	// Degraded names the --degraded layer with which a run goes without
	// this one, by the caller's choice only.
	Degraded Layer `json:"degraded,omitempty"`
	// Fallback is the weaker mechanism a run uses in place of Mechanism,
	// with Status FallbackOnly.
	Fallback string `json:"fallback,omitempty"`
}

// Finding reports that the row is something a run does not enforce on
// this host: anything but Enforced, except NotContained, which is a
// property of this version of Warden (no host has the boundary) rather
// than of the host.
func (c Coverage) Finding() bool {
	return c.Status != Enforced && c.Status != NotContained
}
