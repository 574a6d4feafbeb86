// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

// TestDeleteWhy checks that the built-in fileDelete default quotes what
// the request layer said of a delete the command does not spell as one
// (a tracked file truncated by a redirection), and that a written rule
// keeps its own reason.
func TestDeleteWhy(t *testing.T) {
	ws := policy.Scope{Kind: policy.WorkspaceScope}
	eng, err := policy.Compile(&policy.Set{Rules: []*policy.Rule{
		{ID: "gen", Scope: ws, Class: action.FileDelete, Paths: []string{"gen/**"}, Decision: action.Allow, Reason: "generated"},
	}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	del := func(p, why string) action.Path {
		return action.Path{Raw: p, Lexical: "/p/" + p, Resolved: "/p/" + p, Access: action.Delete, Checked: true, Why: why}
	}
	for _, tt := range []struct {
		name  string
		paths []action.Path
		want  policy.Decision
	}{
		{"plain delete", []action.Path{del("a.go", "")},
			policy.Decision{Verdict: action.Prompt, Rule: "builtin:fileDelete", Reason: "the built-in default for fileDelete"}},
		{"truncated tracked file", []action.Path{del("a.go", "> truncates /p/a.go, a file tracked by git")},
			policy.Decision{Verdict: action.Prompt, Rule: "builtin:fileDelete", Reason: "the built-in default for fileDelete: > truncates /p/a.go, a file tracked by git"}},
		{"two", []action.Path{del("a.go", "> truncates /p/a.go, a file tracked by git"), del("b.go", ""), del("c.go", "2> truncates /p/c.go, a file tracked by git")},
			policy.Decision{Verdict: action.Prompt, Rule: "builtin:fileDelete", Reason: "the built-in default for fileDelete: > truncates /p/a.go, a file tracked by git; 2> truncates /p/c.go, a file tracked by git"}},
		{"a rule decides", []action.Path{del("gen/x.go", "> truncates /p/gen/x.go, a file tracked by git")},
			policy.Decision{Verdict: action.Allow, Rule: "gen", Reason: "generated"}},
	} {
		a := &action.Action{Tool: "bash", Project: "/p", Cwd: "/p", Classes: []action.Class{action.FileDelete}, Paths: tt.paths}
		d, _ := eng.Evaluate(a, policy.Env{})
		got := policy.Decision{Verdict: d.Verdict, Rule: d.Rule, Reason: d.Reason}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
