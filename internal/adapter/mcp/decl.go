// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp

// This file reads declaration files. The rules:
//
//   - one YAML document, a mapping with version: 1, an optional server,
//     an optional relative (cwd or deny) and a tools mapping; every key
//     is known and given once;
//   - a tool's entry is a mapping of as, classes, paths and url, each
//     optional; as names a tool of Warden's tool table whose semantics
//     the call takes (read_file: a read of its paths under the path
//     floor; write_file, edit_file: a write; delete_file: a delete;
//     web_fetch: egress to its url), and classes add action classes;
//   - every error is a *ParseError at the node that caused it.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/action"
)

// MaxDeclarationSize is the largest declaration file read, in bytes.
const MaxDeclarationSize = 1 << 20

// Declaration says, for one server, what each of its tools does. A tool
// it does not list is undeclared: it declares no class, so the engine
// treats it as mutating and asks (which the gateway, with nobody to ask,
// refuses).
type Declaration struct {
	// Server is the server's name in tool names (mcp:<server>/<tool>);
	// empty when the file does not give one.
	Server string
	// Tools maps a tool's name, as the server lists it, to its entry.
	Tools map[string]Tool
	// DenyRelative is set by relative: deny, for a server that resolves
	// a relative path against something Warden cannot see (its own
	// allowed directories, the client's roots): such a path is then
	// refused, since judging it against the working directory could
	// judge one file and let the server touch another. The default,
	// relative: cwd, judges relative paths against the gateway's working
	// directory, which is the server's.
	DenyRelative bool
}

// Tool is one tool's entry of a declaration.
type Tool struct {
	// As is the Warden tool whose semantics a call takes (read_file,
	// write_file, …); empty for a tool known only by its classes.
	As string
	// Classes are the action classes every call declares.
	Classes []string
	// Paths name the arguments that hold paths: a string, or a list of
	// strings. A call missing one, or giving another type, is denied.
	Paths []string
	// URL names the argument that holds a URL; empty for none.
	URL string
}

// ParseError is an error in a declaration file, at the node that caused
// it. Line and Col are 1-based and always at least 1.
type ParseError struct {
	File      string
	Line, Col int
	Msg       string
}

// Error returns the error as file:line:col: msg.
func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// ParseDeclaration reads a declaration file; name is the file's name in
// errors. Every error is a [*ParseError]; an error never comes with a
// half-read declaration.
func ParseDeclaration(name string, src []byte) (*Declaration, error) {
	d := &decoder{name: name}
	if len(src) > MaxDeclarationSize {
		return nil, d.errf(nil, "declaration file larger than 1 MiB")
	}
	root, err := d.document(src)
	if err != nil {
		return nil, err
	}
	return d.declaration(root)
}

type decoder struct{ name string }

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

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

func (d *decoder) document(src []byte) (root *yaml.Node, err error) {
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		line := 1 + bytes.Count(src[:i], []byte("\n"))
		col := 1 + utf8.RuneCount(src[bytes.LastIndexByte(src[:i], '\n')+1:i])
		return nil, &ParseError{File: d.name, Line: line, Col: col, Msg: "declaration file is not valid UTF-8"}
	}
	// The YAML library reports some malformed input by panicking; a
	// declaration file is input, so that becomes an ordinary error.
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, d.errf(nil, "malformed YAML: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, d.errf(nil, "missing version (want version: 1)")
		}
		return nil, d.yamlErr(err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, d.errf(&extra, "declaration file holds more than one YAML document")
	case !errors.Is(err, io.EOF):
		return nil, d.yamlErr(err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || isNull(doc.Content[0]) {
		return nil, d.errf(&doc, "missing version (want version: 1)")
	}
	root = doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, d.errf(root, "declaration file must be a mapping, not %s", describe(root))
	}
	return root, nil
}

func (d *decoder) yamlErr(err error) error {
	msg := err.Error()
	line := 1
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			line = n
		}
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	return &ParseError{File: d.name, Line: line, Col: 1, Msg: "malformed YAML: " + msg}
}

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
		}
		return "a scalar"
	}
	return "an alias"
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

type field struct {
	key  string
	k, v *yaml.Node
}

// fields checks that n is a mapping of known keys, each given once.
func (d *decoder) fields(n *yaml.Node, what string, known []string) ([]field, error) {
	if n.Kind != yaml.MappingNode {
		return nil, d.errf(n, "%s must be a mapping, not %s", what, describe(n))
	}
	seen := map[string]*yaml.Node{}
	var fs []field
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			return nil, d.errf(k, "%s keys must be strings, not %s", what, describe(k))
		}
		if prev, ok := seen[k.Value]; ok {
			return nil, d.errf(k, "duplicate key %q in %s (first at %d:%d)", k.Value, what, prev.Line, prev.Column)
		}
		seen[k.Value] = k
		if known != nil && !slices.Contains(known, k.Value) {
			return nil, d.errf(k, "unknown key %q in %s (want %s)", k.Value, what, strings.Join(known, ", "))
		}
		fs = append(fs, field{k.Value, k, v})
	}
	return fs, nil
}

func (d *decoder) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || n.Value == "" {
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
			return "", d.errf(n, "%s must not be empty", what)
		}
		return "", d.errf(n, "%s must be a string, not %s", what, describe(n))
	}
	return n.Value, nil
}

func (d *decoder) strList(n *yaml.Node, what string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, d.errf(n, "%s must be a list of strings, not %s", what, describe(n))
	}
	var out []string
	for _, e := range n.Content {
		s, err := d.str(e, what+" entry")
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, s) {
			return nil, d.errf(e, "%s lists %q twice", what, s)
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *decoder) declaration(root *yaml.Node) (*Declaration, error) {
	fs, err := d.fields(root, "declaration file", []string{"version", "server", "relative", "tools"})
	if err != nil {
		return nil, err
	}
	decl := &Declaration{Tools: map[string]Tool{}}
	version := false
	for _, f := range fs {
		switch f.key {
		case "version":
			if f.v.Kind != yaml.ScalarNode || f.v.ShortTag() != "!!int" || f.v.Value != "1" {
				return nil, d.errf(f.v, "unsupported version %q (want version: 1)", f.v.Value)
			}
			version = true
		case "server":
			s, err := d.str(f.v, "server")
			if err != nil {
				return nil, err
			}
			if strings.ContainsAny(s, "/: \t") {
				return nil, d.errf(f.v, "server %q must not hold '/', ':' or white space", s)
			}
			decl.Server = s
		case "relative":
			s, err := d.str(f.v, "relative")
			if err != nil {
				return nil, err
			}
			if s != "cwd" && s != "deny" {
				return nil, d.errf(f.v, "relative must be cwd or deny, not %q", s)
			}
			decl.DenyRelative = s == "deny"
		case "tools":
			if isNull(f.v) {
				continue
			}
			tfs, err := d.fields(f.v, "tools", nil)
			if err != nil {
				return nil, err
			}
			for _, tf := range tfs {
				t, err := d.tool(tf.v, tf.key)
				if err != nil {
					return nil, err
				}
				decl.Tools[tf.key] = t
			}
		}
	}
	if !version {
		return nil, d.errf(root, "missing version (want version: 1)")
	}
	return decl, nil
}

// asTools are the Warden tools a declared tool may take the semantics
// of. bash is left out: its facets come from analysing a command string,
// which no declaration names.
func asTool(name string) bool {
	t, ok := action.LookupTool(name)
	return ok && t.Name == name && name != "bash"
}

func (d *decoder) tool(n *yaml.Node, name string) (Tool, error) {
	what := fmt.Sprintf("tool %q", name)
	fs, err := d.fields(n, what, []string{"as", "classes", "paths", "url"})
	if err != nil {
		return Tool{}, err
	}
	var t Tool
	for _, f := range fs {
		switch f.key {
		case "as":
			if t.As, err = d.str(f.v, what+": as"); err != nil {
				return Tool{}, err
			}
			if !asTool(t.As) {
				var names []string
				for _, k := range action.Tools() {
					if asTool(k.Name) {
						names = append(names, k.Name)
					}
				}
				return Tool{}, d.errf(f.v, "%s: as names %q, not a Warden tool (want one of %s)", what, t.As, strings.Join(names, ", "))
			}
		case "classes":
			if t.Classes, err = d.strList(f.v, what+": classes"); err != nil {
				return Tool{}, err
			}
			for i, c := range t.Classes {
				if _, ok := action.ParseClass(c); !ok {
					return Tool{}, d.errf(f.v.Content[i], "%s: unknown class %q", what, c)
				}
			}
		case "paths":
			if t.Paths, err = d.strList(f.v, what+": paths"); err != nil {
				return Tool{}, err
			}
		case "url":
			if t.URL, err = d.str(f.v, what+": url"); err != nil {
				return Tool{}, err
			}
		}
	}
	if len(t.Paths) > 0 && t.As == "" {
		return Tool{}, d.errf(n, "%s: paths need as (read_file, write_file, edit_file, delete_file…) to say how the tool touches them", what)
	}
	return t, nil
}
