// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/sys/unix"
)

// linkTree makes, under a new temporary directory, a tree with links in
// and out of a "writable" root (proj) and returns the directory.
func linkTree(t testing.TB) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"proj/real/deep", "proj/sub", "outside/x", "sys/usr/lib"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"proj/file", "sys/usr/lib/libc.so", "outside/secret"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"proj/in":             "real",                         // inside the root, to inside
		"proj/out":            "../outside",                   // inside, to outside
		"proj/sub/abs":        filepath.Join(root, "outside"), // deeper, absolute
		"proj/dangling":       "../outside/new",               // to nothing
		"sys/lib":             "usr/lib",                      // a system link, as /lib
		"alias":               "proj",                         // the caller's own, to the root
		"outside/to-nowhere":  "made-by-warden",               // outside the roots, to nothing
		"outside/loop1":       "loop2",
		"outside/loop2":       "loop1",
		"outside/policy.yaml": "secret", // a link outside the roots
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// resolved is what a resolution gave, for comparison: the path relative
// to the tree, or the error's kind.
type resolved struct {
	Path, Err string
}

func describeResolved(root string, f hostFile, err error) resolved {
	rel := func(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, root), "/") }
	var le *LinkError
	switch {
	case errors.As(err, &le):
		s := "link " + rel(le.Link) + " -> " + le.Target
		if le.Anywhere {
			s += " (anywhere)"
		}
		return resolved{Err: s}
	case errors.Is(err, fs.ErrNotExist):
		return resolved{Err: "not exist"}
	case errors.Is(err, unix.ELOOP):
		return resolved{Err: "loop"}
	case errors.Is(err, unix.ENOTDIR):
		return resolved{Err: "not a directory"}
	case err != nil:
		return resolved{Err: err.Error()}
	}
	return resolved{Path: rel(f.path)}
}

func TestHostResolver(t *testing.T) {
	root := linkTree(t)
	abs := filepath.Join(root, "outside")
	for _, tc := range []struct {
		name string
		path string
		how  resolveHow
		want resolved
	}{
		{"real dir in the root", "proj/real", resolveHow{}, resolved{Path: "proj/real"}},
		{"the root itself", "proj", resolveHow{}, resolved{Path: "proj"}},
		{"a link in the root, to inside", "proj/in", resolveHow{}, resolved{Err: "link proj/in -> real"}},
		{"through a link in the root", "proj/in/deep", resolveHow{}, resolved{Err: "link proj/in -> real"}},
		{"a link out of the root", "proj/out", resolveHow{}, resolved{Err: "link proj/out -> ../outside"}},
		{"a deeper absolute link", "proj/sub/abs/x", resolveHow{}, resolved{Err: "link proj/sub/abs -> " + abs}},
		{"a dangling link is not made", "proj/dangling", resolveHow{create: createLast}, resolved{Err: "link proj/dangling -> ../outside/new"}},
		{"a system link is followed", "sys/lib/libc.so", resolveHow{}, resolved{Path: "sys/usr/lib/libc.so"}},
		{"the caller's link to the root", "alias/real/deep", resolveHow{}, resolved{Path: "proj/real/deep"}},
		{"the caller's link, then one in the root", "alias/in", resolveHow{}, resolved{Err: "link proj/in -> real"}},
		{"follow: a link in the root", "proj/in/deep", resolveHow{follow: true}, resolved{Path: "proj/real/deep"}},
		{"follow: a link out", "proj/out/secret", resolveHow{follow: true}, resolved{Path: "outside/secret"}},
		{"noLink: the file itself a link", "outside/policy.yaml", resolveHow{noLink: true}, resolved{Err: "link outside/policy.yaml -> secret (anywhere)"}},
		{"noLink: a link before it is fine", "sys/lib/libc.so", resolveHow{noLink: true}, resolved{Path: "sys/usr/lib/libc.so"}},
		{"dot-dot from a real directory", "proj/real/../file", resolveHow{}, resolved{Path: "proj/file"}},
		{"dot-dot after a followed link", "alias/../outside", resolveHow{}, resolved{Path: "outside"}},
		{"dot", "proj/./real/.", resolveHow{}, resolved{Path: "proj/real"}},
		{"a loop", "outside/loop1", resolveHow{}, resolved{Err: "loop"}},
		{"a file as a directory", "proj/file/x", resolveHow{}, resolved{Err: "not a directory"}},
		{"missing", "proj/missing", resolveHow{}, resolved{Err: "not exist"}},
		{"createLast makes the last", "proj/made", resolveHow{create: createLast}, resolved{Path: "proj/made"}},
		{"createLast needs the parent", "proj/no/such", resolveHow{create: createLast}, resolved{Err: "not exist"}},
		{"createAll makes every one", "outside/a/b/c", resolveHow{create: createAll}, resolved{Path: "outside/a/b/c"}},
		{"nothing made at a link's target", "outside/to-nowhere", resolveHow{create: createAll}, resolved{Err: "not exist"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newHostResolver(filepath.Join(root, "proj"))
			defer r.close()
			f, err := r.stat(filepath.Join(root, tc.path), tc.how)
			if diff := cmp.Diff(tc.want, describeResolved(root, f, err)); diff != "" {
				t.Errorf("resolve %s (-want +got):\n%s", tc.path, diff)
			}
		})
	}
	if _, err := os.Lstat(filepath.Join(root, "outside/new")); err == nil {
		t.Error("a directory was made at the target of a link in the root")
	}
	if _, err := os.Lstat(filepath.Join(root, "outside/made-by-warden")); err == nil {
		t.Error("a directory was made at the target of a link that ended the path")
	}
	if fi, err := os.Stat(filepath.Join(root, "outside/a")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("createAll made %v (%v), want a directory with mode 0700", fi, err)
	}
}

// TestHostResolverCache: the directories kept for later resolutions give
// the same answers as a fresh walk, and a link planted after a directory
// was kept is still seen (only links-free real directories are kept).
func TestHostResolverCache(t *testing.T) {
	root := linkTree(t)
	r := newHostResolver(filepath.Join(root, "proj"))
	defer r.close()
	for _, p := range []string{"proj/real/deep", "proj/sub", "sys/lib/libc.so"} {
		if _, err := r.stat(filepath.Join(root, p), resolveHow{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../outside", filepath.Join(root, "proj/real/planted")); err != nil {
		t.Fatal(err)
	}
	f, err := r.stat(filepath.Join(root, "proj/real/planted/secret"), resolveHow{})
	if diff := cmp.Diff(resolved{Err: "link proj/real/planted -> ../outside"}, describeResolved(root, f, err)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// FuzzHostResolver: whatever the path, a resolution that follows every
// link agrees with filepath.EvalSymlinks, and one that refuses links in
// the root never returns a path reached through one.
func FuzzHostResolver(f *testing.F) {
	for _, s := range []string{"proj/in/deep", "alias/../outside", "sys/lib/libc.so", "proj//real/./..", "outside/loop1/x", "../../..", "proj/out/secret"} {
		f.Add(s)
	}
	root := linkTree(f)
	f.Fuzz(func(t *testing.T, rel string) {
		if strings.ContainsRune(rel, 0) || len(rel) > 512 {
			return
		}
		p := filepath.Join(root, rel)
		if !strings.HasPrefix(p, root+"/") {
			return
		}
		r := newHostResolver(filepath.Join(root, "proj"))
		defer r.close()
		got, err := r.stat(root+"/"+rel, resolveHow{follow: true})
		want, werr := filepath.EvalSymlinks(root + "/" + rel)
		if (err == nil) != (werr == nil) || (err == nil && got.path != want) {
			t.Fatalf("resolve %q = %q, %v; EvalSymlinks = %q, %v", rel, got.path, err, want, werr)
		}
		strict, err := r.stat(root+"/"+rel, resolveHow{})
		if err != nil {
			return
		}
		// A path that resolved strictly has no link in the root on
		// its real path, and is where the following resolution ended.
		if strict.path != got.path {
			t.Fatalf("strict %q = %q, following = %q", rel, strict.path, got.path)
		}
		for d := strict.path; within(d, filepath.Join(root, "proj")); d = filepath.Dir(d) {
			if fi, err := os.Lstat(d); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
				t.Fatalf("strict %q = %q goes through %s (%v)", rel, strict.path, d, err)
			}
		}
	})
}

// TestPlanViewLinks: what planView does with each kind of link in the
// project, without a sandbox: refused where following it would bind or
// make what it points to, followed where that only hides or protects
// more.
func TestPlanViewLinks(t *testing.T) {
	root := linkTree(t)
	project, outside := filepath.Join(root, "proj"), filepath.Join(root, "outside")
	if err := os.Symlink("real", filepath.Join(project, ".claude")); err != nil {
		t.Fatal(err)
	}
	// A link to a key, and a sensitive name that is a link: both
	// targets masked.
	for link, target := range map[string]string{"deploy": "../outside/id_ed25519", ".env": "../outside/env.shared"} {
		if err := os.WriteFile(filepath.Join(root, "outside", filepath.Base(target)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(project, link)); err != nil {
			t.Fatal(err)
		}
	}
	policy := filepath.Join(outside, "x/policy.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, id, err := OpenHostFile(Spec{Project: project}, policy)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		name string
		spec Spec
		want string // in the error; "" for none
	}{
		{"read_write a link out", Spec{ReadWrite: []string{filepath.Join(project, "out")}},
			"read_write path " + project + "/out is a symbolic link (to ../outside) inside a directory the sandbox can write"},
		{"read_write through a link", Spec{ReadWrite: []string{filepath.Join(project, "in/new")}},
			"read_write path " + project + "/in/new: " + project + "/in is a symbolic link (to real)"},
		{"read_write below another, through a link", Spec{ReadWrite: []string{filepath.Join(root, "sys"), filepath.Join(root, "sys/lib")}},
			"read_write path " + root + "/sys/lib is a symbolic link (to usr/lib)"},
		{"read_only a link", Spec{ReadOnly: []string{filepath.Join(project, "sub/abs")}},
			"read_only path " + project + "/sub/abs is a symbolic link (to " + outside + ")"},
		{"hide a named link", Spec{Hide: []string{filepath.Join(project, "out")}}, "mask " + project + "/out: "},
		{"pinned and unchanged", Spec{ReadOnly: []string{policy}, Pinned: []HostFile{id}}, ""},
		{"pinned, but another file", Spec{ReadOnly: []string{policy}, Pinned: []HostFile{{Path: policy, Dev: id.Dev, Ino: id.Ino + 1}}},
			policy + " was replaced since warden read it"},
		{"a protected link, a link to a key, a system link: followed", Spec{ReadWrite: []string{filepath.Join(root, "sys/lib")}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Mode = WorkspaceWrite
			v, err := planView(tc.spec, project)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("planView: %v", err)
				}
				return
			}
			var se *SetupError
			if !errors.As(err, &se) || !strings.Contains(se.Error(), tc.want) {
				t.Errorf("planView = %v, want a SetupError saying %q (binds %+v)", err, tc.want, v.binds)
			}
		})
	}
	v, err := planView(Spec{Mode: WorkspaceWrite}, project)
	if err != nil {
		t.Fatal(err)
	}
	var binds []string
	for _, b := range v.binds {
		binds = append(binds, strings.TrimPrefix(b.Path, root+"/"))
	}
	if diff := cmp.Diff([]string{"proj", "proj/real"}, binds); diff != "" {
		t.Errorf("binds (-want +got): the protected .claude link binds its target\n%s", diff)
	}
	if diff := cmp.Diff([]string{outside + "/env.shared", outside + "/id_ed25519"}, v.masks, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("masks (-want +got): the targets of .env and of the link to a key are masked\n%s", diff)
	}
}
