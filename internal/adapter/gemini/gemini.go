// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package gemini translates Gemini CLI's hook protocol to Warden's engine
// and back: a BeforeTool payload (the JSON Gemini CLI writes on a command
// hook's stdin) becomes one or more [request.Request]s, and a
// [policy.Decision] becomes the JSON Gemini CLI reads on the hook's
// stdout. [Agent] is the adapter package hook runs its pipeline around
// (`warden hook gemini`); it does no I/O.
//
// The wire format follows google-gemini/gemini-cli docs/hooks/reference.md,
// packages/core/src/hooks/types.ts, packages/core/src/scheduler/hook-utils.ts
// and scheduler.ts, and the tool names of
// packages/core/src/tools/definitions/base-declarations.ts;
// testdata/README.md says which source each payload shape comes from.
//
// # The event
//
// BeforeTool fires before every matched tool call. Warden answers
// decision deny with a reason (Gemini CLI sends it to the model as the
// tool's error), decision ask (Gemini CLI's own confirmation is forced,
// and systemMessage tells the person why), or decision allow, which
// loosens nothing: Gemini CLI's policy engine and confirmations still
// apply. An allowed shell command may carry hookSpecificOutput.tool_input:
// the call's arguments with the command rewritten to run under `warden
// run` (--wrap), which Gemini CLI builds the tool from and validates
// again (0.61 takes that object whole: it merges nothing).
//
// # Asking
//
// A Warden prompt becomes ask only when a person can answer it: not when
// the session is headless (gemini -p, --yolo: the caller knows it from a
// flag or its environment), and only for the tools Gemini CLI itself
// confirms (run_shell_command, write_file, replace, web_fetch and MCP
// tools). Gemini CLI's confirmation proceeds without asking for a tool
// whose invocation has nothing to confirm (confirmation.ts: no details,
// ProceedOnce), so an ask on read_file would be an allow; there a prompt
// is a deny.
//
// # Tools
//
// run_shell_command goes through shell analysis in its dir_path; read_file,
// write_file and replace through path resolution (read_file, write_file,
// edit_file); glob and list_directory are reads of their directory (and
// of the literal leading directory of each of a glob's brace
// alternatives, which Gemini CLI does not hold to its workspace; one that
// a ".." after a wildcard climbs to is read recursively: glob.go),
// grep_search (search_file_content in older versions) reads its directory
// recursively, read_many_files reads every path and literal directory of
// its patterns, the same way, recursively; web_fetch
// is a web_fetch of every URL its prompt holds, google_web_search a
// web_search. An MCP tool (mcp_context, or a name mcp__server__tool) is the
// undeclared tool mcp:server/tool; any other tool is the undeclared tool
// gemini:NAME: asked about, never allowed blind.
//
// # Failing closed
//
// Gemini CLI blocks the tool when its hook exits 2 (stderr is the reason)
// and runs it, with a warning, when the hook fails any other way. [Parse]
// and [Agent.Translate] reject what they cannot read in full: the hook
// exits 2.
package gemini

import (
	"encoding/json"

	"warden.dev/warden/internal/adapter"
)

// MaxSize is the largest payload accepted, in bytes. A write_file carries
// the whole file, so the bound is generous.
const MaxSize = 16 << 20

// The hook events Warden answers: BeforeTool decides the call;
// AfterTool, after a shell command --wrap ran under warden run, tells the
// model what the sandbox refused (additionalContext, which Gemini CLI
// appends to the tool's result in <hook_context>). Gemini CLI hands
// AfterTool the arguments BeforeTool's answer rewrote: the wrapped line,
// which names the run's execution record.
const (
	BeforeTool = "BeforeTool"
	AfterTool  = "AfterTool"
)

// MCPContext is what Gemini CLI says of an MCP tool's server. Its
// connection fields are ignored.
type MCPContext struct {
	ServerName string `json:"server_name"`
	ToolName   string `json:"tool_name"`
}

// Payload is the JSON object Gemini CLI writes on a BeforeTool hook's
// stdin. Fields Warden does not use are ignored.
type Payload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	// Cwd is Gemini CLI's working directory, absolute.
	Cwd       string `json:"cwd"`
	Event     string `json:"hook_event_name"`
	Timestamp string `json:"timestamp"`
	ToolName  string `json:"tool_name"`
	// ToolInput is the tool's own argument object.
	ToolInput json.RawMessage `json:"tool_input"`
	// MCPContext is set for MCP tools only.
	MCPContext *MCPContext `json:"mcp_context"`
	// OriginalRequestName is the name the model called the tool by, when
	// Gemini CLI resolved it to another.
	OriginalRequestName string `json:"original_request_name"`
	// ToolResponse is AfterTool's: what the tool returned. Not read.
	ToolResponse json.RawMessage `json:"tool_response"`
}

// Parse decodes one payload. It is an error when data is not exactly one
// JSON object, when a field Warden reads has the wrong type, when the
// event is not BeforeTool or AfterTool, when the tool name or the working directory is
// missing, or when tool_input is not an object.
func Parse(data []byte) (*Payload, error) {
	var p Payload
	if err := adapter.DecodePayload(data, MaxSize, "Gemini CLI", &p); err != nil {
		return nil, err
	}
	if err := adapter.CheckPayload(p.Event, []string{BeforeTool, AfterTool}, p.ToolName, p.Cwd, p.ToolInput); err != nil {
		return nil, err
	}
	return &p, nil
}

// Agent is Gemini CLI's adapter.
type Agent struct{}

func init() { adapter.Register(Agent{}) }

// Name is the agent's id: a policy's agent:gemini scope applies to Gemini
// CLI's calls.
func (Agent) Name() string { return "gemini" }

// Title names Gemini CLI in messages.
func (Agent) Title() string { return "Gemini CLI" }

// Parse reads one payload ([Parse]). Gemini CLI gives a call no id: a
// wrapped run's execution record is named after its grant instead, which
// the wrapped line carries to AfterTool.
func (Agent) Parse(data []byte) (*adapter.Call, error) {
	p, err := Parse(data)
	if err != nil {
		return nil, err
	}
	phase := adapter.Before
	if p.Event == AfterTool {
		phase = adapter.After
	}
	return &adapter.Call{
		Event: p.Event, Phase: phase, Tool: p.ToolName,
		Session: p.SessionID, Cwd: p.Cwd, Payload: p,
	}, nil
}
