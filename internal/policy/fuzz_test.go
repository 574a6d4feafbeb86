// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

// fuzzPolicy has a rule of every shape, so fuzzed actions meet them all.
func fuzzPolicy() *policy.Set {
	ws := policy.Scope{Kind: policy.WorkspaceScope}
	n := int64(5)
	return &policy.Set{
		OverrideHolders: []string{"alice"},
		Delegation:      policy.Delegation{Autonomy: map[string]action.Mode{"boss": action.ProposeOnly}},
		Rules: []*policy.Rule{
			{ID: "allow-push", Scope: ws, Class: action.GitPush, Decision: action.Allow},
			{ID: "deny-main", Scope: ws, Class: action.GitPush, Refs: []string{"main"}, Decision: action.Deny},
			{ID: "feature", Scope: policy.Scope{Kind: policy.AgentScope, Name: "a"}, Class: action.GitPush, Refs: []string{"feature/**", "!feature/x"}, Decision: action.Allow},
			{ID: "adv", Scope: ws, Class: action.FileDelete, Paths: []string{"build/**"}, Decision: action.Deny, Level: policy.Advisory},
			{ID: "soft", Scope: ws, Class: action.PRCreate, Decision: action.Deny, Level: policy.Soft},
			{ID: "hosts", Scope: ws, Class: action.NetworkEgress, Hosts: []string{"*.evil.example"}, Decision: action.Deny},
			{ID: "limit", Scope: ws, Class: action.VendorSyncWrite, MaxCount: &n, Decision: action.Allow},
			{ID: "free-all", Scope: policy.Scope{Kind: policy.SpaceScope, Name: "s"}, Class: action.SecretAccess, Decision: action.Allow},
			{ID: "cmd", Scope: ws, Command: []string{"git", "push"}, Decision: action.Deny},
			{ID: "cmd-allow", Scope: ws, Command: []string{"ls"}, Decision: action.Allow},
			{ID: "any-python", Scope: ws, Command: []string{"python"}, Decision: action.Allow},
		},
	}
}

// FuzzEvaluate checks the engine's guarantees on arbitrary actions:
// whatever the rules, levels, autonomy or managed tier say, a sensitive or
// unresolved path is denied, an opaque command is never allowed, a prompt
// with no approver is a deny, proposeOnly refuses every gated action, and
// the same input always gets the same decision; and code that runs
// unanalysed is never allowed uncontained (but by actFreely) unless a
// rule names its command.
func FuzzEvaluate(f *testing.F) {
	f.Add("git_push", uint16(0), "main", "", "", byte(0), byte(0), byte(0), int64(1))
	f.Add("bash", uint16(1<<10), "", "x.evil.example", "/p/build/a", byte(2), byte(1), byte(3), int64(9))
	f.Add("mcp:x/y", uint16(0xffff), "feature/a,feature/x", "", "/p/.env", byte(1), byte(4), byte(7), int64(-1))
	f.Add("bash", uint16(1<<11), "python -c x", "", "", byte(0), byte(32), byte(0), int64(1))
	f.Add("bash", uint16(1<<11), "make test", "", "", byte(0), byte(96), byte(0), int64(1))
	eng, err := policy.Compile(fuzzPolicy(), policy.Options{Managed: &policy.Set{Rules: []*policy.Rule{
		{ID: "m", Scope: policy.Scope{Kind: policy.WorkspaceScope}, Class: action.FileDelete, Decision: action.Allow},
	}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, tool string, classBits uint16, refs, hosts, paths string, mode, flags, pathState byte, count int64) {
		a := &action.Action{Tool: tool, Project: "/p", Cwd: "/p", Contained: flags&8 != 0}
		for _, c := range action.Classes() {
			if classBits&(1<<c) != 0 {
				a.Classes = append(a.Classes, c)
			}
		}
		if refs != "" {
			a.Refs = strings.Split(refs, ",")
		}
		if hosts != "" {
			a.Hosts = strings.Split(hosts, ",")
		}
		if count >= 0 {
			a.Count = &count
		}
		for i, p := range strings.Split(paths, ",") {
			if p == "" {
				continue
			}
			ap := action.Path{Raw: p, Lexical: p, Resolved: p, Checked: true, Access: action.Access(i % 3)}
			switch (pathState >> (i % 4)) & 7 {
			case 1:
				ap.Sensitive = ".ssh/"
			case 2:
				ap.Err = "loop"
			case 3:
				ap.Checked = false
			case 4:
				// Reached through an alias of the project.
				ap.InLexical = "/p/" + strings.TrimPrefix(p, "/")
			case 5:
				ap.InLexical, ap.InResolved = "/p/"+strings.TrimPrefix(p, "/"), "/p/alias"
				ap.Sensitive = ".env"
			}
			a.Paths = append(a.Paths, ap)
		}
		a.Commands = append(a.Commands, strings.Fields(refs))
		switch mode % 4 {
		case 1:
			a.Principal.Mode = action.ProposeOnly
		case 2:
			a.Principal.Mode = action.ActFreely
		case 3:
			a.Principal.Agent, a.Principal.Delegation = "a", []string{"boss"}
		}
		if flags&1 != 0 {
			a.Flags = append(a.Flags, action.FlagDownloadExec)
		}
		if flags&2 != 0 {
			a.Unresolved = "fuzz"
		}
		if flags&4 != 0 {
			a.Override = &action.Override{By: "alice", Justification: "fuzz"}
		}
		if flags&32 != 0 {
			a.Flags = append(a.Flags, action.FlagRunsCode)
		}
		if flags&64 != 0 {
			a.Code = []action.Code{action.Code(flags>>7) + action.NamedCode}
		}
		noApprover := flags&16 != 0
		env := policy.Env{Now: time.Unix(1e9, 0), NoApprover: noApprover}
		d, x := eng.Evaluate(a, env)

		for _, p := range a.Paths {
			if (p.Sensitive != "" || p.Err != "" || !p.Checked) && d.Verdict != action.Deny {
				t.Fatalf("path %+v: verdict %v, want deny", p, d.Verdict)
			}
		}
		if (a.HasFlag(action.FlagDownloadExec) || a.Unresolved != "") && d.Verdict == action.Allow {
			t.Fatalf("opaque command allowed: %+v", d)
		}
		named := len(a.Commands[0]) > 0 && a.Commands[0][0] == "ls" && a.CommandCode(0) == action.NamedCode
		if !a.Contained && a.RunsCode() && a.Principal.Mode != action.ActFreely && !named && d.Verdict == action.Allow {
			t.Fatalf("unanalysed code allowed uncontained: %+v", d)
		}
		if noApprover && d.Verdict == action.Prompt {
			t.Fatalf("prompt with no approver: %+v", d)
		}
		if a.Principal.Mode == action.ProposeOnly && len(a.Classes) > 0 && d.Verdict != action.Deny {
			t.Fatalf("proposeOnly let a gated action through: %+v", d)
		}
		if a.Tool != "" && len(x.Errors) > 0 {
			t.Fatalf("internal error on a valid action: %v", x.Errors)
		}
		d2, x2 := eng.Evaluate(a, env)
		if fmt.Sprint(d, x) != fmt.Sprint(d2, x2) {
			t.Fatalf("not deterministic:\n%v\n%v", d, d2)
		}
	})
}
