// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/hook"
)

// own is a user's settings file with a hook of their own in an event
// Warden also writes.
const own = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/other-guard"
          }
        ]
      }
    ]
  }
}
`

// TestUninstallUndoesInstall: install then uninstall gives back the file
// as it was, for each agent, and a second uninstall changes nothing.
func TestUninstallUndoesInstall(t *testing.T) {
	for _, name := range []string{"claude-code", "codex", "gemini"} {
		t.Run(name, func(t *testing.T) {
			ag := agent(t, name)
			home := t.TempDir()
			o := hook.InstallOptions{Home: home, Getenv: func(string) string { return "" }, Exe: "/usr/local/bin/warden", Wrap: true}
			path, _, err := hook.SettingsPath(ag, o)
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := os.WriteFile(path, []byte(own), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := hook.Install(ag, o); err != nil {
				t.Fatal(err)
			}
			// Another agent's entry in the same file stays.
			done, err := hook.Uninstall(ag, hook.InstallOptions{Home: home, Getenv: o.Getenv, DryRun: true})
			if err != nil || done.Unchanged || len(done.Changes) != len(ag.Hooks().Events) {
				t.Fatalf("Uninstall dry run = %+v, %v; want %d removals", done, err, len(ag.Hooks().Events))
			}
			if got, _ := os.ReadFile(path); bytes.Equal(got, []byte(own)) {
				t.Fatal("the dry run wrote the file")
			}
			if _, err := hook.Uninstall(ag, o); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); string(got) != own {
				t.Errorf("after install and uninstall the file is\n%s\nwant\n%s", got, own)
			}
			done, err = hook.Uninstall(ag, o)
			if err != nil || !done.Unchanged {
				t.Errorf("second Uninstall = %+v, %v; want unchanged", done, err)
			}
		})
	}
}

// TestUninstallKeepsOtherAgents: removing claude-code's entries leaves an
// entry of another agent's hook (codex shares the event names) alone, and
// groups of shapes Install never writes.
func TestUninstallKeepsOtherAgents(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	src := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/warden hook codex"}, {"type": "command", "command": "/usr/local/bin/warden hook claude-code --wrap"}]}], "Stop": ["not a group"], "Notification": [{"hooks": "odd"}]}}`
	os.WriteFile(path, []byte(src), 0o600)
	done, err := hook.Uninstall(agent(t, "claude-code"), hook.InstallOptions{Home: home})
	if err != nil || len(done.Changes) != 1 {
		t.Fatalf("Uninstall = %+v, %v; want one removal", done, err)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), "warden hook codex") || strings.Contains(string(got), "hook claude-code") ||
		!strings.Contains(string(got), `"not a group"`) || !strings.Contains(string(got), `"odd"`) {
		t.Errorf("after Uninstall the file is\n%s", got)
	}
}

// TestRefusesUnparsed: a settings file that does not parse is left
// byte-identical, and the error names the file, line and column.
func TestRefusesUnparsed(t *testing.T) {
	for _, tt := range []struct{ src, where string }{
		{"{\n  \"a\": 1,\n  // no\n}\n", "~/.claude/settings.json:3:3: not JSON"},
		{"{\n  \"a\": 1,\n}\n", "~/.claude/settings.json:3:1: not JSON"},
		{"{\"a\": [1,\n", "~/.claude/settings.json:2:1: not JSON"},
		{"[]", "~/.claude/settings.json:1:2: not a JSON object"},
		{"{\"a\": 1,\n \"a\": 2}", "~/.claude/settings.json:2:8: key \"a\" appears twice"},
	} {
		home := t.TempDir()
		path := filepath.Join(home, ".claude", "settings.json")
		os.MkdirAll(filepath.Dir(path), 0o700)
		os.WriteFile(path, []byte(tt.src), 0o600)
		ag := agent(t, "claude-code")
		o := hook.InstallOptions{Home: home, Exe: "/usr/local/bin/warden"}
		for verb, f := range map[string]func(adapter.Agent, hook.InstallOptions) (*hook.Installed, error){"Install": hook.Install, "Uninstall": hook.Uninstall} {
			_, err := f(ag, o)
			if err == nil || !strings.HasPrefix(err.Error(), tt.where) {
				t.Errorf("%s on %q = %v, want an error starting %q", verb, tt.src, err, tt.where)
			}
			if got, _ := os.ReadFile(path); string(got) != tt.src {
				t.Errorf("%s rewrote %q as %q", verb, tt.src, got)
			}
		}
	}
}

// TestEntriesDead: a Warden entry whose program moved, lost its execute
// bit or is not on PATH is reported dead; one that starts is not.
func TestEntriesDead(t *testing.T) {
	home := t.TempDir()
	bin := t.TempDir()
	live := filepath.Join(bin, "warden")
	os.WriteFile(live, []byte("#!/bin/sh\n"), 0o755)
	noexec := filepath.Join(bin, "noexec", "warden")
	os.MkdirAll(filepath.Dir(noexec), 0o755)
	os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644)
	path := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	src := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "` + live + ` hook claude-code"},
		{"type": "command", "command": "/gone/warden hook claude-code"},
		{"type": "command", "command": "` + noexec + ` hook claude-code"},
		{"type": "command", "command": "warden hook claude-code --wrap"},
		{"type": "command", "command": "/gone/other-guard"}]}]}}`
	os.WriteFile(path, []byte(src), 0o600)
	notOnPath := func(string) (string, error) { return "", errors.New("not found") }
	es, err := hook.Entries(agent(t, "claude-code"), hook.InstallOptions{Home: home}, notOnPath)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "/gone/warden no longer exists", noexec + " is not executable", "warden is not on PATH"}
	if len(es) != len(want) {
		t.Fatalf("Entries = %+v, want %d entries", es, len(want))
	}
	for i, e := range es {
		if e.Dead != want[i] || e.Event != "PreToolUse" || e.File != "~/.claude/settings.json" {
			t.Errorf("entry %d = %+v, want dead %q", i, e, want[i])
		}
	}
}

// TestEntriesRefuses: a hook whose --policy file is gone refuses every
// call; one whose policy is there does not.
func TestEntriesRefuses(t *testing.T) {
	home := t.TempDir()
	kept := filepath.Join(home, "my policy.yaml")
	os.WriteFile(kept, []byte("version: 1\n"), 0o600)
	path := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	src := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "warden hook claude-code --policy '` + kept + `' --wrap"},
		{"type": "command", "command": "warden hook claude-code --policy /gone/policy.yaml"}]}]}}`
	os.WriteFile(path, []byte(src), 0o600)
	onPath := func(string) (string, error) { return "/usr/bin/warden", nil }
	es, err := hook.Entries(agent(t, "claude-code"), hook.InstallOptions{Home: home}, onPath)
	if err != nil || len(es) != 2 {
		t.Fatalf("Entries = %+v, %v; want 2 entries", es, err)
	}
	if es[0].Refuses != "" || es[0].Dead != "" {
		t.Errorf("entry with its policy = %+v, want no problem", es[0])
	}
	if want := "its policy /gone/policy.yaml no longer exists"; es[1].Refuses != want {
		t.Errorf("entry without its policy refuses %q, want %q", es[1].Refuses, want)
	}
}
