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
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/yamldoc"
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
// it: a [yamldoc.ParseError], printing file:line:col: msg. Line and Col
// are 1-based and always at least 1.
type ParseError = yamldoc.ParseError

// ParseDeclaration reads a declaration file; name is the file's name in
// errors. Every error is a [*ParseError]; an error never comes with a
// half-read declaration.
func ParseDeclaration(name string, src []byte) (*Declaration, error) {
	d := &decoder{yamldoc.Reader{
		Name: name, Kind: "declaration file",
		StringKeys: true, Hint: wantKeys, UntypedTimestamps: true,
	}}
	if len(src) > MaxDeclarationSize {
		return nil, d.Errorf(nil, "declaration file larger than 1 MiB")
	}
	root, err := d.document(src)
	if err != nil {
		return nil, err
	}
	return d.declaration(root)
}

// decoder reads one declaration file. Its keys must be strings, an
// unknown key is told the keys there are, and a timestamp is "a scalar"
// in messages, as declaration files have always been read.
type decoder struct{ yamldoc.Reader }

// wantKeys lists the keys a mapping takes, after an unknown one.
func wantKeys(_ string, known []string) string { return " (want " + strings.Join(known, ", ") + ")" }

func (d *decoder) document(src []byte) (*yaml.Node, error) {
	doc, err := d.Document(src)
	if err != nil {
		return nil, err
	}
	if doc == nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || yamldoc.IsNull(doc.Content[0]) {
		return nil, d.Errorf(doc, "missing version (want version: 1)")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, d.Errorf(root, "declaration file must be a mapping, not %s", d.Describe(root))
	}
	return root, nil
}

func (d *decoder) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || n.Value == "" {
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
			return "", d.Errorf(n, "%s must not be empty", what)
		}
		return "", d.Errorf(n, "%s must be a string, not %s", what, d.Describe(n))
	}
	return n.Value, nil
}

func (d *decoder) strList(n *yaml.Node, what string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errorf(n, "%s must be a list of strings, not %s", what, d.Describe(n))
	}
	var out []string
	for _, e := range n.Content {
		s, err := d.str(e, what+" entry")
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, s) {
			return nil, d.Errorf(e, "%s lists %q twice", what, s)
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *decoder) declaration(root *yaml.Node) (*Declaration, error) {
	fs, err := d.Fields(root, "declaration file", []string{"version", "server", "relative", "tools"}, false)
	if err != nil {
		return nil, err
	}
	decl := &Declaration{Tools: map[string]Tool{}}
	version := false
	for _, f := range fs {
		switch f.Key {
		case "version":
			if f.V.Kind != yaml.ScalarNode || f.V.ShortTag() != "!!int" || f.V.Value != "1" {
				return nil, d.Errorf(f.V, "unsupported version %q (want version: 1)", f.V.Value)
			}
			version = true
		case "server":
			s, err := d.str(f.V, "server")
			if err != nil {
				return nil, err
			}
			if strings.ContainsAny(s, "/: \t") {
				return nil, d.Errorf(f.V, "server %q must not hold '/', ':' or white space", s)
			}
			decl.Server = s
		case "relative":
			s, err := d.str(f.V, "relative")
			if err != nil {
				return nil, err
			}
			if s != "cwd" && s != "deny" {
				return nil, d.Errorf(f.V, "relative must be cwd or deny, not %q", s)
			}
			decl.DenyRelative = s == "deny"
		case "tools":
			if yamldoc.IsNull(f.V) {
				continue
			}
			tfs, err := d.Fields(f.V, "tools", nil, false)
			if err != nil {
				return nil, err
			}
			for _, tf := range tfs {
				t, err := d.tool(tf.V, tf.Key)
				if err != nil {
					return nil, err
				}
				decl.Tools[tf.Key] = t
			}
		}
	}
	if !version {
		return nil, d.Errorf(root, "missing version (want version: 1)")
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
	fs, err := d.Fields(n, what, []string{"as", "classes", "paths", "url"}, false)
	if err != nil {
		return Tool{}, err
	}
	var t Tool
	for _, f := range fs {
		switch f.Key {
		case "as":
			if t.As, err = d.str(f.V, what+": as"); err != nil {
				return Tool{}, err
			}
			if !asTool(t.As) {
				var names []string
				for _, k := range action.Tools() {
					if asTool(k.Name) {
						names = append(names, k.Name)
					}
				}
				return Tool{}, d.Errorf(f.V, "%s: as names %q, not a Warden tool (want one of %s)", what, t.As, strings.Join(names, ", "))
			}
		case "classes":
			if t.Classes, err = d.strList(f.V, what+": classes"); err != nil {
				return Tool{}, err
			}
			for i, c := range t.Classes {
				if _, ok := action.ParseClass(c); !ok {
					return Tool{}, d.Errorf(f.V.Content[i], "%s: unknown class %q", what, c)
				}
			}
		case "paths":
			if t.Paths, err = d.strList(f.V, what+": paths"); err != nil {
				return Tool{}, err
			}
		case "url":
			if t.URL, err = d.str(f.V, what+": url"); err != nil {
				return Tool{}, err
			}
		}
	}
	if len(t.Paths) > 0 && t.As == "" {
		return Tool{}, d.Errorf(n, "%s: paths need as (read_file, write_file, edit_file, delete_file…) to say how the tool touches them", what)
	}
	return t, nil
}
