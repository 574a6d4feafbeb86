// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package governance_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/governance"
)

func TestMatch(t *testing.T) {
	pl := governance.Places{
		Home:     "/home/u",
		Own:      []string{"/home/u/.config/warden", "/home/u/.local/state/warden"},
		Policies: []string{"/srv/policy.yaml"},
		GitDirs:  []string{"/srv/main.git/worktrees/w"},
		Hooks:    []string{"/home/u/src/p/.husky/_"},
		Path:     []string{"/usr/local/bin", "/opt/tool/bin"},
		// CODEX_HOME, CLAUDE_CONFIG_DIR outside the home.
		AgentHomes: []string{"/var/lib/agents/codex", "/srv/claude-config"},
	}
	for _, tt := range []struct {
		path string
		want governance.Tier
	}{
		// An agent's settings directory named by its environment.
		{"/var/lib/agents/codex/hooks.json", governance.Locked},
		{"/var/lib/agents/codex/config.toml", governance.Locked},
		{"/VAR/lib/agents/Codex/Hooks.json", governance.Locked},
		{"/var/lib/agents/codex", governance.Locked},
		{"/srv/claude-config/settings.json", governance.Locked},
		{"/var/lib/agents/codex-other/hooks.json", governance.None},
		// Warden's own.
		{"/home/u/.config/warden/policy.yaml", governance.Own},
		{"/home/u/.config/warden", governance.Own},
		{"/HOME/U/.Config/Warden/ca/key.pem", governance.Own},
		{"/home/u/.local/state/warden/warden.db", governance.Own},
		{"/srv/policy.yaml", governance.Own},
		{"/home/u/src/p/.warden/policy.yaml", governance.Own},
		{"/home/u/src/p/.warden", governance.Own},
		// Git: everything but its data, in any repository.
		{"/home/u/src/p/.git/hooks/pre-commit", governance.Locked},
		{"/home/u/src/p/.git/config", governance.Locked},
		{"/home/u/src/p/.GIT/Config", governance.Locked},
		{"/home/u/src/p/.git", governance.Locked},
		{"/home/u/src/p/sub/.git", governance.Locked},
		{"/home/u/src/p/.git/info/attributes", governance.Locked},
		{"/home/u/src/p/.git/modules/m/hooks/post-checkout", governance.Locked},
		{"/home/u/src/p/.git/objects/info/alternates", governance.Locked},
		{"/home/u/src/p/.git/objects/ab/cdef", governance.None},
		{"/home/u/src/p/.git/HEAD", governance.None},
		{"/home/u/src/p/.git/head", governance.Locked}, // not git's own spelling of its data
		{"/home/u/src/p/.git/refs/heads/main", governance.None},
		{"/home/u/src/p/.git/index.lock", governance.None},
		{"/srv/main.git/worktrees/w/config.worktree", governance.Locked},
		{"/srv/main.git/worktrees/w/HEAD", governance.None},
		{"/home/u/src/p/.husky/_/pre-commit", governance.Locked},
		// Agents, editors, direnv: in any directory.
		{"/home/u/src/p/.claude/settings.json", governance.Locked},
		{"/home/u/src/p/.Claude/Settings.JSON", governance.Locked},
		{"/home/u/src/p/.claude/settings.local.json", governance.Locked},
		{"/home/u/src/p/.claude/commands/x.md", governance.Guarded},
		{"/home/u/src/p/.codex/hooks.json", governance.Locked},
		{"/home/u/src/p/.gemini/settings.json", governance.Locked},
		{"/home/u/src/p/.mcp.json", governance.Guarded},
		{"/home/u/src/p/.vscode/tasks.json", governance.Guarded},
		{"/home/u/src/p/app.code-workspace", governance.Guarded},
		{"/home/u/src/p/.devcontainer/devcontainer.json", governance.Guarded},
		{"/home/u/src/p/deep/er/.envrc", governance.Guarded},
		{"/tmp/elsewhere/.cursor/mcp.json", governance.Guarded},
		{"/home/u/src/p/.github/hooks/session.json", governance.Locked},
		{"/home/u/src/p/.GitHub/Hooks", governance.Locked},
		{"/home/u/src/p/.opencode/plugins/x.ts", governance.Guarded},
		{"/home/u/src/p/opencode.jsonc", governance.Guarded},
		{"/home/u/src/p/.kiro/hooks/on-save.kiro.hook", governance.Guarded},
		{"/home/u/src/p/.amazonq/mcp.json", governance.Guarded},
		{"/home/u/src/p/.roo/mcp.json", governance.Guarded},
		{"/home/u/src/p/.qwen/settings.json", governance.Guarded},
		{"/home/u/src/p/.crush.json", governance.Guarded},
		{"/home/u/src/p/.helix/languages.toml", governance.Guarded},
		{"/home/u/src/p/sub/.nvimrc", governance.Guarded},
		{"/home/u/src/p/sub/.exrc", governance.Guarded},
		{"/home/u/src/p/sub/.dir-locals.el", governance.Guarded},
		{"/home/u/src/p/mise.local.toml", governance.Guarded},
		{"/home/u/src/p/sub/.mise/config.toml", governance.Guarded},
		// The home.
		{"/home/u/.bashrc", governance.Guarded},
		{"/home/u/.zshrc", governance.Guarded},
		{"/home/u/.config/fish/config.fish", governance.Guarded},
		{"/home/u/.claude.json", governance.Locked},
		{"/home/u/.claude/settings.json", governance.Locked},
		{"/home/u/.claude/CLAUDE.md", governance.Guarded},
		{"/home/u/.gitconfig", governance.Locked},
		{"/home/u/.config/git/config", governance.Locked},
		{"/home/u/.config/systemd/user/x.service", governance.Guarded},
		{"/home/u/.local/bin/git", governance.Guarded},
		{"/home/u/bin/ls", governance.Guarded},
		{"/home/u/.ssh/authorized_keys", governance.Guarded},
		// The host.
		{"/etc/cron.d/job", governance.Guarded},
		{"/etc/profile.d/x.sh", governance.Guarded},
		{"/var/spool/cron/crontabs/u", governance.Guarded},
		{"/etc/gitconfig", governance.Locked},
		{"/usr/local/bin/git", governance.Guarded},
		{"/opt/tool/bin/x", governance.Guarded},
		// Not governance.
		{"/home/u/src/p/main.go", governance.None},
		{"/home/u/src/p/.bashrc", governance.None}, // a project's file, not the home's
		{"/home/u/src/p/.github/workflows/ci.yml", governance.None},
		{"/home/u/src/p/.gitignore", governance.None},
		{"/home/u/src/p/bin/tool", governance.None},
		{"/usr/local/bin", governance.None}, // the directory itself: creating it runs nothing
		{"/home/u/notes.txt", governance.None},
		{"relative/.git/config", governance.None}, // never given: paths are absolute
	} {
		m, _ := pl.Match(tt.path)
		if m.Tier != tt.want {
			t.Errorf("Match(%s) = %s (%s), want %s", tt.path, m.Tier, m.Why, tt.want)
		}
	}
}

func TestMatchRead(t *testing.T) {
	pl := governance.Places{Own: []string{"/home/u/.config/warden"}, Policies: []string{"/srv/policy.yaml"}}
	var got []string
	for _, p := range []string{"/home/u/.config/warden/ca/ca.key", "/srv/policy.yaml", "/home/u/.bashrc", "/home/u/.config/wardenx"} {
		if _, ok := pl.MatchRead(p); ok {
			got = append(got, p)
		}
	}
	if diff := cmp.Diff([]string{"/home/u/.config/warden/ca/ca.key"}, got); diff != "" {
		t.Errorf("MatchRead (-want +got):\n%s", diff)
	}
}

func TestHostExecRel(t *testing.T) {
	for _, tt := range []struct {
		rel  string
		want bool
	}{
		{".claude", true}, {"sub/.claude", false}, {".envrc", true}, {"a/b/.envrc", true},
		{"x.code-workspace", true}, {"a/x.code-workspace", false}, {"main.go", false},
		// An entry of two components, at the top only.
		{".github/hooks", true}, {".github", false}, {"hooks", false}, {"sub/.github/hooks", false},
		{".github/hooks/x.json", false}, {".github/workflows", false},
		// Each editor's and environment manager's exrc, in any directory.
		{"a/.nvimrc", true}, {".exrc", true}, {"a/b/.vimrc", true}, {"src/.dir-locals.el", true},
		{"mise.toml", true}, {"a/mise.local.toml", true}, {"a/.mise.toml", true}, {"a/.mise", true},
		{"mise", false}, {"premise.toml", false},
		// Agents', at the top.
		{".opencode", true}, {"opencode.jsonc", true}, {".kiro", true}, {"crush.json", true}, {"a/.kiro", false},
		// Case as written (the engine's floor matches any case).
		{".Claude", false}, {".GitHub/hooks", false},
		{"", false}, {"/", false}, {"a//.envrc", true},
	} {
		if got := governance.HostExecRel(tt.rel); got != tt.want {
			t.Errorf("HostExecRel(%q) = %t, want %t", tt.rel, got, tt.want)
		}
	}
}
