// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package yamldoc reads a YAML document strictly, with positions.
//
// The files Warden reads as YAML (policy files, MCP declaration files)
// are untrusted input, read into a [yaml.Node] tree and walked by hand so
// that every error can name the node that caused it. A [Reader] holds
// what such a walk shares: the one document of a file, refused when it
// is not valid UTF-8, malformed, followed by a second document, or when
// the YAML library panics on it; mappings whose keys are known and given
// once ([Reader.Fields]); and errors that are always [*ParseError]s
// printing file:line:col: msg. What a document must contain is the
// caller's to check.
package yamldoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A Reader reads the YAML document of one file. Its fields, but Name,
// are the conventions of a kind of file, in which the files Warden reads
// differ; set them before use.
type Reader struct {
	// Name is the file's name in errors.
	Name string
	// Kind names the file in messages about the whole document:
	// "policy file" gives "policy file is not valid UTF-8".
	Kind string
	// StringKeys refuses a mapping key that is a scalar of another YAML
	// type (1, true); otherwise such a key counts by its text.
	StringKeys bool
	// Hint returns what follows `unknown key "k" in what` for a key
	// not among known: a suggestion, or the keys there are. Nil adds
	// nothing.
	Hint func(key string, known []string) string
	// UntypedTimestamps makes [Reader.Describe] call a timestamp "a
	// scalar" rather than "a timestamp".
	UntypedTimestamps bool
}

// Errorf returns a [*ParseError] at n, or at 1:1 when n is nil or has no
// position.
func (r *Reader) Errorf(n *yaml.Node, format string, args ...any) error {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line = n.Line
		if n.Column > 0 {
			col = n.Column
		}
	}
	return &ParseError{File: r.Name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): `) })

// Document decodes the single YAML document in src and returns its
// document node, or nil when src holds no document (it is empty, or
// only comments). Every error is a [*ParseError]: src not valid UTF-8
// (at the first bad byte, its column counted in characters), malformed
// YAML (at the line the library names), a second document, or a panic
// of the YAML library, which is turned into an error rather than crash
// the caller.
func (r *Reader) Document(src []byte) (doc *yaml.Node, err error) {
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			c, size := utf8.DecodeRune(src[i:])
			if c == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		line := 1 + bytes.Count(src[:i], []byte("\n"))
		col := 1 + utf8.RuneCount(src[bytes.LastIndexByte(src[:i], '\n')+1:i])
		return nil, &ParseError{File: r.Name, Line: line, Col: col, Msg: r.Kind + " is not valid UTF-8"}
	}
	// The YAML library reports some malformed input by panicking with an
	// "internal error"; the file is untrusted input, so turn that into an
	// ordinary error rather than crash the caller.
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, r.Errorf(nil, "malformed YAML: %v", p)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var d yaml.Node
	if err := dec.Decode(&d); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, r.yamlErr(err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, r.Errorf(&extra, "%s holds more than one YAML document", r.Kind)
	case !errors.Is(err, io.EOF):
		return nil, r.yamlErr(err)
	}
	return &d, nil
}

// yamlErr turns a YAML library error into a ParseError. The library gives
// a line but no column.
func (r *Reader) yamlErr(err error) error {
	msg := err.Error()
	line := 1
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			line = n
		}
		msg = msg[len(m[0]):]
	} else if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return &ParseError{File: r.Name, Line: line, Col: 1, Msg: "malformed YAML: " + msg}
}
