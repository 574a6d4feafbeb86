// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file turns a syntax.Word into the fields bash would pass, without
// running anything. The rules:
//
//   - Quote removal and escapes follow bash: a backslash outside quotes
//     escapes any byte, inside double quotes only $ ` " \ and newline;
//     $'…' is decoded as ANSI-C text.
//   - Static expansions are ~ and ~/… (the Home option), $HOME and ${HOME},
//     ~+ (the working directory, when it is known), brace expansion, and
//     the positional parameters when they are known (inside a function
//     call or sh -c with arguments).
//   - Every other expansion ($VAR, $(…), $((…)), globs) makes the field
//     dynamic: its value is unknown and the source text stands in for it.
//     Expanding a variable whose name looks secret ($GITHUB_TOKEN) is
//     secretAccess (secrets.go).
//     Command and process substitutions inside the word are walked as code
//     first, because bash runs them whatever the word becomes.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// maxFields bounds brace expansion; a word that would expand to more
// fields is dynamic.
const maxFields = 256

// field is one word after expansion.
type field struct {
	s string
	// dyn: the value is not known statically; s is the source text.
	dyn bool
	// glob: the field holds unquoted pattern characters that bash would
	// match against the filesystem.
	glob bool
	// sub: what the substitutions inside the word ran.
	sub subInfo
	// procIn: the whole word is a <(…) process substitution.
	procIn bool
	// proc: the whole word is a process substitution, <(…) or >(…).
	proc bool
	// under, when set, is a directory the unknown value lies under
	// (the {} of find -exec).
	under string
}

// subInfo says what the code inside command or process substitutions did.
type subInfo struct {
	fetch, decode bool
}

func (s subInfo) or(o subInfo) subInfo { return subInfo{s.fetch || o.fetch, s.decode || o.decode} }

// words expands a list of words into fields.
func (a *analyzer) words(e *env, ws []*syntax.Word) []field {
	out := make([]field, 0, len(ws))
	for _, w := range ws {
		fs := a.word(e, w)
		if len(fs) == 1 && fs[0].s == "" && !fs[0].dyn && !quoted(w) {
			// An unquoted expansion to nothing is removed: $1 rm x
			// with $1 empty runs rm.
			continue
		}
		out = append(out, fs...)
	}
	return out
}

// quoted reports whether a word holds quotes, which keep an empty
// expansion as an empty field.
func quoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// word expands one word.
func (a *analyzer) word(e *env, w *syntax.Word) []field {
	if w == nil || len(w.Parts) == 0 {
		return []field{{}}
	}
	src := e.text(w)
	if a.spent.fields >= maxExpanded {
		// Past the bound nothing more is expanded (nor walked): the
		// word is unknown, and the command unresolved.
		a.unresolved(fmt.Sprintf("the command's words expand to more than %d fields to analyse", maxExpanded))
		return []field{{s: src, dyn: true}}
	}
	sub := a.substs(e, w)
	// A word that is only a process substitution: bash passes a
	// /dev/fd path whose content is the substitution's output.
	if len(w.Parts) == 1 {
		if ps, ok := w.Parts[0].(*syntax.ProcSubst); ok {
			return []field{{s: src, dyn: true, sub: sub, procIn: ps.Op == syntax.CmdIn, proc: true}}
		}
	}
	// "$@" and "$*" with known parameters.
	if fs, ok := e.positionalWord(w); ok {
		return fs
	}
	// SplitBraces changes the word it is given: split a copy, so that
	// the tree keeps positions that e.text can use.
	if mayBrace(w) {
		w = &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
		syntax.SplitBraces(w)
	}
	alts := []piece{{}}
	for i, p := range w.Parts {
		alts = a.part(e, p, i == 0, alts, false)
		if len(alts) == 0 || len(alts) > maxFields {
			return []field{{s: src, dyn: true, sub: sub}}
		}
	}
	a.spent.fields += len(alts)
	out := make([]field, 0, len(alts))
	for _, p := range alts {
		if p.dyn {
			return []field{{s: src, dyn: true, sub: sub, glob: p.glob}}
		}
		out = append(out, field{s: p.s, glob: p.glob, sub: sub})
	}
	return out
}

// piece is one alternative of a word being built.
type piece struct {
	s    string
	dyn  bool
	glob bool
}

func appendAll(alts []piece, s string) []piece {
	for i := range alts {
		alts[i].s += s
	}
	return alts
}

func markDyn(alts []piece) []piece {
	for i := range alts {
		alts[i].dyn = true
	}
	return alts
}

// part appends one word part to every alternative.
func (a *analyzer) part(e *env, p syntax.WordPart, first bool, alts []piece, quoted bool) []piece {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if quoted {
			return appendAll(alts, unescapeDbl(v))
		}
		if first && strings.HasPrefix(v, "~") {
			name, rest, _ := strings.Cut(v, "/")
			var home string
			switch name {
			case "~":
				home = a.home()
			case "~+":
				if len(e.cwd) == 1 && !a.pwdDyn {
					home = e.cwd[0]
				}
			}
			if home == "" {
				return markDyn(alts)
			}
			if strings.Contains(v, "/") {
				v = home + "/" + rest
			} else {
				v = home
			}
		}
		s, glob := unescapeLit(v)
		alts = appendAll(alts, s)
		if glob {
			for i := range alts {
				alts[i].glob = true
			}
		}
		return alts
	case *syntax.SglQuoted:
		if p.Dollar {
			return appendAll(alts, ansiC(p.Value))
		}
		return appendAll(alts, p.Value)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			alts = a.part(e, q, false, alts, true)
		}
		return alts
	case *syntax.ParamExp:
		a.secretParam(p)
		if v, ok := e.param(a, p); ok {
			return appendAll(alts, v)
		}
		return markDyn(alts)
	case *syntax.BraceExp:
		elems := braceElems(p)
		if elems == nil {
			return markDyn(alts)
		}
		var out []piece
		for _, el := range elems {
			for i := range alts {
				c := alts[i]
				cs := []piece{c}
				switch el := el.(type) {
				case string:
					cs = appendAll(cs, el)
				case *syntax.Word:
					for _, q := range el.Parts {
						cs = a.part(e, q, false, cs, false)
					}
				}
				out = append(out, cs...)
				if len(out) > maxFields {
					return nil
				}
			}
		}
		return out
	default:
		// $(…), <(…), $((…)), extended globs: unknown at analysis time.
		return markDyn(alts)
	}
}

// braceElems lists the alternatives of a brace expansion: words for a
// list, strings for a small sequence; nil if the sequence is too large or
// not understood.
func braceElems(b *syntax.BraceExp) []any {
	if !b.Sequence {
		out := make([]any, len(b.Elems))
		for i, w := range b.Elems {
			out[i] = w
		}
		return out
	}
	var lits []string
	for _, w := range b.Elems {
		l := w.Lit()
		if l == "" {
			return nil
		}
		lits = append(lits, l)
	}
	if len(lits) < 2 {
		return nil
	}
	step := 1
	if len(lits) > 2 {
		n, err := strconv.Atoi(lits[2])
		if err != nil || n == 0 {
			return nil
		}
		step = max(n, -n)
	}
	lo, err1 := strconv.Atoi(lits[0])
	hi, err2 := strconv.Atoi(lits[1])
	var out []any
	if err1 == nil && err2 == nil {
		if (hi-lo)/step > maxFields || (lo-hi)/step > maxFields {
			return nil
		}
		if len(lits[0]) > 1 && lits[0][0] == '0' || len(lits[1]) > 1 && lits[1][0] == '0' {
			return nil // zero padding: not worth modelling
		}
		for i := lo; ; {
			out = append(out, strconv.Itoa(i))
			if i == hi {
				break
			}
			if lo < hi {
				i += step
				if i > hi {
					break
				}
			} else {
				i -= step
				if i < hi {
					break
				}
			}
		}
		return out
	}
	if len(lits[0]) == 1 && len(lits[1]) == 1 && isAlpha(lits[0][0]) && isAlpha(lits[1][0]) {
		c, d := int(lits[0][0]), int(lits[1][0])
		for i := c; ; {
			out = append(out, string(rune(i)))
			if i == d {
				break
			}
			if c < d {
				i += step
				if i > d {
					break
				}
			} else {
				i -= step
				if i < d {
					break
				}
			}
		}
		return out
	}
	return nil
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// unescapeLit removes backslash escapes from an unquoted literal and
// reports whether unescaped glob characters remain.
func unescapeLit(v string) (string, bool) {
	if !strings.ContainsAny(v, "\\*?[") {
		return v, false
	}
	var b strings.Builder
	glob := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\\':
			if i+1 < len(v) {
				i++
				if v[i] != '\n' {
					b.WriteByte(v[i])
				}
			}
			continue
		case '*', '?':
			glob = true
		case '[':
			if strings.IndexByte(v[i:], ']') > 0 {
				glob = true
			}
		}
		b.WriteByte(c)
	}
	return b.String(), glob
}

// unescapeDbl removes the escapes bash honours inside double quotes.
func unescapeDbl(v string) string {
	if !strings.Contains(v, "\\") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(v[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// ansiC decodes the body of $'…' as bash does.
func ansiC(v string) string {
	if !strings.Contains(v, "\\") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = v[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'c':
			if i+1 < len(v) {
				i++
				b.WriteByte(v[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(v) && j-i-1 < n && isHex(v[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			x, _ := strconv.ParseUint(v[i+1:j], 16, 32)
			if c == 'x' {
				b.WriteByte(byte(x))
			} else if utf8.ValidRune(rune(x)) {
				b.WriteRune(rune(x))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(v) && j-i < 3 && v[j] >= '0' && v[j] <= '7' {
				j++
			}
			x, _ := strconv.ParseUint(v[i:j], 8, 32)
			b.WriteByte(byte(x))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// substs walks, as code, every command and process substitution in w
// (including those nested in ${x:-…} defaults and arithmetic), and
// reports what they ran.
func (a *analyzer) substs(e *env, n syntax.Node) subInfo {
	var info subInfo
	if w, ok := n.(*syntax.Word); ok && plainWord(w) {
		return info // the common case: nothing to run inside
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		var stmts []*syntax.Stmt
		switch n := n.(type) {
		case *syntax.CmdSubst:
			stmts = n.Stmts
		case *syntax.ProcSubst:
			stmts = n.Stmts
		default:
			return true
		}
		info = info.or(a.sub(e, stmts))
		return false
	})
	return info
}

// mayBrace reports whether a word has a literal "{", the only way it can
// hold a brace expansion; most words do not, and skip the copy.
func mayBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			return true
		}
	}
	return false
}

// plainWord reports whether a word is only literal text and single
// quotes, so it can hold no command or process substitution.
func plainWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			return false
		}
	}
	return true
}

// sub walks statements that run in a subshell and reports what they ran.
func (a *analyzer) sub(e *env, stmts []*syntax.Stmt) subInfo {
	if e.nest >= maxNest {
		a.unresolved(fmt.Sprintf("the command nests substitutions and subshells more than %d deep", maxNest))
		return subInfo{}
	}
	start := len(a.meta)
	c := e.fork()
	c.nest++
	c.stdin = stdinInfo{}
	a.scoped(func() { a.stmts(c, stmts) })
	return a.since(start)
}

// since reports what the invocations recorded from index start did.
func (a *analyzer) since(start int) subInfo {
	var info subInfo
	for _, m := range a.meta[start:] {
		info.fetch = info.fetch || m.fetch
		info.decode = info.decode || m.decode
	}
	return info
}
