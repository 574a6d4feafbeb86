// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// tree is a fake home and project in a temporary directory:
//
//	root/home/u/.ssh/{id_rsa,id_rsa.pub,config}     the user's secrets
//	root/home/u/.ssh/pointer -> root/outside/gone   a dangling link in .ssh
//	root/home/u/.aws/credentials
//	root/home/bob/                                  ~bob
//	root/outside/plain.txt
//	root/project-evil/x
//	root/project/                                   the agent's cwd
//	  notes.txt file.txt .env .env.example .envrc prod.env id_rsa.pub
//	  a/b/c/f
//	  link-abc -> a/b/c            abs-abc -> root/project/a/b/c
//	  chain1 -> chain2 -> chain3 -> a/b/c
//	  dangling -> ../outside/new.txt
//	  dangling-abs -> root/home/u/.bashrc
//	  dangling-deep -> ../outside/newdir/new.txt
//	  key -> root/home/u/.ssh/id_rsa
//	  sub/.env -> ../notes.txt     a link named .env to an innocent file
//	  sshlink -> root/home/u/.ssh
//	  loop1 -> loop2 -> loop1      self -> self
//	  evil -> ../project-evil
//	  hardkey   hard link to root/home/u/.ssh/id_rsa
//	  hardnote  hard link to notes.txt
type tree struct {
	root, home, project string
}

func newTree(t testing.TB) tree {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := tree{
		root:    root,
		home:    filepath.Join(root, "home/u"),
		project: filepath.Join(root, "project"),
	}
	files := []string{
		"home/u/.ssh/id_rsa", "home/u/.ssh/id_rsa.pub", "home/u/.ssh/config",
		"home/u/.aws/credentials",
		"outside/plain.txt",
		"project-evil/x",
		"project/notes.txt", "project/file.txt", "project/.env",
		"project/.env.example", "project/.envrc", "project/prod.env",
		"project/id_rsa.pub", "project/a/b/c/f",
	}
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"home/bob", "project/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := []struct{ name, target string }{
		{"home/u/.ssh/pointer", root + "/outside/gone"},
		{"project/link-abc", "a/b/c"},
		{"project/abs-abc", root + "/project/a/b/c"},
		{"project/chain1", "chain2"},
		{"project/chain2", "./chain3"},
		{"project/chain3", "a/b/c"},
		{"project/dangling", "../outside/new.txt"},
		{"project/dangling-abs", root + "/home/u/.bashrc"},
		{"project/dangling-deep", "../outside/newdir/new.txt"},
		{"project/key", root + "/home/u/.ssh/id_rsa"},
		{"project/sub/.env", "../notes.txt"},
		{"project/sshlink", root + "/home/u/.ssh"},
		{"project/loop1", "loop2"},
		{"project/loop2", "loop1"},
		{"project/self", "self"},
		{"project/evil", "../project-evil"},
	}
	for _, l := range links {
		if err := os.Symlink(l.target, filepath.Join(root, l.name)); err != nil {
			t.Fatal(err)
		}
	}
	hard := []struct{ name, target string }{
		{"project/hardkey", "home/u/.ssh/id_rsa"},
		{"project/hardnote", "project/notes.txt"},
	}
	for _, l := range hard {
		if err := os.Link(filepath.Join(root, l.target), filepath.Join(root, l.name)); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// chain makes a chain of n links in dir ending at target and returns the
// first link.
func chain(t testing.TB, dir, prefix string, n int, target string) string {
	t.Helper()
	next := target
	for i := n; i >= 1; i-- {
		name := filepath.Join(dir, fmt.Sprintf("%s%d", prefix, i))
		if err := os.Symlink(next, name); err != nil {
			t.Fatal(err)
		}
		next = name
	}
	return next
}
