// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

// This file holds the typed accessors the section parsers use on the
// yaml.Node tree. The rules they enforce:
//
//   - every error is a *ParseError at the node that caused it;
//   - a mapping's keys are plain strings, each known and given once;
//   - a scalar's YAML type must be the one the field wants, except that a
//     string field takes any non-null scalar as its text (id: 123 is "123");
//   - null is accepted only where a section or list may be empty.

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/policy"
)

// decoder walks one document, naming the file in every error.
type decoder struct {
	name string
}

func (d *decoder) errf(n *yaml.Node, format string, args ...any) error {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line = n.Line
		if n.Column > 0 {
			col = n.Column
		}
	}
	return &ParseError{File: d.name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) pos(n *yaml.Node) policy.Pos {
	return policy.Pos{File: d.name, Line: n.Line, Col: n.Column}
}

// describe names a node's YAML type for "must be X, not Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str":
			return "a string"
		case "!!int":
			return "an integer"
		case "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		case "!!null":
			return "null"
		case "!!timestamp":
			return "a timestamp"
		}
		return "a scalar"
	}
	return "an alias"
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// field is one key/value pair of a mapping.
type field struct {
	key  string
	k, v *yaml.Node
}

// fields checks that n is a mapping whose keys are all in known and given
// once, and returns its pairs in order. what names the mapping in messages
// ("rule", "sandbox"); a null n is an empty mapping when nullOK.
func (d *decoder) fields(n *yaml.Node, what string, known []string, nullOK bool) ([]field, error) {
	if nullOK && isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errf(n, "%s must be a mapping, not %s", what, describe(n))
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	fs := make([]field, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, d.errf(k, "%s keys must be strings, not %s", what, describe(k))
		}
		if prev, ok := seen[k.Value]; ok {
			return nil, d.errf(k, "duplicate key %q in %s (first at %d:%d)", k.Value, what, prev.Line, prev.Column)
		}
		seen[k.Value] = k
		if known != nil && !contains(known, k.Value) {
			msg := fmt.Sprintf("unknown key %q in %s", k.Value, what)
			if s := suggest(k.Value, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return nil, d.errf(k, "%s", msg)
		}
		fs = append(fs, field{k.Value, k, v})
	}
	return fs, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// str returns a string field's text. Any non-null scalar is accepted.
func (d *decoder) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return "", d.errf(n, "%s must be a string, not %s", what, describe(n))
	}
	return n.Value, nil
}

// nonEmpty is str for fields that may not be empty.
func (d *decoder) nonEmpty(n *yaml.Node, what string) (string, error) {
	s, err := d.str(n, what)
	if err == nil && strings.TrimSpace(s) == "" {
		err = d.errf(n, "%s must not be empty", what)
	}
	return s, err
}

// strList returns a list of strings. A null or empty list gives nil when
// emptyOK; otherwise it is an error, because an empty constraint list would
// widen what the owner restricts. Items may not be empty.
func (d *decoder) strList(n *yaml.Node, what string, emptyOK bool) ([]string, error) {
	if isNull(n) && emptyOK {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errf(n, "%s must be a list of strings, not %s", what, describe(n))
	}
	if len(n.Content) == 0 {
		if emptyOK {
			return nil, nil
		}
		return nil, d.errf(n, "%s must not be an empty list; leave it out instead", what)
	}
	out := make([]string, 0, len(n.Content))
	for _, it := range n.Content {
		if it.Kind != yaml.ScalarNode || isNull(it) {
			return nil, d.errf(it, "%s items must be strings, not %s", what, describe(it))
		}
		if it.Value == "" {
			return nil, d.errf(it, "%s items must not be empty", what)
		}
		out = append(out, it.Value)
	}
	return out, nil
}

// allDigits matches an integer too large for YAML to read as one.
var allDigits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9_]+$`) })

// integer returns an integer field within [lo, hi].
func (d *decoder) integer(n *yaml.Node, what string, lo, hi int64) (int64, error) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" && allDigits().MatchString(n.Value) {
		return 0, d.errf(n, "%s: integer %s out of range", what, n.Value)
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		return 0, d.errf(n, "%s must be an integer, not %s", what, describe(n))
	}
	var v int64
	if err := n.Decode(&v); err != nil {
		return 0, d.errf(n, "%s: integer %s out of range", what, n.Value)
	}
	if v < lo || v > hi {
		switch {
		case lo == 0 && v < 0:
			return 0, d.errf(n, "%s must not be negative, got %d", what, v)
		case hi == math.MaxInt64:
			return 0, d.errf(n, "%s must be at least %d, got %d", what, lo, v)
		}
		return 0, d.errf(n, "%s must be between %d and %d, got %d", what, lo, hi, v)
	}
	return v, nil
}

func (d *decoder) boolean(n *yaml.Node, what string) (bool, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, d.errf(n, "%s must be true or false, not %s", what, describe(n))
	}
	var v bool
	if err := n.Decode(&v); err != nil {
		return false, d.errf(n, "%s must be true or false", what)
	}
	return v, nil
}

// timestamp returns an RFC 3339 time, such as 2026-12-31T00:00:00Z.
func (d *decoder) timestamp(n *yaml.Node, what string) (time.Time, error) {
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!timestamp" && n.ShortTag() != "!!str") {
		return time.Time{}, d.errf(n, "%s must be an RFC 3339 time such as 2026-12-31T00:00:00Z, not %s", what, describe(n))
	}
	t, err := time.Parse(time.RFC3339, n.Value)
	if err != nil {
		return time.Time{}, d.errf(n, "%s: %q is not an RFC 3339 time such as 2026-12-31T00:00:00Z", what, n.Value)
	}
	return t, nil
}

// list checks that n is a list (null is an empty one) and returns its items.
func (d *decoder) list(n *yaml.Node, what string) ([]*yaml.Node, error) {
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errf(n, "%s must be a list, not %s", what, describe(n))
	}
	return n.Content, nil
}

// oneOf returns a string field that must be one of names.
func (d *decoder) oneOf(n *yaml.Node, what string, names ...string) (string, error) {
	s, err := d.str(n, what)
	if err != nil {
		return "", err
	}
	if !contains(names, s) {
		msg := fmt.Sprintf("unknown %s %q", what, s)
		if sg := suggest(s, names); sg != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sg)
		}
		return "", d.errf(n, "%s; want %s", msg, orList(names))
	}
	return s, nil
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
