// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode

import (
	"bytes"
	"encoding/json"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
)

// Answer is what the hook tells Claude Code for one call.
type Answer struct {
	Event Event
	// Verdict is Warden's, after the approver mapping: a prompt nobody can
	// answer is already a deny here.
	Verdict action.Verdict
	// Reason is the text Claude Code shows: to the model for a deny, to
	// the person for an ask.
	Reason string
	// UpdatedInput replaces the tool input (--wrap): set only on allow
	// and ask, so that whatever runs, runs wrapped.
	UpdatedInput json.RawMessage
	// Context is PostToolUse's additionalContext: a note for the model.
	Context string
}

// Verdict maps the engine's verdict to what the hook can answer: a prompt
// becomes a deny when nobody can answer it.
func Verdict(v action.Verdict, personCanAnswer bool) action.Verdict {
	return adapter.Verdict(v, personCanAnswer)
}

// JSON renders the answer in Claude Code's shape. It is always one JSON
// object; an answer with nothing to say is {} (no opinion).
func (a Answer) JSON() []byte {
	var v any = struct{}{}
	switch a.Event {
	case PreToolUse:
		type spec struct {
			HookEventName            Event           `json:"hookEventName"`
			PermissionDecision       string          `json:"permissionDecision"`
			PermissionDecisionReason string          `json:"permissionDecisionReason"`
			UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
		}
		s := spec{HookEventName: PreToolUse, PermissionDecision: decisionNames[a.Verdict], PermissionDecisionReason: a.Reason}
		if a.Verdict != action.Deny {
			s.UpdatedInput = a.UpdatedInput
		}
		v = struct {
			HookSpecificOutput spec `json:"hookSpecificOutput"`
		}{s}
	case PermissionRequest:
		// Only a deny decides the dialog; see the package doc.
		if a.Verdict == action.Deny {
			type decision struct {
				Behavior string `json:"behavior"`
				Message  string `json:"message"`
			}
			type spec struct {
				HookEventName Event    `json:"hookEventName"`
				Decision      decision `json:"decision"`
			}
			v = struct {
				HookSpecificOutput spec `json:"hookSpecificOutput"`
			}{spec{PermissionRequest, decision{"deny", a.Reason}}}
		}
	case PostToolUse, PostToolUseFailure:
		if a.Context != "" {
			type spec struct {
				HookEventName     Event  `json:"hookEventName"`
				AdditionalContext string `json:"additionalContext"`
			}
			v = struct {
				HookSpecificOutput spec `json:"hookSpecificOutput"`
			}{spec{a.Event, a.Context}}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("internal error: encoding a hook answer: " + err.Error())
	}
	return b.Bytes()
}

var decisionNames = map[action.Verdict]string{action.Allow: "allow", action.Prompt: "ask", action.Deny: "deny"}

// UpdatedInput is the payload's tool input with its command replaced:
// every other field (description, timeout, run_in_background) is kept.
func UpdatedInput(p *Payload, command string) (json.RawMessage, error) {
	return adapter.ReplaceString(p.ToolInput, "command", command)
}
