// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

import (
	"encoding/json"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
)

// Answer renders the answer in Codex's shape. It is always one JSON
// object; an answer with nothing to say is {} (no opinion), which Codex
// reads as success without a decision.
func (Agent) Answer(c *adapter.Call, a adapter.Answer) []byte {
	var v any = struct{}{}
	switch Event(c.Event) {
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
		case a.Verdict == action.Allow && a.Input != nil:
			// An allow is valid only with a rewrite; without one Warden
			// says nothing and Codex's own approvals decide.
			v = struct {
				HookSpecificOutput spec `json:"hookSpecificOutput"`
			}{spec{HookEventName: PreToolUse, PermissionDecision: "allow", UpdatedInput: a.Input}}
		}
	case PermissionRequest:
		if a.Verdict == action.Deny {
			v = adapter.PermissionDeny(string(PermissionRequest), a.Reason)
		}
	case PostToolUse:
		if a.Context != "" {
			v = adapter.AddedContext(string(PostToolUse), a.Context)
		}
	}
	return adapter.EncodeAnswer(v)
}

// Rewrite is the payload's tool input with its command replaced.
func (Agent) Rewrite(c *adapter.Call, command string) (json.RawMessage, error) {
	return adapter.ReplaceString(c.Payload.(*Payload).ToolInput, "command", command)
}

// Why a prompt became a deny, at each event.
const (
	unansweredPre  = "Codex's PreToolUse hook cannot ask a person (it has no ask), and a call Codex would run unasked must not run with Warden's question never put, so it is denied: an unanswered question is never a yes."
	unansweredPerm = "Nobody can answer Warden's question in this session (it runs headless or with Codex's approvals off), so it is denied: an unanswered question is never a yes."
)

// Unanswered is why a prompt became a deny, at the call's event.
func (Agent) Unanswered(c *adapter.Call, _ bool) string {
	if Event(c.Event) == PreToolUse {
		return unansweredPre
	}
	return unansweredPerm
}
