// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/request"
)

// Agent is the principal's agent id of every call: a policy's agent:codex
// scope applies to Codex's calls.
const Agent = "codex"

// Call is one tool call in Warden's terms.
type Call struct {
	// Tool is Codex's name of the tool (Bash, apply_patch, mcp__x__y…).
	Tool string `json:"tool"`
	// Requests are the actions the engine decides; the strictest
	// decision is the call's. A patch that writes some files and deletes
	// others is two.
	Requests []request.Request `json:"requests"`
	// Subject is what the call is about; it comes from the model and is
	// quoted as data wherever it is shown.
	Subject adapter.Subject `json:"subject"`
	// Changes are the files an apply_patch call (or a shell command that
	// runs apply_patch) touches.
	Changes []Change `json:"changes,omitempty"`
	// Bash is true for a Bash call, the one kind --wrap rewrites.
	Bash bool `json:"bash,omitempty"`
	// Wrapped is true when the command was already rewritten by
	// [adapter.Wrapper.Wrap] (PermissionRequest and PostToolUse see the
	// rewritten input): the requests hold the inner command, contained,
	// and Audit the execution record's path.
	Wrapped bool   `json:"wrapped,omitempty"`
	Audit   string `json:"audit,omitempty"`
}

// Options say how payloads become calls.
type Options struct {
	// Project is the worktree root the caller found from the payload's
	// cwd; empty means cwd.
	Project string
	// Wrap, when set (--wrap), runs allowed Bash commands under `warden
	// run`: Bash calls are then decided as contained.
	Wrap *adapter.Wrapper
}

// Translate turns a payload into a call. It fails when the tool input
// lacks what the tool needs (a command, a patch Warden can read) or has
// it with the wrong type.
func Translate(p *Payload, opt Options) (*Call, error) {
	project := opt.Project
	if project == "" {
		project = p.Cwd
	}
	base := request.Request{
		Cwd:       p.Cwd,
		Project:   project,
		Principal: request.Principal{Agent: Agent, Session: p.SessionID},
	}
	c := &Call{Tool: p.ToolName}
	switch name := p.ToolName; {
	case name == "Bash":
		cmd, err := command(p)
		if err != nil {
			return nil, err
		}
		c.Bash = true
		r := base
		if opt.Wrap != nil {
			r.Contained = true
			if inner, audit, ok := opt.Wrap.Unwrap(cmd); ok {
				cmd, c.Wrapped, c.Audit = inner, true, audit
			}
		}
		r.Tool, r.Command = "bash", cmd
		c.Subject = adapter.Subject{Tool: name, Kind: "command", Value: cmd}
		c.Requests = []request.Request{r}
		// A shell command that runs apply_patch writes the files of its
		// patch too: Codex may apply it itself, outside the shell.
		if dir, patch, ok := patchInCommand(cmd); ok {
			changes, err := ParsePatch(patch)
			if err != nil {
				return nil, fmt.Errorf("Bash tool_input: apply_patch: %v", err)
			}
			pb := base
			if dir != "" {
				if !path.IsAbs(dir) {
					dir = path.Join(p.Cwd, dir)
				}
				pb.Cwd = dir
			}
			c.Changes = changes
			c.Requests = append(c.Requests, patchRequests(pb, changes)...)
		}
	case name == "apply_patch":
		patch, err := command(p)
		if err != nil {
			return nil, err
		}
		changes, err := ParsePatch(patch)
		if err != nil {
			return nil, fmt.Errorf("apply_patch tool_input: %v", err)
		}
		c.Changes = changes
		c.Requests = patchRequests(base, changes)
		var files []string
		for _, ch := range changes {
			files = append(files, ch.Path)
			if ch.MoveTo != "" {
				files = append(files, ch.MoveTo)
			}
		}
		c.Subject = adapter.Subject{Tool: name, Kind: "files", Value: strings.Join(files, ", ")}
	default:
		r := base
		r.Tool = toolName(name)
		c.Subject = adapter.Subject{Tool: name, Kind: "tool", Value: name}
		c.Requests = []request.Request{r}
	}
	for i := range c.Requests {
		if err := c.Requests[i].Validate(); err != nil {
			return nil, fmt.Errorf("%s tool_input: %v", p.ToolName, err)
		}
	}
	return c, nil
}

// patchRequests are the actions of a patch: one write_file of every file
// added, updated or moved to, and one delete_file of every file deleted
// or moved from.
func patchRequests(base request.Request, changes []Change) []request.Request {
	var writes, deletes []string
	for _, ch := range changes {
		switch {
		case ch.Op == Delete:
			deletes = append(deletes, ch.Path)
		case ch.MoveTo != "":
			deletes = append(deletes, ch.Path)
			writes = append(writes, ch.MoveTo)
		default:
			writes = append(writes, ch.Path)
		}
	}
	var out []request.Request
	if len(writes) > 0 {
		r := base
		r.Tool, r.Paths = "write_file", writes
		out = append(out, r)
	}
	if len(deletes) > 0 {
		r := base
		r.Tool, r.Paths = "delete_file", deletes
		out = append(out, r)
	}
	return out
}

// toolName names a tool Warden has no table entry for: an MCP tool
// mcp__server__tool is mcp:server/tool; anything else codex:NAME. Neither
// declares a class, so the engine asks about it.
func toolName(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if server, tool, ok := strings.Cut(rest, "__"); ok && server != "" && tool != "" {
			return "mcp:" + server + "/" + tool
		}
	}
	return "codex:" + name
}

// command reads tool_input.command, a non-blank string.
func command(p *Payload) (string, error) {
	var in struct {
		Command *string `json:"command"`
	}
	if err := json.Unmarshal(p.ToolInput, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return "", fmt.Errorf("%s tool_input: %q is not a %s", p.ToolName, te.Field, te.Type)
		}
		return "", fmt.Errorf("%s tool_input: %v", p.ToolName, err)
	}
	if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
		return "", fmt.Errorf(`%s tool_input has no "command"`, p.ToolName)
	}
	return *in.Command, nil
}
