// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp

// This file is the gateway's message handling, one line at a time. The
// rules:
//
//   - A client's line is validated before anything else; a malformed one
//     is answered with a JSON-RPC error and never forwarded.
//   - tools/call is decided before it is forwarded. Anything but allow is
//     answered with a tool error (isError: true) and never forwarded: a
//     prompt too, since the gateway has nobody to ask.
//   - Everything else passes through byte for byte: other requests,
//     notifications (notifications/cancelled included), the client's
//     responses to the server's own requests (sampling, elicitation).
//   - Every result holding a tools array is filtered, whatever request
//     it answers: a tool whose shape policy denies is dropped. Filtering
//     per response makes notifications/tools/list_changed need nothing:
//     the next tools/list is filtered again. Matching on the result and
//     not on the request's id means no id trick (a reused or respelled
//     id) can carry an unfiltered list.
//   - A batch (a JSON array, from protocol versions before 2025-06-18) is
//     handled element by element: the elements that pass are forwarded as
//     one batch, Warden's answers go back as another.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"unicode/utf8"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/request"
)

// Decision is what the engine decided about one request.
type Decision struct {
	Verdict action.Verdict
	Rule    string
	Reason  string
}

// Gate decides and rewrites one server's messages. Its functions are
// the engine, supplied by the caller (package gateway resolves paths
// and evaluates the policy); the Gate itself does no I/O.
type Gate struct {
	// Server is the server's name in tool names (mcp:<server>/<tool>).
	Server string
	// Declaration says what the server's tools do; nil declares nothing.
	Declaration *Declaration
	// Decide decides a tools/call.
	Decide func(*request.Request) Decision
	// Listed decides a tool's shape (its request without arguments) for
	// tools/list; a tool is dropped only when this is a deny, as a prompt
	// may be approved.
	Listed func(*request.Request) Decision
	// Elicit lets the gate ask the client's user about a call that
	// prompts, with elicitation/create, when the client declared the
	// elicitation capability (see elicit.go). False refuses every prompt.
	Elicit bool
	// Approve, when set, puts a call that prompts and that the client's
	// user cannot be asked about (no elicitation, --headless, a batch)
	// to a person elsewhere (warden serve) and waits for the answer:
	// ok false when nobody can be asked there either (the call is then
	// refused, as always); else allowed, and the reason told to the
	// model. It blocks the gate while it waits.
	Approve func(tool string, args json.RawMessage, d Decision) (allowed bool, reason string, ok bool)
	// Record, when set, records an allowed call before it is forwarded;
	// a call it cannot record is refused with its error (an allow is
	// recorded before it is answered). The call's outcome is recorded
	// when it ends, as every call's is.
	Record func(tool string, d Decision) error
	// AskPrefix makes the ids of the gate's own requests to the client
	// unguessable by the server, whose requests share that id space
	// ("warden-PREFIX-N"); the caller supplies a random one.
	AskPrefix string
}

// Out is what the gateway does with one line from the client.
type Out struct {
	// Forward is the line to send to the server; nil sends nothing.
	Forward []byte
	// Reply is the line to send back to the client; nil sends nothing.
	Reply []byte
	// Events are calls whose record is complete (refused ones).
	Events []audit.MCPCall
	// Asked is the id of an elicitation/create request in Reply: the
	// caller calls [Gate.Expire] with it when nobody answers in time.
	Asked string
}

// Tracker correlates the tools/call requests forwarded to the server
// with their responses. It is safe for concurrent use by the goroutine
// reading the client and the one reading the server.
type Tracker struct {
	// mu guards the fields below.
	mu      sync.Mutex
	pending map[string]audit.MCPCall
	// canElicit is set by the client's initialize request.
	canElicit bool
	held      map[string]heldCall
	asks      int
}

func (tr *Tracker) add(key string, ev audit.MCPCall) bool {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.pending == nil {
		tr.pending = map[string]audit.MCPCall{}
	}
	if _, dup := tr.pending[key]; dup {
		return false
	}
	tr.pending[key] = ev
	return true
}

func (tr *Tracker) take(key string) (audit.MCPCall, bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	ev, ok := tr.pending[key]
	delete(tr.pending, key)
	return ev, ok
}

// Drain returns the calls still waiting for a response, with status "no
// response", and forgets them.
func (tr *Tracker) Drain() []audit.MCPCall {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []audit.MCPCall
	for key, ev := range tr.pending {
		ev.Status = "no response"
		for _, h := range tr.held {
			if h.key == key {
				ev.Asked, ev.Status = true, "unanswered"
			}
		}
		out = append(out, ev)
	}
	tr.pending, tr.held = nil, nil
	return out
}

// FromClient handles one line from the client (without its newline).
// A blank line yields nothing; any other line yields a Forward, a Reply,
// or (for a batch) both.
func (g *Gate) FromClient(line []byte, tr *Tracker) Out {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return Out{}
	}
	if len(line) > MaxLine {
		return Out{Reply: ErrorResponse(nil, CodeInvalidRequest, fmt.Sprintf("invalid request: the message is larger than %d bytes", MaxLine))}
	}
	if trimmed[0] != '[' {
		st := g.one(trimmed, tr, false)
		out := Out{Reply: st.reply, Asked: st.asked}
		switch {
		case st.send != nil:
			out.Forward = st.send
		case st.forward:
			out.Forward = line
		}
		if st.ev != nil {
			out.Events = []audit.MCPCall{*st.ev}
		}
		return out
	}
	if !utf8.Valid(trimmed) || !json.Valid(trimmed) {
		return Out{Reply: ErrorResponse(nil, CodeParse, "parse error: the message is not JSON")}
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(trimmed, &elems); err != nil || len(elems) == 0 {
		return Out{Reply: ErrorResponse(nil, CodeInvalidRequest, "invalid request: an empty batch")}
	}
	var fwds, replies [][]byte
	var out Out
	for _, e := range elems {
		st := g.one(e, tr, true)
		switch {
		case st.send != nil:
			fwds = append(fwds, st.send)
		case st.forward:
			fwds = append(fwds, e)
		}
		if st.reply != nil {
			replies = append(replies, st.reply)
		}
		if st.ev != nil {
			out.Events = append(out.Events, *st.ev)
		}
	}
	switch {
	case len(fwds) == len(elems) && !slicesDiffer(fwds, elems):
		out.Forward = line
	case len(fwds) > 0:
		out.Forward = batch(fwds)
	}
	if len(replies) > 0 {
		out.Reply = batch(replies)
	}
	return out
}

// slicesDiffer reports whether a batch's forwarded elements are not
// the elements it came with (an approved call replaced one).
func slicesDiffer(a [][]byte, b []json.RawMessage) bool {
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return true
		}
	}
	return false
}

func batch(elems [][]byte) []byte {
	return append(append([]byte("["), bytes.Join(elems, []byte(","))...), ']')
}

// step is what one message of a line leads to.
type step struct {
	forward bool   // forward the message as it came
	send    []byte // or send this instead (an approved call held back)
	reply   []byte // answer the client with this
	ev      *audit.MCPCall
	asked   string // reply is the elicitation/create of this id
}

// one handles one message: forward it, or answer it. inBatch is true
// for an element of a batch, which is never held for a question.
func (g *Gate) one(raw []byte, tr *Tracker, inBatch bool) step {
	m, rerr := parseMessage(raw)
	if rerr != nil {
		return step{reply: ErrorResponse(rerr.id, rerr.code, rerr.msg)}
	}
	switch m.method {
	case "tools/call":
	case "initialize":
		tr.initialize(m)
		return step{forward: true}
	case "":
		// A response: to a question the gate asked, or to the server.
		if st, ok := g.answer(m, tr); ok {
			return st
		}
		return step{forward: true}
	default:
		return step{forward: true}
	}
	if m.id == nil {
		return step{reply: ErrorResponse(nil, CodeInvalidRequest, "invalid request: tools/call must be a request with an id, not a notification")}
	}
	var params map[string]json.RawMessage
	if p, ok := m.fields["params"]; !ok || json.Unmarshal(p, &params) != nil || params == nil {
		return step{reply: ErrorResponse(m.id, CodeInvalidParams, "invalid params: tools/call needs params, an object with the tool's name")}
	}
	if err := adapter.Misspelled(params, "name", "arguments"); err != nil {
		return step{reply: ErrorResponse(m.id, CodeInvalidParams, "invalid params: "+err.Error()+": a server could read the call otherwise than Warden")}
	}
	var name string
	if n, ok := params["name"]; !ok || json.Unmarshal(n, &name) != nil || name == "" {
		return step{reply: ErrorResponse(m.id, CodeInvalidParams, "invalid params: tools/call needs name, a non-empty string")}
	}
	var args map[string]json.RawMessage
	if a, ok := params["arguments"]; ok && string(bytes.TrimSpace(a)) != "null" {
		if json.Unmarshal(a, &args) != nil || args == nil {
			return step{reply: ErrorResponse(m.id, CodeInvalidParams, "invalid params: tools/call arguments must be an object")}
		}
	}
	tool := ToolName(g.Server, name)
	d := g.decideCall(name, args)
	e := audit.MCPCall{Server: g.Server, ID: m.id, Tool: tool, Decision: d.Verdict.String(), Rule: d.Rule, Reason: d.Reason}
	key, _ := idKey(m.id)
	if d.Verdict == action.Prompt && g.Elicit && !inBatch && tr.elicits() {
		if !tr.add(key, e) {
			return step{reply: ErrorResponse(m.id, CodeInvalidRequest, "invalid request: the id of a call still in progress")}
		}
		ask, id := g.ask(tr, heldCall{key: key, line: raw, id: m.id, tool: tool, d: d}, params["arguments"], g.Declaration.argNames(name))
		return step{reply: ask, asked: id}
	}
	if d.Verdict == action.Prompt && g.Approve != nil {
		if allowed, reason, ok := g.Approve(tool, params["arguments"], d); ok {
			e.Asked = true
			if !allowed {
				e.Status = "declined"
				return step{reply: ToolError(m.id, fmt.Sprintf("Warden refused %s: %s. Do not retry it unchanged.", tool, reason)), ev: &e}
			}
			d = Decision{Verdict: action.Allow, Rule: d.Rule, Reason: reason}
			e.Decision, e.Reason = d.Verdict.String(), reason
		}
	}
	if d.Verdict != action.Allow {
		e.Status = "refused"
		return step{reply: ToolError(m.id, RefusalText(tool, d)), ev: &e}
	}
	if g.Record != nil {
		if err := g.Record(tool, d); err != nil {
			e.Status = "refused"
			return step{reply: ToolError(m.id, fmt.Sprintf("Warden refused %s: the call could not be recorded (%v), and an allowed call is recorded before it runs.", tool, err)), ev: &e}
		}
	}
	if !tr.add(key, e) {
		return step{reply: ErrorResponse(m.id, CodeInvalidRequest, "invalid request: the id of a call still in progress")}
	}
	return step{forward: true}
}

func (g *Gate) decideCall(name string, args map[string]json.RawMessage) Decision {
	req, err := g.Declaration.Request(g.Server, name, args)
	if err != nil {
		return Decision{Verdict: action.Deny, Rule: "mcp:declaration", Reason: err.Error()}
	}
	return g.Decide(req)
}

// RefusalText is the text of a refused call's tool error: what was
// refused, why, and what the model can do about it.
func RefusalText(tool string, d Decision) string {
	rule := ""
	if d.Rule != "" {
		rule = " (rule " + d.Rule + ")"
	}
	if d.Verdict == action.Prompt {
		return fmt.Sprintf("Warden refused %s: it needs a person's approval%s — %s — and this MCP gateway has nobody to ask, so the call did not run. Do not retry it unchanged: ask the user to approve or run it, or choose an action the policy allows.", tool, rule, d.Reason)
	}
	return fmt.Sprintf("Warden denied %s%s: %s. The call did not run; retrying it unchanged will be denied again.", tool, rule, d.Reason)
}

// FromServer handles one line from the server (without its newline):
// tools lists are filtered and tools/call responses matched to their
// calls. A line that is not JSON, or needs no change, is returned as
// given.
func (g *Gate) FromServer(line []byte, tr *Tracker) ([]byte, []audit.MCPCall) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || !json.Valid(trimmed) {
		return line, nil
	}
	if trimmed[0] != '[' {
		out, changed, ev := g.response(trimmed, tr)
		if !changed {
			out = line
		}
		return out, ev
	}
	var elems []json.RawMessage
	if json.Unmarshal(trimmed, &elems) != nil {
		return line, nil
	}
	var evs []audit.MCPCall
	changedAny := false
	for i, e := range elems {
		out, changed, ev := g.response(e, tr)
		evs = append(evs, ev...)
		if changed {
			elems[i], changedAny = out, true
		}
	}
	if !changedAny {
		return line, evs
	}
	parts := make([][]byte, len(elems))
	for i, e := range elems {
		parts[i] = e
	}
	return batch(parts), evs
}

func (g *Gate) response(raw []byte, tr *Tracker) ([]byte, bool, []audit.MCPCall) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return raw, false, nil
	}
	if _, ok := fields["method"]; ok {
		return raw, false, nil // the server's own request or notification
	}
	var evs []audit.MCPCall
	if id, ok := fields["id"]; ok {
		if key, ok := idKey(id); ok {
			if ev, ok := tr.take(key); ok {
				ev.Status = callStatus(fields)
				evs = append(evs, ev)
			}
		}
	}
	result, ok := fields["result"]
	if !ok {
		return raw, false, evs
	}
	filtered, changed := g.FilterTools(result)
	if !changed {
		return raw, false, evs
	}
	fields["result"] = filtered
	return marshal(fields), true, evs
}

func callStatus(fields map[string]json.RawMessage) string {
	if e, ok := fields["error"]; ok {
		var body map[string]json.RawMessage
		if json.Unmarshal(e, &body) == nil {
			if c, ok := body["code"]; ok {
				return "error " + string(c)
			}
		}
		return "error"
	}
	var result map[string]json.RawMessage
	if json.Unmarshal(fields["result"], &result) == nil {
		if v, ok := result["isError"]; ok && string(bytes.TrimSpace(v)) == "true" {
			return "tool error"
		}
	}
	return "ok"
}

// FilterTools drops from a result's tools array every tool whose shape
// policy denies, and every entry that has no name to judge it by, or
// keys a client could read otherwise than Warden (fail closed). It reports whether anything was dropped; a result without a
// tools array is returned unchanged.
func (g *Gate) FilterTools(result json.RawMessage) (json.RawMessage, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(result, &fields) != nil || fields == nil {
		return result, false
	}
	raw, ok := fields["tools"]
	if !ok {
		return result, false
	}
	var tools []json.RawMessage
	if json.Unmarshal(raw, &tools) != nil {
		// Not a list: nothing a client could call by, and nothing to
		// judge; drop it rather than pass what cannot be checked.
		delete(fields, "tools")
		return marshal(fields), true
	}
	kept := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		var tf map[string]json.RawMessage
		var name string
		if json.Unmarshal(t, &tf) != nil || json.Unmarshal(tf["name"], &name) != nil || name == "" {
			continue
		}
		// A tool whose keys a client could read otherwise ("name" and
		// "Name") is judged by no name: dropped.
		if adapter.CheckKeys(t) != nil || adapter.Misspelled(tf, "name") != nil {
			continue
		}
		if g.Listed(g.Declaration.Shape(g.Server, name)).Verdict == action.Deny {
			continue
		}
		kept = append(kept, t)
	}
	if len(kept) == len(tools) {
		return result, false
	}
	fields["tools"] = marshal(kept)
	return marshal(fields), true
}
