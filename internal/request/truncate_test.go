// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
)

// git runs the real git in dir, isolated from the user's configuration.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Warden", "-c", "user.email=warden@example.com",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func writeFile(t *testing.T, p string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte("content\n"), 0o644))
}

// truncRepo builds a repository: committed files, one staged, one
// untracked, a link to a tracked file, and a linked worktree.
func truncRepo(t *testing.T, args ...string) (proj, linked string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	proj = root + "/proj"
	must(t, os.MkdirAll(proj, 0o755))
	git(t, proj, append([]string{"init", "-q"}, args...)...)
	for _, f := range []string{"tracked.go", "sub/deep.go", "a b.txt"} {
		writeFile(t, filepath.Join(proj, f))
	}
	git(t, proj, "add", ".")
	git(t, proj, "commit", "-qm", "initial")
	writeFile(t, proj+"/staged.go")
	git(t, proj, "add", "staged.go")
	writeFile(t, proj+"/untracked.txt")
	must(t, os.Symlink("tracked.go", proj+"/link-to-tracked"))
	must(t, os.Symlink("untracked.txt", proj+"/link-to-untracked"))
	must(t, os.Symlink(proj, root+"/alias"))
	must(t, os.Link(proj+"/tracked.go", proj+"/hard-link"))
	linked = root + "/linked"
	git(t, proj, "worktree", "add", "-q", "-b", "side", linked)
	return proj, linked
}

// judge builds the action of a bash command run in dir and evaluates it
// under the built-in defaults.
func judge(t *testing.T, dir, command string, contained bool) (*action.Action, policy.Decision) {
	t.Helper()
	eng, err := policy.Compile(nil, policy.Options{})
	must(t, err)
	req := &request.Request{Tool: "bash", Command: command, Contained: contained}
	a, _, err := req.Action(request.Options{Dir: dir, Home: "/nonexistent/home"})
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	d, _ := eng.Evaluate(a, policy.Env{})
	return a, d
}

func TestTruncateTracked(t *testing.T) {
	proj, linked := truncRepo(t)
	root := filepath.Dir(proj)
	P, A := action.Prompt, action.Allow
	for _, tt := range []struct {
		dir, cmd string
		want     action.Verdict
		deleted  []string // resolved paths of the delete facets
	}{
		{cmd: "echo x > tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x >> tracked.go", want: A},
		{cmd: "echo x > untracked.txt", want: A},
		{cmd: "echo x > new.txt", want: A},
		{cmd: "echo x > link-to-tracked", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x > link-to-untracked", want: A},
		{cmd: "echo x > hard-link", want: P, deleted: []string{proj + "/hard-link"}},
		{cmd: "echo x > staged.go", want: P, deleted: []string{proj + "/staged.go"}},
		{cmd: "echo x > sub", want: A}, // a directory: bash fails, nothing is lost
		{cmd: "echo x > /dev/null", want: A},
		{cmd: "echo x 2>/dev/null >> tracked.go", want: A},
		{cmd: "cat tracked.go 2>&1 >> tracked.go", want: A},
		{cmd: "echo x <> tracked.go", want: A}, // read-write, not truncated

		// Every truncating operator, and the forms no invocation carries.
		{cmd: "> tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: ": > tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x >| tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x 2> tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x 1>tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x &> tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x >& tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x &>> tracked.go", want: A},
		{cmd: "{ echo x; } > tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "(echo x) > tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "for i in 1; do echo $i; done > tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "bash -c 'echo x > tracked.go'", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "x=$(echo y > tracked.go)", want: P, deleted: []string{proj + "/tracked.go"}},

		// Spellings of the target.
		{cmd: `echo x > "tracked.go"`, want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: `echo x > 'a b.txt'`, want: P, deleted: []string{proj + "/a b.txt"}},
		{cmd: `echo x > a\ b.txt`, want: P, deleted: []string{proj + "/a b.txt"}},
		{cmd: "echo x > ./tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x > sub/../tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x > " + proj + "/sub/deep.go", want: P, deleted: []string{proj + "/sub/deep.go"}},
		{cmd: "echo x > " + root + "/alias/tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x > /proc/self/cwd/tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "echo x > track*.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "cd sub && echo x > deep.go", want: P, deleted: []string{proj + "/sub/deep.go"}},
		{cmd: "cd sub && echo x > ../tracked.go", want: P, deleted: []string{proj + "/tracked.go"}},
		{cmd: "cd sub && echo x > tracked.go", want: A}, // sub/tracked.go does not exist
		{dir: proj + "/sub", cmd: "echo x > deep.go", want: P, deleted: []string{proj + "/sub/deep.go"}},

		// A linked worktree reads its own index.
		{dir: linked, cmd: "echo x > tracked.go", want: P, deleted: []string{linked + "/tracked.go"}},
		{dir: linked, cmd: "echo x >> tracked.go", want: A},
	} {
		dir := tt.dir
		if dir == "" {
			dir = proj
		}
		a, d := judge(t, dir, tt.cmd, false)
		var deleted []string
		for _, p := range a.Paths {
			if p.Access == action.Delete {
				deleted = append(deleted, p.Resolved)
			}
		}
		if d.Verdict != tt.want {
			t.Errorf("%s: %v (%s), want %v", tt.cmd, d.Verdict, d.Reason, tt.want)
		}
		if diff := cmp.Diff(tt.deleted, deleted); diff != "" {
			t.Errorf("%s: deleted paths (-want +got):\n%s", tt.cmd, diff)
		}
		if got := slices.Contains(a.Classes, action.FileDelete); got != (tt.deleted != nil) {
			t.Errorf("%s: fileDelete = %v", tt.cmd, got)
		}
		if tt.deleted != nil && (!strings.Contains(d.Reason, "truncates") || !strings.Contains(d.Reason, "tracked by git")) {
			t.Errorf("%s: reason %q does not say the tracked file is truncated", tt.cmd, d.Reason)
		}
	}
}

// TestTruncateContained: the fileDelete default asks whether or not the
// command is contained, as for rm.
func TestTruncateContained(t *testing.T) {
	proj, _ := truncRepo(t)
	if _, d := judge(t, proj, "echo x > tracked.go", true); d.Verdict != action.Prompt {
		t.Errorf("contained: %v (%s), want prompt", d.Verdict, d.Reason)
	}
	if _, d := judge(t, proj, "echo x > untracked.txt", true); d.Verdict != action.Allow {
		t.Errorf("contained, untracked: %v (%s), want allow", d.Verdict, d.Reason)
	}
}

// TestTruncateIndexForms: index version 4, SHA-256, a split index and a
// corrupt one. What the index cannot tell is taken as tracked.
func TestTruncateIndexForms(t *testing.T) {
	P, A := action.Prompt, action.Allow
	for _, tt := range []struct {
		name    string
		init    []string
		prepare func(t *testing.T, proj string)
		want    map[string]action.Verdict
		reason  string
	}{
		{name: "v4", prepare: func(t *testing.T, proj string) { git(t, proj, "update-index", "--index-version", "4") },
			want: map[string]action.Verdict{"tracked.go": P, "sub/deep.go": P, "untracked.txt": A}},
		{name: "sha256", init: []string{"--object-format=sha256"},
			want: map[string]action.Verdict{"tracked.go": P, "untracked.txt": A}},
		{name: "split", prepare: func(t *testing.T, proj string) { git(t, proj, "update-index", "--split-index") },
			want: map[string]action.Verdict{"tracked.go": P, "untracked.txt": P, "new.txt": A}},
		{name: "corrupt", prepare: func(t *testing.T, proj string) {
			idx := proj + "/.git/index"
			data, err := os.ReadFile(idx)
			must(t, err)
			data[len(data)-1] ^= 1
			must(t, os.WriteFile(idx, data, 0o644))
		}, want: map[string]action.Verdict{"tracked.go": P, "untracked.txt": P, "new.txt": A}, reason: "cannot be told"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			proj, _ := truncRepo(t, tt.init...)
			if tt.prepare != nil {
				tt.prepare(t, proj)
			}
			got := map[string]action.Verdict{}
			for f := range tt.want {
				_, d := judge(t, proj, "echo x > '"+f+"'", false)
				got[f] = d.Verdict
				if d.Verdict == P && !strings.Contains(d.Reason, tt.reason) {
					t.Errorf("%s: reason %q, want it to say %q", f, d.Reason, tt.reason)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
		})
	}
}
