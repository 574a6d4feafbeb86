// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import "warden.dev/warden/internal/audit"

// execScratch is the private tmpfs where the command may run what it
// writes; /tmp and /dev/shm are noexec. It lives in the sandbox's /run.
const execScratch = "/run/warden/exec"

// config is what the parent sends init on fd 3, as one JSON message
// (config.marshal, decodeConfig: a string that is not UTF-8 travels in
// another form). All paths are absolute and free of symbolic links (the
// parent resolved them on the host), so init can mount on them below the
// new root.
type config struct {
	Argv    []string `json:"argv"`
	Env     []string `json:"env"`
	Project string   `json:"project"`
	// Dir is the command's working directory: Project or below it.
	Dir      string `json:"dir"`
	Writable bool   `json:"writable"`
	// FullAccess leaves the root writable.
	FullAccess bool `json:"full_access,omitempty"`
	// Binds are bound in order, parents first: the project, the extra
	// writable paths, the read-only ones.
	Binds []bind `json:"binds"`
	// Home, when set, is covered with an empty tmpfs before the binds,
	// with the mount points of the binds below it made and then made
	// read-only (Spec.HideHome).
	Home string `json:"home,omitempty"`
	// Masks are existing paths to cover: directories with an empty
	// tmpfs, anything else with an empty unreadable read-only file.
	Masks []string `json:"masks"`
	// FailAt makes init fail at the named step; tests use it to check
	// that every layer fails closed. The value testWritableRoot instead
	// leaves / writable, so that they can check Landlock by itself.
	FailAt string `json:"fail_at,omitempty"`
	// CommandRlimits are the fallbacks for limits no cgroup holds, set
	// by init on itself just before it starts the command.
	CommandRlimits []rlimit `json:"command_rlimits,omitempty"`
	// TmpfsSize and TmpfsInodes, when set, bound the one private tmpfs
	// behind /tmp, /dev/shm, /run and the exec scratch (see
	// privateBounds).
	TmpfsSize   int64 `json:"tmpfs_size,omitempty"`
	TmpfsInodes int64 `json:"tmpfs_inodes,omitempty"`
	// AllowSyscalls are calls of the seccomp table left allowed.
	AllowSyscalls []string `json:"allow_syscalls,omitempty"`
	// Network makes the listeners of Spec.Network and points the
	// sandbox's resolver at the stub; ResolvConf is the host's
	// /etc/resolv.conf resolved ("" when there is none), the file the
	// stub's configuration covers.
	Network    bool   `json:"network,omitempty"`
	ResolvConf string `json:"resolv_conf,omitempty"`
	// ExecScratch mounts the executable scratch tmpfs at execScratch.
	ExecScratch bool `json:"exec_scratch,omitempty"`
	// NoLandlock and NoSeccomp skip those layers (Spec.Degraded).
	NoLandlock bool `json:"no_landlock,omitempty"`
	// WatchConnect: the seccomp listener reports who makes each TCP
	// connection (Network.Connected).
	WatchConnect bool `json:"watch_connect,omitempty"`
	// Readable is Spec.Readable: nil reads the whole view (no omitempty:
	// an empty list must not come back nil).
	Readable  []string `json:"readable"`
	NoSeccomp bool     `json:"no_seccomp,omitempty"`
	// HostID runs the command as [hostID] outside, with no supplementary
	// groups (a root caller's run): init's maps then hold 0 as well, so
	// that init builds the view as the caller, and init switches itself
	// to 65534 before it starts the command.
	HostID bool `json:"host_id,omitempty"`
	// Idmapped are the binds attached from the idmapped mounts whose
	// descriptors come with this message, in the same order.
	Idmapped []string `json:"idmapped,omitempty"`
	// CgroupV2 is the run's own cgroup v2 directory on the host, shown
	// read-only as the sandbox's /sys/fs/cgroup; "" when the run has
	// none (its cgroups are v1, or it has no cgroup).
	CgroupV2 string `json:"cgroup_v2,omitempty"`
	// CgroupJoin are the cgroup v1 directories init joins just before it
	// starts the command, through the tasks files whose descriptors come
	// with this message, after the idmapped mounts', in the same order.
	CgroupJoin []cgroupJoin `json:"cgroup_join,omitempty"`
	// CgroupLeave: after the tasks files of CgroupJoin come as many of
	// the directories above them, for init's thread to leave the run's
	// by once the command and all it started have ended
	// (runCgroup.joins).
	CgroupLeave bool `json:"cgroup_leave,omitempty"`
	// Trace asks init to report each setup step's duration.
	Trace bool `json:"trace,omitempty"`
	// Terminal makes the command a terminal of its own (Spec.Terminal).
	Terminal *terminalConfig `json:"terminal,omitempty"`
}

// goMessage is the parent's second and last message to init: the command
// may start (init is in its cgroup).
var goMessage = []byte(`{"go":true}`)

// baseConfig are the fields of a config that init's first mounts read
// (setupBase): init gets them first, and the whole configuration must
// repeat them.
type baseConfig struct {
	FullAccess, ExecScratch, Terminal, Trace bool
	TmpfsSize, TmpfsInodes                   int64
	FailAt                                   string
}

func (c *config) base() baseConfig {
	return baseConfig{FullAccess: c.FullAccess, ExecScratch: c.ExecScratch, Terminal: c.Terminal != nil, Trace: c.Trace,
		TmpfsSize: c.TmpfsSize, TmpfsInodes: c.TmpfsInodes, FailAt: c.FailAt}
}

// report is one message from init to the parent.
type report struct {
	// Error and Hint: setup failed, the command did not run.
	Error string `json:"error,omitempty"`
	Hint  string `json:"hint,omitempty"`
	// StartError: the command could not be started; Status is 126/127.
	StartError string `json:"start_error,omitempty"`
	// Done: the command ended with Exit or Signal.
	Done   bool `json:"done,omitempty"`
	Exit   int  `json:"exit"`
	Signal int  `json:"signal,omitempty"`
	// CPU is the processor time, in nanoseconds, of init and every
	// process it reaped, when it sent Done.
	CPU int64 `json:"cpu_ns,omitempty"`
	// Left: with Done, init is in none of the run's cgroups any more
	// (config.CgroupLeave), which the parent may remove at once.
	Left bool `json:"left,omitempty"`
	// Blocked: the calls the seccomp filter refused, recorded as
	// BlockedHow says; BlockedDropped more were not recorded.
	Blocked        []audit.Syscall `json:"blocked,omitempty"`
	BlockedHow     string          `json:"blocked_how,omitempty"`
	BlockedDropped int             `json:"blocked_dropped,omitempty"`
	// BlockedPartial: a first refusal of one more call, sent as it
	// happens; the final report has the counts.
	BlockedPartial bool `json:"blocked_partial,omitempty"`
	// Connected: a TCP connection the command is starting, and who
	// starts it (config.WatchConnect).
	Connected *Connection `json:"connected,omitempty"`
	// Listeners: the descriptors sent with this message are, in order,
	// the listeners of these kinds (see listenerKinds).
	Listeners []string `json:"listeners,omitempty"`
	// Terminal: the descriptor sent with this message is the master of
	// the command's terminal (config.Terminal).
	Terminal bool `json:"terminal,omitempty"`
	// Started: the command is running (sent once, when it was forked).
	Started bool `json:"started,omitempty"`
	// Step and Micros: a setup step took that long (config.Trace).
	Step   string `json:"step,omitempty"`
	Micros int64  `json:"us,omitempty"`
}
