// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/gitindex"
)

// mkTree makes the named files (empty) and directories (ending in /)
// under root.
func mkTree(t *testing.T, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(root, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseGitConfig(t *testing.T) {
	conf := `# comment
[core]
	repositoryformatversion = 0
	hooksPath = .husky ; trailing comment
	bare
[Core] HooksPath = "with space/hooks"
[core "sub"]
	hookspath = not-core
[include]
	path = ~/extra.inc
[includeIf "gitdir:~/work/"]
	path = work.inc
[alias]
	x = "!echo \"quoted\" \\\\ done"
[section.Sub]
	key = v
[broken
	hookspath = ignored-header-but-kept-section
	long = a \
b
`
	want := []gitindex.ConfigEntry{
		{"core", "", "repositoryformatversion", "0"},
		{"core", "", "hookspath", ".husky"},
		{"core", "", "bare", "true"},
		{"core", "", "hookspath", "with space/hooks"},
		{"core", "sub", "hookspath", "not-core"},
		{"include", "", "path", "~/extra.inc"},
		{"includeif", "gitdir:~/work/", "path", "work.inc"},
		{"alias", "", "x", `!echo "quoted" \\ done`},
		{"section", "Sub", "key", "v"},
		{"section", "Sub", "hookspath", "ignored-header-but-kept-section"},
		{"section", "Sub", "long", "a b"},
	}
	got := gitindex.ParseConfig([]byte(conf))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("gitindex.ParseConfig (-want +got):\n%s", diff)
	}
}

func TestHooksPaths(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	t.Setenv("XDG_CONFIG_HOME", "")
	mkTree(t, root, "home/", "work/.git/")
	files := map[string]string{
		"home/.gitconfig":           "[core]\n\thooksPath = ~/global-hooks\n[include]\n\tpath = inc.conf\n",
		"home/inc.conf":             "[core]\n\thooksPath = /abs/included\n[include]\n\tpath = deeper.conf\n",
		"home/deeper.conf":          "[core]\n\thooksPath = /never/two-levels\n",
		"home/.config/git/config":   "[core]\n\thooksPath = xdg-relative\n",
		"work/.git/config":          "[core]\n\thooksPath = .husky/_\n",
		"work/.git/config.worktree": "[core]\n\thooksPath = wt-hooks\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := gitindex.Repo{Dir: filepath.Join(work, ".git"), Common: filepath.Join(work, ".git")}
	got := gitindex.HooksPaths(r, work, home)
	want := []string{
		filepath.Join(home, "global-hooks"),
		"/abs/included",
		filepath.Join(work, "xdg-relative"),
		filepath.Join(work, ".husky/_"),
		filepath.Join(work, "wt-hooks"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("gitindex.HooksPaths (-want +got):\n%s", diff)
	}
}

func TestDiscoverRepo(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := func(p string) string { return filepath.Join(root, p) }
	mkTree(t, root,
		"main/.git/objects/", "main/.git/worktrees/wt/HEAD", "main/.git/modules/sub/HEAD",
		"other/.git/HEAD", "proj/.git/objects/", "proj/inner/HEAD")
	write := func(p, body string) {
		if err := os.WriteFile(j(p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mkTree(t, root, "wt/", "main/sub/", "elsewhere/", "proj/inside/")
	write("main/.git/worktrees/wt/commondir", "../..\n")
	write("main/.git/worktrees/wt/gitdir", j("wt/.git")+"\n")
	write("wt/.git", "gitdir: "+j("main/.git/worktrees/wt")+"\n")
	write("main/sub/.git", "gitdir: ../.git/modules/sub\n")
	write("elsewhere/.git", "gitdir: "+j("other/.git")+"\n")
	write("proj/inside/.git", "gitdir: ../inner\n")
	mkTree(t, root, "linked/", "proj/linkin/")
	if err := os.Symlink(j("other/.git"), j("linked/.git")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.git", j("proj/linkin/.git")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		dotGit, project string
		dir, common     string
		err             string
	}{
		{dotGit: "proj/.git", project: "proj", dir: "proj/.git", common: "proj/.git"},
		{dotGit: "wt/.git", project: "wt", dir: "main/.git/worktrees/wt", common: "main/.git"},
		{dotGit: "main/sub/.git", project: "main/sub", dir: "main/.git/modules/sub", common: "main/.git/modules/sub"},
		{dotGit: "proj/inside/.git", project: "proj", dir: "proj/inner", common: "proj/inner"},
		{dotGit: "elsewhere/.git", project: "elsewhere", err: "outside the project"},
		{dotGit: "linked/.git", project: "linked", err: "outside the project"},
		{dotGit: "proj/linkin/.git", project: "proj", dir: "proj/.git", common: "proj/.git"},
	} {
		r, err := gitindex.Discover(j(tt.dotGit), j(tt.project), "")
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("gitindex.Discover(%s) = %+v, %v; want an error with %q", tt.dotGit, r, err, tt.err)
			}
			continue
		}
		if err != nil || r.Dir != j(tt.dir) || r.Common != j(tt.common) {
			t.Errorf("gitindex.Discover(%s) = %q, %q, %v; want %q, %q", tt.dotGit, r.Dir, r.Common, err, j(tt.dir), j(tt.common))
		}
	}
	// A worktree's git directory that does not point back is refused.
	write("main/.git/worktrees/wt/gitdir", j("elsewhere/.git")+"\n")
	if _, err := gitindex.Discover(j("wt/.git"), j("wt"), ""); err == nil {
		t.Error("a worktree git directory that points elsewhere was followed")
	}
}
