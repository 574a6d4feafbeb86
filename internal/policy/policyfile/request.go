// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"math"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/action"
)

var (
	testKeys    = []string{"name", "action", "expect"}
	requestKeys = []string{
		"tool", "classes", "command", "path", "paths", "url", "refs", "hosts",
		"count", "cents", "cwd", "project", "contained", "principal",
	}
	principalKeys = []string{"space", "agent", "workspace", "mode", "delegation"}
)

func (d *decoder) tests(n *yaml.Node) ([]Test, error) {
	items, err := d.list(n, "tests")
	if err != nil {
		return nil, err
	}
	var tests []Test
	for _, it := range items {
		t, err := d.test(it)
		if err != nil {
			return nil, err
		}
		for _, prev := range tests {
			if prev.Name == t.Name {
				return nil, d.errf(it, "duplicate test name %q (first at %d:%d)", t.Name, prev.Pos.Line, prev.Pos.Col)
			}
		}
		tests = append(tests, t)
	}
	return tests, nil
}

func (d *decoder) test(n *yaml.Node) (Test, error) {
	t := Test{Pos: d.pos(n)}
	fs, err := d.fields(n, "test", testKeys, false)
	if err != nil {
		return Test{}, err
	}
	var hasAction, hasExpect bool
	for _, f := range fs {
		switch f.key {
		case "name":
			if t.Name, err = d.nonEmpty(f.v, "test name"); err != nil {
				return Test{}, err
			}
		case "action":
			if t.Action, err = d.request(f.v); err != nil {
				return Test{}, err
			}
			hasAction = true
		case "expect":
			s, err := d.oneOf(f.v, "expect", decisionNames...)
			if err != nil {
				return Test{}, err
			}
			t.Expect, _ = action.ParseVerdict(s)
			hasExpect = true
		}
	}
	switch {
	case t.Name == "":
		return Test{}, d.errf(n, "test needs a name")
	case !hasAction:
		return Test{}, d.errf(n, "test %q needs an action", t.Name)
	case !hasExpect:
		return Test{}, d.errf(n, "test %q needs expect: allow, prompt or deny", t.Name)
	}
	return t, nil
}

// request decodes the action object of DESIGN.md §11.
func (d *decoder) request(n *yaml.Node) (Request, error) {
	var r Request
	fs, err := d.fields(n, "action", requestKeys, false)
	if err != nil {
		return r, err
	}
	var pathKey *yaml.Node
	for _, f := range fs {
		switch f.key {
		case "tool":
			r.Tool, err = d.nonEmpty(f.v, "tool")
		case "classes":
			var items []*yaml.Node
			if items, err = d.list(f.v, "classes"); err != nil {
				return r, err
			}
			for _, it := range items {
				s, err := d.oneOf(it, "class", classNames()...)
				if err != nil {
					return r, err
				}
				c, _ := action.ParseClass(s)
				r.Classes = append(r.Classes, c)
			}
		case "command":
			r.Command, err = d.str(f.v, "command")
		case "path", "paths":
			if pathKey != nil {
				return r, d.errf(f.k, "action has both path and paths; use paths: [...] alone")
			}
			pathKey = f.k
			if f.key == "path" {
				r.Path, err = d.nonEmpty(f.v, "path")
			} else {
				r.Paths, err = d.strList(f.v, "paths", true)
			}
		case "url":
			r.URL, err = d.nonEmpty(f.v, "url")
		case "refs":
			r.Refs, err = d.strList(f.v, "refs", true)
		case "hosts":
			r.Hosts, err = d.strList(f.v, "hosts", true)
		case "count", "cents":
			var v int64
			if v, err = d.integer(f.v, f.key, 0, math.MaxInt64); err == nil {
				if f.key == "count" {
					r.Count = &v
				} else {
					r.Cents = &v
				}
			}
		case "cwd":
			r.Cwd, err = d.nonEmpty(f.v, "cwd")
		case "project":
			r.Project, err = d.nonEmpty(f.v, "project")
		case "contained":
			r.Contained, err = d.boolean(f.v, "contained")
		case "principal":
			r.Principal, err = d.principal(f.v)
		}
		if err != nil {
			return r, err
		}
	}
	if r.Tool == "" {
		return r, d.errf(n, "action needs a tool")
	}
	return r, nil
}

func (d *decoder) principal(n *yaml.Node) (*Principal, error) {
	p := new(Principal)
	fs, err := d.fields(n, "principal", principalKeys, false)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		switch f.key {
		case "space":
			p.Space, err = d.id(f.v, "space")
		case "agent":
			p.Agent, err = d.id(f.v, "agent")
		case "workspace":
			p.Workspace, err = d.id(f.v, "workspace")
		case "mode":
			p.Mode, err = d.mode(f.v, "mode")
		case "delegation":
			var items []*yaml.Node
			if items, err = d.list(f.v, "delegation"); err != nil {
				return nil, err
			}
			for _, it := range items {
				s, err := d.id(it, "delegation item")
				if err != nil {
					return nil, err
				}
				p.Delegation = append(p.Delegation, s)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}
