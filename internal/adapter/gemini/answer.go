// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gemini

import (
	"bytes"
	"encoding/json"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/policy"
)

// Answer is what the hook tells Gemini CLI for one BeforeTool call.
type Answer struct {
	// Verdict is Warden's after [Verdict].
	Verdict action.Verdict
	// Reason is sent to the model as the tool's error on a deny, and
	// shown to the person (systemMessage) on an ask.
	Reason string
	// ToolInput is merged over the tool's arguments (--wrap): set only on
	// allow and ask, so that whatever runs, runs wrapped.
	ToolInput json.RawMessage
}

// Verdict maps the engine's verdict to what the hook can answer: a prompt
// is an ask only when a person can answer and Gemini CLI confirms the
// tool itself, and a deny otherwise.
func Verdict(c *Call, v action.Verdict, headless bool) action.Verdict {
	return adapter.Verdict(v, !headless && c.Confirms)
}

// JSON renders the answer in Gemini CLI's shape, always one JSON object.
func (a Answer) JSON() []byte {
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
	if a.Verdict != action.Deny && a.ToolInput != nil {
		v.HookSpecificOutput = &spec{BeforeTool, a.ToolInput}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("internal error: encoding a hook answer: " + err.Error())
	}
	return b.Bytes()
}

// WrappedInput is the tool_input that --wrap merges over the arguments:
// only the command, rewritten (Gemini CLI keeps every other argument).
func WrappedInput(command string) (json.RawMessage, error) {
	return adapter.ReplaceString(json.RawMessage(`{}`), "command", command)
}

// Why a prompt became a deny.
const (
	unansweredHeadless = "Nobody can answer Warden's question in this session (it runs headless), so it is denied: an unanswered question is never a yes."
	unansweredTool     = "Gemini CLI asks a person only before the tools it confirms itself, and it runs this one unasked, so Warden denies what it would ask: an unanswered question is never a yes."
)

// Note is the reason given for a deny (fed to the model) or an ask (shown
// to the person); values from the call are quoted as data.
func Note(c *Call, a *action.Action, d policy.Decision, verdict action.Verdict, headless bool) string {
	why := unansweredHeadless
	if !headless && !c.Confirms {
		why = unansweredTool
	}
	return adapter.Note(c.Subject, a, d, verdict, why)
}
