// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

import (
	"encoding/json"
	"errors"
	"path"
	"strings"
)

// Wrapper rewrites an allowed shell command to run under `warden run`, so
// that the containment floor is under it (--wrap). Every adapter whose
// agent lets a hook rewrite the tool input uses it. The rewritten command
// is
//
//	'EXE' run --no-approver [--policy 'POLICY'] --project 'PROJECT' [--grant ID] [--audit-json 'AUDITDIR/ID.json'] -- bash -c 'SCRIPT'
//
// where SCRIPT is the command, preceded by a cd to the call's working
// directory when that is not the project. Every value is single-quoted
// (a quote inside closes the quoting, is escaped, and reopens it), so
// nothing in the command can end the quoting: bash -c receives the
// command byte for byte. ID names the single-use grant the hook issued
// for exactly this run (package grant): warden run redeems it instead of
// judging the command again, and judges in full a line without one.
type Wrapper struct {
	// Exe is the absolute path of the warden binary.
	Exe string
	// Policy is the absolute path of the policy file; empty means
	// warden run's embedded default.
	Policy string
	// Project is the sandbox's project (its writable root); empty
	// leaves it to warden run.
	Project string
	// AuditDir, when set, is where each run's execution record goes,
	// named after the tool call, for PostToolUse to read.
	AuditDir string
	// Grant, when set, is the id of the grant issued for the command
	// being wrapped (see [Wrapper.Argv]); the hook sets it per call.
	Grant string
}

// Wrap returns cmd rewritten to run under warden run in directory cwd.
// id names the execution record (the tool_use_id); an id that is not a
// plain name gets no record.
func (w *Wrapper) Wrap(cmd, cwd, id string) string {
	var b strings.Builder
	b.WriteString(w.prefix())
	if w.Grant != "" && validID(w.Grant) {
		b.WriteString(" --grant ")
		b.WriteString(w.Grant)
	}
	if w.AuditDir != "" && validID(id) {
		b.WriteString(" --audit-json ")
		b.WriteString(quote(w.AuditPath(id)))
	}
	b.WriteString(" -- bash -c ")
	cd := w.cd(cwd)
	// quote(cd + cmd), written into b sized once: cmd may be megabytes.
	b.Grow(len(cd) + len(cmd) + 3*(strings.Count(cd, "'")+strings.Count(cmd, "'")) + 2)
	b.WriteByte('\'')
	writeQuoted(&b, cd)
	writeQuoted(&b, cmd)
	b.WriteByte('\'')
	return b.String()
}

// cd is the line the script Wrap writes starts with to run in cwd, or "".
func (w *Wrapper) cd(cwd string) string {
	if cwd != "" && cwd != w.Project {
		return "cd -- " + quote(cwd) + " || exit 125\n"
	}
	return ""
}

// Argv is the argv that the line [Wrapper.Wrap] writes for cmd and cwd
// hands warden run after "--": what a grant for it is bound to.
func (w *Wrapper) Argv(cmd, cwd string) []string {
	return []string{"bash", "-c", w.cd(cwd) + cmd}
}

// writeQuoted writes s as the inside of a single-quoted word: each quote
// closes the quoting, is escaped, and reopens it.
func writeQuoted(b *strings.Builder, s string) {
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteString(`'\''`)
		s = s[i+1:]
	}
}

// AuditPath is where the execution record of call id goes.
func (w *Wrapper) AuditPath(id string) string { return path.Join(w.AuditDir, id+".json") }

func (w *Wrapper) prefix() string {
	s := quote(w.Exe) + " run --no-approver"
	if w.Policy != "" {
		s += " --policy " + quote(w.Policy)
	}
	if w.Project == "" {
		return s // warden run finds it, or refuses
	}
	return s + " --project " + quote(w.Project)
}

// Unwrapped is what a line in [Wrapper.Wrap]'s form runs.
type Unwrapped struct {
	// Command is the command bash -c runs, after the cd.
	Command string
	// Dir is the directory the cd names, "" when there is none (the
	// command runs where warden run is started).
	Dir string
	// Audit is the execution record's path, "" when it has none.
	Audit string
	// Grant is the grant id the line names, "" when it names none. It is
	// not checked here: warden run redeems it or judges in full.
	Grant string
}

// Unwrap recognises a command Wrap produced with this wrapper's binary,
// policy and project, and returns what it runs. Anything else — another
// binary, another policy, a record outside AuditDir, a quoting Wrap would
// not write — is not recognised, and is judged as the command it is.
func (w *Wrapper) Unwrap(s string) (Unwrapped, bool) {
	var u Unwrapped
	rest, ok := strings.CutPrefix(s, w.prefix())
	if !ok {
		return u, false
	}
	if r, ok := strings.CutPrefix(rest, " --grant "); ok {
		id, r, _ := strings.Cut(r, " ")
		if !validID(id) {
			return u, false
		}
		u.Grant, rest = id, " "+r
	}
	if r, ok := strings.CutPrefix(rest, " --audit-json "); ok {
		a, r, ok := UnquoteWord(r)
		if !ok || w.AuditDir == "" || path.Dir(a) != w.AuditDir || !validID(strings.TrimSuffix(path.Base(a), ".json")) || !strings.HasSuffix(a, ".json") {
			return u, false
		}
		u.Audit, rest = a, r
	}
	rest, ok = strings.CutPrefix(rest, " -- bash -c ")
	if !ok {
		return u, false
	}
	script, r, ok := UnquoteWord(rest)
	if !ok || r != "" {
		return u, false
	}
	u.Command = script
	if r, ok := strings.CutPrefix(script, "cd -- "); ok {
		dir, r, ok := UnquoteWord(r)
		if !ok {
			return u, false
		}
		r, ok = strings.CutPrefix(r, " || exit 125\n")
		if !ok || dir == w.Project || dir == "" {
			return u, false
		}
		u.Command, u.Dir = r, dir
	}
	if u.Command == "" {
		return u, false
	}
	return u, true
}

// quote single-quotes s for a POSIX shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// UnquoteWord reads one single-quoted word ('…', a quote inside written
// '\”) from the start of s, as Wrap and `warden hook install` quote
// them, and returns it and what follows.
func UnquoteWord(s string) (word, rest string, ok bool) {
	var b strings.Builder
	for {
		if !strings.HasPrefix(s, "'") {
			return "", "", false
		}
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", false
		}
		b.WriteString(s[1 : 1+end])
		s = s[2+end:]
		r, more := strings.CutPrefix(s, `\'`)
		if !more {
			return b.String(), s, true
		}
		b.WriteByte('\'')
		s = r
	}
}

// validID reports whether id can name a file: letters, digits, _ and -.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// ReplaceString returns the JSON object input with its field set to the
// string value; every other field is kept as it was, byte for byte. It
// is how an adapter writes the rewritten tool input of --wrap.
func ReplaceString(input json.RawMessage, field, value string) (json.RawMessage, error) {
	out, err := setString(input, field, value)
	if err != nil {
		return nil, errors.New("tool_input is not a JSON object")
	}
	return out, nil
}
