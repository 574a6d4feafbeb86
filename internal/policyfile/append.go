// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

// This file adds rules to a policy file's text without rewriting it, as
// remembering an approval does. The rules:
//
//   - Every byte of the file is kept: its comments, its order, its
//     quoting. The new items are inserted as text, laid out as [Format]
//     lays out a rule, at the end of their list: rules: for guardrail
//     rules, network: rules: for network rules.
//   - A block list gets the new items after its last item (before the
//     comments that follow it at the column of its dashes or left of
//     them, which may be about what follows), at that column; a flow list ([] or [a, b]) gets them before
//     its closing bracket, in flow style; an empty key (rules: and
//     nothing) gets a block list below it; a missing section is added
//     at the end of the file, or at the end of the network mapping when
//     that is a block one; a null (rules: ~) is taken out and the key
//     treated as empty. Anything else (a flow mapping without the list,
//     a list that is not one) is an error: the layout is not guessed.
//   - The result must parse to the file plus the new rules, in order;
//     otherwise nothing is returned but an error, and nothing should be
//     written.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/policy"
)

// Append returns src, the policy file called name, with rules added at
// the end of its rules and net at the end of its network rules, every
// line of src kept (see the rules at the top of this file). It returns a
// [*ParseError] when src does not parse, and an error when the rules
// cannot be inserted into this file's layout.
func Append(name string, src []byte, rules []*policy.Rule, net []NetRule) ([]byte, error) {
	f, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	want := *f
	set := *f.Policy
	want.Policy = &set
	n := len(set.Rules)
	set.Rules = append(set.Rules[:n:n], rules...)
	want.Network.Rules = append(want.Network.Rules[:len(want.Network.Rules):len(want.Network.Rules)], net...)
	if len(net) > 0 {
		want.Network.Set = true
	}

	out := src
	if len(rules) > 0 {
		items := make([]*mapping, len(rules))
		for i, r := range rules {
			items[i] = formatRule(r, n+i)
		}
		if out, err = insertItems(out, []string{"rules"}, items); err != nil {
			return nil, fmt.Errorf("adding rules to %s: %v", name, err)
		}
	}
	if len(net) > 0 {
		items := make([]*mapping, len(net))
		for i := range net {
			items[i] = formatNetRule(&net[i])
		}
		if out, err = insertItems(out, []string{"network", "rules"}, items); err != nil {
			return nil, fmt.Errorf("adding network rules to %s: %v", name, err)
		}
	}
	if !samePolicy(&want, name, out) {
		return nil, fmt.Errorf("adding rules to %s: the result would not read back as the file plus the new rules; add them by hand", name)
	}
	return out, nil
}

// insertItems adds items at the end of the list at path (a key of the
// top-level mapping, or of a mapping below it), creating what is missing.
func insertItems(src []byte, path []string, items []*mapping) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode || doc.Content[0].Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("the file is not a block mapping of sections")
	}
	lines := strings.SplitAfter(string(src), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	m := doc.Content[0]
	var key *yaml.Node // the key whose value m is, nil at the top
	for depth, k := range path {
		kn, v := lookup(m, k)
		if kn == nil {
			// What is missing is added at the end of m: a key, and below
			// it any deeper keys, then the list.
			if m.Style&yaml.FlowStyle != 0 {
				return nil, fmt.Errorf("%s is missing from a flow mapping", k)
			}
			col := m.Column - 1
			at := endOfDocument(lines)
			if key != nil {
				at = blockEnd(lines, key.Line-1, key.Column-1)
			}
			var b strings.Builder
			for _, k := range path[depth:] {
				fmt.Fprintf(&b, "%s%s:\n", strings.Repeat(" ", col), k)
				col += 2
			}
			writeItems(&b, items, col)
			return insertLines(lines, at, b.String()), nil
		}
		lines = dropNull(lines, kn, v)
		if depth < len(path)-1 {
			if v.Kind != yaml.MappingNode {
				if isEmpty(v, kn, lines) {
					var b strings.Builder
					col := kn.Column - 1 + 2
					for _, k := range path[depth+1:] {
						fmt.Fprintf(&b, "%s%s:\n", strings.Repeat(" ", col), k)
						col += 2
					}
					writeItems(&b, items, col)
					return insertLines(lines, kn.Line, b.String()), nil
				}
				return nil, fmt.Errorf("%s is not a mapping", k)
			}
			m, key = v, kn
			continue
		}
		switch {
		case isEmpty(v, kn, lines):
			var b strings.Builder
			writeItems(&b, items, kn.Column-1+2)
			return insertLines(lines, kn.Line, b.String()), nil
		case v.Kind != yaml.SequenceNode:
			return nil, fmt.Errorf("%s is not a list", k)
		case v.Style&yaml.FlowStyle != 0:
			return insertFlow(lines, v, items)
		case len(v.Content) == 0:
			return nil, fmt.Errorf("%s is an empty block list", k)
		default:
			last := v.Content[len(v.Content)-1]
			var b strings.Builder
			writeItems(&b, items, v.Column-1)
			return insertLines(lines, blockEnd(lines, last.Line-1, v.Column-1), b.String()), nil
		}
	}
	return nil, fmt.Errorf("internal error: empty path")
}

// endOfDocument returns the index of the line that ends the document: a
// document end marker (...), or the end of the file.
func endOfDocument(lines []string) int {
	for i, l := range lines {
		if strings.TrimRight(l, " \t\r\n") == "..." {
			return i
		}
	}
	return len(lines)
}

// lookup returns the key node and value of key in the mapping m.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// dropNull takes out of lines a null written on its key's line (rules: ~,
// network: null), so that the key is empty and gets a block below it; v
// is then a null written as nothing.
func dropNull(lines []string, k, v *yaml.Node) []string {
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!null" || v.Value == "" || v.Line != k.Line || v.Line > len(lines) {
		return lines
	}
	l := lines[v.Line-1]
	i := offset([]string{l}, 1, v.Column)
	if i < 0 || !strings.HasPrefix(l[i:], v.Value) {
		return lines
	}
	out := slices.Clone(lines)
	before, after := strings.TrimRight(l[:i], " \t"), l[i+len(v.Value):]
	if strings.TrimSpace(after) == "" {
		after = strings.TrimLeft(after, " \t")
	}
	out[v.Line-1] = before + after
	v.Value = ""
	return out
}

// isEmpty reports whether v is a null written as nothing at all: the line
// of its key k ends with the colon, or with a comment after it.
func isEmpty(v, k *yaml.Node, lines []string) bool {
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!null" || v.Value != "" || k.Line > len(lines) {
		return false
	}
	l := strings.TrimRight(lines[k.Line-1], "\r\n")
	if i := commentAt(l); i >= 0 {
		l = l[:i]
	}
	return strings.HasSuffix(strings.TrimRight(l, " \t"), ":")
}

// blockEnd returns the index of the line after the block that starts on
// line start (0-based): the lines after it indented more than col, up to
// the first other line that is not blank, trailing blank lines left out.
func blockEnd(lines []string, start, col int) int {
	end := start + 1
	for i := start + 1; i < len(lines); i++ {
		t := strings.TrimRight(lines[i], "\r\n")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if len(t)-len(strings.TrimLeft(t, " ")) <= col {
			break
		}
		end = i + 1
	}
	return end
}

// insertLines returns lines joined with text inserted before line at.
// The line before it gets the newline it may lack.
func insertLines(lines []string, at int, text string) []byte {
	var b bytes.Buffer
	for i, l := range lines {
		if i == at {
			b.WriteString(text)
		}
		b.WriteString(l)
		if i == at-1 && !strings.HasSuffix(l, "\n") {
			b.WriteByte('\n')
		}
	}
	if at >= len(lines) {
		b.WriteString(text)
	}
	return b.Bytes()
}

// writeItems writes items as block list items whose dashes are at col.
func writeItems(b *strings.Builder, items []*mapping, col int) {
	for _, m := range items {
		writeEntry(b, strings.Repeat(" ", col), "-", m, col)
	}
}

// insertFlow adds items, in flow style, before the closing bracket of
// the flow list v.
func insertFlow(lines []string, v *yaml.Node, items []*mapping) ([]byte, error) {
	src := strings.Join(lines, "")
	start := offset(lines, v.Line, v.Column)
	if start < 0 || start >= len(src) || src[start] != '[' {
		return nil, fmt.Errorf("cannot find the flow list's bracket")
	}
	end := closing(src, start)
	if end < 0 {
		return nil, fmt.Errorf("cannot find the flow list's closing bracket")
	}
	parts := make([]string, len(items))
	for i, m := range items {
		c := *m
		c.block = false
		t, ok := flowText(&c)
		if !ok {
			return nil, fmt.Errorf("internal error: a rule has no flow form")
		}
		parts[i] = t
	}
	text := strings.Join(parts, ", ")
	// What comes before the bracket, comments left out: "[" or a
	// trailing comma need no comma of ours.
	var code []string
	for _, l := range strings.Split(src[start+1:end], "\n") {
		if i := commentAt(l); i >= 0 {
			l = l[:i]
		}
		code = append(code, l)
	}
	before := strings.TrimSpace(strings.Join(code, "\n"))
	if before != "" && !strings.HasSuffix(before, ",") {
		text = ", " + text
	}
	// A closing bracket on a line of its own: the items go on a line
	// above it, indented under the list's, each followed by a comma.
	if ls := strings.LastIndexByte(src[:end], '\n') + 1; ls > start && strings.TrimSpace(src[ls:end]) == "" {
		return []byte(src[:ls] + src[ls:end] + "  " + text + ",\n" + src[ls:]), nil
	}
	return []byte(src[:end] + text + src[end:]), nil
}

// offset returns the byte offset in the joined lines of a 1-based line
// and column, the column counted in characters, or -1.
func offset(lines []string, line, col int) int {
	if line < 1 || line > len(lines) {
		return -1
	}
	off := 0
	for _, l := range lines[:line-1] {
		off += len(l)
	}
	l := lines[line-1]
	i := 0
	for c := 1; c < col; c++ {
		if i >= len(l) {
			return -1
		}
		_, size := utf8.DecodeRuneInString(l[i:])
		i += size
	}
	return off + i
}

// closing returns the offset of the bracket that closes the flow
// collection opening at start, skipping quoted scalars and comments, or
// -1. Plain scalars in flow context hold no brackets.
func closing(src string, start int) int {
	depth := 0
	for i := start; i < len(src); i++ {
		switch c := src[i]; c {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		case '"', '\'':
			if i > start && strings.IndexByte(" \t\r\n[{,:", src[i-1]) < 0 {
				continue // an apostrophe in a plain scalar
			}
			for i++; i < len(src); i++ {
				if c == '"' && src[i] == '\\' {
					i++
					continue
				}
				if src[i] == c {
					if c == '\'' && i+1 < len(src) && src[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case '#':
			if i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n') {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		}
	}
	return -1
}
