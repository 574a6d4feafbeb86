// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// warden run applies the policy it is given, and a hook's --wrap hands
// its decision over in a single-use grant: the real hook rewrites a
// command, the real wrapped line runs under the real warden run, and
// every attack on the grant (replaying the line, forging the id,
// changing the command, planting the grant as a link, running it
// elsewhere, dropping it) is judged in full and refused, each checked
// from outside by the file the command would have removed. Each scenario
// runs as root and as uid 65534 (through setpriv), the hook and the
// wrapped line as the same user, as an agent runs them.
//
//	go test -tags integration -run RunJudges ./internal/cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// judgeLab is one user's project for the scenarios: a git work tree with
// a subdirectory where the agent runs, and a policy outside it.
type judgeLab struct {
	*linkLab
	project, sub, policy string
}

func newJudgeLab(t *testing.T, l *linkLab) *judgeLab {
	j := &judgeLab{linkLab: l, project: l.dir(t, "project")}
	for _, d := range []string{".git", ".git/objects", ".git/refs", "sub"} {
		l.dir(t, filepath.Join("project", d))
	}
	l.write(t, filepath.Join(j.project, ".git/HEAD"), "ref: refs/heads/main\n")
	j.sub = filepath.Join(j.project, "sub")
	j.policy = filepath.Join(l.home, "policy.yaml")
	l.write(t, j.policy, `version: 1
rules:
  - id: no-truncate
    scope: workspace
    command: truncate
    decision: deny
    reason: truncate is not allowed here
`)
	return j
}

// exec runs argv as the lab's user in dir, with stdin.
func (j *judgeLab) exec(t *testing.T, dir, stdin string, argv ...string) result {
	t.Helper()
	full := append(append([]string(nil), j.as[:len(j.as)-1]...), argv...)
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+j.home, "TMPDIR=/tmp", "XDG_CACHE_HOME=")
	cmd.Stdin = strings.NewReader(stdin)
	r := collect(t, cmd)
	t.Logf("%q in %s: status %d\nstdout: %s\nstderr: %s", argv, dir, r.code, r.stdout, r.stderr)
	return r
}

// wrap asks the real hook (claude-code, --wrap) about command run in the
// subdirectory, as call id, and returns its verdict and the rewritten
// line.
func (j *judgeLab) wrap(t *testing.T, command, id string) (verdict, line string) {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{
		"session_id": "s", "cwd": j.sub, "permission_mode": "default", "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": id,
	})
	r := j.exec(t, j.sub, string(payload), j.as[len(j.as)-1], "hook", "claude-code", "--wrap", "--policy", j.policy)
	if r.code != 0 {
		t.Fatalf("the hook exited %d", r.code)
	}
	var ans struct {
		Out struct {
			Decision string `json:"permissionDecision"`
			Input    struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil {
		t.Fatalf("the hook's answer: %v", err)
	}
	return ans.Out.Decision, ans.Out.Input.Command
}

// runLine runs a wrapped line as the agent's shell would, in dir.
func (j *judgeLab) runLine(t *testing.T, dir, line string) result {
	t.Helper()
	return j.exec(t, dir, "", "bash", "-c", line)
}

// victim makes name in the subdirectory, holding body.
func (j *judgeLab) victim(t *testing.T, name string) string {
	p := filepath.Join(j.sub, name)
	j.write(t, p, "still here\n")
	return p
}

func wantFile(t *testing.T, p string, exists bool) {
	t.Helper()
	b, err := os.ReadFile(p)
	switch {
	case exists && (err != nil || string(b) != "still here\n"):
		t.Errorf("%s was changed or removed: %q, %v", p, b, err)
	case !exists && err == nil:
		t.Errorf("%s is still there: the command did not run", p)
	}
}

var grantFlag = regexp.MustCompile(` --grant ([0-9a-f]{32}) `)

func grantOf(t *testing.T, line string) string {
	t.Helper()
	m := grantFlag.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the wrapped line names no grant: %s", line)
	}
	return m[1]
}

func TestRunJudgesDenyRule(t *testing.T) {
	forEachUser(t, func(t *testing.T, l *linkLab) {
		j := newJudgeLab(t, l)
		v := j.victim(t, "data")
		r := j.exec(t, j.sub, "", j.as[len(j.as)-1], "run", "--policy", j.policy, "--", "truncate", "-s", "0", "data")
		wantCode(t, r, 126, "warden: error: not run: no-truncate: truncate is not allowed here")
		wantFile(t, v, true)
		// Through the hook it is denied and not rewritten.
		if verdict, line := j.wrap(t, "truncate -s 0 data", "toolu_deny"); verdict != "deny" || line != "" {
			t.Errorf("the hook answered %s with %q, want a deny and no rewriting", verdict, line)
		}
		// The same policy lets the rest run.
		wantCode(t, j.exec(t, j.sub, "", j.as[len(j.as)-1], "run", "--policy", j.policy, "--", "touch", "made"), 0)
		if _, err := os.Stat(filepath.Join(j.sub, "made")); err != nil {
			t.Errorf("an allowed command did not run in the subdirectory: %v", err)
		}
	})
}

func TestRunJudgesGrant(t *testing.T) {
	forEachUser(t, func(t *testing.T, l *linkLab) {
		j := newJudgeLab(t, l)
		grants := filepath.Join(l.home, ".cache", "warden", "hook", "grants")

		t.Run("allowed once, replay judged in full", func(t *testing.T) {
			v := j.victim(t, "victim")
			verdict, line := j.wrap(t, "rm -f victim", "toolu_once")
			if verdict != "ask" {
				t.Fatalf("the hook answered %s, want ask (a delete asks the person in the agent's prompt)", verdict)
			}
			grantOf(t, line)
			// The person said yes in the agent's prompt: the line runs.
			wantCode(t, j.runLine(t, j.sub, line), 0)
			wantFile(t, v, false)
			rec, err := os.ReadFile(filepath.Join(l.home, ".cache", "warden", "hook", "claude-code", "runs", "toolu_once.json"))
			if err != nil || !strings.Contains(string(rec), `"by": "grant"`) || !strings.Contains(string(rec), `"answered": "prompt"`) {
				t.Errorf("the record does not say the hook's grant decided: %v\n%s", err, rec)
			}
			// The same line again: the grant is used, the command judged
			// in full, and a delete with no approver is refused.
			v = j.victim(t, "victim")
			r := j.runLine(t, j.sub, line)
			wantCode(t, r, 126, "no such grant (never issued, or already used); the command is judged in full",
				"not run: builtin:fileDelete")
			wantFile(t, v, true)
		})

		t.Run("forged id", func(t *testing.T) {
			v := j.victim(t, "victim")
			_, line := j.wrap(t, "rm -f victim", "toolu_forged")
			forged := strings.Replace(line, grantOf(t, line), "0123456789abcdef0123456789abcdef", 1)
			wantCode(t, j.runLine(t, j.sub, forged), 126, "no such grant", "not run: builtin:fileDelete")
			wantFile(t, v, true)
			// The forgery used up nothing: the real line still runs.
			wantCode(t, j.runLine(t, j.sub, line), 0)
			wantFile(t, v, false)
		})

		t.Run("command changed after the grant", func(t *testing.T) {
			v := j.victim(t, "victim")
			keep := j.victim(t, "keep")
			_, line := j.wrap(t, "rm -f victim", "toolu_altered")
			altered := strings.Replace(line, "rm -f victim", "rm -f keep", 1)
			wantCode(t, j.runLine(t, j.sub, altered), 126, "the grant is for another command", "not run: builtin:fileDelete")
			wantFile(t, keep, true)
			// The grant was claimed by the altered line: the original is
			// judged in full too.
			wantCode(t, j.runLine(t, j.sub, line), 126, "no such grant")
			wantFile(t, v, true)
		})

		t.Run("grant planted as a link", func(t *testing.T) {
			v := j.victim(t, "victim")
			_, line := j.wrap(t, "rm -f victim", "toolu_link")
			id := grantOf(t, line)
			stash := filepath.Join(l.home, "stash-"+id)
			if err := os.Rename(filepath.Join(grants, id), stash); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(stash)
			if err := os.Symlink(stash, filepath.Join(grants, id)); err != nil {
				t.Fatal(err)
			}
			os.Lchown(filepath.Join(grants, id), l.uid, l.uid)
			wantCode(t, j.runLine(t, j.sub, line), 126, "the grant is not a private file of this user", "not run: builtin:fileDelete")
			wantFile(t, v, true)
			if after, err := os.ReadFile(stash); err != nil || !bytes.Equal(after, before) {
				t.Errorf("the link's target changed: %v", err)
			}
			if _, err := os.Lstat(filepath.Join(grants, id)); !os.IsNotExist(err) {
				t.Errorf("the planted link is still there: %v", err)
			}
		})

		t.Run("run from another directory", func(t *testing.T) {
			v := j.victim(t, "victim")
			_, line := j.wrap(t, "rm -f victim", "toolu_elsewhere")
			wantCode(t, j.runLine(t, j.project, line), 126, "the grant is for another command, directory", "not run: builtin:fileDelete")
			wantFile(t, v, true)
		})

		t.Run("a line the agent writes itself", func(t *testing.T) {
			v := j.victim(t, "victim")
			_, line := j.wrap(t, "rm -f victim", "toolu_own")
			own := grantFlag.ReplaceAllString(line, " ")
			r := j.runLine(t, j.sub, own)
			wantCode(t, r, 126, "warden: error: not run: builtin:fileDelete")
			if strings.Contains(r.stderr, "--grant") {
				t.Errorf("a line without a grant mentions one: %s", r.stderr)
			}
			wantFile(t, v, true)
			// Nor does the hook give a grant to a line already in
			// --wrap's form: it is judged as its inner command, and not
			// rewritten again.
			if verdict, again := j.wrap(t, own, "toolu_rewrap"); again != "" {
				t.Errorf("the hook rewrote a wrapped line (%s): %s", verdict, again)
			}
			// The hook's own line was left alone by all this.
			wantCode(t, j.runLine(t, j.sub, line), 0)
			wantFile(t, v, false)
		})

		t.Run("allowed by policy", func(t *testing.T) {
			verdict, line := j.wrap(t, "echo made > made-by-grant", "toolu_allow")
			if verdict != "allow" {
				t.Fatalf("the hook answered %s, want allow", verdict)
			}
			wantCode(t, j.runLine(t, j.sub, line), 0)
			if _, err := os.Stat(filepath.Join(j.sub, "made-by-grant")); err != nil {
				t.Errorf("the allowed command did not run in the subdirectory: %v", err)
			}
		})
		if ents, _ := os.ReadDir(grants); len(ents) != 0 {
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			t.Errorf("grants left behind: %q", names)
		}
	})
}

// scriptIn writes body as a shell script in dir (the project, or below it),
// owned by uid, and returns the argv that runs it. The containment tests
// run their attacks so: code the policy allowed to run (a script is
// processSpawn that runs code, allowed contained) doing something else,
// which is the threat the sandbox answers (docs/security-model.md). A
// command line the policy can read would be refused before the sandbox
// is built, and prove nothing about it.
func scriptIn(t *testing.T, dir string, uid int, body string) []string {
	t.Helper()
	f, err := os.CreateTemp(dir, ".attack-*.sh")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(body + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.Chmod(f.Name(), 0o644)
	os.Chown(f.Name(), uid, uid)
	return []string{"sh", f.Name()}
}
