// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package yamldoc_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"warden.dev/warden/internal/yamldoc"
)

// readers are the conventions of the files Warden reads through this
// package: policy files and MCP declaration files.
var readers = []yamldoc.Reader{
	{Name: "fuzz.yaml", Kind: "policy file", Hint: func(string, []string) string { return " (hint)" }},
	{Name: "fuzz.yaml", Kind: "declaration file", StringKeys: true, UntypedTimestamps: true},
}

// FuzzDocument checks the reader that policy files and MCP declarations
// share, for any input and both readers' conventions: Document and
// Fields never panic; an error comes alone, is a *ParseError naming the
// file with a position of at least 1:1, and is at the same position
// whatever the convention; input that is not UTF-8 is refused at its
// first bad byte; a document has one root; and Fields, on every mapping
// of the tree, returns each pair once or an error at a node. Seeds are
// the policies of package policyfile's testdata and the declarations and
// policies of package mcp's.
func FuzzDocument(f *testing.F) {
	var seeds []string
	for _, glob := range []string{"../policyfile/testdata/*/*.txtar", "../adapter/mcp/testdata/golden/*.txtar"} {
		paths, err := filepath.Glob(glob)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, paths...)
	}
	if len(seeds) == 0 {
		f.Fatal("no seeds found in policyfile's or mcp's testdata")
	}
	for _, p := range seeds {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".yaml") || file.Name == "format.golden" {
				f.Add(file.Data)
			}
		}
	}
	f.Add([]byte("version: 1\nx: \xff\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var errs [2]*yamldoc.ParseError
		for i := range readers {
			r := &readers[i]
			doc, err := r.Document(src)
			if err != nil {
				errs[i] = checkError(t, err)
				if doc != nil {
					t.Fatalf("Document returned a document with error %v", err)
				}
				if !utf8.Valid(src) {
					pe := errs[i]
					if pe.Msg != r.Kind+" is not valid UTF-8" {
						t.Fatalf("input not UTF-8 gave %v", err)
					}
					if c, size := utf8.DecodeRune(at(src, pe.Line, pe.Col)); c != utf8.RuneError || size != 1 {
						t.Fatalf("not-UTF-8 error at %d:%d, where %q is", pe.Line, pe.Col, at(src, pe.Line, pe.Col))
					}
				}
				continue
			}
			if !utf8.Valid(src) {
				t.Fatalf("%s accepted input that is not UTF-8", r.Kind)
			}
			if doc == nil {
				continue
			}
			if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
				t.Fatalf("Document returned kind %v with %d children", doc.Kind, len(doc.Content))
			}
			walk(doc, func(n *yaml.Node) {
				if r.Describe(n) == "" {
					t.Fatalf("Describe(%v) is empty", n)
				}
				checkError(t, r.Errorf(n, "x"))
				if n.Kind != yaml.MappingNode {
					return
				}
				for _, known := range [][]string{nil, {"version", "rules", "tools"}} {
					fs, err := r.Fields(n, "m", known, true)
					if err != nil {
						checkError(t, err)
						if fs != nil {
							t.Fatalf("Fields returned fields with error %v", err)
						}
						continue
					}
					if len(fs) != len(n.Content)/2 {
						t.Fatalf("Fields returned %d of %d pairs", len(fs), len(n.Content)/2)
					}
					seen := map[string]bool{}
					for _, f := range fs {
						if seen[f.Key] || f.K.Value != f.Key || (r.StringKeys && f.K.ShortTag() != "!!str") {
							t.Fatalf("Fields returned key %q (%s) twice or with a bad node", f.Key, f.K.ShortTag())
						}
						seen[f.Key] = true
					}
				}
			})
		}
		if (errs[0] == nil) != (errs[1] == nil) || (errs[0] != nil && (errs[0].Line != errs[1].Line || errs[0].Col != errs[1].Col)) {
			t.Fatalf("the conventions disagree: %v and %v", errs[0], errs[1])
		}
	})
}

// checkError fails unless err is a *ParseError naming the file with a
// position of at least 1:1, and returns it.
func checkError(t *testing.T, err error) *yamldoc.ParseError {
	t.Helper()
	var pe *yamldoc.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T is not a *ParseError: %v", err, err)
	}
	if pe.Line < 1 || pe.Col < 1 || pe.File != "fuzz.yaml" {
		t.Fatalf("error has a bad position: %#v", pe)
	}
	return pe
}

// at returns src from line and col (1-based, col in runes) on, or nil
// when src has no such place.
func at(src []byte, line, col int) []byte {
	for ; line > 1; line-- {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return nil
		}
		src = src[i+1:]
	}
	for ; col > 1 && len(src) > 0; col-- {
		_, size := utf8.DecodeRune(src)
		src = src[size:]
	}
	return src
}

// walk calls visit on every node of the tree below n, n included,
// without recursion (a document may nest deeply) and without following
// aliases.
func walk(n *yaml.Node, visit func(*yaml.Node)) {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visit(n)
		stack = append(stack, n.Content...)
	}
}
