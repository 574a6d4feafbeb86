// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"warden.dev/warden/internal/sandbox"
)

// auditRecord is the execution record of one warden run (DESIGN.md §7),
// written by --audit-json.
type auditRecord struct {
	ID              string      `json:"id"`
	Agent           string      `json:"agent,omitempty"`
	Task            string      `json:"task,omitempty"`
	Command         []string    `json:"command"`
	CommandSHA256   string      `json:"command_sha256"`
	Project         string      `json:"project"`
	Mode            string      `json:"mode"`
	StartedAt       time.Time   `json:"started_at"`
	Status          int         `json:"status"`
	Error           string      `json:"error,omitempty"`
	ExitCode        int         `json:"exit_code"`
	Signal          int         `json:"signal"`
	TimedOut        bool        `json:"timed_out"`
	DurationMS      int64       `json:"duration_ms"`
	PeakMemoryBytes int64       `json:"peak_memory_bytes"`
	CPUTimeMS       int64       `json:"cpu_time_ms"`
	OOMKilled       bool        `json:"oom_killed"`
	PidsLimitHit    bool        `json:"pids_limit_hit"`
	Cgroup          string      `json:"cgroup"`
	Limits          auditLimits `json:"limits"`
	Unenforced      []string    `json:"unenforced"`
	Degraded        []string    `json:"degraded"`
	Stdout          auditOutput `json:"stdout"`
	Stderr          auditOutput `json:"stderr"`
	// NetworkAttempts are every destination the command tried, through
	// the proxy or the DNS stub, allowed or denied.
	NetworkAttempts []networkAttempt `json:"network_attempts"`
	// BlockedSyscalls are the calls the seccomp filter refused, one
	// entry per call; BlockedSyscallsHow says how they were seen.
	BlockedSyscalls    []sandbox.BlockedCall `json:"blocked_syscalls"`
	BlockedSyscallsHow string                `json:"blocked_syscalls_how"`
	// FilesWritten are the entries of the writable roots whose status
	// changed during the run (at most 1,000; total counts them all).
	FilesWritten          []sandbox.Change `json:"files_written"`
	FilesWrittenTotal     int              `json:"files_written_total"`
	FilesWrittenTruncated bool             `json:"files_written_truncated,omitempty"`
	// Quarantined are what the post-run check took away: entries the
	// command created or replaced that the host would execute later.
	Quarantined    []sandbox.Quarantined `json:"quarantined"`
	NotRecorded    []auditNotDone        `json:"not_recorded"`
	PolicyRevision string                `json:"policy_revision"`
	// Approval is the approval policy in force; Denied says it refused
	// the run before it started.
	Approval string `json:"approval"`
	Denied   bool   `json:"denied,omitempty"`
	// FirstAttempt is the failed run that on-failure reran, with what
	// the person allowed for this one.
	FirstAttempt *auditAttempt `json:"first_attempt,omitempty"`
}

// auditAttempt is a run that was retried.
type auditAttempt struct {
	Status          int                   `json:"status"`
	BlockedSyscalls []sandbox.BlockedCall `json:"blocked_syscalls"`
	Approved        string                `json:"approved"`
}

// auditLimits are the limits in force; 0 means none (or, for a default
// that is listed in unenforced, not applied).
type auditLimits struct {
	MemoryBytes int64   `json:"memory_bytes"`
	Pids        int64   `json:"pids"`
	CPU         float64 `json:"cpu"`
	Nofile      int64   `json:"nofile"`
	FsizeBytes  int64   `json:"fsize_bytes"`
	TimeoutMS   int64   `json:"timeout_ms"`
	OutputBytes int64   `json:"output_bytes"`
}

// auditOutput is what was kept of one stream: Text is the head and the
// tail, with "\n[warden: N bytes cut]\n" between them when CutBytes bytes
// were not kept. Bytes that are not UTF-8 are written as U+FFFD.
type auditOutput struct {
	Text       string `json:"text"`
	HeadBytes  int    `json:"head_bytes"`
	TailBytes  int    `json:"tail_bytes"`
	TotalBytes int64  `json:"total_bytes"`
	CutBytes   int64  `json:"cut_bytes"`
}

type auditNotDone struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// notRecorded names the record's lists that are empty because nothing
// observes them yet, not because nothing happened.
var notRecorded = []auditNotDone{}

func newRunID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// commandHash is the SHA-256 of argv, each argument followed by a NUL.
func commandHash(argv []string) string {
	h := sha256.New()
	for _, a := range argv {
		h.Write([]byte(a))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// policyRevision is "sha256:" and the hash of the policy file's bytes,
// or "default" when there is none.
func policyRevision(data []byte, ok bool) string {
	if !ok {
		return "default"
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func fillResult(r *auditRecord, res sandbox.Result, timeout time.Duration) {
	r.ExitCode, r.Signal, r.TimedOut = res.ExitCode, res.Signal, res.TimedOut
	r.DurationMS = res.Duration.Milliseconds()
	r.PeakMemoryBytes = res.PeakMemory
	r.CPUTimeMS = res.CPUTime.Milliseconds()
	r.OOMKilled, r.PidsLimitHit = res.OOMKilled, res.PidsLimitHit
	r.Cgroup = res.Cgroup
	l := res.Limits
	r.Limits = auditLimits{MemoryBytes: l.Memory, Pids: l.Pids, CPU: l.CPU, Nofile: l.Nofile,
		FsizeBytes: l.Fsize, TimeoutMS: timeout.Milliseconds(), OutputBytes: l.Output}
	if res.Unenforced != nil {
		r.Unenforced = res.Unenforced
	}
	if res.BlockedSyscalls != nil {
		r.BlockedSyscalls = res.BlockedSyscalls
	}
	r.BlockedSyscallsHow = res.BlockedHow
	switch {
	case res.BlockedHow == "":
		r.NotRecorded = append(r.NotRecorded, auditNotDone{"blocked_syscalls", "the run had no seccomp filter"})
	case strings.HasPrefix(res.BlockedHow, "not recorded"):
		r.NotRecorded = append(r.NotRecorded, auditNotDone{"blocked_syscalls", res.BlockedHow})
	}
	if res.Changes != nil {
		r.FilesWritten = res.Changes
	}
	r.FilesWrittenTotal, r.FilesWrittenTruncated = res.ChangesTotal, res.ChangesTruncated
	if res.Quarantined != nil {
		r.Quarantined = res.Quarantined
	}
	out := func(o sandbox.Output) auditOutput {
		return auditOutput{Text: o.String(), HeadBytes: len(o.Head), TailBytes: len(o.Tail), TotalBytes: o.Total, CutBytes: o.Cut}
	}
	r.Stdout, r.Stderr = out(res.Stdout), out(res.Stderr)
}

// auditFile writes the record atomically: a temporary file made next to
// the target before the run (so an unwritable place stops the run before
// it starts), renamed over the target once written and synced.
type auditFile struct {
	path string
	tmp  *os.File
}

func openAudit(path string) (*auditFile, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &auditFile{path: abs, tmp: tmp}, nil
}

func (a *auditFile) commit(r *auditRecord) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err == nil {
		_, err = a.tmp.Write(append(b, '\n'))
	}
	if err == nil {
		err = a.tmp.Sync()
	}
	if cerr := a.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(a.tmp.Name(), a.path)
	}
	if err != nil {
		os.Remove(a.tmp.Name())
	}
	return err
}

// abandon removes the temporary file, if it is still there.
func (a *auditFile) abandon() {
	a.tmp.Close()
	os.Remove(a.tmp.Name())
}
