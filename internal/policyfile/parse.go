// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/policy"
)

// MaxSize is the largest policy file accepted, in bytes. A policy is a page
// of text; anything bigger is a mistake or an attack on the parser.
const MaxSize = 1 << 20

// topKeys are the top-level keys, in the order Format writes them.
var topKeys = []string{
	"version", "autonomy", "rules", "delegation", "override_holders",
	"sensitive", "sandbox", "network", "tests",
}

// Load reads and parses the policy file at path. It reads at most
// [MaxSize]+1 bytes, so a huge or endless file is refused without being
// read whole. Errors in the file are [*ParseError]s named by path.
func Load(path string) (*File, error) {
	f, _, err := Read(path)
	return f, err
}

// Read is [Load] that also returns the bytes read, which name the
// policy's revision.
func Read(path string) (*File, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("loading policy: %w", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, nil, fmt.Errorf("loading policy: %w", err)
	}
	pf, err := Parse(path, src)
	if err != nil {
		return nil, nil, err
	}
	return pf, src, nil
}

// Parse parses a policy file. name is used in errors and positions. On
// any error, which is always a [*ParseError], the result is nil: a policy
// is applied whole or not at all.
func Parse(name string, src []byte) (*File, error) {
	d := &decoder{name: name}
	if len(src) > MaxSize {
		return nil, d.errf(nil, "policy file larger than 1 MiB")
	}
	root, err := d.document(src)
	if err != nil {
		return nil, err
	}
	if err := d.check(root); err != nil {
		return nil, err
	}
	f, err := d.file(root)
	if err != nil {
		return nil, err
	}
	return f, nil
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): `) })

// document decodes the single YAML document in src and returns its root
// node, which must be a mapping.
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
		return nil, &ParseError{File: d.name, Line: line, Col: col, Msg: "policy file is not valid UTF-8"}
	}
	// The YAML library reports some malformed input by panicking with an
	// "internal error"; a policy file is untrusted input, so turn that
	// into an ordinary error rather than crash the caller.
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
		return nil, d.errf(&extra, "policy file holds more than one YAML document")
	case !errors.Is(err, io.EOF):
		return nil, d.yamlErr(err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, d.errf(&doc, "missing version (want version: 1)")
	}
	root = doc.Content[0]
	if isNull(root) {
		return nil, d.errf(root, "missing version (want version: 1)")
	}
	if root.Kind != yaml.MappingNode {
		return nil, d.errf(root, "policy file must be a mapping of sections, not %s", describe(root))
	}
	return root, nil
}

// yamlErr turns a YAML library error into a ParseError. The library gives
// a line but no column.
func (d *decoder) yamlErr(err error) error {
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
	return &ParseError{File: d.name, Line: line, Col: 1, Msg: "malformed YAML: " + msg}
}

// check rejects, anywhere in the tree, the YAML features a policy file has
// no use for and that an attacker could: anchors and aliases (a small file
// that expands exponentially once walked) and explicit tags.
func (d *decoder) check(n *yaml.Node) error {
	switch {
	case n.Kind == yaml.AliasNode:
		return d.errf(n, "YAML aliases are not allowed in a policy file")
	case n.Anchor != "":
		return d.errf(n, "YAML anchors are not allowed in a policy file")
	case n.Style&yaml.TaggedStyle != 0:
		return d.errf(n, "explicit YAML tags are not allowed in a policy file")
	}
	for _, c := range n.Content {
		if err := d.check(c); err != nil {
			return err
		}
	}
	return nil
}

// file decodes the top-level mapping.
func (d *decoder) file(root *yaml.Node) (*File, error) {
	fs, err := d.fields(root, "policy file", topKeys, false)
	if err != nil {
		return nil, err
	}
	f := &File{Policy: &policy.Set{Source: d.name}}
	hasVersion := false
	for _, fl := range fs {
		switch fl.key {
		case "version":
			if fl.v.Kind != yaml.ScalarNode || fl.v.ShortTag() != "!!int" {
				return nil, d.errf(fl.v, "version must be the integer 1, not %s", describe(fl.v))
			}
			if fl.v.Value != "1" {
				return nil, d.errf(fl.v, "unsupported version %s (want 1)", fl.v.Value)
			}
			f.Version, hasVersion = Version, true
		case "autonomy":
			m, err := d.mode(fl.v, "autonomy")
			if err != nil {
				return nil, err
			}
			f.Policy.Autonomy = m
		case "rules":
			if f.Policy.Rules, err = d.rules(fl.v); err != nil {
				return nil, err
			}
		case "delegation":
			if f.Policy.Delegation, err = d.delegation(fl.v); err != nil {
				return nil, err
			}
		case "override_holders":
			if f.Policy.OverrideHolders, err = d.ids(fl.v, "override_holders"); err != nil {
				return nil, err
			}
		case "sensitive":
			if f.Sensitive, err = d.patterns(fl.v, "sensitive", true); err != nil {
				return nil, err
			}
		case "sandbox":
			if f.Sandbox, err = d.sandbox(fl.v); err != nil {
				return nil, err
			}
		case "network":
			if f.Network, err = d.network(fl.v); err != nil {
				return nil, err
			}
		case "tests":
			if f.Tests, err = d.tests(fl.v); err != nil {
				return nil, err
			}
		}
	}
	if !hasVersion {
		return nil, d.errf(root, "missing version (want version: 1)")
	}
	return f, nil
}
