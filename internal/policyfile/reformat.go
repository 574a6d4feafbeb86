// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

// This file formats a policy file's text as `warden policy fmt` writes it
// back. The rules:
//
//   - The user's words stay: every comment, the order of sections, keys
//     and items, flow or block style, and each scalar's quoting. Only
//     layout is normalised: two-space indentation, one space between
//     things on a line, no trailing spaces, a blank line around a
//     top-level section of more than one line (as [Format] puts them),
//     a newline at the end.
//   - The result must parse to the same policy (compared through
//     [Format], which is lossless) and carry the same comments in the
//     same order; otherwise the text is given back unchanged with
//     [ErrNotReformatted]. A formatter that drops a comment or changes a
//     rule is worse than none: the YAML library's comment model is
//     lossy (it has no place for a comment inside a flow collection
//     that spans lines, nor for one a blank line separates from what
//     follows it), so each result is checked, never trusted.

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Reformat returns src, a policy file called name, with its layout
// normalised and its comments and order kept (see the rules at the top
// of this file). It returns a [*ParseError] when src does not parse, and
// src itself with [ErrNotReformatted] when the layout cannot be
// normalised safely.
func Reformat(name string, src []byte) ([]byte, error) {
	f, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	want := comments(src)
	// The YAML library drops a comment that a blank line separates from
	// what follows it, and writes no blank lines anyway: the text without
	// its blank lines is tried first, the text as it is if that fails
	// (blank lines in a block scalar are part of its value). Then two
	// touches that the checks may undo: the stray comma the library
	// leaves in a flow collection with a comment below it (where
	// moveFlowFeet could not move the comment) taken out, and the blank
	// lines around sections put in. The first candidate that passes wins.
	for _, in := range [][]byte{withoutBlankLines(src), src} {
		out, err := encode(in)
		if err != nil {
			continue
		}
		fixed := strayComma().ReplaceAll(out, []byte("$1$2"))
		for _, o := range [][]byte{spaceSections(fixed), fixed, out} {
			if samePolicy(f, name, o) && slices.Equal(want, comments(o)) {
				return o, nil
			}
		}
	}
	return src, ErrNotReformatted
}

// withoutBlankLines returns src without the blank lines inside its
// sections: those followed by an indented line. A blank line before a
// top-level key or comment is kept; it is what separates the file's
// opening comment from the first section's.
func withoutBlankLines(src []byte) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	var b bytes.Buffer
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) && (lines[j][0] == ' ' || lines[j][0] == '\t') {
				continue
			}
		}
		b.WriteString(l)
	}
	return b.Bytes()
}

// spaceSections puts a blank line between two top-level entries of text
// when either takes more than one line. An entry starts with the
// comments right above its key and ends where the next one starts.
func spaceSections(text []byte) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	var keys, starts []int
	for i, l := range lines {
		if l == "" || l[0] == ' ' || l[0] == '#' || l[0] == '\n' {
			continue
		}
		s := i
		for s > 0 && strings.HasPrefix(lines[s-1], "#") {
			s--
		}
		keys, starts = append(keys, i), append(starts, s)
	}
	multi := func(k int) bool {
		end := len(lines)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		for end > keys[k]+1 && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		return end-keys[k] > 1
	}
	var b strings.Builder
	k := 0
	for i, l := range lines {
		if k < len(starts) && i == starts[k] {
			if k > 0 && (multi(k) || multi(k-1)) && strings.TrimSpace(lines[i-1]) != "" {
				b.WriteByte('\n')
			}
			k++
		}
		b.WriteString(l)
	}
	return []byte(b.String())
}

var strayComma = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m),([}\]])( #.*)?$`) })

// encode lays out src's YAML node tree with two-space indentation. The
// YAML library may panic on odd input; that is an error here.
func encode(src []byte) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("encoding: %v", p)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	moveFlowFeet(&doc)
	var b bytes.Buffer
	e := yaml.NewEncoder(&b)
	e.SetIndent(2)
	if err := e.Encode(&doc); err != nil {
		return nil, err
	}
	if err := e.Close(); err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return []byte(strings.Join(lines, "\n") + "\n"), nil
}

// moveFlowFeet gives a comment below a flow collection to what follows
// it: the YAML library writes a flow collection with a foot comment
// with a stray comma before its closing bracket.
func moveFlowFeet(n *yaml.Node) {
	for i, c := range n.Content {
		if c.Style&yaml.FlowStyle != 0 && c.FootComment != "" && n.Style&yaml.FlowStyle == 0 && i+1 < len(n.Content) {
			next := n.Content[i+1]
			next.HeadComment = joinComments(c.FootComment, next.HeadComment)
			c.FootComment = ""
		}
		moveFlowFeet(c)
	}
}

func joinComments(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}

// samePolicy reports whether text, parsed as the file name, is f but for
// positions. Format is lossless, so equal Format outputs mean equal files.
func samePolicy(f *File, name string, text []byte) bool {
	g, err := Parse(name, text)
	return err == nil && bytes.Equal(Format(f), Format(g))
}

// comments returns the text of every comment in src, in order. It reads
// lines, not YAML: a # starts a comment at the start of a line or after
// white space, outside a quoted scalar that starts on that line. It may
// take a # in a block scalar or a multi-line quoted scalar for a comment;
// that is safe, as such text is the same in both files compared or the
// files differ, and a difference only keeps the file as written. A quote
// left open at the end of a line (an apostrophe in a plain scalar, or a
// quoted scalar going on) may hide a comment, so the rest of that line
// counts as one.
func comments(src []byte) []string {
	var out []string
	for _, line := range strings.Split(string(src), "\n") {
		switch i, open := scanLine(line); {
		case i >= 0:
			out = append(out, strings.TrimSpace(line[i:]))
		case open >= 0:
			out = append(out, strings.Join(strings.Fields(line[open:]), " "))
		}
	}
	return out
}

// commentAt returns the index of the # that starts a comment on line, as
// [comments] reads lines, or -1.
func commentAt(line string) int {
	i, _ := scanLine(line)
	return i
}

// scanLine returns the index of the # that starts a comment on line, or
// -1, and the index of a quote left open at its end, or -1.
func scanLine(line string) (comment, open int) {
	var quote byte
	open = -1
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote, open = 0, -1
			}
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return i, -1
		case (c == '"' || c == '\'') && (i == 0 || strings.IndexByte(" \t[{,:-?", line[i-1]) >= 0):
			quote, open = c, i
		}
	}
	return -1, open
}
