// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package yamldoc_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/yamldoc"
)

// summary is what a test compares of a document: its root's kind, tag
// and position, or the error.
func summary(doc *yaml.Node, err error) string {
	switch {
	case err != nil:
		return "error " + err.Error()
	case doc == nil:
		return "no document"
	case doc.Kind != yaml.DocumentNode || len(doc.Content) != 1:
		return fmt.Sprintf("odd document: kind %v, %d children", doc.Kind, len(doc.Content))
	}
	r := doc.Content[0]
	return fmt.Sprintf("root %s at %d:%d", r.ShortTag(), r.Line, r.Column)
}

func TestDocument(t *testing.T) {
	for _, tt := range []struct {
		name, src, want string
	}{
		{"empty", "", "no document"},
		{"comments only", "# nothing\n\n# here\n", "no document"},
		{"mapping", "a: 1\n", "root !!map at 1:1"},
		{"null", "---\n~\n", "root !!null at 2:1"},
		{"list", "\n- 1\n", "root !!seq at 2:1"},
		{"not UTF-8", "a: 1\nb: \xff\n", "error f.yaml:2:4: test file is not valid UTF-8"},
		{"not UTF-8 after wide runes", "a: 1\nb: ééé\xff\n", "error f.yaml:2:7: test file is not valid UTF-8"},
		{"truncated rune", "a: \xc3", "error f.yaml:1:4: test file is not valid UTF-8"},
		{"two documents", "a: 1\n---\nb: 2\n", "error f.yaml:2:1: test file holds more than one YAML document"},
		{"malformed", "a: 1\nb: {c: [}\n", "error f.yaml:1:1: malformed YAML: did not find expected node content"},
		{"malformed with a line", "a: 1\n\tb: 2\n", "error f.yaml:2:1: malformed YAML: found a tab character that violates indentation"},
		{"malformed second document", "a: 1\n---\n\tb\n", "error f.yaml:3:1: malformed YAML: found character that cannot start any token"},
		{"nul byte", "a: 1\x00\n", "error f.yaml:1:1: malformed YAML: control characters are not allowed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &yamldoc.Reader{Name: "f.yaml", Kind: "test file"}
			doc, err := r.Document([]byte(tt.src))
			if err != nil && doc != nil {
				t.Errorf("Document(%q) returned a document with its error", tt.src)
			}
			if got := summary(doc, err); got != tt.want {
				t.Errorf("Document(%q) = %s, want %s", tt.src, got, tt.want)
			}
		})
	}
}

func TestErrorf(t *testing.T) {
	r := &yamldoc.Reader{Name: "f.yaml"}
	for _, tt := range []struct {
		name string
		n    *yaml.Node
		want *yamldoc.ParseError
	}{
		{"nil node", nil, &yamldoc.ParseError{File: "f.yaml", Line: 1, Col: 1, Msg: "bad 7"}},
		{"no position", &yaml.Node{}, &yamldoc.ParseError{File: "f.yaml", Line: 1, Col: 1, Msg: "bad 7"}},
		{"line only", &yaml.Node{Line: 3}, &yamldoc.ParseError{File: "f.yaml", Line: 3, Col: 1, Msg: "bad 7"}},
		{"line and column", &yaml.Node{Line: 3, Column: 9}, &yamldoc.ParseError{File: "f.yaml", Line: 3, Col: 9, Msg: "bad 7"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got *yamldoc.ParseError
			if err := r.Errorf(tt.n, "bad %d", 7); !errors.As(err, &got) {
				t.Fatalf("Errorf = %T, want *ParseError", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Errorf (-want +got):\n%s", diff)
			}
		})
	}
	if got, want := (&yamldoc.ParseError{File: "a.yaml", Line: 3, Col: 7, Msg: "m"}).Error(), "a.yaml:3:7: m"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// root parses src, a one-document test input, and returns its root node.
func root(t *testing.T, src string) *yaml.Node {
	t.Helper()
	doc, err := (&yamldoc.Reader{Name: "f.yaml"}).Document([]byte(src))
	if err != nil || doc == nil {
		t.Fatalf("Document(%q) = %v, %v", src, doc, err)
	}
	return doc.Content[0]
}

func TestFields(t *testing.T) {
	hint := func(key string, known []string) string { return fmt.Sprintf(" (%s not in %v)", key, known) }
	known := []string{"a", "b"}
	for _, tt := range []struct {
		name       string
		src        string
		known      []string
		nullOK     bool
		stringKeys bool
		hint       func(string, []string) string
		want       []string // the keys, or the error
	}{
		{name: "in order", src: "b: 1\na: 2\n", known: known, want: []string{"b", "a"}},
		{name: "any key", src: "z: 1\ny: 2\n", want: []string{"z", "y"}},
		{name: "empty", src: "{}", known: known, want: []string{}},
		{name: "null allowed", src: "~", known: known, nullOK: true, want: nil},
		{name: "null refused", src: "~", known: known, want: []string{"f.yaml:1:1: m must be a mapping, not null"}},
		{name: "a list", src: "[a]", want: []string{"f.yaml:1:1: m must be a mapping, not a list"}},
		{name: "duplicate", src: "a: 1\nb: 2\na: 3\n", known: known, want: []string{`f.yaml:3:1: duplicate key "a" in m (first at 1:1)`}},
		{name: "unknown", src: "a: 1\nc: 2\n", known: known, want: []string{`f.yaml:2:1: unknown key "c" in m`}},
		{name: "unknown with a hint", src: "a: 1\nc: 2\n", known: known, hint: hint, want: []string{`f.yaml:2:1: unknown key "c" in m (c not in [a b])`}},
		{name: "unknown before duplicate", src: "c: 1\nc: 2\n", known: known, want: []string{`f.yaml:1:1: unknown key "c" in m`}},
		{name: "integer key", src: "1: x\n", want: []string{"1"}},
		{name: "integer key refused", src: "1: x\n", stringKeys: true, want: []string{"f.yaml:1:1: m keys must be strings, not an integer"}},
		{name: "quoted then integer", src: "'1': x\n1: y\n", stringKeys: true, want: []string{"f.yaml:2:1: m keys must be strings, not an integer"}},
		{name: "quoted then integer, any scalar", src: "'1': x\n1: y\n", want: []string{`f.yaml:2:1: duplicate key "1" in m (first at 1:1)`}},
		{name: "list key", src: "? [a]\n: x\n", want: []string{"f.yaml:1:3: m keys must be strings, not a list"}},
		{name: "alias value", src: "a: &x 1\nb: *x\n", want: []string{"a", "b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &yamldoc.Reader{Name: "f.yaml", StringKeys: tt.stringKeys, Hint: tt.hint}
			fs, err := r.Fields(root(t, tt.src), "m", tt.known, tt.nullOK)
			var got []string
			if err != nil {
				if fs != nil {
					t.Errorf("Fields returned fields with its error")
				}
				got = []string{err.Error()}
			} else if fs != nil {
				got = []string{}
				for _, f := range fs {
					if f.K.Value != f.Key {
						t.Errorf("field %q has key node %q", f.Key, f.K.Value)
					}
					got = append(got, f.Key)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Fields(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	for _, tt := range []struct {
		src, want, untyped string // untyped: with UntypedTimestamps
	}{
		{"{a: 1}", "a mapping", ""},
		{"[1]", "a list", ""},
		{"x", "a string", ""},
		{"'1'", "a string", ""},
		{"1", "an integer", ""},
		{"1.5", "a number", ""},
		{"true", "a boolean", ""},
		{"~", "null", ""},
		{"2026-12-31", "a timestamp", "a scalar"},
		{"!!binary aGk=", "a scalar", ""},
	} {
		n := root(t, tt.src)
		if got := (&yamldoc.Reader{}).Describe(n); got != tt.want {
			t.Errorf("Describe(%s) = %q, want %q", tt.src, got, tt.want)
		}
		want := tt.want
		if tt.untyped != "" {
			want = tt.untyped
		}
		if got := (&yamldoc.Reader{UntypedTimestamps: true}).Describe(n); got != want {
			t.Errorf("Describe(%s) with UntypedTimestamps = %q, want %q", tt.src, got, want)
		}
	}
	alias := root(t, "a: &x 1\nb: *x\n").Content[3]
	if got := (&yamldoc.Reader{}).Describe(alias); got != "an alias" {
		t.Errorf("Describe(alias) = %q, want \"an alias\"", got)
	}
}

func TestIsNull(t *testing.T) {
	for src, want := range map[string]bool{"~": true, "null": true, "---\n": true, "''": false, "0": false, "[]": false} {
		if got := yamldoc.IsNull(root(t, src)); got != want {
			t.Errorf("IsNull(%q) = %v, want %v", src, got, want)
		}
	}
}
