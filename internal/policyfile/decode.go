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
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/yamldoc"
)

// decoder walks one document, naming the file in every error.
type decoder struct {
	yamldoc.Reader
}

// newDecoder returns a decoder for the policy file called name: any
// scalar is a key by its text, and an unknown key gets a suggestion.
func newDecoder(name string) *decoder {
	return &decoder{yamldoc.Reader{Name: name, Kind: "policy file", Hint: didYouMean}}
}

// didYouMean suggests the known key closest to an unknown one, if any;
// a top-level key of an NVIDIA OpenShell policy file says what reads one.
func didYouMean(key string, known []string) string {
	if openshell.OwnKey(key) && slices.Contains(known, "version") {
		return " (this is an NVIDIA OpenShell policy file: warden run and warden net check decide the network with it, with OpenShell's semantics, and warden policy import openshell FILE translates it into a Warden policy)"
	}
	if s := Suggest(key, known); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

func (d *decoder) pos(n *yaml.Node) policy.Pos {
	return policy.Pos{File: d.Name, Line: n.Line, Col: n.Column}
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
	if n.Kind != yaml.ScalarNode || yamldoc.IsNull(n) {
		return "", d.Errorf(n, "%s must be a string, not %s", what, d.Describe(n))
	}
	return n.Value, nil
}

// nonEmpty is str for fields that may not be empty.
func (d *decoder) nonEmpty(n *yaml.Node, what string) (string, error) {
	s, err := d.str(n, what)
	if err == nil && strings.TrimSpace(s) == "" {
		err = d.Errorf(n, "%s must not be empty", what)
	}
	return s, err
}

// strList returns a list of strings. A null or empty list gives nil when
// emptyOK; otherwise it is an error, because an empty constraint list would
// widen what the owner restricts. Items may not be empty.
func (d *decoder) strList(n *yaml.Node, what string, emptyOK bool) ([]string, error) {
	if yamldoc.IsNull(n) && emptyOK {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errorf(n, "%s must be a list of strings, not %s", what, d.Describe(n))
	}
	if len(n.Content) == 0 {
		if emptyOK {
			return nil, nil
		}
		return nil, d.Errorf(n, "%s must not be an empty list; leave it out instead", what)
	}
	out := make([]string, 0, len(n.Content))
	for _, it := range n.Content {
		if it.Kind != yaml.ScalarNode || yamldoc.IsNull(it) {
			return nil, d.Errorf(it, "%s items must be strings, not %s", what, d.Describe(it))
		}
		if it.Value == "" {
			return nil, d.Errorf(it, "%s items must not be empty", what)
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
		return 0, d.Errorf(n, "%s: integer %s out of range", what, n.Value)
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		return 0, d.Errorf(n, "%s must be an integer, not %s", what, d.Describe(n))
	}
	var v int64
	if err := n.Decode(&v); err != nil {
		return 0, d.Errorf(n, "%s: integer %s out of range", what, n.Value)
	}
	if v < lo || v > hi {
		switch {
		case lo == 0 && v < 0:
			return 0, d.Errorf(n, "%s must not be negative, got %d", what, v)
		case hi == math.MaxInt64:
			return 0, d.Errorf(n, "%s must be at least %d, got %d", what, lo, v)
		}
		return 0, d.Errorf(n, "%s must be between %d and %d, got %d", what, lo, hi, v)
	}
	return v, nil
}

func (d *decoder) boolean(n *yaml.Node, what string) (bool, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, d.Errorf(n, "%s must be true or false, not %s", what, d.Describe(n))
	}
	var v bool
	if err := n.Decode(&v); err != nil {
		return false, d.Errorf(n, "%s must be true or false", what)
	}
	return v, nil
}

// timestamp returns an RFC 3339 time, such as 2026-12-31T00:00:00Z.
func (d *decoder) timestamp(n *yaml.Node, what string) (time.Time, error) {
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!timestamp" && n.ShortTag() != "!!str") {
		return time.Time{}, d.Errorf(n, "%s must be an RFC 3339 time such as 2026-12-31T00:00:00Z, not %s", what, d.Describe(n))
	}
	t, err := time.Parse(time.RFC3339, n.Value)
	if err != nil {
		return time.Time{}, d.Errorf(n, "%s: %q is not an RFC 3339 time such as 2026-12-31T00:00:00Z", what, n.Value)
	}
	return t, nil
}

// list checks that n is a list (null is an empty one) and returns its items.
func (d *decoder) list(n *yaml.Node, what string) ([]*yaml.Node, error) {
	if yamldoc.IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errorf(n, "%s must be a list, not %s", what, d.Describe(n))
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
		if sg := Suggest(s, names); sg != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sg)
		}
		return "", d.Errorf(n, "%s; want %s", msg, orList(names))
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
