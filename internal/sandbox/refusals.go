// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"warden.dev/warden/internal/audit"
)

// Refusals ([audit.Refusal]) are accesses to a masked or read-only path
// that failed inside the sandbox, as the command's own error output
// reported them: a masked path, a read-only bind, or a write anywhere
// outside the writable roots (the host's root is bound read-only), which
// is listed as the path the command named. The kernel refuses such accesses without telling warden;
// what a program reports is the only trace, so an access whose failure
// the program keeps to itself, or reports without naming the path, is not
// listed.

// maxRefusals bounds the refusals one run lists.
const maxRefusals = 32

// refusalErrors are the messages, as strerror words them, of the errors
// a masked or read-only path gives (EROFS, EBUSY, EACCES), and whether a
// read-only bind gives it: EACCES below one comes from the file's own
// permissions or Landlock, not from the sandbox's mounts.
var refusalErrors = []struct {
	text     string
	readOnly bool
}{
	{"Read-only file system", true},
	{"Device or resource busy", true},
	{"Permission denied", false},
}

// shellQuoted finds a name quoted as GNU tools quote one that holds
// bytes a terminal would not show (quoting style shell-escape, the
// default of coreutils at a terminal and in its messages): single-quoted
// parts and $'…' parts with C escapes, run together, so that a shell
// reads the name back:
//
//	cat: 'sub'$'\377''/.env': Permission denied
var shellQuoted = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:'[^'\n]*'|\$'(?:[^'\\\n]|\\.)*')*\$'(?:[^'\\\n]|\\.)*'(?:'[^'\n]*'|\$'(?:[^'\\\n]|\\.)*')*`)
})

// unshellQuote is the name a word shellQuoted found stands for; false
// for a word that is not in that form (an escape shell-escape does not
// write).
func unshellQuote(w string) (string, bool) {
	var b []byte
	for w != "" {
		if rest, ok := strings.CutPrefix(w, "'"); ok {
			end := strings.IndexByte(rest, '\'')
			if end < 0 {
				return "", false
			}
			b, w = append(b, rest[:end]...), rest[end+1:]
			continue
		}
		rest, ok := strings.CutPrefix(w, "$'")
		if !ok {
			return "", false
		}
		for {
			if rest == "" {
				return "", false
			}
			c := rest[0]
			if c == '\'' {
				w = rest[1:]
				break
			}
			if c != '\\' {
				b, rest = append(b, c), rest[1:]
				continue
			}
			if len(rest) < 2 {
				return "", false
			}
			if e := strings.IndexByte(`abfnrtv\'"`, rest[1]); e >= 0 {
				b, rest = append(b, "\a\b\f\n\r\t\v\\'\""[e]), rest[2:]
				continue
			}
			// \NNN, octal, one to three digits.
			n, i := 0, 1
			for ; i < len(rest) && i <= 3 && rest[i] >= '0' && rest[i] <= '7'; i++ {
				n = n*8 + int(rest[i]-'0')
			}
			if i == 1 || n > 0xff {
				return "", false
			}
			b, rest = append(b, byte(n)), rest[i:]
		}
	}
	return string(b), true
}

// quotedPath finds quoted strings, as tools quote the paths they name.
var quotedPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("['‘\"“`]([^'’\"”`\n]+)['’\"”`]")
})

// refusalTargets are the paths whose refusals are listed, by kind, with
// the spellings a command may use for the project and the home.
type refusalTargets struct {
	kinds map[string]string
	// files are the targets that are not directories, by directory.
	files   map[string][]string
	aliases [][2]string // a prefix as the command may write it, and its real path
	// writable are the writable binds: an EROFS below none of them is
	// the read-only root's.
	writable []string
	dir      string // the command's working directory
}

func newRefusalTargets(v view, spec Spec, dir string) *refusalTargets {
	t := &refusalTargets{kinds: map[string]string{}, files: map[string][]string{}, dir: dir}
	for _, b := range v.binds {
		if b.Writable {
			t.writable = append(t.writable, b.Path)
		}
		if !b.Writable {
			t.kinds[b.Path] = audit.RefusedReadOnly
			if !b.Dir {
				t.files[filepath.Dir(b.Path)] = append(t.files[filepath.Dir(b.Path)], b.Path)
			}
		}
	}
	for _, m := range v.masks {
		t.kinds[m] = audit.RefusedMasked
		t.files[filepath.Dir(m)] = append(t.files[filepath.Dir(m)], m)
	}
	for _, p := range []string{spec.Project, spec.Home} {
		if p == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil && real != filepath.Clean(p) {
			t.aliases = append(t.aliases, [2]string{filepath.Clean(p), real})
		}
	}
	return t
}

// resolve makes p (a word as the command wrote it, relative to its
// working directory) an absolute host path.
func (t *refusalTargets) resolve(p string) (string, bool) {
	p = strings.TrimRight(strings.TrimLeft(p, "(<['‘\"“`"), ":,;.)>]'’\"”`")
	if p == "" || strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(t.dir, p)
	}
	p = filepath.Clean(p)
	for _, a := range t.aliases {
		if rest, ok := strings.CutPrefix(p, a[0]); ok && (rest == "" || rest[0] == '/') {
			p = a[1] + rest
		}
	}
	return p, true
}

// match returns the target that the word p names or is below, and its
// kind.
func (t *refusalTargets) match(p string) (string, string, bool) {
	p, ok := t.resolve(p)
	if !ok {
		return "", "", false
	}
	for q := p; ; q = filepath.Dir(q) {
		if k, ok := t.kinds[q]; ok {
			return q, k, true
		}
		if q == "/" || q == "." {
			return "", "", false
		}
	}
}

// outside returns the path that an EROFS message on line names (as
// [Blocks] reads it), when it is outside every writable bind.
func (t *refusalTargets) outside(line string) (string, bool) {
	m := roMessage().FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	p := m[1]
	if p == "" {
		p = m[2]
	}
	p, ok := t.resolve(p)
	if !ok || p == "/" {
		return "", false
	}
	for _, w := range t.writable {
		if within(p, w) {
			return "", false
		}
	}
	return p, true
}

// findRefusals lists the masked and read-only paths that the command's
// kept output names on a line with one of the refusalErrors; a relative
// path is taken in dir, the command's working directory.
func findRefusals(v view, spec Spec, dir string, outputs ...string) []audit.Refusal {
	var t *refusalTargets
	var out []audit.Refusal
	seen := map[string]bool{}
	for _, text := range outputs {
		for line := range strings.Lines(text) {
			errText, readOnly := "", false
			for _, e := range refusalErrors {
				if strings.Contains(line, e.text) {
					errText, readOnly = e.text, e.readOnly
					break
				}
			}
			if errText == "" {
				continue
			}
			if t == nil {
				t = newRefusalTargets(v, spec, dir)
			}
			var cands []string
			if strings.Contains(line, "$'") {
				for _, w := range shellQuoted().FindAllString(line, -1) {
					if p, ok := unshellQuote(w); ok {
						cands = append(cands, p)
					}
				}
			}
			for _, m := range quotedPath().FindAllStringSubmatch(line, -1) {
				cands = append(cands, m[1])
			}
			cands = append(cands, strings.Fields(line)...)
			add := func(p, kind string) bool {
				if kind == audit.RefusedReadOnly && !readOnly {
					return false
				}
				if !seen[p] {
					seen[p] = true
					out = append(out, audit.Refusal{Path: p, Kind: kind, Error: errText})
				}
				return len(out) == maxRefusals
			}
			matched := false
			for _, c := range cands {
				if p, kind, ok := t.match(c); ok {
					matched = true
					if add(p, kind) {
						return out
					}
				}
			}
			if !matched && readOnly && errText == "Read-only file system" {
				// Outside every writable root: the host's root, bound
				// read-only. The path is the one the command named.
				if p, ok := t.outside(line); ok && add(p, audit.RefusedReadOnly) {
					return out
				}
				continue
			}
			if matched || errText != "Device or resource busy" {
				continue
			}
			// A temporary file that could not be renamed over a
			// protected or masked file next to it: how sed -i and
			// editors save ("sed: cannot rename .git/sedXXXXXX:
			// Device or resource busy", "./sedXXXXXX" in the project
			// itself). Every such file of that directory is named, as
			// the message names none; only words with a slash are taken
			// for paths here.
			for _, c := range cands {
				p, ok := t.resolve(c)
				if !ok || !strings.Contains(c, "/") {
					continue
				}
				for _, f := range t.files[filepath.Dir(p)] {
					if add(f, t.kinds[f]) {
						return out
					}
				}
			}
		}
	}
	return out
}
