// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp

// This file asks the user about calls that prompt. The rules:
//
//   - The gate asks only a client that declared the elicitation
//     capability (form mode) in its initialize request, and only when
//     the caller set Gate.Elicit (warden mcp without --headless).
//     Otherwise a prompt is refused: an unanswered question is never a
//     yes.
//   - The call is held, not forwarded, and its id reserved. The client
//     gets an elicitation/create request (id "warden-PREFIX-N", a prefix
//     the server cannot guess, so it cannot answer for the user) with a
//     single boolean, approve.
//   - The question shows the call as it will run (package approval):
//     every path-like argument whole and first, the declared ones
//     included whatever their names, code whole, and only long free text
//     cut, marked, with the paths it names.
//   - Only {"action":"accept","content":{"approve":true}} forwards the
//     call, exactly as the client sent it. Anything else — decline,
//     cancel, an error, approve false or missing — refuses it, as does
//     no answer before the caller's deadline (Expire).
//   - A call inside a batch is never held (it is refused).

import (
	"encoding/json"
	"fmt"
	"strings"

	"warden.dev/warden/internal/approval"
	"warden.dev/warden/internal/audit"
)

// heldCall is a call waiting for the user's answer.
type heldCall struct {
	key  string          // the call's id key, reserved in pending
	line []byte          // the call as the client sent it
	id   json.RawMessage // the call's id
	tool string
	d    Decision
}

// initialize notes whether the client can be asked: its capabilities
// hold elicitation, an object that is empty (form mode, as before
// 2025-11-25) or has form.
func (tr *Tracker) initialize(m *message) {
	var params struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	ok := false
	if p, has := m.fields["params"]; has && json.Unmarshal(p, &params) == nil {
		var e map[string]json.RawMessage
		if raw, has := params.Capabilities["elicitation"]; has && json.Unmarshal(raw, &e) == nil && e != nil {
			_, form := e["form"]
			_, url := e["url"]
			ok = form || !url
		}
	}
	tr.mu.Lock()
	tr.canElicit = ok
	tr.mu.Unlock()
}

func (tr *Tracker) elicits() bool {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.canElicit
}

// ask holds h and returns the elicitation/create request and its id.
// The question shows the arguments as [approval.Args] renders them:
// every path whole and first, declared (the arguments the server's
// declaration says hold paths or a URL) or not.
func (g *Gate) ask(tr *Tracker, h heldCall, args json.RawMessage, declared []string) ([]byte, string) {
	tr.mu.Lock()
	tr.asks++
	id := fmt.Sprintf("warden-%s-%d", g.AskPrefix, tr.asks)
	if tr.held == nil {
		tr.held = map[string]heldCall{}
	}
	tr.held[id] = h
	tr.mu.Unlock()

	shown := " no arguments. "
	if a := approval.Args(args, declared...); a != "" {
		shown = ":\n" + a + "\n"
	}
	rule := ""
	if h.d.Rule != "" {
		rule = " (rule " + h.d.Rule + ")"
	}
	msg := fmt.Sprintf("Warden: the agent asks to call %s with%sIt needs your approval%s: %s. Allow this one call?", approval.Printable(h.tool), shown, rule, approval.Printable(h.d.Reason))
	type prop struct {
		Type        string `json:"type"`
		Title       string `json:"title"`
		Description string `json:"description"`
	}
	req := struct {
		JSONRPC string `json:"jsonrpc"`
		ID      string `json:"id"`
		Method  string `json:"method"`
		Params  struct {
			Message         string `json:"message"`
			RequestedSchema struct {
				Type       string          `json:"type"`
				Properties map[string]prop `json:"properties"`
				Required   []string        `json:"required"`
			} `json:"requestedSchema"`
		} `json:"params"`
	}{JSONRPC: "2.0", ID: id, Method: "elicitation/create"}
	req.Params.Message = msg
	req.Params.RequestedSchema.Type = "object"
	req.Params.RequestedSchema.Properties = map[string]prop{"approve": {Type: "boolean", Title: "Allow " + approval.Printable(h.tool),
		Description: "Yes runs this one call; no refuses it."}}
	req.Params.RequestedSchema.Required = []string{"approve"}
	return marshal(req), id
}

// take removes the held call asked with id.
func (tr *Tracker) takeHeld(id string) (heldCall, bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	h, ok := tr.held[id]
	delete(tr.held, id)
	return h, ok
}

// answer handles the client's response to one of the gate's questions;
// ok is false for any other response (the server's to pass on).
func (g *Gate) answer(m *message, tr *Tracker) (step, bool) {
	var id string
	if json.Unmarshal(m.id, &id) != nil || !strings.HasPrefix(id, "warden-") {
		return step{}, false
	}
	h, ok := tr.takeHeld(id)
	if !ok {
		return step{}, false
	}
	approved := false
	var result struct {
		Action  string                     `json:"action"`
		Content map[string]json.RawMessage `json:"content"`
	}
	if raw, ok := m.fields["result"]; ok && json.Unmarshal(raw, &result) == nil {
		approved = result.Action == "accept" && string(result.Content["approve"]) == "true"
	}
	if !approved {
		ev, _ := tr.take(h.key)
		ev.Asked, ev.Status = true, "declined"
		return step{reply: ToolError(h.id, fmt.Sprintf("Warden refused %s: the user was asked (%s) and did not approve it, so the call did not run. Do not retry it unchanged.", h.tool, h.d.Reason)), ev: &ev}, true
	}
	tr.mu.Lock()
	if ev, ok := tr.pending[h.key]; ok {
		ev.Asked = true
		tr.pending[h.key] = ev
	}
	tr.mu.Unlock()
	return step{send: h.line}, true
}

// Expire refuses the call asked with id if it is still waiting: nobody
// answered in time. The Out is empty when the question was answered.
func (g *Gate) Expire(tr *Tracker, id string) Out {
	h, ok := tr.takeHeld(id)
	if !ok {
		return Out{}
	}
	ev, _ := tr.take(h.key)
	ev.Asked, ev.Status = true, "unanswered"
	return Out{Reply: ToolError(h.id, fmt.Sprintf("Warden refused %s: it needs approval (%s), and nobody answered in time, so the call did not run.", h.tool, h.d.Reason)), Events: []audit.MCPCall{ev}}
}
