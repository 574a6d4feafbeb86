// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

// This file is a small YAML writer with the layout rules of the canonical
// form: keys in the order given, a mapping or list on one line in flow
// style when it is short (fits in 80 columns) and not marked block, plain
// strings when YAML reads them back as the same string, double quotes
// otherwise. It writes no YAML that the parser would not read back to the
// same values; the round-trip fuzz target holds it to that.

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

const lineWidth = 80

type value interface{ isValue() }

type scalarStyle uint8

const (
	plainIfSafe scalarStyle = iota
	quoted                  // always double-quoted
	raw                     // written as is: numbers, booleans, timestamps
)

type scalar struct {
	s     string
	style scalarStyle
}

type seq struct {
	items []value
	block bool
}

type mapping struct {
	keys  []string
	vals  []value
	block bool
}

func (scalar) isValue()   {}
func (*seq) isValue()     {}
func (*mapping) isValue() {}

func str(s string) scalar    { return scalar{s, plainIfSafe} }
func quote(s string) scalar  { return scalar{s, quoted} }
func rawVal(s string) scalar { return scalar{s, raw} }

func (m *mapping) add(key string, v value) { m.keys, m.vals = append(m.keys, key), append(m.vals, v) }

// strs is a flow-able list of strings in the given style.
func strs(list []string, style scalarStyle) *seq {
	s := &seq{}
	for _, x := range list {
		s.items = append(s.items, scalar{x, style})
	}
	return s
}

func (sc scalar) text(flow bool) string {
	switch {
	case sc.style == raw:
		return sc.s
	case sc.style == plainIfSafe && plainOK(sc.s, flow):
		return sc.s
	}
	return doubleQuote(sc.s)
}

// keyText writes a mapping key: plain only when it is a simple word, so
// no key ever needs the reader to tell a key from an indicator.
func keyText(k string) string {
	if k != "" && !yaml11Bool(k) && simpleWord(k) {
		return k
	}
	return doubleQuote(k)
}

// yaml11Bool reports whether YAML 1.1 readers take s for a boolean.
func yaml11Bool(s string) bool {
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off":
		return true
	}
	return false
}

// flowText renders v on one line, or reports false when v is marked block.
// An empty mapping or list is always flow: {} or [].
func flowText(v value) (string, bool) {
	switch v := v.(type) {
	case scalar:
		return v.text(true), true
	case *seq:
		if v.block && len(v.items) > 0 {
			return "", false
		}
		parts := make([]string, len(v.items))
		for i, it := range v.items {
			t, ok := flowText(it)
			if !ok {
				return "", false
			}
			parts[i] = t
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	case *mapping:
		if v.block && len(v.keys) > 0 {
			return "", false
		}
		parts := make([]string, len(v.keys))
		for i, k := range v.keys {
			t, ok := flowText(v.vals[i])
			if !ok {
				return "", false
			}
			parts[i] = keyText(k) + ": " + t
		}
		return "{" + strings.Join(parts, ", ") + "}", true
	}
	panic("internal error: unknown YAML value")
}

// writeMapping writes m's entries at indent. first, when not empty,
// replaces the indentation of the first line (it is "- " for a mapping
// that is a list item). top puts blank lines around multi-line sections.
func writeMapping(b *strings.Builder, m *mapping, indent int, first string, top bool) {
	prevMulti := false
	for i, k := range m.keys {
		var e strings.Builder
		lead := strings.Repeat(" ", indent)
		if i == 0 && first != "" {
			lead = first
		}
		writeEntry(&e, lead, keyText(k)+":", m.vals[i], indent)
		multi := strings.Count(e.String(), "\n") > 1
		if top && i > 0 && (multi || prevMulti) {
			b.WriteByte('\n')
		}
		prevMulti = multi
		b.WriteString(e.String())
	}
}

// writeEntry writes "lead+head value" for a key or list item, flow when it
// fits and is allowed, block below it otherwise.
func writeEntry(b *strings.Builder, lead, head string, v value, indent int) {
	if sc, ok := v.(scalar); ok {
		fmt.Fprintf(b, "%s%s %s\n", lead, head, sc.text(false))
		return
	}
	if t, ok := flowText(v); ok && len(lead)+len(head)+1+len(t) <= lineWidth {
		fmt.Fprintf(b, "%s%s %s\n", lead, head, t)
		return
	}
	switch v := v.(type) {
	case *mapping:
		if head == "-" {
			writeMapping(b, v, indent+2, lead+"- ", false)
			return
		}
		fmt.Fprintf(b, "%s%s\n", lead, head)
		writeMapping(b, v, indent+2, "", false)
	case *seq:
		if head == "-" {
			// A list directly in a list, such as a long argv in a
			// test action's commands.
			fmt.Fprintf(b, "%s-\n", lead)
		} else {
			fmt.Fprintf(b, "%s%s\n", lead, head)
		}
		for _, it := range v.items {
			writeEntry(b, strings.Repeat(" ", indent+2), "-", it, indent+2)
		}
	}
}

// plainOK reports whether s can be written as a plain YAML scalar that
// reads back as the string s. It allows a conservative set of characters
// (space and colon only outside flow collections, where they would need a
// careful reader) and then asks the YAML parser itself, so that "true",
// "1", "~", "null", "*x" and "!x" are quoted.
func plainOK(s string, flow bool) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		case strings.ContainsRune("-_./~@+*!=%^", r):
		case (r == ' ' || r == ':') && !flow:
		default:
			return false
		}
	}
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return false
	}
	// YAML 1.1 readers take these for booleans; quote them for their sake.
	if yaml11Bool(s) {
		return false
	}
	if simpleWord(s) {
		return true
	}
	if flow {
		return readsAs("["+s+"]", s, true) && readsAs("{k: "+s+"}", s, false)
	}
	return readsAs("- "+s, s, true) && readsAs("k: "+s, s, false)
}

// simpleWord reports whether s is plainly a string to a YAML 1.2 reader
// without asking one: it starts with an ASCII letter or _ (so it is no
// number, timestamp, alias, tag or indicator), continues with characters
// that are never special, and is not a word YAML resolves to a boolean or
// null.
func simpleWord(s string) bool {
	c := s[0]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_./@+", c) >= 0) {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "true", "false", "null":
		return false
	}
	return true
}

// readsAs reports whether the YAML doc is a one-entry list (inList) or
// mapping whose only value is the plain string want.
func readsAs(doc, want string, inList bool) bool {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		return false
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		return false
	}
	c := n.Content[0]
	var v *yaml.Node
	switch {
	case inList && c.Kind == yaml.SequenceNode && len(c.Content) == 1:
		v = c.Content[0]
	case !inList && c.Kind == yaml.MappingNode && len(c.Content) == 2:
		v = c.Content[1]
	default:
		return false
	}
	return v.Kind == yaml.ScalarNode && v.Style == 0 && v.Tag == "!!str" && v.Value == want
}

// doubleQuote writes s as a YAML double-quoted scalar. Escapes follow
// YAML, not Go: \xNN is the code point U+00NN, never a raw byte.
func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			switch {
			case r != utf8.RuneError && unicode.IsPrint(r):
				b.WriteRune(r)
			case r < 0x100:
				fmt.Fprintf(&b, `\x%02X`, r)
			case r < 0x10000:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
