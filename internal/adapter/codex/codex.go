// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package codex translates OpenAI Codex's hook protocol to Warden's engine
// and back: a hook payload (the JSON Codex writes on a command hook's
// stdin) becomes one or more [request.Request]s, and a [policy.Decision]
// becomes the JSON Codex reads on the hook's stdout. [Agent] is the
// adapter package hook runs its pipeline around (`warden hook codex`); it
// does no I/O.
//
// The wire format follows openai/codex codex-rs/hooks (src/schema.rs,
// src/events/pre_tool_use.rs, src/engine/output_parser.rs) and
// codex-rs/core/src/tools/hook_names.rs; testdata/README.md says which
// source each payload shape comes from.
//
// # Events
//
//   - PreToolUse: a tool call before it runs. Codex reads
//     hookSpecificOutput.permissionDecision, but only deny (with a
//     non-empty permissionDecisionReason, which the model sees) and allow
//     with updatedInput (a rewrite) are valid: an ask, or an allow without
//     updatedInput, marks the hook failed and the call goes on through
//     Codex's own approval flow. So Warden answers deny with its note,
//     allow with the command rewritten under `warden run` (--wrap), or {}
//     (no opinion: Codex's own approvals and sandbox still apply).
//   - PermissionRequest: Codex is about to ask the person. Warden answers
//     decision.behavior deny with a message when it denies (or would ask
//     and nobody can answer), and otherwise gives no opinion, so the person
//     decides. It never answers allow: the question comes from the user's
//     own approval settings, and a guard must not loosen them.
//   - PostToolUse: the call ran. Warden says nothing, unless the call ran
//     under `warden run` and the sandbox refused something: then
//     hookSpecificOutput.additionalContext tells the model what.
//
// # Asking
//
// Codex's PreToolUse has no ask. A Warden prompt cannot reach a person
// from there: Codex asks only when its own approval policy asks, and a
// call it would run unasked would then run with Warden's question never
// put. So a prompt is a deny at PreToolUse, whose reason says so; at
// PermissionRequest (Codex is asking anyway) a prompt is left to the
// person, unless the session is headless or runs with approvals off
// (permission_mode bypassPermissions), where it is a deny.
//
// # Tools
//
// Codex names its shell-like tools (shell, shell_command, exec_command,
// the unified exec) Bash in hook payloads, with tool_input {command}: a
// Bash call goes through shell analysis. apply_patch has tool_input
// {command: the patch}, read as Codex's parser reads it (patch.go): every
// file the patch adds, updates or moves to is a write_file, every file it
// deletes or moves from a delete_file, each path resolved as Codex
// resolves it, and the strictest decision wins. A Bash command that
// applies a patch — intercepted by Codex or run by bash (shellpatch.go) —
// writes those files too. view_image {path} is a read_file of its file,
// which Codex sends the model as it is. The sub-agent tools that take
// input items (spawn_agent, send_input) are a delegate_task, and a
// read_file of every file their items name (a local_image is sent to the
// sub-agent's model as it is); a sub-agent's own calls come to the hook
// as the session's do, with agent_id set. An MCP tool mcp__server__tool
// is the undeclared tool mcp:server/tool. Any other tool is the
// undeclared tool codex:NAME: asked about (so denied at PreToolUse),
// never allowed blind.
//
// # Failing closed
//
// Codex blocks a PreToolUse call when its hook exits 2 with a reason on
// stderr, and runs it when the hook fails any other way. [Parse] and
// [Agent.Translate] reject what they cannot read in full: the hook exits
// 2.
package codex

import (
	"encoding/json"

	"warden.dev/warden/internal/adapter"
)

// MaxSize is the largest payload accepted, in bytes. A patch carries
// whole files, so the bound is generous.
const MaxSize = 16 << 20

// Event is a hook event Warden answers.
type Event string

// The events of Codex's hook protocol Warden answers.
const (
	PreToolUse        Event = "PreToolUse"
	PermissionRequest Event = "PermissionRequest"
	PostToolUse       Event = "PostToolUse"
)

// Payload is the JSON object Codex writes on a hook's stdin. Fields
// Warden does not use are ignored: Codex adds fields between versions.
type Payload struct {
	SessionID string `json:"session_id"`
	// TurnID is a Codex extension: the turn the call belongs to.
	TurnID string `json:"turn_id"`
	// TranscriptPath is null when the session keeps none.
	TranscriptPath *string `json:"transcript_path"`
	// Cwd is the turn's working directory, absolute.
	Cwd   string `json:"cwd"`
	Event Event  `json:"hook_event_name"`
	Model string `json:"model"`
	// PermissionMode is bypassPermissions when the approval policy is
	// never (nobody is asked), default otherwise.
	PermissionMode string `json:"permission_mode"`
	ToolName       string `json:"tool_name"`
	// ToolInput is {command} for Bash and apply_patch, the arguments of
	// an MCP tool.
	ToolInput json.RawMessage `json:"tool_input"`
	// ToolUseID is absent from PermissionRequest.
	ToolUseID string `json:"tool_use_id"`
	// AgentID and AgentType are set when a subagent makes the call.
	AgentID      string          `json:"agent_id"`
	AgentType    string          `json:"agent_type"`
	ToolResponse json.RawMessage `json:"tool_response"`
}

// Parse decodes one payload. It is an error when data is not exactly one
// JSON object, when a field Warden reads has the wrong type, when the
// event is not one of [PreToolUse], [PermissionRequest] and
// [PostToolUse], when the tool name or the working directory is missing,
// or when tool_input is not an object.
func Parse(data []byte) (*Payload, error) {
	var p Payload
	if err := adapter.DecodePayload(data, MaxSize, "Codex", &p); err != nil {
		return nil, err
	}
	if err := adapter.CheckPayload(string(p.Event), []string{string(PreToolUse), string(PermissionRequest), string(PostToolUse)}, p.ToolName, p.Cwd, p.ToolInput); err != nil {
		return nil, err
	}
	return &p, nil
}

// Agent is Codex's adapter.
type Agent struct{}

func init() { adapter.Register(Agent{}) }

// Name is the agent's id: a policy's agent:codex scope applies to Codex's
// calls.
func (Agent) Name() string { return "codex" }

// Title names Codex in messages.
func (Agent) Title() string { return "Codex" }

// phases maps each event to what it is.
var phases = map[Event]adapter.Phase{
	PreToolUse:        adapter.Before,
	PermissionRequest: adapter.Permission,
	PostToolUse:       adapter.After,
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
