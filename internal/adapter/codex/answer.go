// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

import (
	"bytes"
	"encoding/json"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/policy"
)

// Answer is what the hook tells Codex for one call.
type Answer struct {
	Event Event
	// Verdict is Warden's after [Verdict].
	Verdict action.Verdict
	// Reason is the text Codex shows: to the model for a PreToolUse deny,
	// with the refusal of a PermissionRequest.
	Reason string
	// UpdatedInput replaces the tool input (--wrap): set only on an
	// allowed PreToolUse call.
	UpdatedInput json.RawMessage
	// Context is PostToolUse's additionalContext: a note for the model.
	Context string
}

// Verdict maps the engine's verdict to what the hook can answer. At
// PreToolUse, which has no ask, a prompt is a deny; at PermissionRequest
// it stays a prompt (the person Codex asks decides) when someone can
// answer, and is a deny otherwise.
func Verdict(e Event, v action.Verdict, personCanAnswer bool) action.Verdict {
	if e == PreToolUse {
		personCanAnswer = false
	}
	return adapter.Verdict(v, personCanAnswer)
}

// JSON renders the answer in Codex's shape. It is always one JSON object;
// an answer with nothing to say is {} (no opinion), which Codex reads as
// success without a decision.
func (a Answer) JSON() []byte {
	var v any = struct{}{}
	switch a.Event {
	case PreToolUse:
		type spec struct {
			HookEventName            Event           `json:"hookEventName"`
			PermissionDecision       string          `json:"permissionDecision"`
			PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
			UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
		}
		switch {
		case a.Verdict == action.Deny:
			// Codex requires a non-empty reason with a deny.
			reason := a.Reason
			if reason == "" {
				reason = "Warden denied this call."
			}
			v = struct {
				HookSpecificOutput spec `json:"hookSpecificOutput"`
			}{spec{HookEventName: PreToolUse, PermissionDecision: "deny", PermissionDecisionReason: reason}}
		case a.Verdict == action.Allow && a.UpdatedInput != nil:
			// An allow is valid only with a rewrite; without one Warden
			// says nothing and Codex's own approvals decide.
			v = struct {
				HookSpecificOutput spec `json:"hookSpecificOutput"`
			}{spec{HookEventName: PreToolUse, PermissionDecision: "allow", UpdatedInput: a.UpdatedInput}}
		}
	case PermissionRequest:
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
	case PostToolUse:
		if a.Context != "" {
			type spec struct {
				HookEventName     Event  `json:"hookEventName"`
				AdditionalContext string `json:"additionalContext"`
			}
			v = struct {
				HookSpecificOutput spec `json:"hookSpecificOutput"`
			}{spec{PostToolUse, a.Context}}
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

// UpdatedInput is the payload's tool input with its command replaced.
func UpdatedInput(p *Payload, command string) (json.RawMessage, error) {
	return adapter.ReplaceString(p.ToolInput, "command", command)
}

// Why a prompt became a deny, at each event.
const (
	unansweredPre  = "Codex's PreToolUse hook cannot ask a person (it has no ask), and a call Codex would run unasked must not run with Warden's question never put, so it is denied: an unanswered question is never a yes."
	unansweredPerm = "Nobody can answer Warden's question in this session (it runs headless or with Codex's approvals off), so it is denied: an unanswered question is never a yes."
)

// Note is the reason given for a deny (fed to the model) or shown with a
// refused permission request; values from the call are quoted as data.
func Note(e Event, c *Call, a *action.Action, d policy.Decision, verdict action.Verdict) string {
	why := unansweredPerm
	if e == PreToolUse {
		why = unansweredPre
	}
	return adapter.Note(c.Subject, a, d, verdict, why)
}
