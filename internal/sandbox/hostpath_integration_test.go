// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Planted links: a first run plants a symbolic link in a directory it can
// write, a second run names the path; the link is never followed to make
// something writable, bound, masked by name or created, and the host
// outside is judged unchanged. Each test has a control with a real
// directory in the link's place.

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outsideDir is a directory outside the project that the sandbox's uid
// could write if it were bound writable, with a canary file in it.
func outsideDir(t *testing.T) string {
	t.Helper()
	d := varTempDir(t)
	os.Chmod(d, 0o777)
	writeFiles(t, d, map[string]string{"canary": "untouched"})
	return d
}

// wantOutsideUnchanged checks that dir holds only its canary, unchanged.
func wantOutsideUnchanged(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != "canary" {
		t.Errorf("the link's target %s changed: it holds %q", dir, names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "canary")); string(b) != "untouched" {
		t.Errorf("the canary in %s changed: %q", dir, b)
	}
}

// plant runs the command of a first run in project, which plants what
// the second run meets.
func plant(t *testing.T, project, script string) {
	t.Helper()
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(script)})
	if o.err != nil || o.res.ExitCode != 0 {
		t.Fatalf("the first run could not plant: %v (status %d)", o.err, o.res.ExitCode)
	}
}

func wantRefused(t *testing.T, o outcome, want ...string) {
	t.Helper()
	var se *SetupError
	if !errors.As(o.err, &se) {
		t.Fatalf("err = %v, want a SetupError (exit 125); the command ran: %q", o.err, o.stdout)
	}
	for _, w := range want {
		if !strings.Contains(se.Error(), w) {
			t.Errorf("the error %q does not say %q", se.Error(), w)
		}
	}
}

func TestAdversarialLinksReadWrite(t *testing.T) {
	for _, tc := range []struct{ name, target string }{
		{"to a directory outside", ""},
		{"to a directory that does not exist", "new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project, outside := openProject(t), outsideDir(t)
			target := filepath.Join(outside, tc.target)
			plant(t, project, "ln -s "+target+" build")
			build := filepath.Join(project, "build")
			o := run(t, Spec{Project: project, Mode: WorkspaceWrite, ReadWrite: []string{build},
				Argv: sh("echo pwned > build/pwned")})
			wantRefused(t, o, "read_write path "+build+" is a symbolic link (to "+target+") inside a directory the sandbox can write")
			wantOutsideUnchanged(t, outside)
			if fi, err := os.Lstat(build); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link itself changed: %v, %v", fi, err)
			}
		})
	}
	t.Run("through a link deeper down", func(t *testing.T) {
		project, outside := openProject(t), outsideDir(t)
		plant(t, project, "mkdir -p out && ln -s "+outside+" out/lib")
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, ReadWrite: []string{filepath.Join(project, "out/lib/x")},
			Argv: sh("echo pwned > out/lib/x/pwned")})
		wantRefused(t, o, filepath.Join(project, "out/lib")+" is a symbolic link (to "+outside+")")
		wantOutsideUnchanged(t, outside)
	})
	t.Run("a read_write path inside another", func(t *testing.T) {
		project, outside, rw := openProject(t), outsideDir(t), outsideDir(t)
		o := run(t, Spec{Project: project, ReadWrite: []string{rw}, Argv: sh("ln -s " + outside + " " + rw + "/sub")})
		if o.err != nil {
			t.Fatal(o.err)
		}
		o = run(t, Spec{Project: project, ReadWrite: []string{rw, filepath.Join(rw, "sub")}, Argv: sh("echo pwned > " + rw + "/sub/pwned")})
		wantRefused(t, o, "is a symbolic link (to "+outside+")")
		wantOutsideUnchanged(t, outside)
	})
	t.Run("control", func(t *testing.T) {
		project := openProject(t)
		plant(t, project, "mkdir build")
		os.Chmod(filepath.Join(project, "build"), 0o777)
		o := run(t, Spec{Project: project, Mode: ReadOnly, ReadWrite: []string{filepath.Join(project, "build")},
			Argv: sh("echo made > build/made")})
		if o.err != nil || o.res.ExitCode != 0 {
			t.Fatalf("a real read_write directory did not work: %v (status %d)", o.err, o.res.ExitCode)
		}
		if b, _ := os.ReadFile(filepath.Join(project, "build/made")); string(b) != "made\n" {
			t.Errorf("control: the write did not reach the host: %q", b)
		}
	})
}

func TestAdversarialLinksReadOnly(t *testing.T) {
	project, outside := openProject(t), outsideDir(t)
	plant(t, project, "ln -s "+outside+" docs")
	docs := filepath.Join(project, "docs")
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, ReadOnly: []string{docs}, Argv: sh("true")})
	wantRefused(t, o, "read_only path "+docs+" is a symbolic link (to "+outside+")")
	wantOutsideUnchanged(t, outside)

	t.Run("control", func(t *testing.T) {
		project := openProject(t)
		writeFiles(t, project, map[string]string{"docs/a": "a"})
		os.Chmod(filepath.Join(project, "docs"), 0o777)
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, ReadOnly: []string{filepath.Join(project, "docs")},
			Argv: sh("cat docs/a; echo x > docs/b || echo refused")})
		if o.err != nil || !strings.Contains(o.stdout, "arefused") {
			t.Errorf("a real read_only directory: %v, %q", o.err, o.stdout)
		}
		if _, err := os.Stat(filepath.Join(project, "docs/b")); err == nil {
			t.Error("control: the read_only directory was written")
		}
	})
}

func TestAdversarialLinksHide(t *testing.T) {
	project, outside := openProject(t), outsideDir(t)
	writeFiles(t, project, map[string]string{"creds.moved/token": "warden-test-secret"})
	plant(t, project, "ln -s "+outside+" creds")
	creds := filepath.Join(project, "creds")
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Hide: []string{creds}, Argv: sh("true")})
	wantRefused(t, o, "mask "+creds, "is a symbolic link (to "+outside+")")
	wantOutsideUnchanged(t, outside)

	t.Run("control", func(t *testing.T) {
		project := openProject(t)
		writeFiles(t, project, map[string]string{"creds/token": "warden-test-secret"})
		o := run(t, Spec{Project: project, Hide: []string{filepath.Join(project, "creds")}, Argv: sh("cat creds/token; ls creds; echo done")})
		if o.err != nil || !strings.Contains(o.stdout, "done") || strings.Contains(o.stdout, "warden-test-secret") {
			t.Errorf("a real hidden directory: %v, %q", o.err, o.stdout)
		}
	})
}

// TestAdversarialLinksCache: with a read_write home cache, a run replaces
// the directory above its run cache with a link out; the next run makes
// no directory at the link's target and runs without a cache, saying so.
func TestAdversarialLinksCache(t *testing.T) {
	project, home, outside := openProject(t), outsideDir(t), outsideDir(t)
	os.Remove(filepath.Join(home, "canary"))
	cacheHome := filepath.Join(home, ".cache")
	if err := os.Mkdir(cacheHome, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(cacheHome, 0o777)
	spec := func(script string) Spec {
		return Spec{Project: project, ReadWrite: []string{cacheHome}, Cache: filepath.Join(cacheHome, "warden/run-cache/x"), Argv: sh(script)}
	}
	o := run(t, spec("echo $XDG_CACHE_HOME; mv "+cacheHome+"/warden "+cacheHome+"/warden.old && ln -s "+outside+" "+cacheHome+"/warden"))
	if o.err != nil || o.res.ExitCode != 0 {
		t.Fatalf("the first run could not plant: %v", o.err)
	}
	o = run(t, spec("echo cache=$XDG_CACHE_HOME; echo pwned > ${XDG_CACHE_HOME:-/nonexistent}/pwned"))
	if o.err != nil {
		t.Fatal(o.err)
	}
	if !strings.Contains(o.stdout, "cache=\n") {
		t.Errorf("the run had a cache: %q", o.stdout)
	}
	if !strings.Contains(strings.Join(o.res.Unenforced, "\n"), filepath.Join(cacheHome, "warden")+" is a symbolic link (to "+outside+")") {
		t.Errorf("the run did not say why it has no cache: %q", o.res.Unenforced)
	}
	wantOutsideUnchanged(t, outside)

	t.Run("control", func(t *testing.T) {
		os.Remove(filepath.Join(cacheHome, "warden"))
		o := run(t, spec("echo kept > $XDG_CACHE_HOME/kept"))
		if o.err != nil || o.res.ExitCode != 0 {
			t.Fatal(o.err)
		}
		if _, err := os.Stat(filepath.Join(cacheHome, "warden/run-cache/x/kept")); err != nil {
			t.Errorf("control: the cache did not work: %v", err)
		}
	})
}

// TestAdversarialLinksSwapAfterPlan: the host path is replaced after the
// run was planned and before init binds it, as a racing process would
// (here, in the test's hook between the two): init finds the link, or
// another inode than the one planned, and stops the run.
func TestAdversarialLinksSwapAfterPlan(t *testing.T) {
	for _, tc := range []struct {
		name, swap string
		want       string
	}{
		{"with a link", "ln -s %[2]s %[1]s", "is a symbolic link in the sandbox view"},
		{"with another directory", "mkdir %[1]s && chmod 777 %[1]s", "was replaced after the run was planned"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project, rwParent, outside := openProject(t), varTempDir(t), outsideDir(t)
			rw := filepath.Join(rwParent, "rw")
			if err := os.Mkdir(rw, 0o777); err != nil {
				t.Fatal(err)
			}
			os.Chmod(rw, 0o777)
			testOnlyPlanned = func() {
				if err := os.Rename(rw, rw+".old"); err != nil {
					t.Error(err)
				}
				if tc.name == "with a link" {
					err := os.Symlink(outside, rw)
					if err != nil {
						t.Error(err)
					}
				} else if err := os.Mkdir(rw, 0o777); err != nil {
					t.Error(err)
				}
			}
			defer func() { testOnlyPlanned = nil }()
			o := run(t, Spec{Project: project, ReadWrite: []string{rw}, Argv: sh("echo pwned > " + rw + "/pwned")})
			wantRefused(t, o, "bind project: "+rw, tc.want)
			wantOutsideUnchanged(t, outside)
			if _, err := os.Stat(filepath.Join(rw, "pwned")); err == nil {
				t.Error("the command wrote the replaced directory")
			}
		})
	}
	t.Run("control", func(t *testing.T) {
		project, rwParent := openProject(t), varTempDir(t)
		rw := filepath.Join(rwParent, "rw")
		os.Mkdir(rw, 0o777)
		os.Chmod(rw, 0o777)
		testOnlyPlanned = func() {}
		defer func() { testOnlyPlanned = nil }()
		o := run(t, Spec{Project: project, ReadWrite: []string{rw}, Argv: sh("echo ok > " + rw + "/ok")})
		if o.err != nil || o.res.ExitCode != 0 {
			t.Fatal(o.err)
		}
		if _, err := os.Stat(filepath.Join(rw, "ok")); err != nil {
			t.Errorf("control: %v", err)
		}
	})
}

// TestAdversarialLinksPinned: a pinned file (the policy warden run read)
// that was replaced, or turned into a link, after it was read stops the
// run.
func TestAdversarialLinksPinned(t *testing.T) {
	project := openProject(t)
	writeFiles(t, project, map[string]string{"warden.yaml": "version: 1\n", "evil.yaml": "version: 1\n"})
	p := filepath.Join(project, "warden.yaml")
	f, id, err := OpenHostFile(Spec{Project: project}, p)
	if err != nil {
		t.Fatal(err)
	}
	// Held open, as warden run does: its inode number cannot be reused.
	defer f.Close()
	spec := Spec{Project: project, ReadOnly: []string{p}, Pinned: []HostFile{id}, Argv: sh("echo x > warden.yaml || echo refused")}
	o := run(t, spec)
	if o.err != nil || !strings.Contains(o.stdout, "refused") {
		t.Fatalf("control: the pinned file was not protected: %v %q", o.err, o.stdout)
	}
	plant(t, project, "rm warden.yaml && ln -s evil.yaml warden.yaml")
	o = run(t, spec)
	wantRefused(t, o, p+" is a symbolic link (to evil.yaml)")
	os.Remove(p)
	writeFiles(t, project, map[string]string{"warden.yaml": "version: 1\n"})
	o = run(t, spec)
	wantRefused(t, o, p+" was replaced since warden read it")
}
