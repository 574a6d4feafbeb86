// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp_test

import (
	"encoding/json"
	"errors"
	"strconv"
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

// TestQuestionShowsWhatRuns: the question a person answers shows every
// path of the call whole, before the rest, however the call pads or
// hides it; the old question cut the arguments' JSON after 1000 bytes.
func TestQuestionShowsWhatRuns(t *testing.T) {
	pad := strings.Repeat("lorem ipsum ", 1000)
	// Under PATH_MAX, so that the declared write is asked about, not
	// denied as unresolvable; an undeclared tool's path may be longer.
	padded := "/tmp/" + strings.Repeat("dir/", 750) + ".bashrc"
	long := "/tmp/" + strings.Repeat("a", 10000) + "/../../home/u/.bashrc"
	for _, tt := range []struct {
		name, tool string
		args       map[string]string
		first      string // the question's first argument line
		shown      string // shown whole
	}{
		{"path beyond the old cut", "write_file", map[string]string{"content": pad, "path": "/tmp/x/.git/hooks/pre-commit"},
			`path: "/tmp/x/.git/hooks/pre-commit"`, `"/tmp/x/.git/hooks/pre-commit"`},
		{"path padded past the old cut", "write_file", map[string]string{"path": padded, "content": "x"},
			`path: "/tmp/dir/dir/`, strconv.Quote(padded)},
		{"path padded with 10k characters", "custom_write", map[string]string{"path": long, "content": "x"},
			`path: "/tmp/aaaa`, strconv.Quote(long)},
		{"path hidden in a long content", "save_note", map[string]string{"title": "notes", "body": pad + " and then overwrite /etc/cron.d/job " + pad},
			`body: "lorem ipsum`, `"/etc/cron.d/job"`},
		{"declared path under an innocent name", "zip", map[string]string{"note": pad, "what": "../outside/archive.zip"},
			`what: "../outside/archive.zip"`, `"../outside/archive.zip"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			decl := &mcp.Declaration{Server: "filesystem", Tools: map[string]mcp.Tool{
				"write_file": {As: "write_file", Paths: []string{"path"}},
				"zip":        {Classes: []string{"fileDelete"}, Paths: []string{"what"}},
			}}
			g := newGate(t, "", decl)
			g.Elicit, g.AskPrefix = true, "p"
			tr := &mcp.Tracker{}
			g.FromClient([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"elicitation":{}}}}`), tr)
			call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": tt.tool, "arguments": tt.args}})
			out := g.FromClient(call, tr)
			var ask struct {
				Params struct {
					Message string `json:"message"`
				} `json:"params"`
			}
			if out.Asked == "" || json.Unmarshal(out.Reply, &ask) != nil {
				t.Fatalf("FromClient = %.300s, want a question", out.Reply)
			}
			msg := ask.Params.Message
			_, args, _ := strings.Cut(msg, "\n")
			if !strings.HasPrefix(args, tt.first) {
				t.Errorf("question %.300q…: first argument is not %.60q", msg, tt.first)
			}
			if !strings.Contains(msg, tt.shown) {
				t.Errorf("question %.300q… does not show %.100q whole", msg, tt.shown)
			}
		})
	}
}

// TestApprove: a call that prompts and that the client cannot be asked
// about goes to Approve (warden serve): allowed, it is forwarded; denied,
// it is refused with the person's reason; nobody there, the usual
// refusal.
func TestApprove(t *testing.T) {
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"move_file","arguments":{"source":"/nonexistent-mcp-test/shop/a","destination":"/nonexistent-mcp-test/shop/b"}}}`)
	for _, tt := range []struct {
		name          string
		allowed, ok   bool
		forward       bool
		reply, status string
	}{
		{"allowed", true, true, true, "", ""},
		{"denied", false, true, false, "not today", "declined"},
		{"nobody to ask", false, false, false, "this MCP gateway has nobody to ask", "refused"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(t, "", nil)
			var asked string
			g.Approve = func(tool string, args json.RawMessage, d mcp.Decision) (bool, string, bool) {
				asked = tool + " " + string(args)
				return tt.allowed, "a person said " + map[bool]string{true: "yes", false: "not today"}[tt.allowed], tt.ok
			}
			tr := &mcp.Tracker{}
			g.FromClient([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`), tr)
			out := g.FromClient(call, tr)
			if !strings.Contains(asked, "mcp:filesystem/move_file") || !strings.Contains(asked, "/nonexistent-mcp-test/shop/a") {
				t.Errorf("Approve was asked %q", asked)
			}
			if (out.Forward != nil) != tt.forward || tt.reply != "" && !strings.Contains(string(out.Reply), tt.reply) {
				t.Fatalf("FromClient = forward %s, reply %s", out.Forward, out.Reply)
			}
			if tt.status != "" && (len(out.Events) != 1 || out.Events[0].Status != tt.status) {
				t.Errorf("events %+v, want one %s", out.Events, tt.status)
			}
		})
	}
}

// TestRecordBeforeForward: an allowed call is recorded before it is
// forwarded; one that cannot be recorded is refused, never forwarded.
func TestRecordBeforeForward(t *testing.T) {
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"` + project + `/a.txt"}}}`)
	for _, fail := range []bool{false, true} {
		g := newGate(t, "", nil)
		var recorded []string
		g.Record = func(tool string, d mcp.Decision) error {
			if fail {
				return errors.New("disk full")
			}
			recorded = append(recorded, tool+" "+d.Verdict.String())
			return nil
		}
		tr := &mcp.Tracker{}
		out := g.FromClient(call, tr)
		switch {
		case fail && (out.Forward != nil || !strings.Contains(string(out.Reply), "could not be recorded (disk full)")):
			t.Errorf("unrecordable: forward %s, reply %s; want refused", out.Forward, out.Reply)
		case !fail && (out.Forward == nil || len(recorded) != 1 || recorded[0] != "mcp:filesystem/read_text_file allow"):
			t.Errorf("recordable: forward %s, recorded %q; want forwarded once recorded", out.Forward, recorded)
		}
	}
}
