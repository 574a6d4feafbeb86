// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
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
	NetworkAttempts []audit.NetworkAttempt `json:"network_attempts"`
	// NetworkLimits are the caps on what the run could make warden
	// hold, and how often each refused (package egress).
	NetworkLimits *audit.NetworkLimits `json:"network_limits,omitempty"`
	// BlockedSyscalls are the calls the seccomp filter refused, one
	// entry per call; BlockedSyscallsHow says how they were seen.
	BlockedSyscalls    []audit.Syscall `json:"blocked_syscalls"`
	BlockedSyscallsHow string          `json:"blocked_syscalls_how"`
	// FilesWritten are the entries of the writable roots whose status
	// changed during the run (at most 1,000; total counts them all).
	FilesWritten          []audit.FileChange `json:"files_written"`
	FilesWrittenTotal     int                `json:"files_written_total"`
	FilesWrittenTruncated bool               `json:"files_written_truncated,omitempty"`
	// RefusedPaths are the masked and read-only paths whose refusal
	// the command's output reports.
	RefusedPaths []audit.Refusal `json:"refused_paths"`
	// Quarantined are what the post-run check took away: entries the
	// command created or replaced that the host would execute later.
	Quarantined    []audit.Quarantined `json:"quarantined"`
	NotRecorded    []auditNotDone      `json:"not_recorded"`
	PolicyRevision string              `json:"policy_revision"`
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
	Status          int             `json:"status"`
	BlockedSyscalls []audit.Syscall `json:"blocked_syscalls"`
	Approved        string          `json:"approved"`
}

// auditLimits are the limits in force; 0 means none (or, for a default
// that is listed in unenforced, not applied).
type auditLimits struct {
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
		FsizeBytes: l.Fsize, DiskBytes: l.Disk, Inodes: l.Inodes, TimeoutMS: timeout.Milliseconds(), OutputBytes: l.Output}
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
	r.RefusedPaths = refusalsOf(res)
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

// auditFile writes the execution record where --audit-json names it.
//
// The place is often inside the project, which the command may write, so
// nothing of the record may be there while the command runs (it could
// replace a temporary file before the rename and forge "status": 0).
// Before the run, openAudit opens the target's directory, resolved
// without following a link a run could have planted (see
// sandbox.OpenHostDir), and checks that a file can be made there, so an
// unwritable place still stops the run before it starts. The record is
// written only by commit, after the run: into a fresh file made with
// O_CREAT|O_EXCL|O_NOFOLLOW in that directory's descriptor, synced, then
// renamed over the name relative to the same descriptor. A link planted
// at the name is replaced by the rename, never written through.
type auditFile struct {
	path  string // absolute
	name  string // its last component
	dir   *os.File
	dirID sandbox.HostFile
	spec  sandbox.Spec // how the directory was resolved
}

func openAudit(path string, spec sandbox.Spec) (*auditFile, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(abs)
	if name == "/" || name == "." || name == ".." {
		return nil, fmt.Errorf("%s names no file", path)
	}
	dir, id, err := sandbox.OpenHostDir(spec, filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	// A file made and removed at once: the place is writable.
	tmp, fd, err := createTemp(dir, name)
	if err != nil {
		dir.Close()
		return nil, err
	}
	unix.Close(fd)
	unix.Unlinkat(int(dir.Fd()), tmp, 0)
	return &auditFile{path: abs, name: name, dir: dir, dirID: id, spec: spec}, nil
}

// auditOpenError is the error of an --audit-json FILE that cannot be
// written: a link a run could have planted on the way stops the run as a
// sandbox that cannot be built (125), anything else is bad input.
func auditOpenError(path string, err error) error {
	var le *sandbox.LinkError
	if errors.As(err, &le) {
		return &exitError{code: exitSandbox, msg: fmt.Sprintf("--audit-json: cannot write %s: %v", path, err),
			hints: []string{"name the record's real directory, not one reached through a link in a directory the run can write"}}
	}
	return badInput(fmt.Sprintf("--audit-json: cannot write %s: %v", path, err))
}

// createTemp makes a new file for the record in dir, never through a
// link (O_EXCL|O_NOFOLLOW), and returns its name and descriptor.
func createTemp(dir *os.File, name string) (string, int, error) {
	for range 10 {
		var b [8]byte
		rand.Read(b[:])
		tmp := "." + name + "." + hex.EncodeToString(b[:]) + ".tmp"
		fd, err := unix.Openat(int(dir.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err == unix.EEXIST {
			continue
		}
		if err != nil {
			return "", -1, &os.PathError{Op: "create", Path: filepath.Join(dir.Name(), tmp), Err: err}
		}
		return tmp, fd, nil
	}
	return "", -1, fmt.Errorf("create a temporary file in %s: every name tried exists", dir.Name())
}

// commit writes the record. It is called only once no process of the run
// is left: sandbox.Run returns after reaping the sandbox's init, and when
// pid 1 of a pid namespace exits the kernel kills every other process in
// it (nested namespaces included, which are members of it too) and reaps
// them before init's own exit completes, so none of the command's
// processes can race the write (nor can it leave one outside: joining
// another namespace is refused to it). The directory is resolved again
// here: if the command moved the one opened before the run away and put
// another in its place, the record goes to the one a reader finds at the
// path, which is resolved as strictly as before, and a warning says so.
func (a *auditFile) commit(r *auditRecord) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	dir := a.dir
	now, id, err := sandbox.OpenHostDir(a.spec, filepath.Dir(a.path))
	if err != nil {
		return fmt.Errorf("the directory of %s: %v", a.path, err)
	}
	defer now.Close()
	if id.Dev != a.dirID.Dev || id.Ino != a.dirID.Ino {
		warningf("the directory of the execution record, %s, was replaced during the run; the record is written to the one there now", filepath.Dir(a.path))
		dir = now
	}
	tmp, fd, err := createTemp(dir, a.name)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = unix.Renameat(int(dir.Fd()), tmp, int(dir.Fd()), a.name); err != nil {
			err = &os.LinkError{Op: "rename", Old: tmp, New: a.path, Err: err}
		}
	}
	if err != nil {
		unix.Unlinkat(int(dir.Fd()), tmp, 0)
		return err
	}
	dir.Sync()
	return nil
}

// abandon releases the directory; nothing of the record was written.
func (a *auditFile) abandon() {
	a.dir.Close()
}
