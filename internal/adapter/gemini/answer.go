// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gemini

import (
	"encoding/json"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
)

// Answer renders the answer in Gemini CLI's shape, always one JSON
// object: after the call, the note on what the sandbox refused, or {}.
func (Agent) Answer(c *adapter.Call, a adapter.Answer) []byte {
	if c != nil && c.Phase == adapter.After {
		if a.Context == "" {
			return adapter.EncodeAnswer(struct{}{})
		}
		return adapter.EncodeAnswer(adapter.AddedContext(AfterTool, a.Context))
	}
	type spec struct {
		HookEventName string          `json:"hookEventName"`
		ToolInput     json.RawMessage `json:"tool_input"`
	}
	type answer struct {
		Decision           string `json:"decision"`
		Reason             string `json:"reason,omitempty"`
		SystemMessage      string `json:"systemMessage,omitempty"`
		HookSpecificOutput *spec  `json:"hookSpecificOutput,omitempty"`
	}
	var v answer
	switch a.Verdict {
	case action.Allow:
		// allow loosens nothing in Gemini CLI: its policy engine and
		// confirmations still decide.
		v.Decision = "allow"
	case action.Prompt:
		v.Decision, v.Reason, v.SystemMessage = "ask", a.Reason, a.Reason
	default:
		v.Decision, v.Reason = "deny", a.Reason
		if v.Reason == "" {
			v.Reason = "Warden denied this call."
		}
	}
	if a.Verdict != action.Deny && a.Input != nil {
		v.HookSpecificOutput = &spec{BeforeTool, a.Input}
	}
	return adapter.EncodeAnswer(v)
}

// Rewrite is the tool_input that --wrap answers: the call's own
// arguments with the command rewritten. Gemini CLI 0.61's scheduler
// builds the tool from the hook's tool_input alone (it merges nothing):
// an answer of the command only dropped dir_path, description and
// is_background, and a background command ran in the foreground
// (TestGeminiRealClient).
func (Agent) Rewrite(c *adapter.Call, command string) (json.RawMessage, error) {
	return adapter.ReplaceString(c.Payload.(*Payload).ToolInput, "command", command)
}

// Why a prompt became a deny.
const (
	unansweredHeadless = "Nobody can answer Warden's question in this session (it runs headless), so it is denied: an unanswered question is never a yes."
	unansweredTool     = "Gemini CLI asks a person only before the tools it confirms itself, and it runs this one unasked, so Warden denies what it would ask: an unanswered question is never a yes."
)

// Unanswered is why a prompt became a deny: nobody is there, or Gemini
// CLI runs the tool unasked.
func (Agent) Unanswered(c *adapter.Call, headless bool) string {
	if !headless && !c.Asks {
		return unansweredTool
	}
	return unansweredHeadless
}
