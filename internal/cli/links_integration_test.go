// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// Planted links and the forged record, through warden run itself: a first
// run (or the command of the run) plants a link or races the record in
// the project, and the host is judged from outside afterwards. Each
// scenario runs as root and as uid 65534 (through setpriv), with a
// control that shows the same steps succeed with real files.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// linkLab is one user's place for the tests: a warden binary, a home,
// and a directory outside every project with a canary.
type linkLab struct {
	as      []string
	home    string
	outside string
	uid     int
}

func (l *linkLab) dir(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(l.home, name)
	if err := os.MkdirAll(d, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(d, 0o777)
	os.Chown(d, l.uid, l.uid)
	return d
}

func (l *linkLab) write(t *testing.T, p, body string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chown(p, l.uid, l.uid)
}

// script is [script] in dir, as l's user.
func (l *linkLab) script(t *testing.T, dir, body string) []string {
	t.Helper()
	return scriptIn(t, dir, l.uid, body)
}

func (l *linkLab) run(t *testing.T, args ...string) result {
	t.Helper()
	return runWarden(t, l.as, l.home, args...)
}

// wantUntouched checks that the outside directory holds only its
// canary, unchanged.
func (l *linkLab) wantUntouched(t *testing.T) {
	t.Helper()
	ents, _ := os.ReadDir(l.outside)
	if len(ents) != 1 || ents[0].Name() != "canary" {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("the link's target %s changed: it holds %q", l.outside, names)
	}
	if b, _ := os.ReadFile(filepath.Join(l.outside, "canary")); string(b) != "untouched" {
		t.Errorf("the canary changed: %q", b)
	}
}

func wantCode(t *testing.T, r result, code int, stderr ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("warden exited %d, want %d\nstderr: %s", r.code, code, r.stderr)
	}
	for _, s := range stderr {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr does not say %q:\n%s", s, r.stderr)
		}
	}
}

// recordStatus reads the status in the execution record at p.
func recordStatus(t *testing.T, p string) int {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the record %s is not a regular file: %v %v", p, fi, err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Status   *int `json:"status"`
		ExitCode int  `json:"exit_code"`
	}
	if err := json.Unmarshal(b, &rec); err != nil || rec.Status == nil {
		t.Fatalf("the record %s is not warden's: %v\n%s", p, err, b)
	}
	return *rec.Status
}

func forEachUser(t *testing.T, f func(t *testing.T, l *linkLab)) {
	sandboxtest.RequireRoot(t)
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	bin, dir := wardenCopy(t)
	for _, u := range []struct {
		name string
		as   []string
		uid  int
	}{
		{"root", []string{bin}, 0},
		{"uid 65534", []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", bin}, 65534},
	} {
		t.Run(u.name, func(t *testing.T) {
			home, err := os.MkdirTemp(dir, "home-")
			if err != nil {
				t.Fatal(err)
			}
			os.Chmod(home, 0o755)
			os.Chown(home, u.uid, u.uid)
			l := &linkLab{as: u.as, home: home, uid: u.uid}
			l.outside = l.dir(t, "outside")
			l.write(t, filepath.Join(l.outside, "canary"), "untouched")
			f(t, l)
		})
	}
}

func TestAdversarialLinksPolicyReadWrite(t *testing.T) {
	forEachUser(t, func(t *testing.T, l *linkLab) {
		project := l.dir(t, "project")
		build := filepath.Join(project, "build")
		policy := filepath.Join(l.home, "policy.yaml")
		l.write(t, policy, "version: 1\nsandbox:\n  filesystem:\n    read_write: [\""+build+"\"]\n")
		wantCode(t, l.run(t, append([]string{"run", "--project", project, "--"}, l.script(t, project, "ln -s "+l.outside+" build")...)...), 0)

		r := l.run(t, "run", "--policy", policy, "--project", project, "--", "sh", "-c", "echo pwned > build/pwned")
		wantCode(t, r, 125, "read_write path "+build+" is a symbolic link (to "+l.outside+") inside a directory the sandbox can write")
		l.wantUntouched(t)

		t.Run("control", func(t *testing.T) {
			os.Remove(build)
			wantCode(t, l.run(t, "run", "--project", project, "--", "mkdir", "build"), 0)
			wantCode(t, l.run(t, "run", "--policy", policy, "--project", project, "--", "sh", "-c", "echo made > build/made"), 0)
			if _, err := os.Stat(filepath.Join(build, "made")); err != nil {
				t.Errorf("a real read_write directory did not work: %v", err)
			}
		})
	})
}

func TestAdversarialLinksPolicyFile(t *testing.T) {
	forEachUser(t, func(t *testing.T, l *linkLab) {
		project := l.dir(t, "project")
		conf := l.dir(t, "conf")
		policy := filepath.Join(conf, "policy.yaml")
		l.write(t, policy, "version: 1\n")

		t.Run("a link", func(t *testing.T) {
			link := filepath.Join(l.home, "policy-link.yaml")
			if err := os.Symlink(policy, link); err != nil {
				t.Fatal(err)
			}
			r := l.run(t, "run", "--policy", link, "--project", project, "--", "touch", "ran")
			wantCode(t, r, 125, "--policy "+link+": "+link+" is a symbolic link (to "+policy+")", "pass the real path")
			if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
				t.Error("the command ran")
			}
		})
		t.Run("through a link in the project", func(t *testing.T) {
			wantCode(t, l.run(t, append([]string{"run", "--project", project, "--"}, l.script(t, project, "ln -s "+conf+" conf")...)...), 0)
			via := filepath.Join(project, "conf/policy.yaml")
			r := l.run(t, "run", "--policy", via, "--project", project, "--", "touch", "ran")
			wantCode(t, r, 125, filepath.Join(project, "conf")+" is a symbolic link (to "+conf+") inside a directory the sandbox can write", "pass the real path")
			if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
				t.Error("the command ran")
			}
		})
		t.Run("control", func(t *testing.T) {
			wantCode(t, l.run(t, "run", "--policy", policy, "--project", project, "--", "touch", "ran"), 0)
			if _, err := os.Stat(filepath.Join(project, "ran")); err != nil {
				t.Errorf("the real policy path did not work: %v", err)
			}
		})
	})
}

// TestAdversarialLinksPolicyReplaced: the command tries every way to put
// a link (or other bytes) in place of the policy that governs it; the
// file on the host stays the one read, and the next run uses it.
func TestAdversarialLinksPolicyReplaced(t *testing.T) {
	forEachUser(t, func(t *testing.T, l *linkLab) {
		project := l.dir(t, "project")
		policy := filepath.Join(project, "warden.yaml")
		const body = "version: 1\nsandbox:\n  mode: workspace-write\n"
		l.write(t, policy, body)
		l.write(t, filepath.Join(project, "evil.yaml"), "version: 1\nsandbox:\n  mode: full-access\n")
		var before syscall.Stat_t
		syscall.Lstat(policy, &before)
		r := l.run(t, append([]string{"run", "--policy", policy, "--project", project, "--"},
			l.script(t, project, "rm -f warden.yaml; ln -sf evil.yaml warden.yaml; mv -f evil.yaml warden.yaml; echo x >> warden.yaml; true")...)...)
		wantCode(t, r, 0)
		var after syscall.Stat_t
		if err := syscall.Lstat(policy, &after); err != nil || after.Mode&syscall.S_IFMT != syscall.S_IFREG || after.Ino != before.Ino {
			t.Errorf("the policy file was replaced: %v (inode %d, was %d)", err, after.Ino, before.Ino)
		}
		if b, _ := os.ReadFile(policy); string(b) != body {
			t.Errorf("the policy changed: %q", b)
		}
		t.Run("control", func(t *testing.T) {
			wantCode(t, l.run(t, "run", "--policy", policy, "--project", project, "--", "touch", "ran"), 0)
			if _, err := os.Stat(filepath.Join(project, "ran")); err != nil {
				t.Errorf("the next run did not work: %v", err)
			}
		})
	})
}

// TestAdversarialAuditForgery: the command races to forge its own record
// (in the project, where it may write): it rewrites the record's name and
// every temporary file it can find from a process left behind, plants a
// link at the name, or swaps the record's directory. The record read
// from outside has the real status, and no link's target is written.
func TestAdversarialAuditForgery(t *testing.T) {
	forEachUser(t, func(t *testing.T, l *linkLab) {
		t.Run("a process left behind rewrites it", func(t *testing.T) {
			project := l.dir(t, "race")
			rec := filepath.Join(project, "audit.json")
			r := l.run(t, append([]string{"run", "--audit-json", rec, "--project", project, "--"}, l.script(t, project,
				`(while :; do printf '{"status":0,"exit_code":0}' > forged; mv -f forged audit.json; `+
					`for f in .audit.json.*.tmp; do [ -e "$f" ] && printf '{"status":0}' > forged2 && mv -f forged2 "$f"; done; done) & sleep 0.3; exit 3`)...)...)
			wantCode(t, r, 3)
			if s := recordStatus(t, rec); s != 3 {
				t.Errorf("the record says status %d, want 3", s)
			}
			time.Sleep(200 * time.Millisecond) // nothing of the run is left to write it
			if s := recordStatus(t, rec); s != 3 {
				t.Errorf("after the run, the record says status %d, want 3", s)
			}
		})
		t.Run("a link at the name", func(t *testing.T) {
			project := l.dir(t, "link")
			rec := filepath.Join(project, "audit.json")
			r := l.run(t, append([]string{"run", "--audit-json", rec, "--project", project, "--"},
				l.script(t, project, "ln -s "+filepath.Join(l.outside, "canary")+" audit.json; exit 3")...)...)
			wantCode(t, r, 3)
			if s := recordStatus(t, rec); s != 3 {
				t.Errorf("the record says status %d, want 3", s)
			}
			l.wantUntouched(t)
		})
		t.Run("a link planted before the run", func(t *testing.T) {
			project := l.dir(t, "link-before")
			rec := filepath.Join(project, "audit.json")
			wantCode(t, l.run(t, append([]string{"run", "--project", project, "--"}, l.script(t, project, "ln -s "+filepath.Join(l.outside, "canary")+" audit.json")...)...), 0)
			wantCode(t, l.run(t, "run", "--audit-json", rec, "--project", project, "--", "sh", "-c", "exit 3"), 3)
			if s := recordStatus(t, rec); s != 3 {
				t.Errorf("the record says status %d, want 3", s)
			}
			l.wantUntouched(t)
		})
		t.Run("the directory swapped", func(t *testing.T) {
			project := l.dir(t, "swap")
			recDir := l.dir(t, "swap/rec")
			rec := filepath.Join(recDir, "audit.json")
			r := l.run(t, append([]string{"run", "--audit-json", rec, "--project", project, "--"},
				l.script(t, project, `mv rec rec.old && mkdir rec && printf '{"status":0,"exit_code":0}' > rec/audit.json; exit 3`)...)...)
			wantCode(t, r, 3, "was replaced during the run")
			if s := recordStatus(t, rec); s != 3 {
				t.Errorf("the record says status %d, want 3", s)
			}
		})
		t.Run("the directory swapped for a link", func(t *testing.T) {
			project := l.dir(t, "swap-link")
			recDir := l.dir(t, "swap-link/rec")
			r := l.run(t, append([]string{"run", "--audit-json", filepath.Join(recDir, "audit.json"), "--project", project, "--"},
				l.script(t, project, "mv rec rec.old && ln -s "+l.outside+" rec; exit 3")...)...)
			wantCode(t, r, 125, "the execution record was not written", recDir+" is a symbolic link (to "+l.outside+") inside a directory the sandbox can write")
			l.wantUntouched(t)
		})
		t.Run("the directory a link before the run", func(t *testing.T) {
			project := l.dir(t, "dir-link")
			wantCode(t, l.run(t, append([]string{"run", "--project", project, "--"}, l.script(t, project, "ln -s "+l.outside+" rec")...)...), 0)
			r := l.run(t, "run", "--audit-json", filepath.Join(project, "rec/audit.json"), "--project", project, "--", "touch", "ran")
			wantCode(t, r, 125, filepath.Join(project, "rec")+" is a symbolic link (to "+l.outside+") inside a directory the sandbox can write")
			if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
				t.Error("the command ran")
			}
			l.wantUntouched(t)
		})
		t.Run("control", func(t *testing.T) {
			project := l.dir(t, "control")
			rec := filepath.Join(project, "audit.json")
			wantCode(t, l.run(t, "run", "--audit-json", rec, "--project", project, "--", "sh", "-c", "exit 3"), 3)
			if s := recordStatus(t, rec); s != 3 {
				t.Errorf("the record says status %d, want 3", s)
			}
			ents, _ := os.ReadDir(project)
			if len(ents) != 1 {
				t.Errorf("more than the record was left in the project: %v", ents)
			}
		})
	})
}
