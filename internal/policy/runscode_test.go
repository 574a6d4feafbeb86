// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy_test

import (
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

// TestRunsCodeGoAPI checks builtin:runs-code on actions built by hand, as
// a harness using the Go API builds them: a flag with no per-command
// detail makes every command run code, a flag with no command at all
// asks about the whole action, and contained actions are untouched.
func TestRunsCodeGoAPI(t *testing.T) {
	ws := policy.Scope{Kind: policy.WorkspaceScope}
	eng, err := policy.Compile(&policy.Set{Rules: []*policy.Rule{
		{ID: "make-test", Scope: ws, Command: []string{"make", "test"}, Decision: action.Allow},
		{ID: "cd", Scope: ws, Command: []string{"cd"}, Decision: action.Allow},
	}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc := []action.Flag{action.FlagRunsCode}
	bash := func(a action.Action) action.Action {
		a.Tool, a.Project, a.Cwd = "bash", "/p", "/p"
		a.Classes = []action.Class{action.ProcessSpawn}
		return a
	}
	for _, tt := range []struct {
		name string
		a    action.Action
		want action.Verdict
		rule string
	}{
		{"flag, no detail, every command named", bash(action.Action{Flags: rc, Commands: [][]string{{"cd", "sub"}, {"make", "test"}}}), action.Allow, ""},
		{"flag, no detail, one command unnamed", bash(action.Action{Flags: rc, Commands: [][]string{{"ls"}, {"make", "test"}}}), action.Prompt, "builtin:runs-code"},
		{"detail names the code", bash(action.Action{Flags: rc, Commands: [][]string{{"ls"}, {"make", "test"}}, Code: []action.Code{action.NoCode, action.NamedCode}}), action.Allow, ""},
		{"hidden code", bash(action.Action{Flags: rc, Commands: [][]string{{"make", "test"}}, Code: []action.Code{action.HiddenCode}}), action.Prompt, "builtin:runs-code"},
		{"flag and no command", bash(action.Action{Flags: rc}), action.Prompt, "builtin:runs-code"},
		{"detail and no flag", bash(action.Action{Commands: [][]string{{"python3", "-c", "x"}}, Code: []action.Code{action.NamedCode}}), action.Prompt, "builtin:runs-code"},
		{"contained", bash(action.Action{Flags: rc, Commands: [][]string{{"python3", "-c", "x"}}, Contained: true}), action.Allow, ""},
		{"contained without commands", bash(action.Action{Flags: rc, Contained: true}), action.Allow, ""},
	} {
		a := tt.a
		d, _ := eng.Evaluate(&a, policy.Env{})
		if d.Verdict != tt.want || (tt.rule != "" && d.Rule != tt.rule) {
			t.Errorf("%s: Evaluate = %v by %s (%s), want %v by %s", tt.name, d.Verdict, d.Rule, d.Reason, tt.want, tt.rule)
		}
	}
}
