// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

// The glob dialects OpenShell's runtime uses (research note §5), as Warden
// implements them. OpenShell has two, and they differ on purpose here as
// they do there:
//
// The segment dialect ([segGlob]) is what OpenShell's policy program
// matches hosts, binary paths, REST rule paths and query values with: a
// globset pattern with literal separators, after the delimiter has been
// turned into a separator of its own. With delimiter d (/ for paths, . for
// hosts and query values):
//
//   - the pattern and the value are split at d into components;
//   - * matches any run of characters within one component, ? one
//     character, [abc], [a-z], [!a] and [^a] one character of (not of) a
//     class, and \x the character x; none of them ever matches d;
//   - ** as a whole component matches whole components: ** alone matches
//     anything at all; a leading **d matches zero or more components
//     when d is / and one or more otherwise (with . the delimiter is a
//     component of its own, so "**.x.com" needs a label before x.com: the
//     apex is excluded); a middle d**d likewise zero or more when d is /,
//     one or more otherwise; a trailing d** one or more, of any content
//     ("x/**" matches "x/" and "x/a/b", not "x");
//   - ** inside a component is *, so "foo**" is "foo*";
//   - {a,b} alternates, expanded before anything else; alternates do not
//     nest;
//   - when d is not /, a / in the pattern or the value is an ordinary
//     character, so * crosses it.
//
// The endpoint-path dialect ([pathGlob]) is what selects which endpoint of
// a host:port serves a request (an endpoint's path:): * and ** match any
// run of characters, / included, ? any one character, classes as above,
// and a pattern ending in /** matches the path without that suffix too
// ("/x/**" matches "/x"). Its specificity, used to pick the most specific
// endpoint, is the number of its characters that are not *.

import (
	"errors"
	"fmt"
	"strings"
)

// maxAlternatives bounds the patterns one {…} expansion may produce: a
// policy is untrusted input, and a few braces could otherwise ask for
// millions of patterns.
const maxAlternatives = 64

// segGlob is a compiled segment-dialect pattern: one or more alternatives.
type segGlob struct {
	delim byte
	alts  [][]component
	// all is set when some alternative is ** alone.
	all bool
}

// component is one component of a pattern: ** (rec) or a sequence of
// tokens.
type component struct {
	rec  bool
	toks []token
}

type tokKind uint8

const (
	tLit tokKind = iota
	tStar
	tAny
	tClass
)

type token struct {
	kind   tokKind
	lit    byte
	ranges []byteRange // tClass
	neg    bool        // tClass
}

type byteRange struct{ lo, hi byte }

// hasMeta reports whether s holds a glob metacharacter.
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[{\\") }

// compileSeg compiles pattern in the segment dialect with delimiter d.
func compileSeg(pattern string, d byte) (*segGlob, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	g := &segGlob{delim: d}
	for _, a := range alts {
		if a == "**" {
			g.all = true
			continue
		}
		var comps []component
		for _, part := range splitUnescaped(a, d) {
			if part == "**" {
				comps = append(comps, component{rec: true})
				continue
			}
			toks, err := tokens(part)
			if err != nil {
				return nil, err
			}
			comps = append(comps, component{toks: toks})
		}
		g.alts = append(g.alts, comps)
	}
	return g, nil
}

// splitUnescaped splits s at d, except where d is escaped.
func splitUnescaped(s string, d byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case d:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// expandBraces expands {a,b} alternation. Nested or unclosed braces are
// errors.
func expandBraces(p string) ([]string, error) {
	open := -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			// A brace inside a class is literal: skip the class.
			if j := classEnd(p, i); j > 0 {
				i = j
			}
		case '{':
			if open >= 0 {
				return nil, errors.New("nested { in a glob")
			}
			open = i
		case '}':
			if open < 0 {
				continue
			}
			var out []string
			for _, alt := range splitUnescaped(p[open+1:i], ',') {
				rest, err := expandBraces(alt + p[i+1:])
				if err != nil {
					return nil, err
				}
				for _, r := range rest {
					out = append(out, p[:open]+r)
					if len(out) > maxAlternatives {
						return nil, fmt.Errorf("glob expands to more than %d alternatives", maxAlternatives)
					}
				}
			}
			return out, nil
		}
	}
	if open >= 0 {
		return nil, errors.New("unclosed { in a glob")
	}
	return []string{p}, nil
}

// classEnd returns the index of the ] closing the class opened at p[i],
// or -1.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		if p[j] == ']' {
			return j
		}
	}
	return -1
}

// tokens reads one component (or a whole endpoint-path pattern).
func tokens(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '*':
			if len(out) == 0 || out[len(out)-1].kind != tStar {
				out = append(out, token{kind: tStar})
			}
		case '?':
			out = append(out, token{kind: tAny})
		case '\\':
			if i+1 >= len(s) {
				return nil, errors.New("glob ends with a lone \\")
			}
			i++
			out = append(out, token{kind: tLit, lit: s[i]})
		case '[':
			end := classEnd(s, i)
			if end < 0 {
				return nil, errors.New("unclosed [ in a glob")
			}
			t := token{kind: tClass}
			body := s[i+1 : end]
			if body != "" && (body[0] == '!' || body[0] == '^') {
				t.neg, body = true, body[1:]
			}
			for k := 0; k < len(body); k++ {
				lo := body[k]
				if k+2 < len(body) && body[k+1] == '-' {
					hi := body[k+2]
					if hi < lo {
						return nil, fmt.Errorf("bad range %c-%c in a glob", lo, hi)
					}
					t.ranges = append(t.ranges, byteRange{lo, hi})
					k += 2
					continue
				}
				t.ranges = append(t.ranges, byteRange{lo, lo})
			}
			out = append(out, t)
			i = end
		default:
			out = append(out, token{kind: tLit, lit: c})
		}
	}
	return out, nil
}

func (t *token) matches(c byte) bool {
	switch t.kind {
	case tLit:
		return t.lit == c
	case tAny:
		return true
	case tClass:
		in := false
		for _, r := range t.ranges {
			if c >= r.lo && c <= r.hi {
				in = true
				break
			}
		}
		return in != t.neg
	}
	return false
}

// matchToks matches s against toks, where a star matches any run of
// bytes and no byte is special (the caller has split at the delimiter,
// or wants stars to cross it). It backtracks only to the last star, so
// it is O(len(toks)·len(s)).
func matchToks(toks []token, s string) bool {
	ti, si := 0, 0
	lastStar, lastS := -1, 0
	for si < len(s) {
		switch {
		case ti < len(toks) && toks[ti].kind == tStar:
			lastStar, lastS = ti, si
			ti++
		case ti < len(toks) && toks[ti].matches(s[si]):
			ti++
			si++
		case lastStar >= 0:
			lastS++
			si, ti = lastS, lastStar+1
		default:
			return false
		}
	}
	for ti < len(toks) && toks[ti].kind == tStar {
		ti++
	}
	return ti == len(toks)
}

// match reports whether value matches g.
func (g *segGlob) match(value string) bool {
	if g.all {
		return true
	}
	var parts []string
	for _, comps := range g.alts {
		if !hasRec(comps) {
			// Without **, components pair up one to one: no need to
			// split the value or to search.
			if matchFlat(comps, value, g.delim) {
				return true
			}
			continue
		}
		if parts == nil {
			parts = strings.Split(value, string(g.delim))
		}
		if matchComps(comps, parts, g.delim == '/') {
			return true
		}
	}
	return false
}

func hasRec(comps []component) bool {
	for _, c := range comps {
		if c.rec {
			return true
		}
	}
	return false
}

// matchFlat matches a pattern without ** component by component.
func matchFlat(comps []component, value string, d byte) bool {
	for i, c := range comps {
		part := value
		j := strings.IndexByte(value, d)
		if j >= 0 {
			part, value = value[:j], value[j+1:]
		}
		if !matchToks(c.toks, part) {
			return false
		}
		if last := i == len(comps)-1; last != (j < 0) {
			return false
		}
	}
	return true
}

// matchComps matches value components against pattern components with
// dynamic programming over (pattern index, value index), so that several
// ** cannot make it exponential.
func matchComps(comps []component, parts []string, slash bool) bool {
	np, nv := len(comps), len(parts)
	// ok[i][j]: comps[i:] matches parts[j:].
	ok := make([]bool, (np+1)*(nv+1))
	at := func(i, j int) *bool { return &ok[i*(nv+1)+j] }
	*at(np, nv) = true
	for i := np - 1; i >= 0; i-- {
		c := comps[i]
		for j := nv; j >= 0; j-- {
			if !c.rec {
				*at(i, j) = j < nv && matchToks(c.toks, parts[j]) && *at(i+1, j+1)
				continue
			}
			// ** takes k whole components, k at least min.
			min := 1
			if slash && i < np-1 {
				min = 0
			}
			for k := min; j+k <= nv; k++ {
				if *at(i+1, j+k) {
					*at(i, j) = true
					break
				}
			}
		}
	}
	return *at(0, 0)
}

// pathGlob is a compiled endpoint-path pattern.
type pathGlob struct {
	alts [][]token
	// spec is the pattern's specificity: its characters that are not *.
	spec int
}

func compilePath(pattern string) (*pathGlob, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	g := &pathGlob{spec: len(pattern) - strings.Count(pattern, "*")}
	for _, a := range alts {
		toks, err := tokens(a)
		if err != nil {
			return nil, err
		}
		g.alts = append(g.alts, toks)
		if base, ok := strings.CutSuffix(a, "/**"); ok {
			if toks, err = tokens(base); err == nil {
				g.alts = append(g.alts, toks)
			}
		}
	}
	return g, nil
}

func (g *pathGlob) match(p string) bool {
	for _, toks := range g.alts {
		if matchToks(toks, p) {
			return true
		}
	}
	return false
}
