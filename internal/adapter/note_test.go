// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter_test

import (
	"strings"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/audit"
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

// TestSandboxNote: what a wrapped run was refused becomes the note the
// model reads after the call: destinations, paths, what it planted for
// the host, system calls of a failed run, each with what to do instead;
// nothing when nothing was refused.
func TestSandboxNote(t *testing.T) {
	s := adapter.Subject{Tool: "Bash", Value: "make"}
	tests := []struct {
		name string
		run  audit.Run
		want []string // in the note; none: no note
	}{
		{"nothing refused", audit.Run{}, nil},
		{"a system call of a successful run", audit.Run{BlockedSyscalls: []audit.Syscall{{Syscall: "socket", Count: 1}}}, nil},
		{"a destination", audit.Run{NetworkAttempts: []audit.NetworkAttempt{{Host: "evil.example", Port: 443, Verdict: audit.VerdictDeny, Rule: "default"}}},
			[]string{`a connection to "evil.example" port 443`, "network.rules"}},
		{"a path", audit.Run{RefusedPaths: []audit.Refusal{{Path: "/etc/x", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}}},
			[]string{`the path "/etc/x" (read-only: Read-only file system)`, "write inside the project"}},
		{"a planted hook", audit.Run{Quarantined: []audit.Quarantined{{Path: "/p/.git/hooks/pre-commit", Why: "git runs it"}}},
			[]string{`"/p/.git/hooks/pre-commit", which it planted for the host (git runs it)`, "tell the user the change"}},
		{"a system call of a failed run", audit.Run{Status: 1, BlockedSyscalls: []audit.Syscall{{Syscall: "ptrace", Count: 2}}},
			[]string{`the system call "ptrace" (2 times)`, "never available inside the sandbox"}},
		{"a timeout", audit.Run{Status: 124, TimedOut: true}, []string{"timeout", "Run something shorter"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			note := adapter.SandboxNote(s, &tt.run)
			if tt.want == nil {
				if note != "" {
					t.Errorf("note %q, want none", note)
				}
				return
			}
			if !strings.HasPrefix(note, `Warden's sandbox ran this Bash command ("make") and refused: `) {
				t.Errorf("note %q does not say which command", note)
			}
			for _, w := range tt.want {
				if !strings.Contains(note, w) {
					t.Errorf("note %q lacks %q", note, w)
				}
			}
		})
	}
}
