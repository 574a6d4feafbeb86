// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/pathguard"
)

// TestHomeSensitive plants secrets at every kind of place in a home and
// checks which the plan masks: the fixed places that exist, the globbed
// files of fixed directories, and names the bounded walk reaches, but not
// below its depth, in skipped caches, or in the project (walked on its own).
func TestHomeSensitive(t *testing.T) {
	home := t.TempDir()
	mkTree(t, home,
		".npmrc", ".bash_history", ".docker/config.json", ".kube/prod.yaml",
		".cargo/credentials.toml", ".cargo/config.toml", ".m2/settings-security.xml", ".m2/repository/",
		".terraform.d/credentials.tfrc.json",
		"backup/id_rsa.bak", "backup/id_rsa.pub", "backup/notes.txt",
		"src/other/.env", "src/other/.env.example",
		"a/b/id_ed25519", "a/b/c/id_ecdsa", // depth 3, then 4
		".cache/x/id_rsa", "go/pkg/mod/id_rsa", "src/repo/node_modules/id_rsa",
		"proj/.env", "proj/sub/id_rsa",
	)
	got, truncated := homeSensitive(home, filepath.Join(home, "proj"))
	if truncated {
		t.Error("homeSensitive truncated a small home")
	}
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], home+"/")
	}
	slices.Sort(got)
	want := []string{
		".bash_history", ".cargo/credentials.toml", ".docker", ".docker/config.json", ".kube", ".m2/settings-security.xml",
		".npmrc", ".terraform.d/credentials.tfrc.json", "a/b/id_ed25519", "backup/id_rsa.bak", "src/other/.env",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("homeSensitive mismatch (-want +got):\n%s", diff)
	}

	// A directory of the home that is a link elsewhere is walked too:
	// what the command reads as ~/linked/id_rsa is there.
	elsewhere := t.TempDir()
	mkTree(t, elsewhere, "id_rsa", "notes.txt")
	if err := os.Symlink(elsewhere, filepath.Join(home, "linked")); err != nil {
		t.Fatal(err)
	}
	if got, _ := homeSensitive(home, filepath.Join(home, "proj")); !slices.Contains(got, filepath.Join(home, "linked", "id_rsa")) {
		t.Errorf("homeSensitive did not follow ~/linked to its key: %q", got)
	}

	// The project at the home: its own walk sees everything, so only the
	// fixed places are listed here.
	got, _ = homeSensitive(home, home)
	if slices.Contains(got, filepath.Join(home, "backup/id_rsa.bak")) || !slices.Contains(got, filepath.Join(home, ".npmrc")) {
		t.Errorf("homeSensitive(home, home) = %q, want the fixed places only", got)
	}
	if got, _ := homeSensitive("", "/p"); got != nil {
		t.Errorf("homeSensitive without a home = %q, want nothing", got)
	}
}

// TestHomeSensitiveBound checks that the walk stops at maxHomeEntries and
// says so.
func TestHomeSensitiveBound(t *testing.T) {
	home := t.TempDir()
	var names []string
	for i := range maxHomeEntries + 1 {
		names = append(names, filepath.Join("many", "f"+strconv.Itoa(i)))
	}
	mkTree(t, home, names...)
	if _, truncated := homeSensitive(home, "/elsewhere"); !truncated {
		t.Errorf("homeSensitive over %d entries did not say it stopped", maxHomeEntries+1)
	}

	// Too many directories: the walk stops, and being breadth first
	// it has still seen the shallow key.
	home = t.TempDir()
	names = []string{"a/id_rsa.bak"}
	for i := range maxHomeDirs + 1 {
		names = append(names, filepath.Join("dirs", "d"+strconv.Itoa(i))+"/")
	}
	mkTree(t, home, names...)
	found, truncated := homeSensitive(home, "/elsewhere")
	if !truncated {
		t.Errorf("homeSensitive over %d directories did not say it stopped", maxHomeDirs+1)
	}
	if !slices.Contains(found, filepath.Join(home, "a/id_rsa.bak")) {
		t.Errorf("homeSensitive stopped before a key at depth 2: %q", found)
	}
}

// TestPlanHome checks the plan of a hidden home: the caches that exist are
// bound back read-only, the policy's paths stay as they were, and a home
// the project covers is refused.
func TestPlanHome(t *testing.T) {
	home := t.TempDir()
	mkTree(t, home, "go/pkg/mod/", ".cargo/registry/", "proj/", ".gitconfig")
	project := filepath.Join(home, "proj")
	spec := Spec{Home: home, HideHome: true, Mode: WorkspaceWrite, ReadOnly: []string{filepath.Join(home, ".gitconfig")}}
	v, err := planView(spec, project)
	if err != nil {
		t.Fatal(err)
	}
	if v.home != home {
		t.Errorf("view.home = %q, want %q", v.home, home)
	}
	var got []bind
	for _, b := range v.binds {
		got = append(got, bind{Path: strings.TrimPrefix(b.Path, home+"/"), Writable: b.Writable, Dir: b.Dir})
	}
	want := []bind{
		{Path: "proj", Writable: true, Dir: true},
		{Path: ".gitconfig"},
		{Path: ".cargo/registry", Dir: true},
		{Path: "go/pkg/mod", Dir: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("binds mismatch (-want +got):\n%s", diff)
	}
	var points []string
	for _, b := range homeMountPoints(home, v.binds) {
		points = append(points, strings.TrimPrefix(b.Path, home+"/"))
	}
	if diff := cmp.Diff([]string{"proj", ".gitconfig", ".cargo/registry", "go/pkg/mod"}, points); diff != "" {
		t.Errorf("homeMountPoints mismatch (-want +got):\n%s", diff)
	}

	spec.HideHome = false
	// A visible home below /tmp (where t.TempDir often is) is bound
	// read-only itself, so that the private /tmp does not hide it (see
	// homeBind); its caches are not bound one by one.
	if v, _ := planView(spec, project); v.home != "" || len(slices.DeleteFunc(v.binds, func(b bind) bool { return b.Path == home })) != 2 {
		t.Errorf("a visible home planned home %q and binds %v, want none of the caches", v.home, v.binds)
	}
	spec.HideHome = true
	var se *SetupError
	if _, err := planView(spec, home); !errors.As(err, &se) || !strings.Contains(se.What, "shows all of it") {
		t.Errorf("hiding the home that is the project: err = %v, want a SetupError", err)
	}
}

// TestHomeCaches checks the data: relative, clean, distinct, and none of
// them sensitive.
func TestHomeCaches(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range HomeCaches {
		if filepath.IsAbs(c) || filepath.Clean(c) != c || seen[c] {
			t.Errorf("HomeCaches entry %q is absolute, not clean or repeated", c)
		}
		seen[c] = true
		if _, ok := pathguard.SensitiveIn("/home/u/"+c, "/home/u"); ok {
			t.Errorf("HomeCaches entry %q is sensitive", c)
		}
	}
}

// BenchmarkHomeSensitive plans the home's masks on a developer-shaped
// home: dotfiles, a few projects, caches the walk skips.
func BenchmarkHomeSensitive(b *testing.B) {
	home := b.TempDir()
	var names []string
	for _, n := range []string{".bashrc", ".profile", ".gitconfig", ".npmrc", ".bash_history", ".ssh/id_ed25519",
		".config/gh/hosts.yml", ".config/git/config", ".cache/go-build/00/x", "go/pkg/mod/x", ".cargo/registry/x",
		"Downloads/a.pdf", "Documents/notes.md", "backup/id_rsa.bak"} {
		names = append(names, n)
	}
	for i := range 20 {
		p := "src/p" + strconv.Itoa(i) + "/"
		names = append(names, p+"go.mod", p+"main.go", p+".env.example", p+"internal/x.go", p+".git/HEAD")
	}
	mkTreeB(b, home, names...)
	for b.Loop() {
		homeSensitive(home, "/elsewhere")
	}
}

func mkTreeB(b *testing.B, root string, names ...string) {
	b.Helper()
	for _, n := range names {
		p := filepath.Join(root, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
