// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/request"
)

// Agent is the principal's agent id of every call: a policy's
// agent:claude-code scope applies to Claude Code's calls.
const Agent = "claude-code"

// Call is one tool call in Warden's terms.
type Call struct {
	// Tool is Claude Code's name of the tool (Bash, Read, mcp__x__y…).
	Tool string `json:"tool"`
	// Request is the action the engine decides.
	Request request.Request `json:"request"`
	// Subject is what the call is about: the command, the path, the URL
	// or the tool. It comes from the model: wherever it is shown, it is
	// quoted as data.
	Subject string `json:"subject"`
	// Recursive lists directories the call reads with everything below
	// them (Grep). The caller adds the sensitive files found there to
	// Request.Paths, so the floor judges what the call really reads.
	Recursive []string `json:"recursive,omitempty"`
	// Bash is true for a Bash call, the one kind --wrap rewrites.
	Bash bool `json:"bash,omitempty"`
	// Wrapped is true when the Bash command was already rewritten by
	// [Wrapper.Wrap] (PermissionRequest and PostToolUse see the rewritten
	// input): Request holds the inner command, contained, and Audit the
	// execution record's path.
	Wrapped bool   `json:"wrapped,omitempty"`
	Audit   string `json:"audit,omitempty"`
}

// Options say how payloads become calls.
type Options struct {
	// Project is the worktree root the caller found from the payload's
	// cwd (the git top level, else cwd); empty means cwd.
	Project string
	// Wrap, when set (--wrap), runs allowed Bash commands under `warden
	// run`: Bash calls are then decided as contained.
	Wrap *Wrapper
}

// Translate turns a payload into a call. It fails when the tool input
// lacks what the tool needs (a Bash command, a file path, a URL) or has it
// with the wrong type.
func Translate(p *Payload, opt Options) (*Call, error) {
	project := opt.Project
	if project == "" {
		project = p.Cwd
	}
	c := &Call{Tool: p.ToolName}
	c.Request = request.Request{
		Cwd:       p.Cwd,
		Project:   project,
		Principal: request.Principal{Agent: Agent, Session: p.SessionID},
	}
	r := &c.Request
	switch name := p.ToolName; name {
	case "Bash":
		var in struct {
			Command *string `json:"command"`
		}
		if err := input(p, &in); err != nil {
			return nil, err
		}
		if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
			return nil, errors.New(`Bash tool_input has no "command"`)
		}
		cmd := *in.Command
		c.Bash = true
		if opt.Wrap != nil {
			r.Contained = true
			if inner, audit, ok := opt.Wrap.Unwrap(cmd); ok {
				cmd, c.Wrapped, c.Audit = inner, true, audit
			}
		}
		r.Tool, r.Command, c.Subject = "bash", cmd, cmd
	case "Read", "Write", "Edit", "MultiEdit", "NotebookEdit":
		field := "file_path"
		if name == "NotebookEdit" {
			field = "notebook_path"
		}
		fp, err := pathField(p, field, true)
		if err != nil {
			return nil, err
		}
		r.Tool = fileTools[name]
		r.Path, c.Subject = &fp, fp
	case "Glob", "Grep", "LS":
		dir, err := pathField(p, "path", name == "LS")
		if err != nil {
			return nil, err
		}
		if dir == "" {
			dir = p.Cwd
		}
		r.Tool, c.Subject = fileTools[name], dir
		r.Paths = []string{dir}
		if name == "Grep" {
			c.Recursive = []string{dir}
		}
		if name == "Glob" {
			pat, err := stringField(p, "pattern", true)
			if err != nil {
				return nil, err
			}
			c.Subject = pat
			// The pattern's literal leading directories are read too:
			// /root/.ssh/* lists ~/.ssh wherever path points.
			if d := adapter.LiteralDir(pat); d != "" {
				if !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~") {
					d = path.Join(dir, d)
				}
				if d != dir {
					r.Paths = append(r.Paths, d)
				}
			}
		}
	case "WebFetch":
		u, err := stringField(p, "url", true)
		if err != nil {
			return nil, err
		}
		r.Tool, r.URL, c.Subject = "web_fetch", u, u
	case "WebSearch":
		q, err := stringField(p, "query", false)
		if err != nil {
			return nil, err
		}
		r.Tool, c.Subject = "web_search", q
	default:
		r.Tool, c.Subject = toolName(name), name
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("%s tool_input: %v", p.ToolName, err)
	}
	return c, nil
}

// fileTools maps Claude Code's file tools to Warden's.
var fileTools = map[string]string{
	"Read": "read_file", "Write": "write_file", "Edit": "edit_file",
	"MultiEdit": "multi_edit", "NotebookEdit": "notebook_edit",
	"Glob": "glob", "Grep": "grep", "LS": "list_dir",
}

// toolName names a tool Warden has no table entry for: an MCP tool
// mcp__server__tool is mcp:server/tool; anything else claude-code:NAME.
// Neither declares a class, so the engine asks about it.
func toolName(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if server, tool, ok := strings.Cut(rest, "__"); ok && server != "" && tool != "" {
			return "mcp:" + server + "/" + tool
		}
	}
	return "claude-code:" + name
}

func input(p *Payload, v any) error { return adapter.Input(p.ToolName, p.ToolInput, v) }

func stringField(p *Payload, name string, required bool) (string, error) {
	return adapter.StringField(p.ToolName, p.ToolInput, name, required)
}

func pathField(p *Payload, name string, required bool) (string, error) {
	return adapter.PathField(p.ToolName, p.ToolInput, name, required)
}
