// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package warden_test

// Run through the Go API: the test binary is the embedding harness, and
// its TestMain calls Init, as a harness's main does, so that Run can
// re-execute it as the sandbox's init. Each scenario attempts what the
// sandbox or the policy must stop and checks the real effect from
// outside: the file outside the project did not appear, the key's bytes
// did not arrive, the canary was not removed.
//
// Assumes Linux with user namespaces (or root), as warden run does.
//
//	go test -tags integration -run TestRun .

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden"
	"warden.dev/warden/internal/sandbox/sandboxtest"
)

func TestMain(m *testing.M) {
	warden.Init()
	os.Exit(m.Run())
}

// runLab is a project and a home for one scenario, apart from each
// other.
type runLab struct {
	project, home string
	// protected are the harness's own directories.
	protected []string
}

func newRunLab(t *testing.T) *runLab {
	t.Helper()
	sandboxtest.RequireUserNS(t)
	l := &runLab{project: filepath.Join(t.TempDir(), "project"), home: t.TempDir()}
	for _, d := range []string{l.project, filepath.Join(l.home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func (l *runLab) run(t *testing.T, policy string, ap warden.Approver, argv ...string) (warden.RunResult, string, error) {
	t.Helper()
	o := warden.RunOptions{Policy: warden.PolicyOptions{Home: l.home, Protected: l.protected}, Approver: ap}
	if policy != "" {
		o.PolicyPath = filepath.Join(l.home, "policy.yaml")
		if err := os.WriteFile(o.PolicyPath, []byte(policy), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, notes bytes.Buffer
	o.Notes = &notes
	res, err := warden.Run(context.Background(), warden.Command{Argv: argv, Dir: l.project, Project: l.project, Stdout: &out, Stderr: &out}, o)
	t.Logf("%q: exit %d, err %v\noutput: %s\nnotes: %s", argv, res.ExitCode, err, out.String(), notes.String())
	return res, out.String(), err
}

// TestRunContains: the project is writable, the home is not, and a key
// in the home is not readable.
func TestRunContains(t *testing.T) {
	l := newRunLab(t)
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- not-a-real-key"
	if err := os.WriteFile(filepath.Join(l.home, ".ssh", "id_ed25519"), []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	// The harness keeps its configuration in the home, which a run sees
	// read-only: only Protected keeps it from the command.
	harness := filepath.Join(l.home, ".config", "harness")
	if err := os.MkdirAll(harness, 0o755); err != nil {
		t.Fatal(err)
	}
	const token = "harness-api-token-4242"
	if err := os.WriteFile(filepath.Join(harness, "token"), []byte(token), 0o644); err != nil {
		t.Fatal(err)
	}
	l.protected = []string{harness, filepath.Join(l.home, "not-made-yet")}
	planted := filepath.Join(l.home, "planted.txt")
	// Through a script, which the policy cannot see into: the sandbox
	// alone stands between it and the host.
	script := "echo ok > made.txt\necho pwned > " + planted + "\ncat " + filepath.Join(l.home, ".ssh", "id_ed25519") + "\ncat " + filepath.Join(harness, "token") + "\ntrue\n"
	if err := os.WriteFile(filepath.Join(l.project, "attack.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, err := l.run(t, "", nil, "/bin/sh", "attack.sh")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(l.project, "made.txt")); err != nil || string(b) != "ok\n" {
		t.Errorf("the project's file: %q, %v; want \"ok\\n\"", b, err)
	}
	if _, err := os.Stat(planted); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the write outside the project reached the host: %v", err)
	}
	if strings.Contains(out, "PRIVATE KEY") {
		t.Errorf("the key's bytes arrived in the output: %q", out)
	}
	if strings.Contains(out, token) {
		t.Errorf("the harness's protected token arrived in the output: %q", out)
	}
	// The control: unprotected, the same script reads it.
	l.protected = nil
	if _, out, _ := l.run(t, "", nil, "/bin/sh", "attack.sh"); !strings.Contains(out, token) {
		t.Errorf("unprotected, the token did not arrive either (%q): the check above proves nothing", out)
	}
}

// TestRunJudges: the policy judges the command before it starts; a
// prompt is the Approver's, and nobody's answer is a no.
func TestRunJudges(t *testing.T) {
	const policy = `version: 1
rules:
  - {id: no-rm, command: rm, decision: deny, reason: nothing is removed here}
  - {id: ask-touch, command: touch, decision: prompt}
`
	l := newRunLab(t)
	canary := filepath.Join(l.project, "canary")
	if err := os.WriteFile(canary, []byte("alive"), 0o644); err != nil {
		t.Fatal(err)
	}
	var re *warden.RunError
	if _, _, err := l.run(t, policy, nil, "rm", "-f", canary); !errors.As(err, &re) || re.Status != warden.StatusRefused || !strings.Contains(re.Msg, "no-rm") {
		t.Errorf("rm under a policy that denies it: %v, want a refusal by no-rm", err)
	}
	if _, err := os.Stat(canary); err != nil {
		t.Errorf("the canary was removed: %v", err)
	}

	touched := filepath.Join(l.project, "touched")
	for _, tt := range []struct {
		name string
		ap   warden.Approver
		want bool
	}{
		{"no approver", nil, false},
		{"answered no", answer("n"), false},
		{"answered yes", answer("y"), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := l.run(t, policy, tt.ap, "touch", touched)
			_, serr := os.Stat(touched)
			if made := serr == nil; made != tt.want {
				t.Errorf("touch asked, %s: file made = %v (Run: %v), want %v", tt.name, made, err, tt.want)
			}
			if !tt.want && (!errors.As(err, &re) || re.Status != warden.StatusRefused) {
				t.Errorf("touch asked, %s: %v, want a refusal", tt.name, err)
			}
		})
	}
}

// answer is an Approver that gives one answer to every question.
type answer string

func (answer) Tell(string)           {}
func (a answer) Ask(q string) string { return string(a) }

// TestRunCancel: cancelling the context passes SIGTERM to the command.
func TestRunCancel(t *testing.T) {
	l := newRunLab(t)
	ctx, cancel := context.WithCancel(context.Background())
	var notes bytes.Buffer
	done := make(chan struct{})
	var res warden.RunResult
	var err error
	go func() {
		defer close(done)
		res, err = warden.Run(ctx, warden.Command{Argv: []string{"/bin/sh", "-c", "echo started; exec sleep 600"}, Dir: l.project, Project: l.project, Stdout: &startWriter{cancel: cancel}},
			warden.RunOptions{Policy: warden.PolicyOptions{Home: l.home}, Notes: &notes})
	}()
	<-done
	t.Logf("exit %d, err %v, notes: %s", res.ExitCode, err, notes.String())
	if err != nil || res.ExitCode != 128+15 {
		t.Errorf("Run cancelled = %d, %v; want 143 (SIGTERM) and no error", res.ExitCode, err)
	}
}

// startWriter cancels once the command has said it started.
type startWriter struct{ cancel func() }

func (w *startWriter) Write(b []byte) (int, error) {
	if bytes.Contains(b, []byte("started")) {
		w.cancel()
	}
	return len(b), nil
}

// TestRunProjectInsideProtected: a project inside one of the harness's
// own directories is refused before anything starts, rather than
// masking the project or leaving the directory writable.
func TestRunProjectInsideProtected(t *testing.T) {
	l := newRunLab(t)
	l.protected = []string{filepath.Dir(l.project)}
	marker := filepath.Join(l.project, "ran")
	var re *warden.RunError
	if _, _, err := l.run(t, "", nil, "touch", marker); !errors.As(err, &re) || re.Status != warden.StatusUnavailable {
		t.Errorf("Run in a project inside a protected directory: %v, want a RunError with status %d", err, warden.StatusUnavailable)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the command ran: %v", err)
	}
}
