// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode

import (
	"encoding/json"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
)

// Answer renders the answer in Claude Code's shape. It is always one JSON
// object; an answer with nothing to say is {} (no opinion).
func (Agent) Answer(c *adapter.Call, a adapter.Answer) []byte {
	var v any = struct{}{}
	switch ev := Event(c.Event); ev {
	case PreToolUse:
		type spec struct {
			HookEventName            Event           `json:"hookEventName"`
			PermissionDecision       string          `json:"permissionDecision"`
			PermissionDecisionReason string          `json:"permissionDecisionReason"`
			UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
		}
		s := spec{HookEventName: PreToolUse, PermissionDecision: decisionNames[a.Verdict], PermissionDecisionReason: a.Reason}
		if a.Verdict != action.Deny {
			s.UpdatedInput = a.Input
		}
		v = struct {
			HookSpecificOutput spec `json:"hookSpecificOutput"`
		}{s}
	case PermissionRequest:
		// Only a deny decides the dialog; see the package doc.
		if a.Verdict == action.Deny {
			v = adapter.PermissionDeny(string(PermissionRequest), a.Reason)
		}
	case PostToolUse, PostToolUseFailure:
		if a.Context != "" {
			v = adapter.AddedContext(string(ev), a.Context)
		}
	}
	return adapter.EncodeAnswer(v)
}

var decisionNames = map[action.Verdict]string{action.Allow: "allow", action.Prompt: "ask", action.Deny: "deny"}

// Rewrite is the payload's tool input with its command replaced: every
// other field (description, timeout, run_in_background) is kept.
func (Agent) Rewrite(c *adapter.Call, command string) (json.RawMessage, error) {
	return adapter.ReplaceString(c.Payload.(*Payload).ToolInput, "command", command)
}

// Unanswered is why a prompt became a deny in a Claude Code session.
func (Agent) Unanswered(*adapter.Call, bool) string {
	return "Nobody can answer Warden's question in this session (it runs headless or in dontAsk mode), so it is denied: an unanswered question is never a yes."
}
