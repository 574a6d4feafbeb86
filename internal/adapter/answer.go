// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

// The answer shapes more than one agent reads: Claude Code's and Codex's
// hook protocols share their PermissionRequest and after-call answers.

import (
	"bytes"
	"encoding/json"
)

// PermissionDeny is the answer Claude Code and Codex read at their
// PermissionRequest event to refuse the call instead of asking:
// hookSpecificOutput.decision.behavior deny, with the message.
func PermissionDeny(event, message string) any {
	type decision struct {
		Behavior string `json:"behavior"`
		Message  string `json:"message"`
	}
	type spec struct {
		HookEventName string   `json:"hookEventName"`
		Decision      decision `json:"decision"`
	}
	return struct {
		HookSpecificOutput spec `json:"hookSpecificOutput"`
	}{spec{event, decision{"deny", message}}}
}

// AddedContext is the answer Claude Code and Codex read after a call: a
// note for the model in hookSpecificOutput.additionalContext.
func AddedContext(event, text string) any {
	type spec struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	return struct {
		HookSpecificOutput spec `json:"hookSpecificOutput"`
	}{spec{event, text}}
}

// EncodeAnswer renders an answer: one JSON object and a newline, without
// HTML escaping (reasons quote commands).
func EncodeAnswer(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("internal error: encoding a hook answer: " + err.Error())
	}
	return b.Bytes()
}
