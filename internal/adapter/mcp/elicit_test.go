// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp_test

import (
	"strings"
	"testing"

	"warden.dev/warden/internal/adapter/mcp"
)

// TestExpire: a question nobody answers refuses its call once; an answer
// after that is no answer (it passes to the server, which knows no such
// id), and the id is free again.
func TestExpire(t *testing.T) {
	g := newGate(t, "", nil)
	g.Elicit, g.AskPrefix = true, "p"
	tr := &mcp.Tracker{}
	g.FromClient([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"elicitation":{"form":{}}}}}`), tr)
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"move_file","arguments":{"source":"/nonexistent-mcp-test/shop/a","destination":"/nonexistent-mcp-test/shop/b"}}}`)
	out := g.FromClient(call, tr)
	if out.Asked != "warden-p-1" || out.Forward != nil || !strings.Contains(string(out.Reply), `"method":"elicitation/create"`) {
		t.Fatalf("FromClient(prompting call) = %+v, want a question", out)
	}
	exp := g.Expire(tr, out.Asked)
	if !strings.Contains(string(exp.Reply), `"isError":true`) || !strings.Contains(string(exp.Reply), "nobody answered in time") ||
		len(exp.Events) != 1 || exp.Events[0].Status != "unanswered" {
		t.Errorf("Expire = %+v, want a refusal recorded as unanswered", exp)
	}
	if again := g.Expire(tr, out.Asked); again.Reply != nil {
		t.Errorf("second Expire = %+v, want nothing", again)
	}
	late := g.FromClient([]byte(`{"jsonrpc":"2.0","id":"warden-p-1","result":{"action":"accept","content":{"approve":true}}}`), tr)
	if late.Forward == nil || strings.Contains(string(late.Forward), "move_file") {
		t.Errorf("late answer = %+v, want it passed on, the call not", late)
	}
	if out := g.FromClient(call, tr); out.Asked != "warden-p-2" {
		t.Errorf("the same call again = %+v, want a new question", out)
	}
	if evs := tr.Drain(); len(evs) != 1 || evs[0].Status != "unanswered" || !evs[0].Asked {
		t.Errorf("Drain = %+v, want the waiting call unanswered", evs)
	}
}
