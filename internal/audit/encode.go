// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit

import (
	"fmt"

	"warden.dev/warden/internal/jsonw"
)

// The records a short-lived process writes (a hook's decision, a run's
// record with its network attempts and refused calls) are encoded by
// hand (package jsonw), byte for byte as encoding/json encodes them:
// its first use of each type, paid by every hook call and every run,
// was about a fifteenth of a warm run's processor time. The tests
// compare every field of every kind with encoding/json's encoding. An
// MCP call, recorded by the long-lived gateway, is left to
// encoding/json.

// appendFields writes the fields of a body encoded here, and reports
// whether body is one of them.
func appendFields(e *jsonw.Writer, body any) bool {
	switch b := body.(type) {
	case *Decision:
		b.fields(e)
	case *Run:
		b.fields(e)
	case *NetworkAttempt:
		b.fields(e)
	case *Syscall:
		b.fields(e)
	default:
		return false
	}
	return true
}

// marshalReflect writes a body encoding/json encodes (an MCP call) into
// w: its fields, without their braces.
func marshalReflect(w *jsonw.Writer, kind Kind, body any) error {
	bb, err := marshal(body)
	if err != nil {
		return err
	}
	if len(bb) < 2 || bb[0] != '{' {
		return fmt.Errorf("audit: a %s body is not an object", kind)
	}
	if len(bb) > 2 {
		w.Raw([]byte{','})
		w.Raw(bb[1 : len(bb)-1])
	}
	return nil
}

func (d *Decision) fields(e *jsonw.Writer) {
	e.Str("surface", d.Surface)
	e.StrOmit("agent", d.Agent)
	e.StrOmit("session", d.Session)
	e.StrOmit("project", d.Project)
	e.Str("tool", d.Tool)
	e.StrOmit("subject", d.Subject)
	e.StrsOmit("classes", d.Classes)
	e.Str("verdict", d.Verdict)
	e.Str("answered", d.Answered)
	e.StrOmit("rule", d.Rule)
	e.StrOmit("scope", d.Scope)
	e.StrOmit("reason", d.Reason)
	e.BoolOmit("contained", d.Contained)
	e.StrOmit("policy", d.Policy)
	e.StrOmit("policy_path", d.PolicyPath)
}

func (r *Run) fields(e *jsonw.Writer) {
	e.Str("id", r.ID)
	e.StrOmit("agent", r.Agent)
	e.StrOmit("task", r.Task)
	e.Strs("command", r.Command)
	e.Str("command_sha256", r.CommandSHA256)
	e.Str("project", r.Project)
	e.Str("mode", r.Mode)
	e.Time("started_at", r.StartedAt)
	jsonw.ObjectOmit(e, "decision", r.Decision, (*RunDecision).fields)
	e.Int("status", int64(r.Status))
	e.StrOmit("error", r.Error)
	e.Int("exit_code", int64(r.ExitCode))
	e.Int("signal", int64(r.Signal))
	e.Bool("timed_out", r.TimedOut)
	e.Int("duration_ms", r.DurationMS)
	e.Int("peak_memory_bytes", r.PeakMemoryBytes)
	e.Int("cpu_time_ms", r.CPUTimeMS)
	e.Bool("oom_killed", r.OOMKilled)
	e.Bool("pids_limit_hit", r.PidsLimitHit)
	e.Str("cgroup", r.Cgroup)
	jsonw.Object(e, "limits", &r.Limits, (*Limits).fields)
	e.Strs("unenforced", r.Unenforced)
	e.Strs("degraded", r.Degraded)
	jsonw.Object(e, "stdout", &r.Stdout, (*Output).fields)
	jsonw.Object(e, "stderr", &r.Stderr, (*Output).fields)
	jsonw.List(e, "network_attempts", r.NetworkAttempts, (*NetworkAttempt).fields)
	jsonw.ObjectOmit(e, "network_limits", r.NetworkLimits, (*NetworkLimits).fields)
	jsonw.List(e, "blocked_syscalls", r.BlockedSyscalls, (*Syscall).fields)
	e.Str("blocked_syscalls_how", r.BlockedSyscallsHow)
	jsonw.List(e, "files_written", r.FilesWritten, (*FileChange).fields)
	e.Int("files_written_total", int64(r.FilesWrittenTotal))
	e.BoolOmit("files_written_truncated", r.FilesWrittenTruncated)
	jsonw.List(e, "refused_paths", r.RefusedPaths, (*Refusal).fields)
	jsonw.List(e, "quarantined", r.Quarantined, (*Quarantined).fields)
	jsonw.List(e, "not_recorded", r.NotRecorded, (*NotRecorded).fields)
	e.Str("policy_revision", r.PolicyRevision)
	e.StrOmit("policy_path", r.PolicyPath)
	e.Str("approval", r.Approval)
	e.BoolOmit("denied", r.Denied)
	jsonw.ObjectOmit(e, "first_attempt", r.FirstAttempt, (*Attempt).fields)
}

func (d *RunDecision) fields(e *jsonw.Writer) {
	e.Str("by", d.By)
	e.Str("verdict", d.Verdict)
	e.StrOmit("rule", d.Rule)
	e.StrOmit("reason", d.Reason)
	e.StrOmit("answered", d.Answered)
	e.StrOmit("grant", d.Grant)
	e.StrOmit("grant_refused", d.GrantRefused)
}

func (a *Attempt) fields(e *jsonw.Writer) {
	e.Int("status", int64(a.Status))
	jsonw.List(e, "blocked_syscalls", a.BlockedSyscalls, (*Syscall).fields)
	e.Str("approved", a.Approved)
}

func (l *Limits) fields(e *jsonw.Writer) {
	e.Int("memory_bytes", l.MemoryBytes)
	e.Int("pids", l.Pids)
	e.Float("cpu", l.CPU)
	e.Int("nofile", l.Nofile)
	e.Int("fsize_bytes", l.FsizeBytes)
	e.Int("disk_bytes", l.DiskBytes)
	e.Int("inodes", l.Inodes)
	e.Int("timeout_ms", l.TimeoutMS)
	e.Int("output_bytes", l.OutputBytes)
	e.Str("timeout_source", l.TimeoutSource)
}

func (o *Output) fields(e *jsonw.Writer) {
	e.Str("text", o.Text)
	e.Int("head_bytes", int64(o.HeadBytes))
	e.Int("tail_bytes", int64(o.TailBytes))
	e.Int("total_bytes", o.TotalBytes)
	e.Int("cut_bytes", o.CutBytes)
}

func (n *NotRecorded) fields(e *jsonw.Writer) {
	e.Str("field", n.Field)
	e.Str("reason", n.Reason)
}

func (s *Syscall) fields(e *jsonw.Writer) {
	e.StrOmit("run_id", s.RunID)
	e.Str("syscall", s.Syscall)
	e.Str("errno", s.Errno)
	e.Int("count", int64(s.Count))
	e.Int("pid", int64(s.PID))
	e.Str("command", s.Command)
	e.Uints("args", s.Args)
}

func (f *FileChange) fields(e *jsonw.Writer) {
	e.Str("path", f.Path)
	e.Str("kind", f.Kind)
	e.Int("size", f.Size)
}

func (r *Refusal) fields(e *jsonw.Writer) {
	e.Str("path", r.Path)
	e.Str("kind", r.Kind)
	e.Str("error", r.Error)
}

func (q *Quarantined) fields(e *jsonw.Writer) {
	e.Str("path", q.Path)
	e.Str("why", q.Why)
	e.StrOmit("moved_to", q.MovedTo)
	e.StrOmit("error", q.Error)
}

func (a *NetworkAttempt) fields(e *jsonw.Writer) {
	e.Str("run_id", a.RunID)
	e.Time("time", a.Time)
	e.IntOmit("duration_ms", a.DurationMS)
	e.Str("via", a.Via)
	e.Str("host", a.Host)
	e.IntOmit("port", int64(a.Port))
	e.StrOmit("method", a.Method)
	e.StrOmit("protocol", a.Protocol)
	e.StrOmit("path", a.Path)
	e.StrOmit("binary", a.Binary)
	e.Str("verdict", a.Verdict)
	e.Str("rule", a.Rule)
	e.StrOmit("reason", a.Reason)
	e.StrOmit("addr", a.Addr)
	e.IntOmit("status", int64(a.Status))
	e.Int("bytes_up", a.BytesUp)
	e.Int("bytes_down", a.BytesDown)
	e.BoolOmit("intercepted", a.Intercepted)
	e.StrsOmit("credentials_injected", a.Injected)
	e.StrsOmit("placeholders_flagged", a.Flagged)
	e.StrOmit("limit", a.Limit)
}

func (l *NetworkLimits) fields(e *jsonw.Writer) {
	e.Int("dns_names", int64(l.DNSNames))
	e.Int("dns_names_given", int64(l.DNSNamesGiven))
	e.Int("dns_refused", int64(l.DNSRefused))
	e.Int("connections", int64(l.Connections))
	e.Int("connections_refused", int64(l.ConnectionsRefused))
	e.Int("pending", int64(l.Pending))
	e.Int("pending_refused", int64(l.PendingRefused))
	e.Int("tunnels", int64(l.Tunnels))
	e.Int("tunnels_refused", int64(l.TunnelsRefused))
}
