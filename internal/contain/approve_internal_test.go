// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
)

// absentable is an approver that may not be there, as warden serve's:
// it counts how often it was looked for and asked.
type absentable struct {
	there            bool
	answer           string
	looked, asked    int
	questions, tells []string
}

func (a *absentable) Present() bool { a.looked++; return a.there }
func (a *absentable) Tell(text string) {
	a.tells = append(a.tells, text)
}

func (a *absentable) Ask(q string) string {
	a.asked++
	a.questions = append(a.questions, q)
	return a.answer
}

// quiet is a Reporter that keeps what it is told.
type quiet struct{ said []string }

func (q *quiet) Warn(msg string)               { q.said = append(q.said, msg) }
func (q *quiet) Error(msg string, _ ...string) { q.said = append(q.said, msg) }
func (q *quiet) Say(msg string)                { q.said = append(q.said, msg) }
func (q *quiet) Blocked(*audit.Run)            {}

// TestApproverLookedForOnlyWhenAsked: an approver that may be absent
// (warden serve, which a run finds by connecting to it) is looked for
// only when the command is not simply allowed; absent, a question is
// judged as with no approver at all, to the same refusal and hints.
func TestApproverLookedForOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{home, project} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// judge judges argv with ask as the run's approver (nil: none) and
	// returns the refusal, or "" for a command that may run.
	judge := func(t *testing.T, argv []string, ask Approver) (string, []string, bool) {
		t.Helper()
		p, err := newPlan(Options{Argv: argv, Project: project, Dir: project, Home: home,
			Policy: config.Options{Home: home}, Report: &quiet{}, Ask: ask})
		if err != nil {
			t.Fatal(err)
		}
		defer p.close()
		ex, approved := p.judge()
		if ex == nil {
			return "", nil, approved
		}
		return ex.Msg, ex.Hints, approved
	}
	outside := []string{"cat", "/etc/hostname"} // a read outside the project: asked

	t.Run("allowed: not looked for", func(t *testing.T) {
		a := &absentable{}
		if msg, _, _ := judge(t, []string{"true"}, a); msg != "" {
			t.Fatalf("true refused: %s", msg)
		}
		if a.looked != 0 || a.asked != 0 {
			t.Errorf("looked for %d times, asked %d, for a command that is allowed", a.looked, a.asked)
		}
	})
	t.Run("asked, absent: as with none", func(t *testing.T) {
		wantMsg, wantHints, _ := judge(t, outside, nil)
		if !strings.Contains(wantMsg, "no approver") {
			t.Fatalf("with no approver: %q, want a refusal that says so", wantMsg)
		}
		a := &absentable{answer: "y"}
		msg, hints, _ := judge(t, outside, a)
		if diff := cmp.Diff(wantMsg, msg); diff != "" {
			t.Errorf("refusal (-no approver +absent one):\n%s", diff)
		}
		if diff := cmp.Diff(wantHints, hints); diff != "" {
			t.Errorf("hints (-no approver +absent one):\n%s", diff)
		}
		if a.looked != 1 || a.asked != 0 {
			t.Errorf("looked for %d times, asked %d; want once, never", a.looked, a.asked)
		}
	})
	t.Run("asked, there: asked", func(t *testing.T) {
		a := &absentable{there: true, answer: "y"}
		msg, _, approved := judge(t, outside, a)
		if msg != "" || !approved {
			t.Fatalf("refused (%q) or not approved (%v) though the person said yes", msg, approved)
		}
		if a.asked != 1 || len(a.questions) != 1 || !strings.Contains(a.questions[0], "/etc/hostname") {
			t.Errorf("asked %d times: %q", a.asked, a.questions)
		}
	})
}

// TestQuarantinedQuoted: what the post-run check took away is named on
// the person's terminal, and its path is the command's to choose: one
// holding control sequences (clear the screen, colour what follows, a
// byte that is not UTF-8) is written quoted, escapes shown, never sent
// to the terminal as they are.
func TestQuarantinedQuoted(t *testing.T) {
	var q quiet
	p := &plan{o: Options{Report: &q}}
	p.quarantined([]audit.Quarantined{{Path: "/p/a\x1b[2J\x1b[31mFAKE/.envrc", Why: "host-executed",
		MovedTo: "/q/a\x1b[2J\x1b[31mFAKE/.envrc"}, {Path: "/p/b\x9b2J/.envrc", Why: "host-executed"}}, 0)
	want := []string{
		`post-run check: "/p/a\x1b[2J\x1b[31mFAKE/.envrc": host-executed (moved to "/q/a\x1b[2J\x1b[31mFAKE/.envrc")`,
		`post-run check: "/p/b\x9b2J/.envrc": host-executed (removed)`,
	}
	if diff := cmp.Diff(want, q.said); diff != "" {
		t.Errorf("what the person is told (-want +got):\n%s", diff)
	}
}
