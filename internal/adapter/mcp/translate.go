// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"warden.dev/warden/internal/request"
)

// ToolName is the name the engine, the audit and the reasons give a
// server's tool: mcp:<server>/<tool>.
func ToolName(server, tool string) string { return "mcp:" + server + "/" + tool }

// Request translates one tools/call into the action the engine decides.
// A declared tool takes its entry's semantics: with as, the request is
// that Warden tool's (read_file over the path arguments, so the path
// floor applies; write_file, edit_file: writes), with the declared
// classes added; without as, it is mcp:<server>/<tool> with those
// classes. An undeclared tool is mcp:<server>/<tool> with nothing
// declared, which the engine treats as mutating and asks about.
//
// A declared path or URL argument that is missing, empty or of another
// type is an error; the gateway denies such a call with it (fail
// closed: a facet the engine cannot see is never guessed). The receiver
// may be nil (nothing declared).
func (d *Declaration) Request(server, tool string, args map[string]json.RawMessage) (*request.Request, error) {
	t, ok := d.lookup(tool)
	if !ok {
		return &request.Request{Tool: ToolName(server, tool)}, nil
	}
	req, err := t.request(server, tool, args)
	if err != nil {
		return nil, err
	}
	if d.DenyRelative {
		for _, p := range req.Paths {
			if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") && p != "~" {
				return nil, fmt.Errorf("path %q is relative, and this server resolves relative paths against its own directories, which Warden cannot see: give an absolute path", p)
			}
		}
	}
	return req, nil
}

func (t Tool) request(server, tool string, args map[string]json.RawMessage) (*request.Request, error) {
	req := t.shape(server, tool)
	for _, name := range t.Paths {
		raw, ok := args[name]
		if !ok || string(raw) == "null" {
			return nil, fmt.Errorf("argument %q, which the declaration says holds a path, is missing", name)
		}
		var one string
		if err := json.Unmarshal(raw, &one); err == nil {
			if one == "" {
				return nil, fmt.Errorf("argument %q, which the declaration says holds a path, is empty", name)
			}
			req.Paths = append(req.Paths, one)
			continue
		}
		var many []string
		if err := json.Unmarshal(raw, &many); err != nil || many == nil {
			return nil, fmt.Errorf("argument %q, which the declaration says holds a path, is not a string or a list of strings", name)
		}
		if len(many) == 0 {
			return nil, fmt.Errorf("argument %q, which the declaration says holds paths, is an empty list", name)
		}
		for _, p := range many {
			if p == "" {
				return nil, fmt.Errorf("argument %q, which the declaration says holds paths, holds an empty path", name)
			}
		}
		req.Paths = append(req.Paths, many...)
	}
	if t.URL != "" {
		raw, ok := args[t.URL]
		var u string
		if !ok || json.Unmarshal(raw, &u) != nil || u == "" {
			return nil, fmt.Errorf("argument %q, which the declaration says holds a URL, is missing or not a non-empty string", t.URL)
		}
		req.URL = u
	}
	return req, nil
}

// Shape is the request for a tool without its arguments: what tools/list
// filtering decides. A missing facet never makes a rule deny (a rule
// naming a facet the request lacks asks instead), so a deny of the shape
// is a deny of every call of the tool.
func (d *Declaration) Shape(server, tool string) *request.Request {
	t, ok := d.lookup(tool)
	if !ok {
		return &request.Request{Tool: ToolName(server, tool)}
	}
	return t.shape(server, tool)
}

// argNames returns the arguments tool's entry says hold paths or a URL.
func (d *Declaration) argNames(tool string) []string {
	t, _ := d.lookup(tool)
	if t.URL == "" {
		return t.Paths
	}
	return append(append([]string(nil), t.Paths...), t.URL)
}

func (d *Declaration) lookup(tool string) (Tool, bool) {
	if d == nil {
		return Tool{}, false
	}
	t, ok := d.Tools[tool]
	return t, ok
}

func (t Tool) shape(server, tool string) *request.Request {
	req := &request.Request{Tool: ToolName(server, tool), Classes: append([]string(nil), t.Classes...)}
	if t.As != "" {
		req.Tool = t.As
	}
	return req
}
