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
func appendFields(w *jsonw.Writer, body any) bool {
	f, ok := body.(interface{ fields(*jsonw.Writer) })
	if ok {
		f.fields(w)
	}
	return ok
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

func (d *Decision) fields(w *jsonw.Writer) {
	w.Str("surface", d.Surface)
	w.StrOmit("agent", d.Agent)
	w.StrOmit("session", d.Session)
	w.StrOmit("project", d.Project)
	w.Str("tool", d.Tool)
	w.StrOmit("subject", d.Subject)
	w.StrsOmit("classes", d.Classes)
	w.Str("verdict", d.Verdict)
	w.Str("answered", d.Answered)
	w.StrOmit("rule", d.Rule)
	w.StrOmit("scope", d.Scope)
	w.StrOmit("reason", d.Reason)
	w.BoolOmit("contained", d.Contained)
	w.StrOmit("policy", d.Policy)
	w.StrOmit("policy_path", d.PolicyPath)
}

func (r *Run) fields(w *jsonw.Writer) {
	w.Str("id", r.ID)
	w.StrOmit("agent", r.Agent)
	w.StrOmit("task", r.Task)
	w.Strs("command", r.Command)
	w.Str("command_sha256", r.CommandSHA256)
	w.Str("project", r.Project)
	w.Str("mode", r.Mode)
	w.Time("started_at", r.StartedAt)
	jsonw.ObjectOmit(w, "decision", r.Decision, (*RunDecision).fields)
	w.Int("status", int64(r.Status))
	w.StrOmit("error", r.Error)
	w.Int("exit_code", int64(r.ExitCode))
	w.Int("signal", int64(r.Signal))
	w.Bool("timed_out", r.TimedOut)
	w.Int("duration_ms", r.DurationMS)
	w.Int("peak_memory_bytes", r.PeakMemoryBytes)
	w.Int("cpu_time_ms", r.CPUTimeMS)
	w.Bool("oom_killed", r.OOMKilled)
	w.Bool("pids_limit_hit", r.PidsLimitHit)
	w.Str("cgroup", r.Cgroup)
	jsonw.Object(w, "limits", &r.Limits, (*Limits).fields)
	w.Strs("unenforced", r.Unenforced)
	w.Strs("degraded", r.Degraded)
	jsonw.Object(w, "stdout", &r.Stdout, (*Output).fields)
	jsonw.Object(w, "stderr", &r.Stderr, (*Output).fields)
	jsonw.List(w, "network_attempts", r.NetworkAttempts, (*NetworkAttempt).fields)
	jsonw.ObjectOmit(w, "network_limits", r.NetworkLimits, (*NetworkLimits).fields)
	jsonw.List(w, "blocked_syscalls", r.BlockedSyscalls, (*Syscall).fields)
	w.Str("blocked_syscalls_how", r.BlockedSyscallsHow)
	jsonw.List(w, "files_written", r.FilesWritten, (*FileChange).fields)
	w.Int("files_written_total", int64(r.FilesWrittenTotal))
	w.BoolOmit("files_written_truncated", r.FilesWrittenTruncated)
	jsonw.List(w, "refused_paths", r.RefusedPaths, (*Refusal).fields)
	jsonw.List(w, "quarantined", r.Quarantined, (*Quarantined).fields)
	jsonw.List(w, "not_recorded", r.NotRecorded, (*NotRecorded).fields)
	w.Str("policy_revision", r.PolicyRevision)
	w.StrOmit("policy_path", r.PolicyPath)
	w.Str("approval", r.Approval)
	w.BoolOmit("denied", r.Denied)
	jsonw.ObjectOmit(w, "first_attempt", r.FirstAttempt, (*Attempt).fields)
}

func (d *RunDecision) fields(w *jsonw.Writer) {
	w.Str("by", d.By)
	w.Str("verdict", d.Verdict)
	w.StrOmit("rule", d.Rule)
	w.StrOmit("reason", d.Reason)
	w.StrOmit("answered", d.Answered)
	w.StrOmit("grant", d.Grant)
	w.StrOmit("grant_refused", d.GrantRefused)
}

func (a *Attempt) fields(w *jsonw.Writer) {
	w.Int("status", int64(a.Status))
	jsonw.List(w, "blocked_syscalls", a.BlockedSyscalls, (*Syscall).fields)
	w.Str("approved", a.Approved)
}

func (l *Limits) fields(w *jsonw.Writer) {
	w.Int("memory_bytes", l.MemoryBytes)
	w.Int("pids", l.Pids)
	w.Float("cpu", l.CPU)
	w.Int("nofile", l.Nofile)
	w.Int("fsize_bytes", l.FsizeBytes)
	w.Int("disk_bytes", l.DiskBytes)
	w.Int("inodes", l.Inodes)
	w.Int("timeout_ms", l.TimeoutMS)
	w.Int("output_bytes", l.OutputBytes)
	w.Str("timeout_source", l.TimeoutSource)
}

func (o *Output) fields(w *jsonw.Writer) {
	w.Str("text", o.Text)
	w.Int("head_bytes", int64(o.HeadBytes))
	w.Int("tail_bytes", int64(o.TailBytes))
	w.Int("total_bytes", o.TotalBytes)
	w.Int("cut_bytes", o.CutBytes)
}

func (n *NotRecorded) fields(w *jsonw.Writer) {
	w.Str("field", n.Field)
	w.Str("reason", n.Reason)
}

func (s *Syscall) fields(w *jsonw.Writer) {
	w.StrOmit("run_id", s.RunID)
	w.Str("syscall", s.Syscall)
	w.Str("errno", s.Errno)
	w.Int("count", int64(s.Count))
	w.Int("pid", int64(s.PID))
	w.Str("command", s.Command)
	w.Uints("args", s.Args)
}

func (f *FileChange) fields(w *jsonw.Writer) {
	w.Str("path", f.Path)
	w.Str("kind", f.Kind)
	w.Int("size", f.Size)
}

func (r *Refusal) fields(w *jsonw.Writer) {
	w.Str("path", r.Path)
	w.Str("kind", r.Kind)
	w.Str("error", r.Error)
}

func (q *Quarantined) fields(w *jsonw.Writer) {
	w.Str("path", q.Path)
	w.Str("why", q.Why)
	w.StrOmit("moved_to", q.MovedTo)
	w.StrOmit("error", q.Error)
}

func (a *NetworkAttempt) fields(w *jsonw.Writer) {
	w.Str("run_id", a.RunID)
	w.Time("time", a.Time)
	w.IntOmit("duration_ms", a.DurationMS)
	w.Str("via", a.Via)
	w.Str("host", a.Host)
	w.IntOmit("port", int64(a.Port))
	w.StrOmit("method", a.Method)
	w.StrOmit("protocol", a.Protocol)
	w.StrOmit("path", a.Path)
	w.StrOmit("binary", a.Binary)
	w.Str("verdict", a.Verdict)
	w.Str("rule", a.Rule)
	w.StrOmit("reason", a.Reason)
	w.StrOmit("addr", a.Addr)
	w.IntOmit("status", int64(a.Status))
	w.Int("bytes_up", a.BytesUp)
	w.Int("bytes_down", a.BytesDown)
	w.BoolOmit("intercepted", a.Intercepted)
	w.StrsOmit("credentials_injected", a.Injected)
	w.StrsOmit("placeholders_flagged", a.Flagged)
	w.StrOmit("limit", a.Limit)
}

func (l *NetworkLimits) fields(w *jsonw.Writer) {
	w.Int("dns_names", int64(l.DNSNames))
	w.Int("dns_names_given", int64(l.DNSNamesGiven))
	w.Int("dns_refused", int64(l.DNSRefused))
	w.Int("connections", int64(l.Connections))
	w.Int("connections_refused", int64(l.ConnectionsRefused))
	w.Int("pending", int64(l.Pending))
	w.Int("pending_refused", int64(l.PendingRefused))
	w.Int("tunnels", int64(l.Tunnels))
	w.Int("tunnels_refused", int64(l.TunnelsRefused))
}
