// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter_test

import (
	"strings"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/policy"
)

// TestNoteRunsCode checks that a command refused because it runs
// unanalysed code outside the sandbox tells the model what it can do
// instead, rather than the generic advice of its class.
func TestNoteRunsCode(t *testing.T) {
	a := &action.Action{Tool: "bash", Classes: []action.Class{action.ProcessSpawn}, Commands: [][]string{{"make", "test"}}, Flags: []action.Flag{action.FlagRunsCode}}
	d := policy.Decision{Verdict: action.Prompt, Rule: "builtin:runs-code", Reason: "make test runs the project's code", Classes: a.Classes, Confirm: []action.Class{action.ProcessSpawn}}
	got := adapter.Note(adapter.Subject{Tool: "Bash", Kind: "command", Value: "make test"}, a, d, action.Deny, "Nobody can answer.")
	for _, want := range []string{`Rule "builtin:runs-code"`, "Nobody can answer.", "Instead: this runs code Warden does not analyse", "--wrap"} {
		if !strings.Contains(got, want) {
			t.Errorf("Note = %q, want it to hold %q", got, want)
		}
	}
}
