// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit

import "time"

// Run is the execution record of one warden run (docs/spec.md §7): what
// ran, how it ended, what it used, and everything the sandbox refused or
// took away. Lists are never null in a record a run wrote: an empty list
// says nothing happened, NotRecorded says which lists nothing observes.
type Run struct {
	ID            string    `json:"id"`
	Agent         string    `json:"agent,omitempty"`
	Task          string    `json:"task,omitempty"`
	Command       []string  `json:"command"`
	CommandSHA256 string    `json:"command_sha256"`
	Project       string    `json:"project"`
	Mode          string    `json:"mode"`
	StartedAt     time.Time `json:"started_at"`
	// Decision is how the policy judged the command before anything
	// started; nil when the run stopped before it was judged.
	Decision *RunDecision `json:"decision,omitempty"`
	// Status is warden run's exit status; Error the message of a run
	// that did not end with the command's own status (the sandbox could
	// not be built, the approval policy refused it).
	Status          int      `json:"status"`
	Error           string   `json:"error,omitempty"`
	ExitCode        int      `json:"exit_code"`
	Signal          int      `json:"signal"`
	TimedOut        bool     `json:"timed_out"`
	DurationMS      int64    `json:"duration_ms"`
	PeakMemoryBytes int64    `json:"peak_memory_bytes"`
	CPUTimeMS       int64    `json:"cpu_time_ms"`
	OOMKilled       bool     `json:"oom_killed"`
	PidsLimitHit    bool     `json:"pids_limit_hit"`
	Cgroup          string   `json:"cgroup"`
	Limits          Limits   `json:"limits"`
	Unenforced      []string `json:"unenforced"`
	Degraded        []string `json:"degraded"`
	Stdout          Output   `json:"stdout"`
	Stderr          Output   `json:"stderr"`
	// NetworkAttempts are every destination the command tried, through
	// the proxy or the DNS stub, allowed or denied.
	NetworkAttempts []NetworkAttempt `json:"network_attempts"`
	// NetworkLimits are the caps on what the run could make warden
	// hold, and how often each refused.
	NetworkLimits *NetworkLimits `json:"network_limits,omitempty"`
	// BlockedSyscalls are the calls the seccomp filter refused, one
	// entry per call; BlockedSyscallsHow says how they were seen.
	BlockedSyscalls    []Syscall `json:"blocked_syscalls"`
	BlockedSyscallsHow string    `json:"blocked_syscalls_how"`
	// FilesWritten are the entries of the writable roots whose status
	// changed during the run (at most 1,000; the total counts them all).
	FilesWritten          []FileChange `json:"files_written"`
	FilesWrittenTotal     int          `json:"files_written_total"`
	FilesWrittenTruncated bool         `json:"files_written_truncated,omitempty"`
	// RefusedPaths are the masked and read-only paths whose refusal
	// the command's output reports.
	RefusedPaths []Refusal `json:"refused_paths"`
	// Quarantined are what the post-run check took away: entries the
	// command created or replaced that the host would execute later.
	Quarantined    []Quarantined `json:"quarantined"`
	NotRecorded    []NotRecorded `json:"not_recorded"`
	PolicyRevision string        `json:"policy_revision"`
	// PolicyPath is the policy file's path; "" for the embedded default.
	PolicyPath string `json:"policy_path,omitempty"`
	// Approval is the approval policy in force; Denied says the policy,
	// the person or the approval policy refused the run before it
	// started.
	Approval string `json:"approval"`
	Denied   bool   `json:"denied,omitempty"`
	// FirstAttempt is the failed run that on-failure reran, with what
	// the person allowed for this one.
	FirstAttempt *Attempt `json:"first_attempt,omitempty"`
}

// RunDecision is the policy's decision on a run's command.
type RunDecision struct {
	// By is "run" when warden run judged the command itself, "grant"
	// when the hook that wrapped it had, and handed its decision over in
	// a single-use grant.
	By      string `json:"by"`
	Verdict string `json:"verdict"`
	Rule    string `json:"rule,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Answered is the verdict that stood after any question: "allow"
	// or "deny" as the person answered at warden run's terminal; for a
	// grant, what the hook told the agent ("prompt": the person was
	// asked in the agent's own prompt).
	Answered string `json:"answered,omitempty"`
	// Grant is the grant's id, or the id warden run was given and could
	// not redeem (GrantRefused says why: the command was then judged in
	// full).
	Grant        string `json:"grant,omitempty"`
	GrantRefused string `json:"grant_refused,omitempty"`
}

// Attempt is a run that was retried.
type Attempt struct {
	Status          int       `json:"status"`
	BlockedSyscalls []Syscall `json:"blocked_syscalls"`
	Approved        string    `json:"approved"`
}

// Limits are the limits a run had; 0 means none (or, for a default that
// is listed in Run.Unenforced, not applied).
type Limits struct {
	MemoryBytes int64   `json:"memory_bytes"`
	Pids        int64   `json:"pids"`
	CPU         float64 `json:"cpu"`
	Nofile      int64   `json:"nofile"`
	FsizeBytes  int64   `json:"fsize_bytes"`
	DiskBytes   int64   `json:"disk_bytes"`
	Inodes      int64   `json:"inodes"`
	TimeoutMS   int64   `json:"timeout_ms"`
	OutputBytes int64   `json:"output_bytes"`
	// TimeoutSource says where the timeout comes from: "default" (10m),
	// "policy", "flag", or, with none, "off" (--timeout 0), "interactive"
	// (a terminal session and no policy timeout) or "server" (--server,
	// warden mcp --sandbox).
	TimeoutSource string `json:"timeout_source"`
}

// Output is what was kept of one stream: Text is the head and the tail,
// with "\n[warden: N bytes cut]\n" between them when CutBytes bytes were
// not kept. Bytes that are not UTF-8 are written as U+FFFD.
type Output struct {
	Text       string `json:"text"`
	HeadBytes  int    `json:"head_bytes"`
	TailBytes  int    `json:"tail_bytes"`
	TotalBytes int64  `json:"total_bytes"`
	CutBytes   int64  `json:"cut_bytes"`
}

// NotRecorded names a list of the record that is empty because nothing
// observed it, not because nothing happened.
type NotRecorded struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// Syscall is a system call the seccomp filter refused: in a run's record,
// one entry per call with its count; as an event of its own, with the
// run it happened in.
type Syscall struct {
	// RunID is the run's id, when the event stands alone.
	RunID string `json:"run_id,omitempty"`
	// Syscall is the call's name; Errno what the caller got.
	Syscall string `json:"syscall"`
	Errno   string `json:"errno"`
	// Count is how many times it was refused.
	Count int `json:"count"`
	// PID and Command are the first caller, as seen inside the sandbox.
	PID     int    `json:"pid"`
	Command string `json:"command"`
	// Args are the first caller's leading arguments (pointers are not
	// followed).
	Args []uint64 `json:"args"`
}

// FileChange is one entry under a writable root whose status changed
// while a run was in progress: created, written, renamed, or, for a
// directory, entries added or removed in it. A file that was removed is
// not there to be seen; its directory is.
type FileChange struct {
	Path string `json:"path"`
	// Kind is "file", "dir", "symlink" or "other".
	Kind string `json:"kind"`
	Size int64  `json:"size"`
}

// Kinds of [Refusal].
const (
	// RefusedMasked: the path is masked (the sensitive set, a hidden
	// path): it cannot be read, written, created in, renamed over or
	// removed.
	RefusedMasked = "masked"
	// RefusedReadOnly: the path is bound read-only (a protected path, a
	// read-only path, a home below /tmp), or is outside every writable
	// root, on the host's root, which is bound read-only.
	RefusedReadOnly = "read-only"
)

// Refusal is an access to a masked or read-only path that failed inside a
// sandbox, as the command's own error output reported it.
type Refusal struct {
	// Path is the host path the sandbox kept from the command, or below
	// which it was; outside every writable root, the path the command
	// named.
	Path string `json:"path"`
	// Kind is RefusedMasked or RefusedReadOnly.
	Kind string `json:"kind"`
	// Error is the error the command reported: "Read-only file system"
	// (a write), "Device or resource busy" (renaming over or removing a
	// mount point) or, for a masked path only, "Permission denied" (a
	// read, or creating in a masked directory).
	Error string `json:"error"`
}

// Quarantined is one entry the post-run check took away from the host.
type Quarantined struct {
	// Path is where it was; Why says what the host would have done
	// with it.
	Path string `json:"path"`
	Why  string `json:"why"`
	// MovedTo is where it is now, empty when it was removed; Error says
	// why it could not be moved (then it was removed) or restored.
	MovedTo string `json:"moved_to,omitempty"`
	Error   string `json:"error,omitempty"`
}

// RefusedAttempts lists the network attempts of the record that were
// refused.
func (r *Run) RefusedAttempts() []NetworkAttempt {
	var out []NetworkAttempt
	for _, a := range r.NetworkAttempts {
		if a.Verdict != VerdictAllow {
			out = append(out, a)
		}
	}
	return out
}
