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
	case name == "view_image":
		// Codex reads the file in its own process and sends it to the
		// model as it is (proven against Codex 0.171.0): a read of it.
		file, err := adapter.PathField(name, p.ToolInput, "path", true)
		if err != nil {
			return err
		}
		paths, err := resolve(p.Cwd, file)
		if err != nil {
			return fmt.Errorf("view_image tool_input: %v", err)
		}
		r := base
		r.Tool, r.Paths = "read_file", paths
		c.Subject = adapter.Subject{Tool: name, Kind: "path", Value: file}
		c.Requests = []request.Request{r}
	case agentTools[name]:
		files, err := itemFiles(p)
		if err != nil {
			return err
		}
		// Handing work to a sub-agent is allowed as delegation: the
		// sub-agent's own calls pass the hook, as the session's do
		// (proven against Codex 0.171.0). The files its items name are
		// read by Codex and given to the sub-agent's model.
		r := base
		r.Tool = "delegate_task"
		c.Requests = []request.Request{r}
		c.Subject = adapter.Subject{Tool: name, Kind: "tool", Value: name}
		var reads []string
		for _, f := range files {
			paths, err := resolve(p.Cwd, f)
			if err != nil {
				return fmt.Errorf("%s tool_input: %v", name, err)
			}
			reads = union(reads, paths)
		}
		if len(reads) > 0 {
			read := base
			read.Tool, read.Paths = "read_file", reads
			c.Requests = append(c.Requests, read)
			c.Subject = adapter.Subject{Tool: name, Kind: "files", Value: strings.Join(files, ", ")}
		}
	default:
		r := base
		r.Tool = toolName(name)
		c.Subject = adapter.Subject{Tool: name, Kind: "tool", Value: name}
		c.Requests = []request.Request{r}
	}
	return c.Validate()
}

// agentTools are the names Codex gives its hooks for the sub-agent tools
// that take input items (multi_agent_v1): 0.171.0 names spawn_agent by
// its own name and the others with the namespace before it.
var agentTools = map[string]bool{
	"spawn_agent": true, "multi_agent_v1spawn_agent": true,
	"send_input": true, "multi_agent_v1send_input": true,
}

// itemFiles are the files named by the input items of a sub-agent tool
// (tool_input.items[].path): Codex reads a local_image and sends it to
// the sub-agent's model as it is (proven against Codex 0.171.0). The
// path of any other item (local_audio, skill, mention) is taken as a
// read too, since what Codex reads is not Warden's to guess; so is one
// that looks like a URL (a mention's app://…), which names a file in the
// turn's directory all the same when read as a path.
func itemFiles(p *Payload) ([]string, error) {
	var in struct {
		Items []struct {
			Path *string `json:"path"`
		} `json:"items"`
	}
	if err := adapter.Input(p.ToolName, p.ToolInput, &in); err != nil {
		return nil, err
	}
	var files []string
	for i, it := range in.Items {
		switch {
		case it.Path == nil:
		case *it.Path == "" || strings.ContainsRune(*it.Path, 0):
			return nil, fmt.Errorf("%s tool_input: items[%d] has an empty path or one holding a NUL byte", p.ToolName, i)
		default:
			files = append(files, *it.Path)
		}
	}
	return files, nil
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
