// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package yamldoc

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// Describe names n's YAML type for "must be X, not Y" messages: "a
// mapping", "a list", "a string", "an integer", "null", and so on.
func (r *Reader) Describe(n *yaml.Node) string {
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
			if !r.UntypedTimestamps {
				return "a timestamp"
			}
		}
		return "a scalar"
	}
	return "an alias"
}

// IsNull reports whether n is a null scalar: null, ~ or nothing at all.
func IsNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// Field is one key/value pair of a mapping.
type Field struct {
	Key  string
	K, V *yaml.Node
}

// Fields checks that n is a mapping whose keys are scalars (strings when
// [Reader.StringKeys] is set), each given once and, unless known is nil,
// each one of known; and it returns its pairs in order. what names the
// mapping in messages ("rule", "tools"). A null n is an empty mapping
// when nullOK. The error is at the first key that breaks a rule.
func (r *Reader) Fields(n *yaml.Node, what string, known []string, nullOK bool) ([]Field, error) {
	if nullOK && IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, r.Errorf(n, "%s must be a mapping, not %s", what, r.Describe(n))
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	fs := make([]Field, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || (r.StringKeys && k.ShortTag() != "!!str") {
			return nil, r.Errorf(k, "%s keys must be strings, not %s", what, r.Describe(k))
		}
		if prev, ok := seen[k.Value]; ok {
			return nil, r.Errorf(k, "duplicate key %q in %s (first at %d:%d)", k.Value, what, prev.Line, prev.Column)
		}
		seen[k.Value] = k
		if known != nil && !slices.Contains(known, k.Value) {
			hint := ""
			if r.Hint != nil {
				hint = r.Hint(k.Value, known)
			}
			return nil, r.Errorf(k, "unknown key %q in %s%s", k.Value, what, hint)
		}
		fs = append(fs, Field{k.Value, k, v})
	}
	return fs, nil
}
