// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/adapter/mcp"
)

// validResponse reports whether b is one JSON-RPC response object: jsonrpc
// "2.0", an id, and exactly one of result and error.
func validResponse(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return false
	}
	_, hasID := m["id"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	return string(m["jsonrpc"]) == `"2.0"` && hasID && hasResult != hasError
}

// FuzzFromClient: any line from the client is either forwarded (as it
// came, unless a batch lost elements), answered with valid JSON-RPC on
// one line, or held with a question to the client (an elicitation/create
// request), never two of these for a single message, and never a panic;
// nothing forwarded holds keys a server could read otherwise than
// Warden. Lines from the server never panic either, and valid JSON stays
// valid JSON.
func FuzzFromClient(f *testing.F) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name == "client" || af.Name == "server" {
				for _, l := range lines(af.Data) {
					f.Add(l)
				}
			}
		}
	}
	f.Add([]byte("\xff"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1e400,"method":"x"}`))
	g := newGate(f, "version: 1\nrules: [{class: vendorSyncWrite, decision: deny}]\n", nil)
	// The client declared elicitation: a call that prompts is asked.
	g.Elicit, g.AskPrefix = true, "fuzz"
	initialize := []byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"capabilities":{"elicitation":{}}}}`)
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return // the reader splits lines; a line holds no newline
		}
		tr := &mcp.Tracker{}
		g.FromClient(initialize, tr)
		out := g.FromClient(line, tr)
		if out.Asked != "" {
			var ask map[string]json.RawMessage
			if json.Unmarshal(out.Reply, &ask) != nil || string(ask["method"]) != `"elicitation/create"` || string(ask["id"]) != `"`+out.Asked+`"` || out.Forward != nil {
				t.Fatalf("line %q asked %q with %s, forward %q", line, out.Asked, out.Reply, out.Forward)
			}
			return
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if out.Forward != nil || out.Reply != nil {
				t.Fatalf("blank line %q gave %+v", line, out)
			}
			return
		}
		if out.Forward == nil && out.Reply == nil {
			t.Fatalf("line %q was neither forwarded nor answered", line)
		}
		batch := bytes.TrimSpace(line)[0] == '['
		if !batch && out.Forward != nil && out.Reply != nil {
			t.Fatalf("line %q was forwarded and answered", line)
		}
		if !batch && out.Forward != nil && !bytes.Equal(out.Forward, line) {
			t.Fatalf("line %q was forwarded as %q", line, out.Forward)
		}
		if out.Forward != nil && !json.Valid(out.Forward) {
			t.Fatalf("line %q forwarded as invalid JSON %q", line, out.Forward)
		}
		// A server reads what is forwarded as Warden read it: no object
		// holds keys that differ only in case.
		if out.Forward != nil && adapter.CheckKeys(out.Forward) != nil {
			t.Fatalf("line %q forwarded with keys a server could read otherwise: %v", line, adapter.CheckKeys(out.Forward))
		}
		if r := out.Reply; r != nil {
			if bytes.IndexByte(r, '\n') >= 0 {
				t.Fatalf("reply to %q holds a newline", line)
			}
			var elems []json.RawMessage
			if json.Unmarshal(r, &elems) != nil {
				elems = []json.RawMessage{r}
			}
			for _, e := range elems {
				if !validResponse(e) {
					t.Fatalf("reply to %q is not a JSON-RPC response: %s", line, e)
				}
			}
		}
		back, _ := g.FromServer(line, tr)
		if json.Valid(line) && !json.Valid(back) {
			t.Fatalf("server line %q became invalid JSON %q", line, back)
		}
		if bytes.IndexByte(back, '\n') >= 0 {
			t.Fatalf("server line %q became several lines", line)
		}
	})
}
