// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package claudecode translates Claude Code's hook protocol to Warden's
// engine and back: a hook payload (the JSON Claude Code writes on a hook's
// stdin) becomes a [request.Request], and a [policy.Decision] becomes the
// JSON Claude Code reads on the hook's stdout. [Agent] is the adapter
// package hook runs its pipeline around (`warden hook claude-code`); it
// does no I/O.
//
// # Events
//
//   - PreToolUse: every tool call before it runs. Answered with
//     hookSpecificOutput.permissionDecision allow, ask or deny and a
//     permissionDecisionReason, which Claude Code feeds to the model when
//     the call is denied. An allowed Bash call may carry updatedInput: the
//     command rewritten to run under `warden run` ([Wrap]).
//   - PermissionRequest: Claude Code is about to show its permission
//     dialog. Warden answers decision.behavior deny with a message when it
//     denies (or when it would ask and nobody can answer); otherwise it
//     gives no opinion and the person decides. Warden never answers allow
//     here: the dialog appears because the user's own settings ask for it
//     (or because Warden itself said ask), and a guard must not loosen the
//     user's own rules.
//   - PostToolUse and PostToolUseFailure: the call ran. Warden says
//     nothing, unless the call ran under `warden run` and the sandbox
//     refused something: then additionalContext tells the model what was
//     blocked and what to do instead.
//
// # Tools
//
// Bash goes through shell analysis (the bash tool, with its command);
// Read, Write, Edit, MultiEdit and NotebookEdit through path resolution
// (read_file, write_file, edit_file, multi_edit, notebook_edit with the
// file's path); Glob and Grep are reads of their directory (Grep reads it
// recursively: the pipeline adds the sensitive files below it); LS is a
// list_dir; WebFetch and WebSearch are web_fetch (the URL's host) and
// web_search; an MCP tool mcp__server__tool is the undeclared tool
// mcp:server/tool, which is at least a prompt. Any other tool is the
// undeclared tool claude-code:NAME: asked about, never allowed blind.
//
// # Failing closed
//
// Claude Code runs a tool when its hook exits with any status but 0 or 2,
// so the caller must exit 0 with an answer or 2 with a reason, never
// anything else. [Parse] rejects what it cannot read in full (not one JSON
// object, an unknown event, a tool input of the wrong shape): the hook
// exits 2 on its error, which blocks a PreToolUse call.
//
// # Asking
//
// Warden's prompt becomes ask when a person can answer, and deny when the
// session is headless or in dontAsk mode (the call's Asks).
// The payload does not say whether Claude Code runs headless (-p); the
// hook knows it from a flag or its environment.
package claudecode

import (
	"encoding/json"

	"warden.dev/warden/internal/adapter"
)

// MaxSize is the largest payload accepted, in bytes. A Write of a large
// file carries its content, so the bound is generous.
const MaxSize = 16 << 20

// Event is a hook event Warden answers.
type Event string

// The events of Claude Code's hook protocol Warden answers.
const (
	PreToolUse         Event = "PreToolUse"
	PermissionRequest  Event = "PermissionRequest"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
)

// Payload is the JSON object Claude Code writes on a hook's stdin. Fields
// Warden does not use (prompt_id, effort, permission_suggestions,
// duration_ms…) are ignored: Claude Code adds fields between versions.
type Payload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	// Cwd is Claude Code's working directory, absolute.
	Cwd string `json:"cwd"`
	// PermissionMode is default, acceptEdits, plan, dontAsk,
	// bypassPermissions or auto; empty in older versions.
	PermissionMode string `json:"permission_mode"`
	Event          Event  `json:"hook_event_name"`
	ToolName       string `json:"tool_name"`
	// ToolInput is the tool's own argument object.
	ToolInput json.RawMessage `json:"tool_input"`
	// ToolUseID is absent from PermissionRequest.
	ToolUseID string `json:"tool_use_id"`
	// AgentID is set when a subagent makes the call.
	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`
	// ToolResponse (PostToolUse) and Error (PostToolUseFailure) are what
	// the tool gave back.
	ToolResponse json.RawMessage `json:"tool_response"`
	Error        string          `json:"error"`
}

// Parse decodes one payload. It is an error when data is not exactly one
// JSON object, when a field Warden reads has the wrong type, when the
// event is not one of [PreToolUse], [PermissionRequest], [PostToolUse]
// and [PostToolUseFailure], when the tool name or the working directory is
// missing, or when tool_input is not an object.
func Parse(data []byte) (*Payload, error) {
	var p Payload
	if err := adapter.DecodePayload(data, MaxSize, "Claude Code", &p); err != nil {
		return nil, err
	}
	if err := adapter.CheckPayload(string(p.Event), []string{string(PreToolUse), string(PermissionRequest), string(PostToolUse), string(PostToolUseFailure)}, p.ToolName, p.Cwd, p.ToolInput); err != nil {
		return nil, err
	}
	return &p, nil
}

// Agent is Claude Code's adapter.
type Agent struct{}

func init() { adapter.Register(Agent{}) }

// Name is the agent's id: a policy's agent:claude-code scope applies to
// Claude Code's calls.
func (Agent) Name() string { return "claude-code" }

// Title names Claude Code in messages.
func (Agent) Title() string { return "Claude Code" }

// phases maps each event to what it is.
var phases = map[Event]adapter.Phase{
	PreToolUse:         adapter.Before,
	PermissionRequest:  adapter.Permission,
	PostToolUse:        adapter.After,
	PostToolUseFailure: adapter.After,
}

// Parse reads one payload ([Parse]).
func (Agent) Parse(data []byte) (*adapter.Call, error) {
	p, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return &adapter.Call{
		Event: string(p.Event), Phase: phases[p.Event], Tool: p.ToolName,
		Session: p.SessionID, Cwd: p.Cwd, ID: p.ToolUseID, Payload: p,
	}, nil
}
