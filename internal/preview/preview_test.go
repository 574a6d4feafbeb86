// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package preview_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/preview"
)

func run(t *testing.T, dir string, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, out)
	}
}

// TestPush counts the commits a push would send, from a real repository
// and a real bare remote.
func TestPush(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("requires git: not on PATH")
	}
	root := t.TempDir()
	remote, repo := filepath.Join(root, "remote.git"), filepath.Join(root, "repo")
	run(t, root, "git", "init", "-q", "--bare", "-b", "main", remote)
	run(t, root, "git", "init", "-q", "-b", "main", repo)
	run(t, repo, "git", "commit", "-q", "--allow-empty", "-m", "first")
	run(t, repo, "git", "remote", "add", "origin", remote)
	run(t, repo, "git", "push", "-q", "origin", "main")
	run(t, repo, "git", "switch", "-q", "-c", "feature")
	for _, m := range []string{"add login", "fix login", "test login"} {
		run(t, repo, "git", "commit", "-q", "--allow-empty", "-m", m)
	}
	run(t, repo, "git", "switch", "-q", "main")
	run(t, repo, "git", "commit", "-q", "--allow-empty", "-m", "on main")
	for _, tt := range []struct {
		argv []string
		want []string
	}{
		{[]string{"git", "push", "origin", "feature"}, []string{"pushes 3 commits to feature on origin (" + remote + ")", "test login", "fix login", "add login"}},
		{[]string{"git", "push", "origin", "main"}, []string{"pushes 1 commit to main on origin", "on main"}},
		{[]string{"git", "push", "--force", "origin", "+feature:main"}, []string{"to main on origin", ", forced"}},
		{[]string{"git", "push", "origin", ":old"}, []string{"deletes old on origin"}},
		{[]string{"git", "push"}, []string{"pushes 1 commit to main on origin"}},
	} {
		a := &action.Action{Classes: []action.Class{action.GitPush}, Commands: [][]string{tt.argv}, Cwd: repo, Project: repo}
		got := strings.Join(preview.Of(a), "\n")
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: preview\n%s\nlacks %q", tt.argv, got, w)
			}
		}
	}
}

func TestDeleteAndWrite(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "data", "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "data", "a"), make([]byte, 2048), 0o644)
	os.WriteFile(filepath.Join(dir, "data", "sub", "b"), make([]byte, 10), 0o644)
	a := &action.Action{Classes: []action.Class{action.FileDelete}, Paths: []action.Path{{Raw: "data", Resolved: filepath.Join(dir, "data"), Access: action.Delete}}}
	if got := strings.Join(preview.Of(a), "\n"); !strings.Contains(got, "2 files, 2.0 KiB") {
		t.Errorf("delete preview: %s", got)
	}
	outside := filepath.Join(dir, "elsewhere.txt")
	a = &action.Action{Classes: []action.Class{action.FileWriteOutsideWorktree}, Project: filepath.Join(dir, "proj"),
		Paths: []action.Path{{Raw: outside, Resolved: outside, Access: action.Write}}}
	if got := strings.Join(preview.Of(a), "\n"); !strings.Contains(got, "a new file outside the project") {
		t.Errorf("write preview: %s", got)
	}
}

func TestInstallAndEgress(t *testing.T) {
	a := &action.Action{Classes: []action.Class{action.PackageInstall, action.NetworkEgress},
		Commands: [][]string{{"pip", "install", "--user", "requests", "left-pad==1.0"}, {"npm", "i", "lodash"}, {"npm", "install"}},
		Hosts:    []string{"pypi.org"}}
	got := strings.Join(preview.Of(a), "\n")
	for _, w := range []string{"installs requests, left-pad==1.0 with pip", "installs lodash with npm", "installs what the project's manifest names, with npm",
		"reaches pypi.org; the narrowest network rule that would allow it: allow: {host: pypi.org, port: 443}"} {
		if !strings.Contains(got, w) {
			t.Errorf("preview\n%s\nlacks %q", got, w)
		}
	}
}

func TestWriteDiff(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "notes.txt")
	os.WriteFile(p, []byte("one\ntwo\nthree\n"), 0o644)
	content := "one\nTWO\nthree\n"
	for _, tt := range []struct {
		name string
		got  []string
		want []string
	}{
		{"write over", preview.Write(p, &content, "", ""), []string{"writes " + p + " (14 bytes now, 14 bytes after):", "  - two", "  + TWO"}},
		{"edit", preview.Write(p, nil, "three", "3"), []string{"writes " + p + " (14 bytes now, 10 bytes after):", "  - three", "  + 3"}},
		{"new", preview.Write(filepath.Join(dir, "new.txt"), &content, "", ""), []string{"writes " + filepath.Join(dir, "new.txt") + ", a new file of 14 bytes:", "  + one", "  + TWO", "  + three", "  + "}},
	} {
		if got := strings.Join(tt.got, "\n"); got != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, strings.Join(tt.want, "\n"))
		}
	}
}
