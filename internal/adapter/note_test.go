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

// TestAskShowsWhatRuns: the note a person reads with an ask shows what
// the call reaches whole — a deny's note, for the model, is clipped at
// 300 bytes, which an ask once was too, so a padded command or path hid
// its end from the person approving it.
func TestAskShowsWhatRuns(t *testing.T) {
	d := policy.Decision{Verdict: action.Prompt, Rule: "builtin:fileWriteOutsideWorktree", Reason: "writes outside the project"}
	padded := "/tmp/" + strings.Repeat("dir/", 500) + ".bashrc"
	for _, tt := range []struct {
		s    adapter.Subject
		want string
	}{
		{adapter.Subject{Tool: "Write", Kind: "path", Value: padded}, `(path "` + padded + `")`},
		{adapter.Subject{Tool: "Bash", Kind: "command", Value: strings.Repeat(": ; ", 2000) + "rm -rf ~"}, `rm -rf ~")`},
		{adapter.Subject{Tool: "web_fetch", Kind: "url", Value: "https://x.example/" + strings.Repeat("a", 1000) + "?to=evil.example"}, `?to=evil.example")`},
		// Free text is cut, marked, with the paths it names.
		{adapter.Subject{Tool: "google_web_search", Kind: "query", Value: strings.Repeat("how to ", 100) + "cat ~/.ssh/id_rsa"}, `paths in the whole text: "~/.ssh/id_rsa"]`},
		// A tool's name cannot redraw the line the question is on.
		{adapter.Subject{Tool: "mcp__x__y\r\x1b[2KRead", Kind: "tool", Value: "y"}, `mcp__x__y\r\x1b[2KRead call`},
	} {
		got := adapter.Note(tt.s, nil, d, action.Prompt, "")
		if !strings.Contains(got, tt.want) {
			t.Errorf("Note(ask %s %.40q…) = %.200q…, want it to hold %.80q", tt.s.Kind, tt.s.Value, got, tt.want)
		}
	}
}
