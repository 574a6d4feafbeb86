// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/pathguard"
)

func TestMatchPattern(t *testing.T) {
	for _, tt := range []struct {
		pat, rel string
		dir      bool
		want     bool
	}{
		{"*.pem", "a.pem", false, true},
		{"*.pem", "deep/in/b.pem", false, true},
		{"*.pem", "a.pem.txt", false, false},
		{"secrets/", "secrets", true, true},
		{"secrets/", "secrets", false, false},
		{"secrets/", "app/secrets", true, true},
		{"config/prod.yaml", "config/prod.yaml", false, true},
		{"config/prod.yaml", "x/config/prod.yaml", false, false},
		{"**/prod.yaml", "x/config/prod.yaml", false, true},
		{"a/**/b", "a/b", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a/**/b", "a/x/y/c", false, false},
		{"[ab].key", "b.key", false, true},
	} {
		if got := matchPattern(tt.pat, tt.rel, tt.dir); got != tt.want {
			t.Errorf("matchPattern(%q, %q, dir=%v) = %v, want %v", tt.pat, tt.rel, tt.dir, got, tt.want)
		}
	}
}

func TestCheckPattern(t *testing.T) {
	for _, p := range []string{"*.pem", "a/**/b", "secrets/"} {
		if err := checkPattern(p); err != nil {
			t.Errorf("checkPattern(%q) = %v, want nil", p, err)
		}
	}
	if err := checkPattern("a/[b"); err == nil {
		t.Error("checkPattern(a/[b) = nil, want an error")
	}
}

// mkTree makes files (a trailing slash makes a directory) under root.
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
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPlanView(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project, home, outside := filepath.Join(root, "p"), filepath.Join(root, "home"), filepath.Join(root, "out")
	mkTree(t, project,
		".git/hooks/", ".git/config", ".git/objects/.env", ".claude/settings.json", ".mcp.json",
		"src/main.go", "sub/.env", ".env.example", "keys/id_rsa", "keys/id_rsa.pub",
		"node_modules/x/.env", "certs/a.pem", "app/secrets/token", "build/")
	mkTree(t, home, ".ssh/id_ed25519", "id_rsa_backup", ".profile")
	mkTree(t, outside, "deploy/id_ecdsa_ci", "cache/")
	if err := os.Symlink(filepath.Join(outside, "deploy/id_ecdsa_ci"), filepath.Join(project, "ci-key")); err != nil {
		t.Fatal(err)
	}
	spec := Spec{
		Mode:      WorkspaceWrite,
		Home:      home,
		Hide:      []string{"*.pem", "secrets/"},
		ReadWrite: []string{filepath.Join(outside, "cache"), filepath.Join(project, ".git/hooks"), filepath.Join(outside, "new")},
		ReadOnly:  []string{filepath.Join(project, "build"), filepath.Join(project, "missing")},
	}
	v, err := planView(spec, project)
	if err != nil {
		t.Fatal(err)
	}
	// Parents first (by depth), then in the order given: the project,
	// read_write, read_only, the protected paths.
	wantBinds := []bind{
		{Path: project, Writable: true, Dir: true},
		{Path: filepath.Join(outside, "cache"), Writable: true, Dir: true},
		{Path: filepath.Join(outside, "new"), Writable: true, Dir: true},
		// .git is pinned (a mount point) so that it cannot be renamed
		// away from its read-only config.
		{Path: filepath.Join(project, ".git"), Writable: true, Dir: true},
		{Path: filepath.Join(project, "build"), Dir: true},
		{Path: filepath.Join(project, ".claude"), Dir: true},
		{Path: filepath.Join(project, ".mcp.json")},
		// .git/hooks is named read_write: lifted, and writable.
		{Path: filepath.Join(project, ".git/hooks"), Writable: true, Dir: true},
		{Path: filepath.Join(project, ".git/config")},
	}
	// Every bind carries the identity init checks; what it is depends
	// on the host.
	for i, b := range v.binds {
		if b.Ino == 0 {
			t.Errorf("bind %s has no inode number", b.Path)
		}
		v.binds[i].Dev, v.binds[i].Ino = 0, 0
	}
	if within(home, "/tmp") {
		// A home below the private /tmp is bound read-only to be seen
		// (see homeBind), at its depth.
		wantBinds = slices.Insert(wantBinds, 1, bind{Path: home, Dir: true})
	}
	if diff := cmp.Diff(wantBinds, v.binds, cmp.Comparer(func(a, b bind) bool { return a == b })); diff != "" {
		t.Errorf("binds (-want +got):\n%s", diff)
	}
	var rel []string
	for _, m := range v.masks {
		rel = append(rel, strings.TrimPrefix(m, root+"/"))
	}
	got := map[string]bool{}
	for _, r := range rel {
		got[r] = true
	}
	for _, want := range []string{"home/.ssh", "home/id_rsa_backup", "p/sub/.env", "p/keys/id_rsa",
		"p/certs/a.pem", "p/app/secrets", "out/deploy/id_ecdsa_ci",
		// Inside tools' directories, dotenv names are looked for too.
		"p/node_modules/x/.env", "p/.git/objects/.env"} {
		if !got[want] {
			t.Errorf("not masked: %s (masks %q)", want, rel)
		}
	}
	for _, never := range []string{"p/.env.example", "p/keys/id_rsa.pub", "home/.profile", "p/src/main.go"} {
		if got[never] {
			t.Errorf("masked but should not be: %s", never)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err != nil {
		t.Errorf("the missing read_write directory was not made: %v", err)
	}
}

func TestPlanViewRefuses(t *testing.T) {
	project := t.TempDir()
	for _, tt := range []struct {
		name string
		spec Spec
		want string
	}{
		{"read_write /", Spec{ReadWrite: []string{"/"}}, "whole host writable"},
		{"relative read_write", Spec{ReadWrite: []string{"cache"}}, "not an absolute path"},
		{"bad hide pattern", Spec{Hide: []string{"a/[b"}}, "hide pattern"},
		{"hide the project", Spec{Hide: []string{project}}, "mask the whole view or the project"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := planView(tt.spec, project)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("planView = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// FuzzMatchPattern: any hide pattern and path, checked or not, match or
// not without a panic, and a well-formed pattern without wildcards matches
// itself.
func FuzzMatchPattern(f *testing.F) {
	for _, seed := range [][2]string{
		{"*.pem", "a/b.pem"}, {"secrets/", "x/secrets"}, {"a/**/b", "a/x/y/b"},
		{"[ab].key", "b.key"}, {"**/**/x", "x"}, {"a/[b", "a/b"}, {"", ""},
	} {
		f.Add(seed[0], seed[1], false)
	}
	f.Fuzz(func(t *testing.T, pat, rel string, dir bool) {
		if len(pat) > 256 || len(rel) > 1024 {
			return
		}
		err := checkPattern(pat)
		if err != nil {
			return // refused where it is written: never matched
		}
		matchPattern(pat, rel, dir)
		if pat != "" && !strings.HasSuffix(pat, "/") && !hasGlob(pat) && !strings.Contains(pat, "**") &&
			!strings.Contains(pat, "\\") && !strings.Contains(pat, "//") && !strings.HasPrefix(pat, "/") && !matchPattern(pat, pat, false) {
			t.Errorf("matchPattern(%q, %q) = false, want a literal pattern to match itself", pat, pat)
		}
	})
}

// FuzzMayBeSensitive: the walk's quick test never turns away a name the
// sensitive set matches, in whatever directory.
func FuzzMayBeSensitive(f *testing.F) {
	for _, n := range []string{".env", ".ENV.local", "id_rsa", "ID_ED25519_old", "credentials", "config", ".ssh", "hosts.yml", "main.go", ".env.example", "\u212a"} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if name == "" || strings.ContainsAny(name, "/\x00") {
			return
		}
		for _, dir := range []string{"/p", "/p/.aws", "/p/.kube", "/p/.docker", "/p/.config/gh", "/p/.ssh", "/p/.gnupg"} {
			if _, ok := pathguard.Sensitive(dir + "/" + name); ok && !mayBeSensitive(name) && !sensitiveDirAbove(dir) {
				t.Errorf("mayBeSensitive(%q) = false, but %s/%s is sensitive", name, dir, name)
			}
		}
	})
}

// sensitiveDirAbove: under a sensitive directory the walk never gets to
// the name: the directory itself was masked.
func sensitiveDirAbove(dir string) bool {
	_, ok := pathguard.Sensitive(dir)
	return ok
}
