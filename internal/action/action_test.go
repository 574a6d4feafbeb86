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
	// The tools of the CLI contract (DESIGN.md §11) are all known.
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
