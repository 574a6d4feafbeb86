// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package action_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
)

// TestRatchet fails when a mutating tool declares no class: the taxonomy
// grows only by an explicit decision, never by a tool that forgot.
func TestRatchet(t *testing.T) {
	for _, tool := range action.Tools() {
		if tool.Mutating && len(tool.Classes) == 0 {
			t.Errorf("mutating tool %q declares no class", tool.Name)
		}
		if !tool.Mutating && len(tool.Classes) > 0 {
			t.Errorf("read-only tool %q declares classes %v", tool.Name, tool.Classes)
		}
		for _, c := range tool.Classes {
			if !c.Valid() {
				t.Errorf("tool %q declares invalid class %d", tool.Name, c)
			}
		}
	}
	// The tools of the CLI contract (docs/spec.md §11) are all known.
	for _, name := range []string{"bash", "read_file", "write_file", "edit_file", "delete_file", "web_fetch", "git_push", "git_commit", "pr_create"} {
		if _, ok := action.LookupTool(name); !ok {
			t.Errorf("tool %q of the CLI contract is unknown", name)
		}
	}
}

// TestTaxonomy pins the thirteen classes and their defaults: changing
// either is a design decision that must show up in review.
func TestTaxonomy(t *testing.T) {
	type row struct{ Name, Contained, Uncontained string }
	var got []row
	for _, c := range action.Classes() {
		v, _ := c.Default(true)
		u, why := c.Default(false)
		if (v != u) != (why != "") {
			t.Errorf("%s: Default(false) changed the verdict but gave no reason, or the reverse", c)
		}
		got = append(got, row{c.String(), v.String(), u.String()})
		if back, ok := action.ParseClass(c.String()); !ok || back != c {
			t.Errorf("ParseClass(%q) = %v, %v", c.String(), back, ok)
		}
	}
	want := []row{
		{"fileDelete", "prompt", "prompt"},
		{"gitPush", "prompt", "prompt"},
		{"prCreate", "prompt", "prompt"},
		{"prPublish", "prompt", "prompt"},
		{"vendorSyncWrite", "prompt", "prompt"},
		{"fileWriteOutsideWorktree", "allow", "prompt"},
		{"gitCommit", "allow", "allow"},
		{"networkEgress", "allow", "prompt"},
		{"secretAccess", "allow", "prompt"},
		{"packageInstall", "allow", "prompt"},
		{"processSpawn", "allow", "allow"},
		{"workspaceMutation", "allow", "allow"},
		{"enclosureControl", "allow", "allow"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("taxonomy (-want +got):\n%s", diff)
	}
	if _, ok := action.ParseClass("GitPush"); ok {
		t.Error("ParseClass accepted a wrong case")
	}
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		root, p string
		want    bool
	}{
		{"/project", "/project", true},
		{"/project", "/project/a/b", true},
		{"/project", "/project-evil", false},
		{"/project", "/projectx/a", false},
		{"/project", "/", false},
		{"/project/", "/project/a", true},
		{"/", "/etc", true},
		{"", "/etc", false},
		{"/project", "/project/../etc", false},
	} {
		if got := action.Within(tt.root, tt.p); got != tt.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tt.root, tt.p, got, tt.want)
		}
	}
}

func TestModes(t *testing.T) {
	if got := action.Mode("").Effective(); got != action.ActWithApproval {
		t.Errorf("unset mode = %v, want actWithApproval", got)
	}
	if !action.ActFreely.MoreFree(action.ActWithApproval) || action.ProposeOnly.MoreFree(action.Mode("")) {
		t.Error("mode order wrong")
	}
	if got := action.ActFreely.Least(action.ProposeOnly); got != action.ProposeOnly {
		t.Errorf("Least = %v", got)
	}
	if _, ok := action.ParseMode("act-freely"); ok {
		t.Error("ParseMode accepted the display form")
	}
}

// TestCommandCode checks that the per-invocation detail of code never
// hides code the flags announce: without detail, with detail that does
// not line up, or with detail that marks nothing, every invocation runs
// code.
func TestCommandCode(t *testing.T) {
	two := [][]string{{"cd", "sub"}, {"make", "test"}}
	n, c, h := action.NoCode, action.NamedCode, action.HiddenCode
	for _, tt := range []struct {
		name string
		a    action.Action
		want []action.Code
	}{
		{"no flag, no detail", action.Action{Commands: two}, []action.Code{n, n}},
		{"detail", action.Action{Commands: two, Flags: []action.Flag{action.FlagRunsCode}, Code: []action.Code{n, c}}, []action.Code{n, c}},
		{"hidden detail", action.Action{Commands: two, Flags: []action.Flag{action.FlagRunsCode}, Code: []action.Code{h, h}}, []action.Code{h, h}},
		{"flag without detail", action.Action{Commands: two, Flags: []action.Flag{action.FlagRunsCode}}, []action.Code{c, c}},
		{"pipe flag without detail", action.Action{Commands: two, Flags: []action.Flag{action.FlagPipeToInterpreter}}, []action.Code{c, c}},
		{"detail marking nothing", action.Action{Commands: two, Flags: []action.Flag{action.FlagDecodeExec}, Code: []action.Code{n, n}}, []action.Code{c, c}},
		{"detail too short", action.Action{Commands: two, Flags: []action.Flag{action.FlagRunsCode}, Code: []action.Code{n}}, []action.Code{c, c}},
		{"short detail keeps what it marks", action.Action{Commands: two, Flags: []action.Flag{action.FlagRunsCode}, Code: []action.Code{h}}, []action.Code{h, c}},
		{"detail without the flag", action.Action{Commands: two, Code: []action.Code{n, c}}, []action.Code{n, c}},
		{"flags that run no code", action.Action{Commands: two, Flags: []action.Flag{action.FlagBackground, action.FlagPrivilegeEscalation}}, []action.Code{n, n}},
	} {
		var got []action.Code
		for i := range tt.a.Commands {
			got = append(got, tt.a.CommandCode(i))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: CommandCode (-want +got):\n%s", tt.name, diff)
		}
		if tt.a.RunsCode() != (tt.name != "no flag, no detail" && tt.name != "flags that run no code") {
			t.Errorf("%s: RunsCode() = %t", tt.name, tt.a.RunsCode())
		}
	}
}
