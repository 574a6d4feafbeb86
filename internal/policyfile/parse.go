// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"fmt"
	"io"
	"os"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/yamldoc"
)

// MaxSize is the largest policy file accepted, in bytes. A policy is a page
// of text; anything bigger is a mistake or an attack on the parser.
const MaxSize = 1 << 20

// topKeys are the top-level keys, in the order Format writes them.
var topKeys = []string{
	"version", "autonomy", "rules", "delegation", "override_holders",
	"sensitive", "governance", "sandbox", "network", "audit", "approvals", "tests",
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
	d := newDecoder(name)
	if len(src) > MaxSize {
		return nil, d.Errorf(nil, "policy file larger than 1 MiB")
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

// document decodes the single YAML document in src and returns its root
// node, which must be a mapping.
func (d *decoder) document(src []byte) (*yaml.Node, error) {
	doc, err := d.Document(src)
	if err != nil {
		return nil, err
	}
	if doc == nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, d.Errorf(doc, "missing version (want version: 1)")
	}
	root := doc.Content[0]
	if yamldoc.IsNull(root) {
		return nil, d.Errorf(root, "missing version (want version: 1)")
	}
	if root.Kind != yaml.MappingNode {
		return nil, d.Errorf(root, "policy file must be a mapping of sections, not %s", d.Describe(root))
	}
	return root, nil
}

// check rejects, anywhere in the tree, the YAML features a policy file has
// no use for and that an attacker could: anchors and aliases (a small file
// that expands exponentially once walked) and explicit tags.
func (d *decoder) check(n *yaml.Node) error {
	switch {
	case n.Kind == yaml.AliasNode:
		return d.Errorf(n, "YAML aliases are not allowed in a policy file")
	case n.Anchor != "":
		return d.Errorf(n, "YAML anchors are not allowed in a policy file")
	case n.Style&yaml.TaggedStyle != 0:
		return d.Errorf(n, "explicit YAML tags are not allowed in a policy file")
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
	fs, err := d.Fields(root, "policy file", topKeys, false)
	if err != nil {
		return nil, err
	}
	f := &File{Policy: &policy.Set{Source: d.Name}}
	hasVersion := false
	for _, fl := range fs {
		switch fl.Key {
		case "version":
			if fl.V.Kind != yaml.ScalarNode || fl.V.ShortTag() != "!!int" {
				return nil, d.Errorf(fl.V, "version must be the integer 1, not %s", d.Describe(fl.V))
			}
			if fl.V.Value != "1" {
				return nil, d.Errorf(fl.V, "unsupported version %s (want 1)", fl.V.Value)
			}
			f.Version, hasVersion = Version, true
		case "autonomy":
			m, err := d.mode(fl.V, "autonomy")
			if err != nil {
				return nil, err
			}
			f.Policy.Autonomy = m
		case "rules":
			if f.Policy.Rules, err = d.rules(fl.V); err != nil {
				return nil, err
			}
		case "delegation":
			if f.Policy.Delegation, err = d.delegation(fl.V); err != nil {
				return nil, err
			}
		case "override_holders":
			if f.Policy.OverrideHolders, err = d.ids(fl.V, "override_holders"); err != nil {
				return nil, err
			}
		case "sensitive":
			if f.Sensitive, err = d.patterns(fl.V, "sensitive", true); err != nil {
				return nil, err
			}
		case "governance":
			if f.Policy.Exempt, err = d.governance(fl.V); err != nil {
				return nil, err
			}
		case "sandbox":
			if f.Sandbox, err = d.sandbox(fl.V); err != nil {
				return nil, err
			}
		case "network":
			if f.Network, err = d.network(fl.V); err != nil {
				return nil, err
			}
		case "audit":
			if fl.V.Kind != yaml.ScalarNode || (fl.V.Value != string(AuditRequired) && fl.V.Value != string(AuditBestEffort)) {
				return nil, d.Errorf(fl.V, "audit must be %s or %s, not %s", AuditRequired, AuditBestEffort, d.Describe(fl.V))
			}
			f.Audit = AuditMode(fl.V.Value)
		case "approvals":
			if f.Approvals, err = d.approvals(fl.V); err != nil {
				return nil, err
			}
		case "tests":
			if f.Tests, err = d.tests(fl.V); err != nil {
				return nil, err
			}
		}
	}
	if !hasVersion {
		return nil, d.Errorf(root, "missing version (want version: 1)")
	}
	return f, nil
}
