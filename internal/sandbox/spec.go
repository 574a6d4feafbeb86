// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"warden.dev/warden/internal/audit"
)

// InitArg is the hidden first argument with which the warden binary is
// re-executed as the sandbox init. A main function that sees it must call
// [Init] before doing anything else.
const InitArg = "__warden-init"

// Mode is the sandbox mode: how much of the filesystem the command may
// change.
type Mode string

// Sandbox modes (docs/spec.md §7): the physical ceiling on what the command
// may change.
const (
	// ReadOnly leaves nothing writable but the private /tmp and /dev/shm
	// (and Spec.ReadWrite).
	ReadOnly Mode = "read-only"
	// WorkspaceWrite also makes the project directory writable, but for
	// what the host executes later ([governance.HostExecuted], the non-data entries
	// of its git directories, Spec.Protect).
	WorkspaceWrite Mode = "workspace-write"
	// FullAccess lifts the filesystem ceiling: everything the caller may
	// write is writable, protected paths included. Every other boundary
	// stays: namespaces, masks, identity, seccomp, limits, environment,
	// network, time.
	FullAccess Mode = "full-access"
)

// Spec describes one sandboxed run. It is data: [Run] does not change it.
type Spec struct {
	// Argv is the command and its arguments; Argv[0] is looked up in the
	// sandbox's PATH.
	Argv []string
	// Project is the absolute path of the project directory, the command's
	// working directory unless Dir names one, and, in WorkspaceWrite mode,
	// its only writable host directory.
	Project string
	// Dir, when set, is the command's working directory: the project or
	// a directory inside it (a subdirectory where warden run was
	// started); anything else stops the run.
	Dir string
	// Mode is the sandbox mode; the zero value means ReadOnly.
	Mode Mode
	// Home is the caller's home directory, whose sensitive entries are
	// masked and which becomes HOME inside. Empty means no home.
	Home string
	// Env holds extra environment variables ("NAME=value") passed to the
	// command on top of the clean base (PATH, HOME, LANG, TERM, USER).
	Env []string
	// Hide lists more paths to mask, on top of the sensitive set: an
	// absolute path or glob on the host, or a pattern relative to the
	// project (a name without a slash matches at any depth, "**" any
	// number of directories, a trailing slash directories only). Paths
	// that do not exist are ignored.
	Hide []string
	// Mask lists more absolute host paths to mask, taken literally (no
	// globs): the caller's own secrets, such as the files its credentials
	// are read from and its state and configuration directories. Paths
	// that do not exist are ignored; one that cannot be resolved stops the
	// run.
	Mask []string
	// MaskOwn lists the caller's own directories to mask as Mask does
	// (Warden's state, configuration and hook state): files only the
	// caller writes, which no process a sandbox confines could have
	// linked into the project, since none ever saw them. Their other
	// names (hard links) are not looked for, which would cost every run a
	// walk of directories that grow with their use.
	MaskOwn []string
	// HideHome replaces Home, inside, with an empty read-only directory
	// into which only the project, the toolchain caches ([HomeCaches]) and
	// the ReadWrite, ReadOnly and Cache paths under it are bound back.
	HideHome bool
	// ReadWrite lists more absolute host paths the command may write, in
	// every mode; a missing directory whose parent exists is created.
	// Naming one of the protected paths ([governance.HostExecuted], an entry of a
	// git directory, Spec.Protect) exactly makes it writable.
	ReadWrite []string
	// ReadOnly lists absolute host paths kept read-only even inside a
	// writable one (the project, a ReadWrite path). Paths that do not
	// exist are ignored.
	ReadOnly []string
	// Readable, when not nil, is all the command may read, list and
	// execute, with the writable paths, the private scratch mounts and
	// the devices: Landlock's read rule names these absolute paths
	// instead of the whole view (an OpenShell filesystem_policy). A
	// missing path is skipped. It rests on Landlock alone: with Landlock
	// degraded the run is refused.
	Readable []string
	// Protect lists more project entries the host executes later, on top
	// of [governance.HostExecuted], as patterns relative to the project in the
	// syntax of Spec.Hide (CLAUDE.md matches at any depth): those that
	// exist are kept read-only, those the run creates are quarantined.
	Protect []string
	// Quarantine is the host directory (made, mode 0700, when first
	// needed) where the post-run check moves what the run planted that
	// the host would execute later (see [Result.Quarantined]). Empty:
	// such entries are removed.
	Quarantine string
	// Pinned are files kept read-only like ReadOnly (list them there
	// too) that must be the very file the caller opened (see
	// [OpenHostFile]): a different file at the path, or a link, stops
	// the run with a [*SetupError].
	Pinned []HostFile
	// Cache, when set, is a host directory (created if missing) that the
	// command may write and that becomes its XDG_CACHE_HOME, so that
	// build caches survive between runs without the command writing the
	// caller's own caches, which the host's tools would trust later.
	Cache string
	// Timeout is the wall-clock limit; zero means none.
	Timeout time.Duration
	// Limits are the resource limits; see [Limits] for what a zero field
	// means.
	Limits Limits
	// Stdin, Stdout and Stderr are the command's streams; nil means the
	// caller's own. Stdin is passed as is (an *os.File directly) unless
	// it is a terminal, which is never handed in: without Terminal the
	// command reads /dev/null instead. Stdout and stderr reach the
	// command as pipes, copied live to these writers as they come and
	// captured on the way (see [Capture]), so the command does not see a
	// terminal there; with Terminal, those that are the caller's terminal
	// are the command's own terminal instead.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Terminal gives the command a pseudo-terminal of its own, as the
	// controlling terminal of a new session, so that a shell's prompt,
	// job control and ^C work: Stdin must be the caller's terminal (an
	// *os.File), which is put in raw mode for the run and restored
	// exactly afterwards, whatever ends the run; what is typed there is
	// relayed to the command's terminal, and what the command's terminal
	// shows goes to Stdout (or Stderr, when only it is the caller's
	// terminal) and is captured as that stream. The window size is the
	// caller's, followed on SIGWINCH. No ioctl of the command reaches
	// the caller's terminal. SIGINT and SIGQUIT from Signals go to the
	// terminal's foreground process group, as the keys would send them.
	Terminal bool
	// AllowSyscalls names system calls of the seccomp table (package
	// seccomp's Rules) to leave allowed for this run, as a person
	// approved after a run they blocked; every other rule holds.
	AllowSyscalls []string
	// Network, when set, gives the sandbox its only way out: listeners
	// made inside its network namespace and served, outside it, by the
	// caller (the egress proxy). Nil: nothing but the sandbox's own
	// loopback.
	Network *Network
	// Signals, when set, carries signals for the command: Run sends each
	// one on to it through init, as a plain run would receive them. The
	// timeout and ctx still kill the whole sandbox.
	Signals <-chan os.Signal
	// SignalsReady, when set, is closed once Signals carries every
	// signal it is to carry (the caller registers them meanwhile, which
	// takes the Go runtime a round trip per signal): init is let go on
	// to the command only then, so that a signal sent once the command
	// may run is the command's, never the end of the caller.
	SignalsReady <-chan struct{}
	// Degraded lists layers this run goes without, by the caller's
	// explicit choice (warden run --degraded): [LayerLandlock],
	// [LayerSeccomp], [LayerCgroup], [LayerWalk], [LayerHostUID]. Every
	// other layer is mandatory.
	Degraded []Layer
	// RecordChanges asks for Result.Changes: the writable roots (the
	// project in workspace-write mode, ReadWrite) are walked after the run
	// for what changed during it.
	RecordChanges bool
	// Trace, when set, receives one line per setup step with its time.
	Trace io.Writer
	// Warm, when set, is the path of a [Keeper]'s socket (warden
	// serve's [WarmSocket]): the run takes the init it keeps started,
	// if the Keeper hands one over, instead of starting its own. The run
	// is the same either way.
	Warm string
	// WarmAsk, when set, is the Keeper asked ahead (AskWarm), taken
	// instead of asking Warm's.
	WarmAsk *WarmAsk
	// Cgroup, when set, is the run's cgroup begun ahead (StartCgroup),
	// taken when it was made for the run's Limits.
	Cgroup *CgroupAsk
	// Plan, when set, is the run's plan begun ahead (StartPlan), taken
	// when it was begun for this very spec.
	Plan *PlanAsk
}

// HostFile is one file of the host, by path and identity.
type HostFile struct {
	// Path is the absolute path, as the caller named it.
	Path string
	// Dev and Ino are its device and inode numbers.
	Dev, Ino uint64
}

// Addresses of the listeners inside the sandbox (see [Listeners]).
const (
	// ProxyAddr is the egress proxy: HTTP_PROXY, HTTPS_PROXY and
	// ALL_PROXY name it.
	ProxyAddr = "127.0.0.1:3128"
	// DNSAddr is the DNS stub: the sandbox's /etc/resolv.conf names it.
	DNSAddr = "127.0.0.53:53"
)

// Network is how a run reaches out: only through its caller.
type Network struct {
	// Serve is called in the parent, once, with the listeners made inside
	// the sandbox's network namespace, before the command can connect to
	// them (their backlogs hold early connections). It must return at
	// once and serve them until they are closed: Run closes them when the
	// run ends.
	Serve func(Listeners)
	// Connected, when set, is told who made each TCP connection the
	// command starts, before the connection is made: the sandbox's
	// seccomp listener sees every connect (and send with MSG_FASTOPEN)
	// and lets it run once it has read the caller (package callerid's
	// identity, taken at the call rather than when the proxy accepts).
	// It is called in the parent, from the goroutine that reads init's
	// reports, and must not block. A first call, before the command
	// starts, has Inode 0 and says whether the watch is on: Err empty,
	// or why not (no seccomp listener on this kernel, seccomp degraded).
	Connected func(Connection)
}

// Connection is a TCP connection the command started, as the sandbox's
// seccomp listener saw the call that started it.
type Connection struct {
	// Inode is the socket's inode number, which sock_diag gives for
	// the connection.
	Inode uint32 `json:"inode"`
	// PID is the caller's pid inside the sandbox.
	PID int `json:"pid"`
	// Exe is the caller's executable, and Ancestors its parents', up to
	// and not including the sandbox's init, as the kernel names them
	// inside the sandbox.
	Exe       string   `json:"exe,omitempty"`
	Ancestors []string `json:"ancestors,omitempty"`
	// Err says why the caller is not a binary a rule can name: its
	// executable could not be read, or is not the one first seen under
	// its path in the run (trust on first use).
	Err string `json:"err,omitempty"`
}

// Listeners are sockets bound inside the sandbox's network namespace and
// held by the parent only: the command has none of them, and cannot bind
// their ports (below 1024, or taken).
type Listeners struct {
	// Proxy listens on [ProxyAddr].
	Proxy net.Listener
	// HTTP and HTTPS listen on ports 80 and 443 of every address, for
	// tools that ignore the proxy variables and connect to the address
	// the DNS stub answered for a name.
	HTTP, HTTPS net.Listener
	// DNS and DNSTCP are the DNS stub's UDP and TCP sockets on
	// [DNSAddr].
	DNS    net.PacketConn
	DNSTCP net.Listener
	// Diag is a NETLINK_SOCK_DIAG socket made in the sandbox's network
	// namespace, in which the proxy asks which socket of the sandbox a
	// connection comes from (package callerid); Init is the sandbox's
	// init, as this process sees its pid, whose descendants hold them.
	Diag *os.File
	Init int
}

// Close closes every listener.
func (l Listeners) Close() {
	for _, c := range []io.Closer{l.Proxy, l.HTTP, l.HTTPS, l.DNS, l.DNSTCP} {
		if c != nil {
			c.Close()
		}
	}
	if l.Diag != nil {
		l.Diag.Close()
	}
}

// Layer names a containment layer a run can be told to go without.
type Layer string

// Layers that --degraded can turn off.
const (
	// LayerLandlock is the second file layer (Landlock).
	LayerLandlock Layer = "landlock"
	// LayerSeccomp is the system call filter.
	LayerSeccomp Layer = "seccomp"
	// LayerCgroup is the cgroup that bounds the whole sandbox: without
	// it, requested memory, pids and cpu limits fall back to per-process
	// rlimits (see [Limits]) instead of stopping the run.
	LayerCgroup Layer = "cgroup"
	// LayerWalk is the bound of the project walk: with it degraded, a
	// project (or read_write path) past the bound runs, and its files
	// past the bound are neither masked nor protected.
	LayerWalk Layer = "walk"
	// LayerHostUID is a root caller's unprivileged host identity: without
	// it, the command runs as host uid 0 (without capabilities) as the
	// caller's files' owner, instead of as an id that owns nothing, and
	// can read every file only root may read.
	LayerHostUID Layer = "host-uid"
)

// Layers lists every layer a run can go without, for flag help and
// validation.
var Layers = []Layer{LayerLandlock, LayerSeccomp, LayerCgroup, LayerWalk, LayerHostUID}

// Limits bounds the resources of one run. A field that is set (above zero)
// is a request: it is enforced or the run fails with a [*SetupError] before
// anything runs. A zero field takes the default:
//
//   - Nofile: [DefaultNofile] (RLIMIT_NOFILE, soft = hard), always enforced.
//   - Fsize: none; the caller's RLIMIT_FSIZE (normally unlimited) is kept.
//   - Pids: [DefaultPids] and Memory: [DefaultMemory] (or half the host's
//     RAM if that is less), best effort: enforced when a cgroup can be
//     made (as root, or in a delegated cgroup v2 subtree), otherwise
//     skipped and listed in [Result.Unenforced], never silently.
//   - CPU: none.
//   - Disk and Inodes: the private tmpfs is bounded by the memory limit
//     when no memory cgroup holds it (its pages are charged to the cgroup
//     otherwise), else by the kernel's default (half the RAM, in all).
//
// RLIMIT_CORE is always 0. Rlimits are set by the parent on init before the
// command exists; the cgroup (v2 where the controller is there and
// delegated, else v1 under the caller's own cgroup in each hierarchy, in
// a warden/run-* directory) is joined by init before the command exists.
type Limits struct {
	// Memory is the memory limit in bytes, with swap off (cgroup).
	Memory int64
	// Pids is the maximum number of processes and threads (cgroup pids).
	Pids int64
	// CPU is the CPU bandwidth in cores, may be fractional (cgroup cpu).
	CPU float64
	// Nofile is the open file limit (RLIMIT_NOFILE).
	Nofile int64
	// Fsize is the largest file the command may write, in bytes
	// (RLIMIT_FSIZE; beyond it the write fails with SIGXFSZ or EFBIG).
	Fsize int64
	// Disk bounds the bytes the command may write in total, and Inodes
	// the files, directories and links it may create: both hold for the
	// private tmpfs behind /tmp, /dev/shm, /run and the exec scratch, all
	// of them together. A writable host path cannot be bounded yet: with
	// either set, a run with one (the project in workspace-write or
	// full-access mode, Spec.ReadWrite) fails with a [*SetupError], and
	// the run cache is left out.
	Disk   int64
	Inodes int64
	// Output is how many bytes of each of stdout and stderr are kept in
	// [Result] (the first half and the last half, the cut counted); zero
	// means [DefaultOutputCap]. It never limits the live streams.
	Output int64
}

// Defaults for [Limits] fields left at zero.
const (
	DefaultNofile = 1024
	DefaultPids   = 1024
	DefaultMemory = 4 << 30 // capped at half the host's RAM
)

// DefaultTimeout is the timeout warden run gives a run that neither the
// policy nor --timeout bounds, unless it is long-lived by nature (an
// interactive terminal session, a server). [Spec.Timeout] zero is none.
const DefaultTimeout = 10 * time.Minute

// Result is what a run produced.
type Result struct {
	// ExitCode is the command's exit status, or -1 when it was killed by
	// a signal.
	ExitCode int
	// Signal is the signal that killed the command, or 0.
	Signal int
	// TimedOut reports that the timeout killed the sandbox.
	TimedOut bool
	// Duration is the wall-clock time from start to end.
	Duration time.Duration
	// InitKilled reports that the sandbox's init ended while the command
	// ran, of Signal or of its own failure (Signal is then SIGKILL),
	// taking every process of the sandbox with it.
	InitKilled bool
	// Warm reports that init was taken from warden serve's Keeper
	// (Spec.Warm) rather than started by the run.
	Warm bool
	// OOMKilled reports that the memory limit killed a process.
	OOMKilled bool
	// PidsLimitHit reports that a fork or clone failed at the pids limit.
	PidsLimitHit bool
	// PeakMemory is the sandbox's peak memory use in bytes, from its
	// cgroup; 0 when it had no memory cgroup.
	PeakMemory int64
	// CPUTime is the CPU time the sandbox used: from its cgroup when it
	// has CPU accounting, else the rusage of what init reaped.
	CPUTime time.Duration
	// Cgroup is "v1", "v2" or "v1+v2" after the hierarchies used, or ""
	// when the run had no cgroup.
	Cgroup string
	// Unenforced lists default limits (never requested ones) that this
	// host could not apply, with the reason.
	Unenforced []string
	// Fallbacks are the limits of Unenforced that no cgroup could
	// enforce, each with its note there (what stands in for it, an
	// rlimit, or that nothing does): what a caller can name in one line,
	// leaving the notes to the record and warden doctor.
	Fallbacks []Fallback
	// Stdout and Stderr are what was kept of the command's streams (all
	// of which went live to Spec.Stdout and Spec.Stderr): head and tail
	// within [Limits.Output], with the byte counts.
	Stdout, Stderr Output
	// BlockedSyscalls are the system calls the seccomp filter refused,
	// one entry per call name (at most 64), recorded as BlockedHow says
	// ("seccomp user notification", or why they were not recorded; empty
	// when the run had no filter).
	BlockedSyscalls []audit.Syscall
	BlockedHow      string
	// Changes are the entries of the writable roots changed during the
	// run (Spec.RecordChanges), at most 1,000; ChangesTotal counts them
	// all, and ChangesTruncated says the walk stopped early.
	Changes          []audit.FileChange
	ChangesTotal     int
	ChangesTruncated bool
	// Quarantined are the entries the post-run check took away from
	// the host (moved into Spec.Quarantine, or removed): what the run
	// created or changed that the host would execute later. A run with
	// any should be reported as refused.
	Quarantined []audit.Quarantined
	// Refused are the masked and read-only paths whose refusal the
	// command's error output reports (see [Refusal]), at most 32.
	Refused []audit.Refusal
	// Limits are the limits that were in force: those requested, and
	// the defaults that were applied (a default listed in Unenforced
	// stays zero; Fsize and CPU zero mean none).
	Limits Limits
}

// Fallback is a limit no cgroup could enforce in a run.
type Fallback struct {
	// Limit is the limit as asked, "default memory 4GiB", "default
	// pids 1024" or, with --degraded=cgroup, "requested cpu 2";
	// Requested says it is one the spec asked for.
	Limit     string
	Requested bool
	// Note is its entry in [Result.Unenforced].
	Note string
}

// Status is the exit status a shell would report: the exit code, or
// 128+signal when the command was killed.
func (r Result) Status() int {
	if r.Signal != 0 {
		return 128 + r.Signal
	}
	return r.ExitCode
}

// SetupError reports that the sandbox could not be built, so the command
// did not run.
type SetupError struct {
	// What failed, e.g. "mount /proc: operation not permitted".
	What string
	// Hint says how to fix it.
	Hint string
}

func (e *SetupError) Error() string {
	if e.Hint == "" {
		return "sandbox unavailable: " + e.What
	}
	return fmt.Sprintf("sandbox unavailable: %s (%s)", e.What, e.Hint)
}

// StartError reports that the sandbox was built but the command could not
// be started (for example, it was not found), as a shell's 126 or 127.
type StartError struct {
	Msg    string
	Status int
}

func (e *StartError) Error() string { return e.Msg }

// formatBytes writes n bytes in the largest unit that divides it, as
// policy files do (4GiB, 512MiB).
func formatBytes(n int64) string {
	for _, u := range []struct {
		s string
		b int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.b && n%u.b == 0 {
			return fmt.Sprintf("%d%s", n/u.b, u.s)
		}
	}
	return fmt.Sprintf("%dB", n)
}
