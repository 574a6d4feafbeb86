// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/governance"
)

func TestGitData(t *testing.T) {
	for name, want := range map[string]bool{
		"objects": true, "refs": true, "logs": true, "index": true, "HEAD": true, "ORIG_HEAD": true,
		"FETCH_HEAD": true, "MERGE_HEAD": true, "MERGE_MSG": true, "CHERRY_PICK_HEAD": true,
		"BISECT_LOG": true, "AUTO_MERGE": true, "COMMIT_EDITMSG": true, "packed-refs": true,
		"index.lock": true, "config.lock": true, "rebase-merge": true, "sequencer": true,
		"shallow": true, "gc.pid": true, "lost-found": true, "description": true,
		"sharedindex.0123": true, "lfs": true,
		// Host-executed: everything else.
		"config": false, "config.worktree": false, "commondir": false, "gitdir": false,
		"hooks": false, "info": false, "worktrees": false, "modules": false, "x": false,
		"remotes": false, "head": false,
	} {
		if got := governance.IsGitData(name); got != want {
			t.Errorf("governance.IsGitData(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestProtectedRel(t *testing.T) {
	for _, tt := range []struct {
		rel  string
		dir  bool
		want bool
	}{
		{".claude", true, true},
		{".claude/settings.json", false, false}, // the directory is protected whole
		{"sub/.claude", true, false},            // agent settings count at the top
		{".mcp.json", false, true},
		{"x.code-workspace", false, true},
		{"a/x.code-workspace", false, false},
		{".envrc", false, true},
		{"a/b/.envrc", false, true}, // direnv: any directory
		{"a/.nvim.lua", false, true},
		{"a/.exrc", false, true},
		{"a/b/mise.local.toml", false, true},
		{".github/hooks", true, true}, // Copilot CLI's: two components, at the top
		{".github", true, false},
		{".github/workflows", true, false},
		{"sub/.github/hooks", true, false},
		{".opencode", true, true},
		{"sub/.opencode", true, false},
		{".devcontainer", true, true},
		{"CLAUDE.md", false, true}, // the policy's pattern
		{"docs/CLAUDE.md", false, true},
		{"AGENTS.md", false, false},
		{"main.go", false, false},
	} {
		if got := protectedRel(tt.rel, tt.dir, []string{"CLAUDE.md"}); got != tt.want {
			t.Errorf("protectedRel(%q) = %v, want %v", tt.rel, got, tt.want)
		}
	}
}

func TestPlanViewGit(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(root, "p")
	mkTree(t, project, ".git/HEAD", ".git/config", ".git/hooks/", ".git/info/", ".git/objects/info/alternates",
		".git/refs/", "nested/.git/config", ".envrc", "a/.envrc", "node_modules/.envrc", "CLAUDE.md",
		".github/hooks/x.json", ".github/workflows/ci.yml")
	v, err := planView(Spec{Mode: WorkspaceWrite, Protect: []string{"CLAUDE.md"}}, project)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range v.binds {
		got = append(got, strings.TrimPrefix(b.Path, project+"/")+map[bool]string{true: " rw", false: " ro"}[b.Writable])
	}
	want := []string{
		root + "/p rw",
		// Git directories and the parents of read-only entries are
		// pinned: mount points cannot be renamed away.
		"a rw", ".github rw", ".git rw", "nested rw",
		".envrc ro", "CLAUDE.md ro",
		".git/objects rw", "nested/.git rw",
		".github/hooks ro", "a/.envrc ro", ".git/config ro", ".git/hooks ro", ".git/info ro",
		".git/objects/info rw",
		"nested/.git/config ro",
		".git/objects/info/alternates ro",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("binds (-want +got):\n%s", diff)
	}
	// A .git file pointing elsewhere stops the plan.
	mkTree(t, root, "other/.git/HEAD")
	if err := os.WriteFile(filepath.Join(project, "nested/sub.git"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(project, "bad"), 0o755)
	os.WriteFile(filepath.Join(project, "bad/.git"), []byte("gitdir: "+filepath.Join(root, "other/.git")), 0o644)
	if _, err := planView(Spec{Mode: WorkspaceWrite}, project); err == nil || !strings.Contains(err.Error(), filepath.Join(project, "bad/.git")) {
		t.Errorf("planView with a .git file pointing elsewhere: %v, want an error naming it", err)
	}
}

func TestBenignGitConfig(t *testing.T) {
	for _, tt := range []struct {
		conf string
		want bool
	}{
		// What git init and git clone write.
		{"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n", true},
		{"[remote \"origin\"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n", true},
		{"[user]\n\tname = A\n", true},
		{"", true},
		// What runs something, or is not known.
		{"[core]\n\tfsmonitor = /x/evil\n", false},
		{"[core]\n\thooksPath = h\n", false},
		{"[core]\n\tsshCommand = evil\n", false},
		{"[alias]\n\tst = !evil\n", false},
		{"[include]\n\tpath = ../x\n", false},
		{"[remote \"o\"]\n\turl = ext::sh -c evil\n", false},
		{"[remote \"o\"]\n\tuploadpack = evil\n", false},
		{"[submodule \"s\"]\n\tupdate = !evil\n", false},
		{"[filter \"lfs\"]\n\tclean = evil\n", false},
		{"[core] fsmonitor = evil\n", false},
		{"[remote \"o\"]\n\turl = x\n[core\n\tfsmonitor = evil\n", false},
		{"[core \"x\"]\n\tbare = true\n", false},
	} {
		if got := benignGitConfig([]byte(tt.conf)); got != tt.want {
			t.Errorf("benignGitConfig(%q) = %v, want %v", tt.conf, got, tt.want)
		}
	}
}
