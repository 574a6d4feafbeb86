// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Redacted replaces a secret in a recorded text.
const Redacted = "[redacted]"

// secretPatterns are the secrets a recorded text may carry because an
// agent typed them (a token on a command line, a password in a URL, a
// key block in a here-document) or a command printed them. Warden's own
// secrets never reach a record (credentials are [credential.Redacted],
// the sandbox sees placeholders and masked files); these are the user's.
// A pattern's groups, when it has them, are kept around the secret: the
// name the value was given, and what follows it.
//
// Each pattern comes with what any text it matches contains (mayMatch):
// a text that contains none of it is passed over without the pattern,
// which is compiled on its first use. Most texts of a record (a command,
// an empty output) need none: compiling all five took a run or a hook
// call about 0.3 ms.
var secretPatterns = []secretPattern{
	// PEM private keys, whole.
	{expr: `-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`,
		needs: []string{"-----BEGIN "}},
	// Authorization headers: the scheme and value.
	{expr: `(?i)\b((?:proxy-)?authorization\s*:\s*)(?:(?:bearer|basic|token|digest)\s+)?[^\s'"]+`,
		needs: []string{"authorization"}, fold: true},
	// A URL's password.
	{expr: `(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@'"]*:)[^/\s@'"]+(@)`,
		needs: []string{"://"}},
	// name=value and name: value where the name says secret.
	{expr: `(?i)(\b[a-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret)[a-z0-9_]*["']?\s*[=:]\s*["']?)[^\s'"&;|]+`,
		needs: []string{"pass", "secret", "token", "key"}, fold: true},
	// Well-known token formats, wherever they are.
	{expr: `\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,}|sk-ant-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9_-]{32,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}|hf_[A-Za-z0-9]{30,})\b`,
		needs: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "xox", "AKIA", "ASIA", "AIza", "npm_", "pypi-", "hf_"}},
}

// secretPattern is one of secretPatterns.
type secretPattern struct {
	expr string
	// needs: every text the pattern matches contains one of these;
	// with fold, in any case, for an ASCII text (a text with other
	// bytes is always tried: (?i) folds ſ to s and K to k).
	needs []string
	fold  bool
	re    func() *regexp.Regexp
}

func init() {
	for i := range secretPatterns {
		p := &secretPatterns[i]
		p.re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(p.expr) })
	}
}

// mayMatch says whether s contains what any match of p does.
func (p *secretPattern) mayMatch(s string) bool {
	if p.fold {
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				return true
			}
		}
		s = strings.ToLower(s)
	}
	for _, n := range p.needs {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

// MaxText bounds a text an event keeps: a longer one (a 16 MiB command
// line) is cut, and the cut said, before it is redacted.
const MaxText = 64 << 10

// RedactText replaces the secrets of s with [Redacted], keeping the name
// each was given. A text longer than [MaxText] is cut first, back to the
// last space before the cut so that no secret is kept in part.
func RedactText(s string) string {
	if s == "" {
		return s
	}
	if len(s) > MaxText {
		cut := s[:MaxText]
		if i := strings.LastIndexAny(cut, " \t\n"); i > MaxText-4096 {
			cut = cut[:i]
		} else {
			cut = cut[:MaxText-4096]
		}
		s = cut + fmt.Sprintf(" … [%d bytes more not recorded]", len(s)-len(cut))
	}
	for i := range secretPatterns {
		p := &secretPatterns[i]
		if !p.mayMatch(s) {
			continue
		}
		s = redactWith(p.re(), s)
	}
	return s
}

// redactWith replaces what re matches in s with [Redacted], keeping the
// pattern's groups around it.
func redactWith(re *regexp.Regexp, s string) string {
	switch re.NumSubexp() {
	case 0:
		return re.ReplaceAllLiteralString(s, Redacted)
	case 1:
		return re.ReplaceAllString(s, "${1}"+Redacted)
	default:
		return re.ReplaceAllString(s, "${1}"+Redacted+"${2}")
	}
}

// Redact returns ev with the secrets of its texts replaced ([RedactText]):
// what an agent typed or a command printed. ev's bodies are copied, not
// changed.
func Redact(ev Event) Event {
	switch {
	case ev.Decision != nil:
		d := *ev.Decision
		d.Subject, d.Reason = RedactText(d.Subject), RedactText(d.Reason)
		ev.Decision = &d
	case ev.Run != nil:
		r := *ev.Run
		r.Command = redactAll(r.Command)
		r.Error = RedactText(r.Error)
		r.Stdout.Text, r.Stderr.Text = RedactText(r.Stdout.Text), RedactText(r.Stderr.Text)
		if r.NetworkAttempts != nil {
			r.NetworkAttempts = append([]NetworkAttempt(nil), r.NetworkAttempts...)
			for i := range r.NetworkAttempts {
				redactAttempt(&r.NetworkAttempts[i])
			}
		}
		if r.Decision != nil {
			d := *r.Decision
			d.Reason = RedactText(d.Reason)
			r.Decision = &d
		}
		ev.Run = &r
	case ev.Network != nil:
		a := *ev.Network
		redactAttempt(&a)
		ev.Network = &a
	case ev.MCP != nil:
		c := *ev.MCP
		c.Reason = RedactText(c.Reason)
		ev.MCP = &c
	}
	return ev
}

func redactAttempt(a *NetworkAttempt) {
	a.Path, a.Reason = RedactText(a.Path), RedactText(a.Reason)
}

func redactAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = RedactText(s)
	}
	return out
}
