// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package config_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/config"
)

// place is a home, a project (a git work tree) inside a work directory,
// and the configuration and state directories.
func place(t *testing.T) (config.Where, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(root, "work", "proj")
	for _, d := range []string{"home", "work/proj/.git/objects", "work/proj/.warden", "config", "state"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	w := config.Where{Dir: proj, Home: filepath.Join(root, "home"), ConfigDir: filepath.Join(root, "config"), StateDir: filepath.Join(root, "state", "warden")}
	return w, proj
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

const projectPolicy = "version: 1\nrules:\n  - {id: project, class: gitPush, decision: allow}\n"

func discover(t *testing.T, w config.Where) *config.Source {
	t.Helper()
	_, src, err := config.Discover(w, config.Options{Home: w.Home})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestDiscoverOrder(t *testing.T) {
	w, proj := place(t)
	if src := discover(t, w); src.Kind != config.FromDefault || src.Revision != "default" {
		t.Fatalf("nothing anywhere: got %+v, want the embedded default", src)
	}
	write(t, filepath.Join(w.ConfigDir, config.UserFile), "version: 1\n")
	if src := discover(t, w); src.Kind != config.FromUser {
		t.Fatalf("a user file: got %+v", src)
	}
	pf := filepath.Join(proj, config.ProjectFile)
	write(t, pf, projectPolicy)
	src := discover(t, w)
	if src.Kind != config.FromUser || len(src.Skipped) != 1 || !strings.HasPrefix(src.Skipped[0].Why, "untrusted: never trusted") {
		t.Fatalf("an untrusted project file: got %+v", src)
	}
	tr, err := config.Trust(w, "", config.Options{Home: w.Home}, now)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Path != pf || !tr.Read {
		t.Errorf("trusted %s (read %v), want %s, read", tr.Path, tr.Read, pf)
	}
	if fi, err := os.Stat(w.StateDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state directory: %v, %v; want mode 0700", fi, err)
	}
	p, src, err := config.Discover(w, config.Options{Home: w.Home})
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != config.FromProject || p.Path != pf || src.Revision != tr.Revision || len(src.Skipped) != 0 {
		t.Fatalf("a trusted project file: got %+v (path %s)", src, p.Path)
	}
	// An edit from inside the project: untrusted again, and says since
	// when.
	write(t, pf, projectPolicy+"autonomy: actFreely\n")
	src = discover(t, w)
	if src.Kind != config.FromUser || len(src.Skipped) != 1 || !strings.Contains(src.Skipped[0].Why, "content changed since trusted on 2026-12-02 10:00 UTC") {
		t.Fatalf("an edited project file: got %+v", src)
	}
}

func TestTrustRefuses(t *testing.T) {
	w, proj := place(t)
	o := config.Options{Home: w.Home}
	pf := filepath.Join(proj, config.ProjectFile)
	// A broken policy is never trusted, and nothing is recorded.
	write(t, pf, "version: 1\nrules:\n  - idd: x\n")
	if _, err := config.Trust(w, "", o, now); err == nil || !strings.Contains(err.Error(), "policy.yaml:3:5") {
		t.Errorf("broken: got %v, want an error with its position", err)
	}
	if _, err := os.Stat(filepath.Join(w.StateDir, config.TrustFile)); err == nil {
		t.Error("a broken policy left a trust record")
	}
	// A link out of the project is neither trusted nor followed.
	outside := filepath.Join(filepath.Dir(proj), "outside.yaml")
	write(t, outside, projectPolicy)
	os.Remove(pf)
	if err := os.Symlink(outside, pf); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Trust(w, "", o, now); err == nil || !strings.Contains(err.Error(), "out of the project") {
		t.Errorf("a link out: got %v", err)
	}
	if _, err := config.Trust(w, outside, o, now); err == nil {
		t.Error("trusted a file outside the project")
	}
	// Outside any project there is nothing to trust.
	w.Dir = w.Home
	if _, err := config.Trust(w, "", o, now); err == nil || !strings.Contains(err.Error(), "not in a project") {
		t.Errorf("no project: got %v", err)
	}
}

// A trust record planted for the file's present content is what trust
// means: the record is keyed by the real path and checked by hash, and a
// link planted where the record is written is replaced, not written
// through.
func TestTrustFileNotThroughLinks(t *testing.T) {
	w, proj := place(t)
	write(t, filepath.Join(proj, config.ProjectFile), projectPolicy)
	if err := os.MkdirAll(w.StateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(w.Home, "target")
	write(t, target, "keep")
	if err := os.Symlink(target, filepath.Join(w.StateDir, config.TrustFile)); err != nil {
		t.Fatal(err)
	}
	// A link in place of the records is not read as records either.
	if _, _, err := config.Discover(w, config.Options{Home: w.Home}); err == nil {
		t.Error("read trust records through a link")
	}
	os.Remove(filepath.Join(w.StateDir, config.TrustFile))
	if err := os.Symlink(target, filepath.Join(w.StateDir, config.TrustFile)); err != nil {
		t.Fatal(err)
	}
	// Trusting reads no records through it and writes none through it.
	if _, err := config.Trust(w, "", config.Options{Home: w.Home}, now); err == nil {
		t.Error("trusted with the records a link")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("wrote through a link: %q", b)
	}
	os.Remove(filepath.Join(w.StateDir, config.TrustFile))
	if _, err := config.Trust(w, "", config.Options{Home: w.Home}, now); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(w.StateDir, config.TrustFile))
	if err != nil {
		t.Fatal(err)
	}
	var recs struct {
		Files map[string]struct{ Revision string } `json:"files"`
	}
	if err := json.Unmarshal(b, &recs); err != nil || !strings.HasPrefix(recs.Files[filepath.Join(proj, config.ProjectFile)].Revision, "sha256:") {
		t.Errorf("records %s: %v", b, err)
	}
}

func TestFindManaged(t *testing.T) {
	dir := t.TempDir()
	sys := filepath.Join(dir, "managed.yaml")
	var o config.Options
	if why := o.FindManaged("", sys); o.Managed != "" || !strings.Contains(why, "absent") {
		t.Errorf("absent: got %q (%s)", o.Managed, why)
	}
	write(t, sys, "version: 1\nautonomy: proposeOnly\n")
	if o.FindManaged("", sys); o.Managed != sys || !o.ManagedSystem {
		t.Errorf("present: got %+v", o)
	}
	p, err := config.Load("", o)
	if err != nil || p.ManagedRevision == "" {
		t.Errorf("present: %v, managed revision %q", err, p.ManagedRevision)
	}
	if o.FindManaged("/named.yaml", sys); o.Managed != "/named.yaml" || o.ManagedSystem {
		t.Errorf("named: got %+v", o)
	}
	// Present and broken fails closed, naming the file.
	write(t, sys, "version: 1\nautonomy: yolo\n")
	o.FindManaged("", sys)
	if _, err := config.Load("", o); err == nil || !strings.Contains(err.Error(), "managed policy ("+sys+")") {
		t.Errorf("broken: got %v", err)
	}
	// So does one that is there but cannot be read: a dangling link.
	os.Remove(sys)
	if err := os.Symlink(filepath.Join(dir, "nowhere"), sys); err != nil {
		t.Fatal(err)
	}
	o.FindManaged("", sys)
	if _, err := config.Load("", o); err == nil {
		t.Error("a dangling managed link was taken for none")
	}
}

// Trusts made at once each keep their record.
func TestTrustConcurrent(t *testing.T) {
	w, proj := place(t)
	const n = 8
	files := make([]string, n)
	for i := range files {
		files[i] = filepath.Join(proj, "p"+string(rune('a'+i))+".yaml")
		write(t, files[i], projectPolicy)
	}
	errs := make(chan error, n)
	for _, f := range files {
		go func() {
			_, err := config.Trust(w, f, config.Options{Home: w.Home}, now)
			errs <- err
		}()
	}
	for range files {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(w.StateDir, config.TrustFile))
	if err != nil {
		t.Fatal(err)
	}
	var recs struct {
		Files map[string]json.RawMessage `json:"files"`
	}
	if err := json.Unmarshal(b, &recs); err != nil || len(recs.Files) != n {
		t.Errorf("%d records (%v), want %d: %s", len(recs.Files), err, n, b)
	}
}
