// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package approval writes what a person is asked before an action runs,
// so that what a person approves is what runs. Every question Warden
// puts — the MCP gateway's elicitation, a hook's ask, warden run's
// terminal approver — renders the action's values here.
//
// # The rules
//
//   - Every argument that names where an action reaches — a path, a
//     URL, an argument whose name says it holds one (path, file, dest,
//     source, …) or that a declaration says holds one — is shown in full,
//     and before the others: padding a value cannot push a path out of
//     sight.
//   - Code that runs (a command, a script, a query) is shown in full up to
//     [MaxCode] bytes, which is more than anyone reads.
//   - Only long free text is cut, after [ShownText] bytes, and the cut is
//     marked with the number of bytes left out; the path-like words of
//     the whole text follow the mark, in full, so that a path hidden in
//     a long text is still seen (the first [MaxPathWords] of them, and
//     the number of the others).
//   - Every value is quoted as Go quotes strings: control characters,
//     bidirectional overrides and invisible characters are escaped, so
//     what a screen shows is what the value holds. Names that are not
//     plain words are quoted too.
//   - Members are shown as given, repeats included: a name given twice
//     is shown twice.
//
// The package does no I/O.
package approval

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of what a question shows.
const (
	// MaxText is the longest free text shown whole.
	MaxText = 200
	// ShownText is how much of a longer free text is shown before the
	// mark.
	ShownText = 120
	// MaxCode is the longest code (a command, a script) shown whole; a
	// longer one is cut like free text, after ShownCode bytes.
	MaxCode   = 64 << 10
	ShownCode = 4 << 10
)

// Text quotes free text for a question: whole up to [MaxText] bytes,
// else its first [ShownText] bytes, the mark "…[cut N bytes]" and the
// path-like words of the whole text.
func Text(s string) string { return cut(s, MaxText, ShownText) }

// Code quotes code that runs for a question: whole up to [MaxCode]
// bytes, else cut as [Text] cuts, after [ShownCode] bytes.
func Code(s string) string { return cut(s, MaxCode, ShownCode) }

// Path quotes a path or a URL for a question: always whole.
func Path(s string) string { return strconv.Quote(s) }

func cut(s string, max, shown int) string {
	if len(s) <= max {
		return strconv.Quote(s)
	}
	n := shown
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s…[cut %d bytes", strconv.Quote(s[:n]), len(s)-n)
	if ws, more := pathWords(s); len(ws) > 0 {
		b.WriteString("; paths in the whole text: ")
		for i, w := range ws {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(w))
		}
		if more > 0 {
			fmt.Fprintf(&b, " and %d more", more)
		}
	}
	b.WriteString("]")
	return b.String()
}

// Printable escapes, in text Warden writes for a person, what a terminal
// or a form would not show as itself: control characters but newline
// and tab (an escape sequence can redraw the line a question is on, a
// carriage return overwrite it), DEL and C1 controls, and the invisible
// format characters (bidirectional overrides reorder what is shown,
// zero-width characters hide). Everything else is kept.
func Printable(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; {
		r, n := utf8.DecodeRuneInString(s[i:])
		clean = !hidden(r, n)
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case hidden(r, n):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// hidden reports whether the character r, n bytes long, is one
// Printable escapes.
func hidden(r rune, n int) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r == utf8.RuneError && n == 1:
		return true
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Args renders a tool call's JSON arguments (an object) for a question,
// one "name: value" line each: the path-like arguments first, whole;
// then code, whole up to [MaxCode]; then the rest, long free text cut.
// Nested members are named by their path (edits[0].file_path). declared
// names arguments a declaration says hold paths or a URL. Arguments
// that are not an object are shown as one value, cut as free text.
func Args(raw json.RawMessage, declared ...string) string {
	if firstByte(raw) != '{' {
		if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
			return ""
		}
		return "arguments: " + Text(string(raw))
	}
	var paths, code, rest []string
	value := func(name, key string, forced bool, v any) {
		switch v := v.(type) {
		case string:
			switch {
			case forced || pathKey(key) || pathValue(v):
				paths = append(paths, name+": "+Path(v))
			case codeKey(key):
				code = append(code, name+": "+Code(v))
			default:
				rest = append(rest, name+": "+Text(v))
			}
		case json.Number:
			if len(v) > MaxText {
				rest = append(rest, name+": "+Text(v.String()))
			} else {
				rest = append(rest, name+": "+v.String())
			}
		case nil:
			rest = append(rest, name+": null")
		default:
			rest = append(rest, fmt.Sprintf("%s: %v", name, v))
		}
	}
	// One pass over the tokens, with a frame per open object or array:
	// deep nesting costs no more than its bytes.
	type frame struct {
		name, key string // the container's name; the member name its elements inherit
		array     bool
		forced    bool   // a declared path argument, or inside one
		n         int    // elements or members so far
		member    string // in an object: the name whose value comes next
		named     bool   // in an object: member is set
	}
	bad := func() string { return "arguments: " + Text(string(raw)) }
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return bad()
	}
	stack := []frame{{}}
	for len(stack) > 0 {
		t, err := dec.Token()
		if err != nil {
			return bad()
		}
		f := &stack[len(stack)-1]
		if d, ok := t.(json.Delim); ok && (d == '}' || d == ']') {
			if f.n == 0 && len(stack) > 1 {
				empty := "{}"
				if f.array {
					empty = "[]"
				}
				rest = append(rest, f.name+": "+empty)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		if !f.array && !f.named {
			f.member, f.named = t.(string)
			continue
		}
		// t is the value of the next element or member.
		name, key, forced := f.name, f.key, f.forced
		switch {
		case f.array:
			name = fmt.Sprintf("%s[%d]", f.name, f.n)
		case len(stack) == 1:
			key, name = f.member, quoteName(f.member)
			for _, d := range declared {
				forced = forced || d == key
			}
		default:
			key, name = f.member, f.name+"."+quoteName(f.member)
		}
		f.n++
		f.named = false
		if d, ok := t.(json.Delim); ok {
			stack = append(stack, frame{name: name, key: key, array: d == '[', forced: forced})
			continue
		}
		value(name, key, forced, t)
	}
	return strings.Join(append(append(paths, code...), rest...), "\n")
}

func firstByte(v json.RawMessage) byte {
	s := strings.TrimSpace(string(v))
	if s == "" {
		return 0
	}
	return s[0]
}

// quoteName writes a member's name as it is when it is a plain word, and
// quoted otherwise: a name cannot pose as another argument or a value.
func quoteName(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
			return strconv.Quote(k)
		}
	}
	return k
}

// normal lower-cases a name and drops its separators: file_path,
// filePath and file-path are filepath.
func normal(k string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', '.', ' ':
			return -1
		}
		return unicode.ToLower(r)
	}, k)
}

// Names that say an argument holds a path or a destination: whole names,
// and parts of names.
var (
	pathNames = []string{"to", "from", "src", "dst", "in", "out", "cwd", "uri", "url", "urls", "href", "host", "output", "input"}
	pathParts = []string{"path", "file", "dir", "folder", "dest", "source", "target", "location", "root", "mount", "link", "uri", "url"}
	// Names that say an argument holds code that runs.
	codeNames = []string{"cmd", "code", "args", "argv", "exec", "program", "shell", "eval", "expr", "expression", "statement", "patch", "diff"}
	codeParts = []string{"command", "script", "query", "sql"}
)

func pathKey(k string) bool { return nameIn(normal(k), pathNames, pathParts) }
func codeKey(k string) bool { return nameIn(normal(k), codeNames, codeParts) }

func nameIn(k string, whole, parts []string) bool {
	for _, w := range whole {
		if k == w {
			return true
		}
	}
	for _, p := range parts {
		if strings.Contains(k, p) {
			return true
		}
	}
	return false
}

// pathValue reports whether an argument's value looks like a path or a
// URL: one line that starts like a path, or one word holding a slash.
func pathValue(s string) bool {
	if s == "" || strings.ContainsAny(s, "\n\r") {
		return false
	}
	if startsLikePath(s) {
		return true
	}
	return !strings.ContainsFunc(s, unicode.IsSpace) && pathWord(s)
}

func startsLikePath(s string) bool {
	switch {
	case strings.HasPrefix(s, "/"), strings.HasPrefix(s, "~"), strings.HasPrefix(s, "./"), strings.HasPrefix(s, "../"),
		strings.HasPrefix(s, "file:"), strings.HasPrefix(s, `\\`):
		return true
	case len(s) >= 3 && s[1] == ':' && (s[2] == '\\' || s[2] == '/') && unicode.IsLetter(rune(s[0])):
		return true // C:\ or C:/
	}
	return s == "." || s == ".."
}

// pathWord reports whether one word of a text names a path or a URL.
func pathWord(w string) bool {
	return startsLikePath(w) || strings.Contains(w, "/")
}

// MaxPathWords bounds the path-like words listed after a cut; more are
// counted. A text may be megabytes of paths, and a question is read.
const MaxPathWords = 100

// pathWords returns the first MaxPathWords path-like words of a text,
// each once, in order, and how many more path-like words it holds
// (repeats of those counted). Words are split at blanks, quotes,
// brackets and shell operators, and trailing punctuation is dropped.
func pathWords(s string) (words []string, more int) {
	seen := map[string]bool{}
	for len(s) > 0 {
		i := strings.IndexFunc(s, func(r rune) bool { return !separator(r) })
		if i < 0 {
			break
		}
		s = s[i:]
		j := strings.IndexFunc(s, separator)
		if j < 0 {
			j = len(s)
		}
		w := strings.TrimRight(s[:j], ".:!?")
		s = s[j:]
		switch {
		case w == "" || !pathWord(w) || seen[w]:
		case len(words) == MaxPathWords:
			more++
		default:
			seen[w] = true
			words = append(words, w)
		}
	}
	return words, more
}

func separator(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("\"'`()[]{}<>,;|&=", r)
}
