// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

// The execution record (docs/spec.md §7) of a run, written with
// --audit-json FILE.
//
// The place is often inside the project, which the command may write, so
// nothing of the record may be there while the command runs (it could
// replace a temporary file before the rename and forge "status": 0).
// Before the run, openRecord opens the target's directory, resolved
// without following a link a run could have planted (see
// sandbox.OpenHostDir), and checks that a file can be made there, so an
// unwritable place still stops the run before it starts. The record is
// written only after the run, once no process of it is left, by an
// audit.File sink: into a fresh file made in that directory, never
// through a link. The directory is resolved again then: if the command
// moved the one opened before the run away and put another in its place,
// the record goes to the one a reader finds at the path, resolved as
// strictly as before, and a warning says so.

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/egress"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
)

// recordFile is where a run's record goes: the directory opened before
// the run, held until the end so that its identity stays its own.
type recordFile struct {
	path  string // absolute
	dir   *os.File
	dirID sandbox.HostFile
	sink  *audit.File
}

func openRecord(path string, spec sandbox.Spec, report Reporter) (*recordFile, error) {
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
	if err := audit.Writable(dir, name); err != nil {
		dir.Close()
		return nil, err
	}
	r := &recordFile{path: abs, dir: dir, dirID: id}
	r.sink = &audit.File{Name: name, Dir: func() (*os.File, error) {
		// It is called only once no process of the run is left:
		// sandbox.Run returns after reaping the sandbox's init, and when
		// pid 1 of a pid namespace exits the kernel kills every other
		// process in it (nested namespaces included) and reaps them
		// before init's own exit completes, so none of the command's
		// processes can race the write.
		now, nid, err := sandbox.OpenHostDir(spec, filepath.Dir(abs))
		if err != nil {
			return nil, fmt.Errorf("the directory of %s: %v", abs, err)
		}
		if nid.Dev != id.Dev || nid.Ino != id.Ino {
			report.Warn(fmt.Sprintf("the directory of the execution record, %s, was replaced during the run; the record is written to the one there now", filepath.Dir(abs)))
		}
		return now, nil
	}}
	return r, nil
}

// recordOpenError is the error of an --audit-json FILE that cannot be
// written: a link a run could have planted on the way stops the run as a
// sandbox that cannot be built (125), anything else is bad input.
func recordOpenError(path string, err error) error {
	var le *sandbox.LinkError
	if errors.As(err, &le) {
		return unavailable(fmt.Sprintf("--audit-json: cannot write %s: %v", path, err),
			"name the record's real directory, not one reached through a link in a directory the run can write")
	}
	return badInput(fmt.Sprintf("--audit-json: cannot write %s: %v", path, err))
}

// commit writes the record.
func (r *recordFile) commit(rec *audit.Run) error {
	return r.sink.Write(audit.RunEvent(time.Now().UTC(), rec))
}

// abandon releases the directory.
func (r *recordFile) abandon() { r.dir.Close() }

// newRecord starts the record of the run p plans: every list empty
// rather than null, the degraded layers, the policy's revision.
func (p *plan) newRecord() *audit.Run {
	project := p.spec.Project
	if abs, err := filepath.Abs(project); err == nil {
		project = abs
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			project = real
		}
	}
	return &audit.Run{
		ID: newRunID(), Agent: p.o.Agent, Task: p.o.Task,
		Command: p.o.Argv, CommandSHA256: commandHash(p.o.Argv),
		Project: project, Mode: string(p.spec.Mode), StartedAt: time.Now().UTC(),
		Unenforced:      []string{},
		Degraded:        append(degradedNames(p.o.Degraded, p.timeoutSource == timeoutOff), p.lossy...),
		NetworkAttempts: []audit.NetworkAttempt{}, BlockedSyscalls: []audit.Syscall{},
		FilesWritten: []audit.FileChange{}, RefusedPaths: []audit.Refusal{},
		Quarantined:    []audit.Quarantined{},
		NotRecorded:    []audit.NotRecorded{},
		PolicyRevision: p.lp.Revision,
		PolicyPath:     p.lp.Path,
	}
}

// openRecorder opens the store the run's record goes to. One that
// cannot be opened refuses the run before it starts (125), unless the
// policy says audit: best-effort: then the run goes on, said.
func (p *plan) openRecorder() error {
	if p.o.Recorder == nil {
		return nil
	}
	if err := p.o.Recorder.Ready(); err != nil {
		if p.lp.File.Audit == policyfile.AuditBestEffort {
			p.o.Report.Warn(fmt.Sprintf("this run is not recorded in the store: %v (audit: best-effort)", err))
			return nil
		}
		return unavailable(fmt.Sprintf("the run cannot be recorded: %v", err),
			"make the state directory writable (WARDEN_STATE_DIR names another), or set audit: best-effort in the policy to run unrecorded")
	}
	p.recorder = p.o.Recorder
	return nil
}

// store writes the record to the store: the run, then each network
// attempt and refused system call as an event of its own.
func (p *plan) store(r *audit.Run) error {
	if p.recorder == nil {
		return nil
	}
	now := time.Now().UTC()
	evs := []audit.Event{audit.RunEvent(now, r)}
	for i := range r.NetworkAttempts {
		a := r.NetworkAttempts[i]
		a.RunID = r.ID
		evs = append(evs, audit.NetworkEvent(&a))
	}
	for i := range r.BlockedSyscalls {
		s := r.BlockedSyscalls[i]
		s.RunID = r.ID
		evs = append(evs, audit.SyscallEvent(now, &s))
	}
	if err := p.recorder.WriteBatch(evs); err != nil {
		if p.lp.File.Audit == policyfile.AuditBestEffort {
			p.o.Report.Warn(fmt.Sprintf("the run's record was not stored: %v (audit: best-effort)", err))
			return nil
		}
		return err
	}
	return nil
}

// deny records a run the approval policy refused before it started, and
// returns the refusal.
func (p *plan) deny(ex *Exit) error {
	p.rec.Status, p.rec.Error = ex.Status, ex.Msg
	p.rec.Denied = true
	if p.out != nil {
		if err := p.out.commit(p.rec); err != nil {
			p.o.Report.Error(fmt.Sprintf("--audit-json: the execution record was not written: %v", err))
		}
	}
	if err := p.store(p.rec); err != nil {
		p.o.Report.Error(fmt.Sprintf("the execution record was not stored: %v", err))
	}
	return ex
}

// record completes the record with how the run ended, writes it when
// --audit-json asks, and returns it: without --audit-json it is made
// all the same, for the summary of what the run blocked. A record that
// cannot be written ends the run with status 125, whatever the command
// did: say so loudly.
func (p *plan) record(res sandbox.Result, out outcome) (*audit.Run, error) {
	r := p.rec
	if r == nil {
		r = &audit.Run{}
	}
	fillResult(r, res, p.spec.Timeout)
	r.Limits.TimeoutSource = p.timeoutSource
	var dropped int
	r.NetworkAttempts, dropped = p.eg.Attempts()
	r.NetworkLimits = p.eg.Limits()
	if dropped > 0 {
		r.NotRecorded = append(r.NotRecorded, audit.NotRecorded{Field: "network_attempts", Reason: fmt.Sprintf("%d attempts past the first %d", dropped, egress.MaxAttempts)})
	}
	r.Status, r.Error = out.Status, out.Msg
	if out.setup {
		r.ExitCode = out.Status
	}
	if p.out == nil {
		r.NotRecorded = append(r.NotRecorded, audit.NotRecorded{Field: "files_written", Reason: "recorded only with --audit-json"})
	}
	if err := p.store(r); err != nil {
		if out.Msg != "" {
			p.o.Report.Error(out.Msg)
		}
		return r, unavailable(fmt.Sprintf("the execution record was not stored: %v", err),
			"make the state directory writable, or set audit: best-effort in the policy")
	}
	if p.out == nil {
		return r, nil
	}
	if err := p.out.commit(r); err != nil {
		if out.Msg != "" {
			p.o.Report.Error(out.Msg)
		}
		return r, unavailable(fmt.Sprintf("--audit-json: the execution record was not written: %v", err))
	}
	return r, nil
}

// firstAttempt is the record of a failed run that on-failure reran.
func firstAttempt(status int, res sandbox.Result, approved string) *audit.Attempt {
	return &audit.Attempt{Status: status, BlockedSyscalls: res.BlockedSyscalls, Approved: approved}
}

// fillResult copies what the sandbox measured and refused into r.
func fillResult(r *audit.Run, res sandbox.Result, timeout time.Duration) {
	r.ExitCode, r.Signal, r.TimedOut = res.ExitCode, res.Signal, res.TimedOut
	r.DurationMS = res.Duration.Milliseconds()
	r.PeakMemoryBytes = res.PeakMemory
	r.CPUTimeMS = res.CPUTime.Milliseconds()
	r.OOMKilled, r.PidsLimitHit = res.OOMKilled, res.PidsLimitHit
	r.Cgroup = res.Cgroup
	l := res.Limits
	r.Limits = audit.Limits{MemoryBytes: l.Memory, Pids: l.Pids, CPU: l.CPU, Nofile: l.Nofile,
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
		r.NotRecorded = append(r.NotRecorded, audit.NotRecorded{Field: "blocked_syscalls", Reason: "the run had no seccomp filter"})
	case strings.HasPrefix(res.BlockedHow, "not recorded"):
		r.NotRecorded = append(r.NotRecorded, audit.NotRecorded{Field: "blocked_syscalls", Reason: res.BlockedHow})
	}
	r.RefusedPaths = []audit.Refusal{}
	if res.Refused != nil {
		r.RefusedPaths = res.Refused
	}
	if res.Changes != nil {
		r.FilesWritten = res.Changes
	}
	r.FilesWrittenTotal, r.FilesWrittenTruncated = res.ChangesTotal, res.ChangesTruncated
	if res.Quarantined != nil {
		r.Quarantined = res.Quarantined
	}
	out := func(o sandbox.Output) audit.Output {
		return audit.Output{Text: o.String(), HeadBytes: len(o.Head), TailBytes: len(o.Tail), TotalBytes: o.Total, CutBytes: o.Cut}
	}
	r.Stdout, r.Stderr = out(res.Stdout), out(res.Stderr)
}

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
