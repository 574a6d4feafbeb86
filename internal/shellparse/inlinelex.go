// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the tokenizer of the inline-program scanner (inline.go).
// It is tolerant: it never fails, and text it does not understand becomes
// punctuation. It knows, per language, the comments, the string forms
// (quotes, triple quotes, prefixes, q//, %q(), long brackets, templates),
// their escapes, and which of them interpolate values.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// lexer is the state of one tokenization.
type lexer struct {
	lang string
	src  string
	i    int
	nl   bool
	out  []itok
}

func lexInline(lang, src string) []itok {
	l := &lexer{lang: lang, src: src, out: make([]itok, 0, len(src)/4+1)}
	l.run()
	return l.out
}

func (l *lexer) emit(t itok) {
	t.nl = l.nl
	l.nl = false
	l.out = append(l.out, t)
}

func (l *lexer) peek(k int) byte {
	if l.i+k < len(l.src) && l.i+k >= 0 {
		return l.src[l.i+k]
	}
	return 0
}

func identStart(c byte, lang string) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || c == '$' && lang == langJS
}

func identByte(c byte, lang string) bool {
	return identStart(c, lang) || c >= '0' && c <= '9'
}

// prevValue reports whether the last token ends a value, after which / is
// division and % is modulo rather than the start of a literal.
func (l *lexer) prevValue() bool {
	if len(l.out) == 0 {
		return false
	}
	t := l.out[len(l.out)-1]
	switch t.k {
	case 'i':
		switch t.s {
		case "return", "and", "or", "not", "if", "unless", "while", "until", "when", "in", "puts", "print", "split", "grep", "join", "typeof":
			return false
		}
		return true
	case 'n', 's', 'v', 'x', 'w', 'y':
		return true
	case 'p':
		return t.s == ")" || t.s == "]" || t.s == "}"
	}
	return false
}

func (l *lexer) run() {
	src := l.src
	for l.i < len(src) {
		c := src[l.i]
		switch {
		case c == '\n':
			l.nl = true
			l.i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.i++
			continue
		}
		if l.comment() {
			continue
		}
		start := l.i
		switch {
		case c == '"' || c == '\'' && l.lang != langOSA:
			l.quoted(c, "")
		case c == '`':
			l.backtick()
		case c == '$' && l.lang == langPHP && identStart(l.peek(1), l.lang),
			(c == '$' || c == '@') && (l.lang == langPerl || l.lang == langRuby) && (identStart(l.peek(1), l.lang) || l.peek(1) == '{' || l.peek(1) == '$' || l.peek(1) == ':' || l.peek(1) == '#' || l.peek(1) >= '0' && l.peek(1) <= '9' || c == '@' && l.peek(1) == '@'),
			c == '%' && l.lang == langPerl && (identStart(l.peek(1), l.lang) || l.peek(1) == '{') && !l.prevValue():
			l.variable()
		case c == ':' && l.lang == langRuby && identStart(l.peek(1), l.lang) && l.peek(-1) != ':':
			l.i++
			j := l.i
			for l.i < len(src) && (identByte(src[l.i], l.lang) || src[l.i] == '?' || src[l.i] == '!') {
				l.i++
			}
			l.emit(itok{k: 'y', s: src[j:l.i], pos: start})
		case c == ':' && l.lang == langRuby && (l.peek(1) == '"' || l.peek(1) == '\'') && l.peek(-1) != ':':
			l.i++
			l.quoted(src[l.i], "")
			l.out[len(l.out)-1].k = 'y'
			l.out[len(l.out)-1].pos = start
		case c == '%' && l.lang == langRuby && !l.prevValue() && l.percent():
		case c == '[' && l.lang == langLua && (l.peek(1) == '[' || l.peek(1) == '='):
			if s, ok := l.longBracket(); ok {
				l.emit(itok{k: 's', s: s, pos: start})
			} else {
				l.i = start + 1
				l.emit(itok{k: 'p', s: "[", pos: start})
			}
		case c == '/' && (l.lang == langPerl || l.lang == langRuby || l.lang == langJS) && !l.prevValue():
			// A regular expression literal.
			l.i++
			l.delimited('/', '/', true)
			for l.i < len(src) && identByte(src[l.i], l.lang) {
				l.i++
			}
			l.emit(itok{k: 'n', s: "/re/", pos: start})
		case c >= '0' && c <= '9':
			for l.i < len(src) && (identByte(src[l.i], l.lang) || src[l.i] == '.' && l.peek(1) >= '0' && l.peek(1) <= '9') {
				l.i++
			}
			l.emit(itok{k: 'n', s: src[start:l.i], pos: start})
		case identStart(c, l.lang):
			l.ident()
		default:
			l.punct()
		}
	}
}

// comment skips a comment at the cursor and reports whether it did.
func (l *lexer) comment() bool {
	src, c := l.src, l.src[l.i]
	line := false
	switch l.lang {
	case langPython, langRuby, langPerl:
		line = c == '#'
		if l.lang == langRuby && c == '=' && strings.HasPrefix(src[l.i:], "=begin") && (l.i == 0 || src[l.i-1] == '\n') {
			if k := strings.Index(src[l.i:], "\n=end"); k >= 0 {
				l.i += k + 5
			} else {
				l.i = len(src)
			}
			return true
		}
	case langPHP:
		line = c == '#' && l.peek(1) != '[' || c == '/' && l.peek(1) == '/'
	case langJS:
		line = c == '/' && l.peek(1) == '/' || c == '#' && l.peek(1) == '!' && l.i == 0
	case langLua:
		if c == '-' && l.peek(1) == '-' {
			l.i += 2
			if l.peek(0) == '[' {
				save := l.i
				if _, ok := l.longBracket(); ok {
					return true
				}
				l.i = save
			}
			line = true
		}
	case langOSA:
		line = c == '#' || c == '-' && l.peek(1) == '-'
		if c == '(' && l.peek(1) == '*' {
			if k := strings.Index(src[l.i+2:], "*)"); k >= 0 {
				l.i += k + 4
			} else {
				l.i = len(src)
			}
			return true
		}
	}
	if (l.lang == langJS || l.lang == langPHP) && c == '/' && l.peek(1) == '*' {
		if k := strings.Index(src[l.i+2:], "*/"); k >= 0 {
			l.i += k + 4
		} else {
			l.i = len(src)
		}
		return true
	}
	if !line {
		return false
	}
	if k := strings.IndexByte(src[l.i:], '\n'); k >= 0 {
		l.i += k
	} else {
		l.i = len(src)
	}
	return true
}

func (l *lexer) ident() {
	src, start := l.src, l.i
	for l.i < len(src) && identByte(src[l.i], l.lang) {
		l.i++
	}
	if l.lang == langRuby && l.i < len(src) && (src[l.i] == '?' || src[l.i] == '!') && l.peek(1) != '=' {
		l.i++
	}
	name := src[start:l.i]
	c := l.peek(0)
	switch l.lang {
	case langPython:
		if (c == '\'' || c == '"') && len(name) <= 2 && strings.Trim(strings.ToLower(name), "rbuf") == "" {
			l.quoted(c, strings.ToLower(name))
			l.out[len(l.out)-1].pos = start
			return
		}
	case langPerl:
		switch name {
		case "q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y":
			if l.quoteOp(name, start) {
				return
			}
		}
		if c == ':' && l.peek(1) == ':' && identStart(l.peek(2), l.lang) {
			// Net::HTTP is one name in Perl.
			l.i += 2
			for l.i < len(src) && (identByte(src[l.i], l.lang) || src[l.i] == ':' && l.peek(1) == ':') {
				if src[l.i] == ':' {
					l.i++
				}
				l.i++
			}
			l.emit(itok{k: 'i', s: src[start:l.i], pos: start})
			return
		}
	}
	l.emit(itok{k: 'i', s: name, pos: start})
}

func (l *lexer) variable() {
	src, start := l.src, l.i
	l.i++
	if l.i < len(src) && (src[l.i] == '$' || src[l.i] == '#' || src[l.i] == '@') {
		l.i++
	}
	if l.i < len(src) && src[l.i] == '{' {
		l.delimited('{', '}', false)
	} else {
		for l.i < len(src) && (identByte(src[l.i], l.lang) || src[l.i] == ':' && l.peek(1) == ':' && l.lang == langPerl) {
			if src[l.i] == ':' {
				l.i++
			}
			l.i++
		}
	}
	if l.i == start+1 {
		l.i++
	}
	l.emit(itok{k: 'v', s: src[start:l.i], pos: start})
}

func (l *lexer) punct() {
	src, start := l.src, l.i
	for _, p := range []string{"::", "->", "=>", "?.", "..", "==", "||", "&&"} {
		if strings.HasPrefix(src[l.i:], p) {
			l.i += len(p)
			l.emit(itok{k: 'p', s: p, pos: start})
			return
		}
	}
	_, n := utf8.DecodeRuneInString(src[l.i:])
	l.i += n
	l.emit(itok{k: 'p', s: src[start:l.i], pos: start})
}

// closer returns the closing delimiter of an opening one.
func closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return c
}

// delimited reads raw text up to the closing delimiter (nesting paired
// ones), the cursor after the opening one; it returns the raw body.
func (l *lexer) delimited(open, cl byte, esc bool) string {
	src, start := l.src, l.i
	depth := 0
	for l.i < len(src) {
		c := src[l.i]
		switch {
		case c == '\\' && esc:
			l.i += 2
			continue
		case c == cl && depth == 0:
			body := src[start:l.i]
			l.i++
			return body
		case c == cl:
			depth--
		case c == open && open != cl:
			depth++
		}
		l.i++
	}
	l.i = len(src)
	return src[start:]
}

// quoteOp reads Perl's q qq qw qx m qr s tr y with any delimiter.
func (l *lexer) quoteOp(op string, start int) bool {
	src := l.src
	j := l.i
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j >= len(src) {
		return false
	}
	d := src[j]
	if d == '=' && j+1 < len(src) && src[j+1] == '>' || d == ',' || d == ';' || d == ')' || nameByte(d) || d == ' ' || d == '\n' || d >= 0x80 {
		return false
	}
	if j > l.i && d == '#' {
		return false
	}
	l.i = j + 1
	cl := closer(d)
	body := l.delimited(d, cl, true)
	switch op {
	case "s", "tr", "y":
		if cl != d {
			for l.i < len(src) && (src[l.i] == ' ' || src[l.i] == '\n' || src[l.i] == '\t') {
				l.i++
			}
			if l.i < len(src) {
				d2 := src[l.i]
				l.i++
				l.delimited(d2, closer(d2), true)
			}
		} else {
			l.delimited(d, cl, true)
		}
		fallthrough
	case "m", "qr":
		for l.i < len(src) && nameByte(src[l.i]) {
			l.i++
		}
		l.emit(itok{k: 'n', s: "/re/", pos: start})
	case "q":
		l.emit(itok{k: 's', s: unescape(body, l.lang, true, d), pos: start})
	case "qq":
		l.emit(itok{k: 's', s: unescape(body, l.lang, false, d), dyn: interpolates(body, l.lang), pos: start})
	case "qx":
		raw := d == '\''
		l.emit(itok{k: 'x', s: unescape(body, l.lang, raw, d), dyn: !raw && interpolates(body, l.lang), pos: start})
	case "qw":
		l.emit(itok{k: 'w', list: strings.Fields(body), pos: start})
	}
	return true
}

// percent reads Ruby's %q() %Q() %w() %W() %i() %x() %() literals.
func (l *lexer) percent() bool {
	src, start := l.src, l.i
	j := l.i + 1
	kind := byte('Q')
	if j < len(src) && strings.IndexByte("qQwWiIxsr", src[j]) >= 0 {
		kind = src[j]
		j++
	}
	if j >= len(src) {
		return false
	}
	d := src[j]
	if nameByte(d) || d == ' ' || d == '\n' || d == '=' || d >= 0x80 {
		return false
	}
	l.i = j + 1
	body := l.delimited(d, closer(d), true)
	switch kind {
	case 'q':
		l.emit(itok{k: 's', s: unescape(body, l.lang, true, d), pos: start})
	case 'Q':
		l.emit(itok{k: 's', s: unescape(body, l.lang, false, d), dyn: interpolates(body, l.lang), pos: start})
	case 'w', 'i':
		l.emit(itok{k: 'w', list: strings.Fields(body), pos: start})
	case 'W', 'I':
		if interpolates(body, l.lang) {
			l.emit(itok{k: 's', dyn: true, pos: start})
		} else {
			l.emit(itok{k: 'w', list: strings.Fields(body), pos: start})
		}
	case 'x':
		l.emit(itok{k: 'x', s: unescape(body, l.lang, false, d), dyn: interpolates(body, l.lang), pos: start})
	case 's':
		l.emit(itok{k: 'y', s: body, pos: start})
	case 'r':
		l.emit(itok{k: 'n', s: "/re/", pos: start})
	}
	return true
}

// longBracket reads Lua's [[…]] and [==[…]==], the cursor on the first
// bracket.
func (l *lexer) longBracket() (string, bool) {
	src := l.src
	j := l.i + 1
	for j < len(src) && src[j] == '=' {
		j++
	}
	if j >= len(src) || src[j] != '[' {
		return "", false
	}
	level := j - l.i - 1
	end := "]" + strings.Repeat("=", level) + "]"
	body := src[j+1:]
	k := strings.Index(body, end)
	if k < 0 {
		l.i = len(src)
		return body, true
	}
	l.i = j + 1 + k + len(end)
	return strings.TrimPrefix(body[:k], "\n"), true
}

// quoted reads a string opened by q at the cursor; prefix holds Python's
// string prefix (r, b, f, rb…).
func (l *lexer) quoted(q byte, prefix string) {
	src, start := l.src, l.i
	triple := l.lang == langPython && strings.HasPrefix(src[l.i:], strings.Repeat(string(q), 3))
	n := 1
	if triple {
		n = 3
	}
	l.i += n
	bodyStart := l.i
	raw := strings.Contains(prefix, "r") || q == '\'' && (l.lang == langPerl || l.lang == langRuby || l.lang == langPHP)
	for l.i < len(src) {
		c := src[l.i]
		if c == '\\' {
			l.i += 2
			continue
		}
		if c == q && (!triple || strings.HasPrefix(src[l.i:], strings.Repeat(string(q), 3))) {
			break
		}
		if c == '\n' && !triple && (l.lang == langPython || l.lang == langJS) {
			break // an unterminated string ends at the line
		}
		if c == '{' && l.lang == langRuby && l.i > bodyStart && src[l.i-1] == '#' && q == '"' {
			l.i++
			l.delimited('{', '}', true)
			continue
		}
		l.i++
	}
	if l.i > len(src) {
		l.i = len(src)
	}
	body := src[bodyStart:l.i]
	if l.i < len(src) && src[l.i] == q {
		l.i += n
	}
	dyn := false
	switch {
	case l.lang == langPython:
		dyn = strings.Contains(prefix, "f") && fstringDyn(body)
	case q == '"':
		dyn = interpolates(body, l.lang)
	}
	l.emit(itok{k: 's', s: unescape(body, l.lang, raw, q), dyn: dyn, pos: start})
}

// backtick reads `…`: a template in JavaScript, a command elsewhere.
func (l *lexer) backtick() {
	src, start := l.src, l.i
	l.i++
	bodyStart := l.i
	dyn := false
	for l.i < len(src) {
		c := src[l.i]
		if c == '\\' {
			l.i += 2
			continue
		}
		if c == '`' {
			break
		}
		if c == '$' && l.peek(1) == '{' && l.lang == langJS {
			dyn = true
			l.i += 2
			l.delimited('{', '}', true)
			continue
		}
		l.i++
	}
	if l.i > len(src) {
		l.i = len(src)
	}
	body := src[bodyStart:l.i]
	if l.i < len(src) {
		l.i++
	}
	switch l.lang {
	case langJS:
		l.emit(itok{k: 's', s: unescape(body, l.lang, false, '`'), dyn: dyn, tpl: true, pos: start})
	case langPerl, langRuby, langPHP:
		l.emit(itok{k: 'x', s: unescape(body, l.lang, false, '`'), dyn: interpolates(body, l.lang), pos: start})
	default:
		l.emit(itok{k: 'p', s: "`", pos: start})
	}
}

// fstringDyn reports whether a Python f-string body holds a replacement
// field ({x}, not {{).
func fstringDyn(body string) bool {
	for k := 0; k < len(body); k++ {
		if body[k] == '{' {
			if k+1 < len(body) && body[k+1] == '{' {
				k++
				continue
			}
			return true
		}
	}
	return false
}

// interpolates reports whether a double-quoted body interpolates a
// value in lang.
func interpolates(body, lang string) bool {
	for k := 0; k < len(body); k++ {
		c := body[k]
		if c == '\\' {
			k++
			continue
		}
		var next byte
		if k+1 < len(body) {
			next = body[k+1]
		}
		switch lang {
		case langPerl:
			if (c == '$' || c == '@') && (identStart(next, lang) || next == '{' || next == ':' || next == '$' || next >= '0' && next <= '9' || c == '$' && strings.IndexByte("&`'+!@/\\,;.0_", next) >= 0 && next != 0) {
				return true
			}
		case langRuby:
			if c == '#' && (next == '{' || next == '$' || next == '@') {
				return true
			}
		case langPHP:
			if c == '$' && (identStart(next, lang) || next == '{') || c == '{' && next == '$' {
				return true
			}
		case langJS:
			if c == '$' && next == '{' {
				return true
			}
		}
	}
	return false
}

// unescape decodes the escapes of a string body. raw strings only
// unescape the quote and the backslash.
func unescape(body, lang string, raw bool, q byte) string {
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	var b strings.Builder
	for k := 0; k < len(body); k++ {
		c := body[k]
		if c != '\\' || k+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		k++
		e := body[k]
		if raw {
			if e == q || e == '\\' || e == closer(q) {
				b.WriteByte(e)
			} else {
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			continue
		}
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'e':
			b.WriteByte(27)
		case '\n':
			// A line continuation.
		case 'x':
			j := k + 1
			if j < len(body) && body[j] == '{' {
				if m := strings.IndexByte(body[j:], '}'); m > 0 {
					if v, err := strconv.ParseUint(body[j+1:j+m], 16, 32); err == nil {
						b.WriteRune(rune(v))
						k = j + m
						continue
					}
				}
			}
			for j < len(body) && j < k+3 && isHex(body[j]) {
				j++
			}
			if j == k+1 {
				b.WriteString(`\x`)
				continue
			}
			v, _ := strconv.ParseUint(body[k+1:j], 16, 8)
			b.WriteByte(byte(v))
			k = j - 1
		case 'u', 'U':
			j := k + 1
			if j < len(body) && body[j] == '{' {
				if m := strings.IndexByte(body[j:], '}'); m > 0 {
					if v, err := strconv.ParseUint(body[j+1:j+m], 16, 32); err == nil && v <= utf8.MaxRune {
						b.WriteRune(rune(v))
						k = j + m
						continue
					}
				}
			}
			w := 4
			if e == 'U' {
				w = 8
			}
			for j < len(body) && j < k+1+w && isHex(body[j]) {
				j++
			}
			if j == k+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			v, _ := strconv.ParseUint(body[k+1:j], 16, 32)
			if v > utf8.MaxRune {
				v = utf8.RuneError
			}
			b.WriteRune(rune(v))
			k = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := k
			for j < len(body) && j < k+3 && body[j] >= '0' && body[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(body[k:j], 8, 16)
			b.WriteByte(byte(v))
			k = j - 1
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}
