// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/request"
)

// Translate turns the parsed call into Warden's terms. It fails when the
// tool input lacks what the tool needs (a Bash command, a file path, a
// URL) or has it with the wrong type.
func (ag Agent) Translate(c *adapter.Call, opt adapter.Options) error {
	p := c.Payload.(*Payload)
	c.Dir = p.Cwd
	// In dontAsk mode Claude Code denies what it would ask; a headless
	// session (claude -p with no permission prompt tool) has nobody
	// either, which the hook knows from its flag: there a prompt is a
	// deny, since an unanswered question is never a yes.
	c.Asks = p.PermissionMode != "dontAsk"
	req := c.Base(ag.Name(), opt)
	r := &req
	kind := "tool"
	var subject string
	// above reads, recursively, what a glob pattern can climb to.
	var above *request.Request
	switch name := p.ToolName; name {
	case "Bash":
		var in struct {
			Command *string `json:"command"`
		}
		if err := input(p, &in); err != nil {
			return err
		}
		if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
			return errors.New(`Bash tool_input has no "command"`)
		}
		c.Shell, kind = true, "command"
		r.Tool, r.Command = "bash", *in.Command
		c.Unwrap(r, opt)
		subject = r.Command
	case "Read", "Write", "Edit", "MultiEdit", "NotebookEdit":
		field := "file_path"
		if name == "NotebookEdit" {
			field = "notebook_path"
		}
		fp, err := pathField(p, field, true)
		if err != nil {
			return err
		}
		r.Tool = fileTools[name]
		r.Path, subject, kind = &fp, fp, "path"
	case "Glob", "Grep", "LS":
		dir, err := pathField(p, "path", name == "LS")
		if err != nil {
			return err
		}
		if dir == "" {
			dir = p.Cwd
		}
		r.Tool, subject, kind = fileTools[name], dir, "path"
		r.Paths = []string{dir}
		if name == "Grep" {
			r.Recursive = true
		}
		if name == "Glob" {
			pat, err := stringField(p, "pattern", true)
			if err != nil {
				return err
			}
			subject, kind = pat, "pattern"
			// The pattern is matched from its own literal directories,
			// which may leave path (/root/.ssh/* lists ~/.ssh wherever
			// path points), one per brace alternative: each is read. One
			// that a ".." after a wildcard climbs to is read with
			// everything below it, the names the rest may match.
			reaches, err := adapter.GlobReach(dir, pat)
			if err != nil {
				return fmt.Errorf("%s tool_input: %v", name, err)
			}
			for _, re := range reaches {
				switch {
				case re.Above:
					if above == nil {
						a := req
						a.Paths, a.Recursive = nil, true
						above = &a
					}
					above.Paths = appendNew(above.Paths, re.Dir)
				default:
					r.Paths = appendNew(r.Paths, re.Dir)
				}
			}
		}
	case "WebFetch":
		u, err := stringField(p, "url", true)
		if err != nil {
			return err
		}
		r.Tool, r.URL, subject, kind = "web_fetch", u, u, "url"
	case "WebSearch":
		q, err := stringField(p, "query", false)
		if err != nil {
			return err
		}
		r.Tool, subject = "web_search", q
	default:
		r.Tool, subject = toolName(name), name
	}
	c.Requests = []request.Request{req}
	if above != nil {
		c.Requests = append(c.Requests, *above)
	}
	c.Subject = adapter.Subject{Tool: c.Tool, Kind: kind, Value: subject}
	return c.Validate()
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

// appendNew appends p to list unless it is there.
func appendNew(list []string, p string) []string {
	if slices.Contains(list, p) {
		return list
	}
	return append(list, p)
}
