// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

// The golden decision tables live in testdata/decisions/*.txtar. Each holds:
//
//	-- policy.yaml --   the policy under test
//	-- managed.yaml --  optional managed tier
//	-- cases --         one JSON object a line: {"name", "expect", "action",
//	                    "no_approver", "now"}; "expect" is the verdict a
//	                    person wrote down from docs/spec.md, checked always
//	-- want --          the golden explanation of every case (-update
//	                    rewrites it): verdict, deciding rule and scope,
//	                    every matched rule and how it fared, the reason
//
// Paths in the cases resolve against /nonexistent/project, which does not
// exist, so resolution is lexical and the tables stay reproducible.
func TestDecisions(t *testing.T) {
	goldentest.Run(t, "testdata/decisions/*.txtar", runTable)
}

type decisionCase struct {
	Name       string          `json:"name"`
	Expect     string          `json:"expect"`
	Action     json.RawMessage `json:"action"`
	NoApprover bool            `json:"no_approver"`
	Now        string          `json:"now"`
}

func runTable(t *testing.T, file string, in goldentest.Sections) goldentest.Sections {
	pf, err := policyfile.Parse(file+":policy.yaml", in["policy.yaml"])
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	opt := policy.Options{Home: "/home/agent"}
	if m, ok := in["managed.yaml"]; ok {
		mf, err := policyfile.Parse(file+":managed.yaml", m)
		if err != nil {
			t.Fatalf("managed policy: %v", err)
		}
		opt.Managed = mf.Policy
	}
	eng, err := policy.Compile(pf.Policy, opt)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, c := range goldentest.Cases[decisionCase](t, in["cases"]) {
		req, err := request.Parse(c.Action)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		a, _, err := req.Action(request.Options{Dir: "/nonexistent/project", Home: "/home/agent"})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		env := policy.Env{Now: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC), NoApprover: c.NoApprover, Trace: true}
		if c.Now != "" {
			if env.Now, err = time.Parse(time.RFC3339, c.Now); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
		}
		d, x := eng.Evaluate(a, env)
		if d.Verdict.String() != c.Expect {
			t.Errorf("%s: Evaluate = %s (rule %s, %s), want %s\ntrace:\n  %s", c.Name, d.Verdict, d.Rule, d.Reason, c.Expect, strings.Join(x.Trace, "\n  "))
		}
		d2, x2 := eng.Evaluate(a, env)
		if diff := cmp.Diff(fmt.Sprint(d, x), fmt.Sprint(d2, x2)); diff != "" {
			t.Errorf("%s: a second evaluation differs (-first +second):\n%s", c.Name, diff)
		}
		writeCase(&got, c.Name, d, x)
	}
	return goldentest.Sections{"want": []byte(got.String())}
}

func writeCase(b *strings.Builder, name string, d policy.Decision, x policy.Explanation) {
	fmt.Fprintf(b, "%s: %s", name, d.Verdict)
	if d.Rule != "" {
		fmt.Fprintf(b, " by %s at %s (%s)", d.Rule, d.Scope, d.Level)
	}
	if len(d.Confirm) > 0 {
		fmt.Fprintf(b, " confirm %v", d.Confirm)
	}
	fmt.Fprintf(b, "\n  reason: %s\n", d.Reason)
	if d.WouldHave != "" {
		fmt.Fprintf(b, "  would have: %s\n", d.WouldHave)
	}
	if d.Override != nil {
		fmt.Fprintf(b, "  override: by %s, %q\n", d.Override.By, d.Override.Justification)
	}
	for _, m := range x.Matched {
		esc := ""
		if m.Escalated {
			esc = " escalated"
		}
		mgd := ""
		if m.Managed {
			mgd = " managed"
		}
		outcome := m.Outcome
		if m.LostTo != "" {
			outcome = strings.Replace(outcome, "lost:", "lost to "+m.LostTo+":", 1)
		}
		fmt.Fprintf(b, "  matched %s at %s%s on %s: %s%s — %s\n", m.Rule, m.Scope, mgd, m.Unit, m.Decision, esc, outcome)
	}
	for _, e := range x.Errors {
		fmt.Fprintf(b, "  error: %s\n", e)
	}
}

// TestEvaluateDoesNotModifyAction checks that the engine treats its input
// as read-only.
func TestEvaluateDoesNotModifyAction(t *testing.T) {
	eng, err := policy.Compile(nil, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := &action.Action{Tool: "git_push", Refs: []string{"main"}}
	eng.Evaluate(a, policy.Env{})
	if len(a.Classes) != 0 {
		t.Errorf("Evaluate changed the action's classes to %v", a.Classes)
	}
}

// TestInternalErrorDenies checks that a broken input is a deny, never an
// allow, and that the error is in the explanation.
func TestInternalErrorDenies(t *testing.T) {
	eng, err := policy.Compile(nil, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []*action.Action{
		nil,
		{Tool: "bash", Classes: []action.Class{200}},
		{},
	} {
		if a != nil && len(a.Classes) > 0 {
			// An invalid class is an internal error: it must be recorded.
			if _, x := eng.Evaluate(a, policy.Env{}); len(x.Errors) == 0 {
				t.Errorf("Evaluate(%+v): no error recorded", a)
			}
		}
		d, x := eng.Evaluate(a, policy.Env{Trace: true})
		if d.Verdict != action.Deny {
			t.Errorf("Evaluate(%+v) = %v, want deny", a, d.Verdict)
		}
		if len(x.Trace) == 0 || d.Reason == "" {
			t.Errorf("Evaluate(%+v): no trace or reason", a)
		}
	}
}

// TestCompileRejects checks that a malformed set never compiles into an
// engine that could half-apply it.
func TestCompileRejects(t *testing.T) {
	for _, tt := range []struct {
		name string
		rule policy.Rule
	}{
		{"no id", policy.Rule{Class: action.GitPush}},
		{"class and command", policy.Rule{ID: "x", Class: action.GitPush, Command: []string{"git"}}},
		{"neither", policy.Rule{ID: "x"}},
		{"bad class", policy.Rule{ID: "x", Class: 99}},
		{"bad pattern", policy.Rule{ID: "x", Class: action.GitPush, Refs: []string{"[main"}}},
		{"empty pattern", policy.Rule{ID: "x", Class: action.GitPush, Refs: []string{"!"}}},
		{"bare host wildcard", policy.Rule{ID: "x", Class: action.NetworkEgress, Hosts: []string{"*"}}},
		{"double-star host", policy.Rule{ID: "x", Class: action.NetworkEgress, Hosts: []string{"**"}}},
		{"inner host wildcard", policy.Rule{ID: "x", Class: action.NetworkEgress, Hosts: []string{"api.*.com"}}},
		{"dot path", policy.Rule{ID: "x", Class: action.FileDelete, Paths: []string{"./build/**"}}},
		{"dotdot path", policy.Rule{ID: "x", Class: action.FileDelete, Paths: []string{"../x/**"}}},
		{"refspec in a rule", policy.Rule{ID: "x", Class: action.GitPush, Refs: []string{"HEAD:main"}}},
	} {
		r := tt.rule
		if _, err := policy.Compile(&policy.Set{Rules: []*policy.Rule{&r}}, policy.Options{}); err == nil {
			t.Errorf("%s: Compile accepted %+v", tt.name, tt.rule)
		}
	}
	for _, ok := range []policy.Rule{
		{ID: "a", Class: action.NetworkEgress, Hosts: []string{"*.internal", "10.0.0.1", "::1", "Example.COM."}},
		{ID: "b", Class: action.FileDelete, Paths: []string{"build/", "/tmp/**", "~/.cache/**", "!**/keep"}},
	} {
		r := ok
		if _, err := policy.Compile(&policy.Set{Rules: []*policy.Rule{&r}}, policy.Options{}); err != nil {
			t.Errorf("Compile rejected %+v: %v", ok, err)
		}
	}
	a, b := &policy.Rule{ID: "dup", Class: action.GitPush}, &policy.Rule{ID: "dup", Class: action.GitCommit}
	if _, err := policy.Compile(&policy.Set{Rules: []*policy.Rule{a, b}}, policy.Options{}); err == nil {
		t.Error("Compile accepted duplicate ids")
	}
}

// TestPathsJudgedBothWays checks, with paths built by hand, that an allow
// path rule needs both the path as written and the real path inside it,
// a deny applies when either is, and a write whose real path leaves the
// project is a write outside the worktree whatever its name says.
func TestPathsJudgedBothWays(t *testing.T) {
	ws := policy.Scope{Kind: policy.WorkspaceScope}
	eng, err := policy.Compile(&policy.Set{Rules: []*policy.Rule{
		{ID: "build", Scope: ws, Class: action.FileDelete, Paths: []string{"build/**"}, Decision: action.Allow},
		{ID: "secrets", Scope: ws, Class: action.FileDelete, Paths: []string{"secrets/**"}, Decision: action.Deny},
	}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := func(lex, res string, acc action.Access) action.Path {
		return action.Path{Raw: lex, Lexical: lex, Resolved: res, Access: acc, Checked: true}
	}
	for _, tt := range []struct {
		name string
		a    action.Action
		want action.Verdict
		rule string
	}{
		{"both inside the allow", action.Action{Tool: "delete_file", Paths: []action.Path{path("/p/build/a", "/p/build/a", action.Delete)}}, action.Allow, "build"},
		{"link from build to src", action.Action{Tool: "delete_file", Paths: []action.Path{path("/p/build/a", "/p/src/a", action.Delete)}}, action.Prompt, "builtin:fileDelete"},
		{"link from src into secrets", action.Action{Tool: "delete_file", Paths: []action.Path{path("/p/src/a", "/p/secrets/k", action.Delete)}}, action.Deny, "secrets"},
		{"link named secrets to src", action.Action{Tool: "delete_file", Paths: []action.Path{path("/p/secrets/k", "/p/src/a", action.Delete)}}, action.Deny, "secrets"},
		{"write through a link out of the project", action.Action{Tool: "write_file", Paths: []action.Path{path("/p/out/x", "/etc/x", action.Write)}}, action.Prompt, "builtin:fileWriteOutsideWorktree"},
		{"write inside", action.Action{Tool: "write_file", Paths: []action.Path{path("/p/out/x", "/p/out/x", action.Write)}}, action.Allow, ""},
	} {
		a := tt.a
		a.Project, a.Cwd = "/p", "/p"
		d, _ := eng.Evaluate(&a, policy.Env{})
		if d.Verdict != tt.want || d.Rule != tt.rule {
			t.Errorf("%s: Evaluate = %v by %q, want %v by %q", tt.name, d.Verdict, d.Rule, tt.want, tt.rule)
		}
	}
}

// TestPathsThroughAliases checks, with paths built by hand as the resolver
// spells them, that a path reaching the project through an alias
// (InLexical, InResolved) is inside it, that project-relative rules see it
// there, that a restrictive rule still sees the spelling as written, and
// that an alias never carries a path whose real form is outside.
func TestPathsThroughAliases(t *testing.T) {
	ws := policy.Scope{Kind: policy.WorkspaceScope}
	eng, err := policy.Compile(&policy.Set{Rules: []*policy.Rule{
		{ID: "build", Scope: ws, Class: action.FileDelete, Paths: []string{"build/**", "!build/keep/**"}, Decision: action.Allow},
		{ID: "secrets", Scope: ws, Class: action.FileDelete, Paths: []string{"secrets/**"}, Decision: action.Deny},
		{ID: "no-link", Scope: ws, Class: action.FileDelete, Paths: []string{"/home/u/link/**"}, Decision: action.Deny},
		{ID: "mnt", Scope: ws, Class: action.FileDelete, Paths: []string{"/mnt/p/**", "!build/keep/**"}, Decision: action.Allow},
	}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	alias := func(lex, res, inLex, inRes string, acc action.Access) action.Path {
		return action.Path{Raw: lex, Lexical: lex, Resolved: res, InLexical: inLex, InResolved: inRes, Access: acc, Checked: true}
	}
	for _, tt := range []struct {
		name string
		tool string
		p    action.Path
		want action.Verdict
		rule string
	}{
		{"write through a link to the project", "write_file",
			alias("/home/u/src/p/x.go", "/p/x.go", "/p/x.go", "", action.Write), action.Allow, ""},
		{"write through /proc/self/root", "write_file",
			alias("/proc/self/root/p/x.go", "/p/x.go", "/p/x.go", "", action.Write), action.Allow, ""},
		{"write through a bind of the project", "write_file",
			alias("/mnt/p/x.go", "/mnt/p/x.go", "/p/x.go", "/p/x.go", action.Write), action.Allow, ""},
		{"read through a link to the project", "read_file",
			alias("/home/u/src/p/x.go", "/p/x.go", "/p/x.go", "", action.Read), action.Allow, ""},
		{"write through a link that is not proven an alias", "write_file",
			alias("/home/u/src/p/x.go", "/p/x.go", "", "", action.Write), action.Prompt, "builtin:fileWriteOutsideWorktree"},
		{"alias of the name, real path outside", "write_file",
			alias("/home/u/src/p/out/x", "/etc/x", "/p/out/x", "", action.Write), action.Prompt, "builtin:fileWriteOutsideWorktree"},
		{"bind spelling of the real path not proven", "write_file",
			alias("/mnt/p/sub/x", "/mnt/p/sub/x", "", "", action.Write), action.Prompt, "builtin:fileWriteOutsideWorktree"},
		{"relative allow through an alias", "delete_file",
			alias("/home/u/src/p/build/a.o", "/p/build/a.o", "/p/build/a.o", "", action.Delete), action.Allow, "build"},
		{"relative allow through an alias, negation", "delete_file",
			alias("/home/u/src/p/build/keep/a.o", "/p/build/keep/a.o", "/p/build/keep/a.o", "", action.Delete), action.Prompt, "builtin:fileDelete"},
		{"relative deny through an alias", "delete_file",
			alias("/home/u/src/p/secrets/k", "/p/secrets/k", "/p/secrets/k", "", action.Delete), action.Deny, "secrets"},
		{"deny of the spelling as written", "delete_file",
			alias("/home/u/link/build/a.o", "/p/build/a.o", "/p/build/a.o", "", action.Delete), action.Deny, "no-link"},
		{"absolute allow of the bind spelling", "delete_file",
			alias("/mnt/p/tmp/a.o", "/mnt/p/tmp/a.o", "/p/tmp/a.o", "/p/tmp/a.o", action.Delete), action.Allow, "mnt"},
		{"absolute allow of the bind spelling, negation of the project's", "delete_file",
			alias("/mnt/p/build/keep/a.o", "/mnt/p/build/keep/a.o", "/p/build/keep/a.o", "/p/build/keep/a.o", action.Delete), action.Prompt, "builtin:fileDelete"},
	} {
		a := action.Action{Tool: tt.tool, Paths: []action.Path{tt.p}, Project: "/p", Cwd: "/p"}
		d, x := eng.Evaluate(&a, policy.Env{Trace: true})
		if d.Verdict != tt.want || d.Rule != tt.rule {
			t.Errorf("%s: Evaluate = %v by %q, want %v by %q\ntrace:\n  %s", tt.name, d.Verdict, d.Rule, tt.want, tt.rule, strings.Join(x.Trace, "\n  "))
		}
	}
}
