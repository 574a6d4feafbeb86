// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

import (
	"fmt"
	"slices"
	"strings"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/request"
)

// Translate turns the parsed call into Warden's terms. It fails when the
// tool input lacks what the tool needs (a command, a patch Warden can
// read) or has it with the wrong type.
func (ag Agent) Translate(c *adapter.Call, opt adapter.Options) error {
	p := c.Payload.(*Payload)
	c.Dir = p.Cwd
	// Codex's PreToolUse has no ask; elsewhere Codex asks unless its
	// approvals are off.
	c.Asks = p.Event != PreToolUse && p.PermissionMode != "bypassPermissions"
	base := c.Base(ag.Name(), opt)
	switch name := p.ToolName; {
	case name == "Bash":
		cmd, err := command(p)
		if err != nil {
			return err
		}
		c.Shell = true
		r := base
		r.Tool, r.Command = "bash", cmd
		c.Unwrap(&r, opt)
		cmd = r.Command
		c.Subject = adapter.Subject{Tool: name, Kind: "command", Value: cmd}
		c.Requests = []request.Request{r}
		// A shell command that runs apply_patch writes the files of its
		// patch too, whether Codex applies it itself or bash runs it.
		sps, err := patchesInCommand(cmd, p.Cwd)
		if err != nil {
			return fmt.Errorf("Bash tool_input: %v", err)
		}
		var writes, deletes []string
		for _, sp := range sps {
			for _, dir := range sp.dirs {
				w, d, err := patchFiles(dir, sp.changes)
				if err != nil {
					return fmt.Errorf("Bash tool_input: apply_patch: %v", err)
				}
				writes, deletes = union(writes, w), union(deletes, d)
			}
		}
		c.Requests = append(c.Requests, patchRequests(base, writes, deletes)...)
	case name == "apply_patch":
		patch, err := command(p)
		if err != nil {
			return err
		}
		changes, err := ParsePatch(patch)
		if err != nil {
			return fmt.Errorf("apply_patch tool_input: %v", err)
		}
		writes, deletes, err := patchFiles(p.Cwd, changes)
		if err != nil {
			return fmt.Errorf("apply_patch tool_input: %v", err)
		}
		c.Requests = patchRequests(base, writes, deletes)
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
	return c.Validate()
}

// patchRequests are the actions of a patch: one write_file of every file
// added, updated or moved to, and one delete_file of every file deleted
// or moved from ([patchFiles]).
func patchRequests(base request.Request, writes, deletes []string) []request.Request {
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

// union appends to a the elements of b it does not hold.
func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
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

// command reads tool_input.command, a non-blank string, by its exact key
// ([adapter.Input]).
func command(p *Payload) (string, error) {
	var in struct {
		Command *string `json:"command"`
	}
	if err := adapter.Input(p.ToolName, p.ToolInput, &in); err != nil {
		return "", err
	}
	if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
		return "", fmt.Errorf(`%s tool_input has no "command"`, p.ToolName)
	}
	return *in.Command, nil
}
