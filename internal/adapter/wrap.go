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
//	'EXE' run --no-approver [--policy 'POLICY'] --project 'PROJECT' [--audit-json 'AUDITDIR/ID.json'] -- bash -c 'SCRIPT'
//
// where SCRIPT is the command, preceded by a cd to the call's working
// directory when that is not the project. Every value is single-quoted
// (a quote inside closes the quoting, is escaped, and reopens it), so
// nothing in the command can end the quoting: bash -c receives the
// command byte for byte.
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
}

// Wrap returns cmd rewritten to run under warden run in directory cwd.
// id names the execution record (the tool_use_id); an id that is not a
// plain name gets no record.
func (w *Wrapper) Wrap(cmd, cwd, id string) string {
	var b strings.Builder
	b.WriteString(w.prefix())
	if w.AuditDir != "" && validID(id) {
		b.WriteString(" --audit-json ")
		b.WriteString(quote(w.AuditPath(id)))
	}
	b.WriteString(" -- bash -c ")
	cd := ""
	if cwd != "" && cwd != w.Project {
		cd = "cd -- " + quote(cwd) + " || exit 125\n"
	}
	// quote(cd + cmd), written into b sized once: cmd may be megabytes.
	b.Grow(len(cd) + len(cmd) + 3*(strings.Count(cd, "'")+strings.Count(cmd, "'")) + 2)
	b.WriteByte('\'')
	writeQuoted(&b, cd)
	writeQuoted(&b, cmd)
	b.WriteByte('\'')
	return b.String()
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

// Unwrap recognises a command Wrap produced with this wrapper's binary,
// policy and project, and returns the command it runs and its execution
// record's path (empty when it has none). Anything else — another binary,
// another policy, a record outside AuditDir, a quoting Wrap would not
// write — is not recognised, and is judged as the command it is.
func (w *Wrapper) Unwrap(s string) (inner, audit string, ok bool) {
	rest, ok := strings.CutPrefix(s, w.prefix())
	if !ok {
		return "", "", false
	}
	if r, ok := strings.CutPrefix(rest, " --audit-json "); ok {
		a, r, ok := UnquoteWord(r)
		if !ok || w.AuditDir == "" || path.Dir(a) != w.AuditDir || !validID(strings.TrimSuffix(path.Base(a), ".json")) || !strings.HasSuffix(a, ".json") {
			return "", "", false
		}
		audit, rest = a, r
	}
	rest, ok = strings.CutPrefix(rest, " -- bash -c ")
	if !ok {
		return "", "", false
	}
	script, r, ok := UnquoteWord(rest)
	if !ok || r != "" {
		return "", "", false
	}
	inner = script
	if r, ok := strings.CutPrefix(script, "cd -- "); ok {
		dir, r, ok := UnquoteWord(r)
		if !ok {
			return "", "", false
		}
		r, ok = strings.CutPrefix(r, " || exit 125\n")
		if !ok || dir == w.Project {
			return "", "", false
		}
		inner = r
	}
	if inner == "" {
		return "", "", false
	}
	return inner, audit, true
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
