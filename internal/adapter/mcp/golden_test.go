// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/adapter/mcp"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

// The project and home directory golden cases are judged in; neither
// needs to exist (paths resolve lexically past the missing parts).
const (
	project = "/nonexistent-mcp-test/shop"
	home    = "/nonexistent-mcp-test/home"
)

// newGate builds a gate on the engine of the policy src (the built-in
// defaults when empty) and the declaration decl (the built-in
// filesystem one when nil).
func newGate(t testing.TB, src string, decl *mcp.Declaration) *mcp.Gate {
	t.Helper()
	if src == "" {
		src = "version: 1\n"
	}
	f, err := policyfile.Parse("policy.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.Compile(f.Policy, policy.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if decl == nil {
		decl, _ = mcp.Builtin("filesystem")
	}
	at := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	decide := func(req *request.Request) mcp.Decision {
		req.Cwd, req.Project = project, project
		a, _, err := req.Action(request.Options{Dir: project, Home: home})
		if err != nil {
			return mcp.Decision{Rule: "mcp:invalid-call", Reason: err.Error()}
		}
		d, _ := e.Evaluate(a, policy.Env{Now: at})
		return mcp.Decision{Verdict: d.Verdict, Rule: d.Rule, Reason: d.Reason}
	}
	return &mcp.Gate{Server: decl.Server, Declaration: decl, Decide: decide, Listed: decide}
}

func lines(data []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// TestGolden runs each testdata/golden/NAME.txtar: the lines of its
// client section go through FromClient, then those of its server section
// through FromServer, on the policy of its policy.yaml section and the
// declaration of its tools.yaml section (the built-in filesystem one when
// absent). What the gate forwards, replies, passes to the client and
// records is compared with the want/ sections; -update rewrites them.
func TestGolden(t *testing.T) {
	if files, _ := filepath.Glob("testdata/golden/*.txtar"); len(files) < 5 {
		t.Fatalf("found %d golden files, want at least 5", len(files))
	}
	goldentest.Run(t, "testdata/golden/*.txtar", func(t *testing.T, file string, in goldentest.Sections) goldentest.Sections {
		var decl *mcp.Declaration
		if src, ok := in["tools.yaml"]; ok {
			var err error
			if decl, err = mcp.ParseDeclaration("tools.yaml", src); err != nil {
				t.Fatal(err)
			}
		}
		g := newGate(t, string(in["policy.yaml"]), decl)
		// Files named elicit-* let the gate ask the client.
		g.Elicit, g.AskPrefix = strings.HasPrefix(filepath.Base(file), "elicit-"), "test"
		tr := &mcp.Tracker{}
		var fwd, reply, client, events bytes.Buffer
		record := func(evs []audit.MCPCall) {
			for _, ev := range evs {
				b, _ := json.Marshal(ev)
				events.Write(append(b, '\n'))
			}
		}
		for _, l := range lines(in["client"]) {
			out := g.FromClient(l, tr)
			if out.Forward != nil {
				fwd.Write(append(out.Forward, '\n'))
			}
			if out.Reply != nil {
				if !json.Valid(out.Reply) {
					t.Errorf("reply to %s is not JSON: %s", l, out.Reply)
				}
				reply.Write(append(out.Reply, '\n'))
			}
			record(out.Events)
		}
		for _, l := range lines(in["server"]) {
			out, evs := g.FromServer(l, tr)
			client.Write(append(out, '\n'))
			record(evs)
		}
		record(tr.Drain())
		return goldentest.Sections{"want/forward": fwd.Bytes(), "want/reply": reply.Bytes(), "want/client": client.Bytes(), "want/events": events.Bytes()}
	})
}
