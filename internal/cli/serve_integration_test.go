// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration

package cli_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
	api "warden.dev/warden/internal/server"
)

// startServe starts warden serve on a fresh state directory, which
// WARDEN_STATE_DIR names for the rest of the test (and the processes it
// starts), waits for its socket and returns the directory. The directory
// is made with a short path: a Unix socket's path is at most 108 bytes.
func startServe(t *testing.T, warden string) string {
	t.Helper()
	state, _ := startServeCmd(t, warden)
	return state
}

// startServeCmd is startServe, with serve's process.
func startServeCmd(t *testing.T, warden string) (string, *exec.Cmd) {
	t.Helper()
	state, err := os.MkdirTemp("", "warden-serve-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(state) })
	t.Setenv("WARDEN_STATE_DIR", state)
	serve := exec.Command(warden, "serve")
	serve.Stderr = os.Stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(state, "warden.sock")); err == nil {
			return state, serve
		}
		if i == 200 {
			t.Fatal("warden serve made no socket")
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// allowed is what the person of allowFirst saw and did.
type allowed struct {
	req api.ApprovalJSON
	err error
}

// allowFirst plays the person, in the background: it waits up to wait
// for a pending approval in state's warden serve and allows the first
// one with the token, as a script a person wrote would.
func allowFirst(warden, state string, wait time.Duration) <-chan allowed {
	person := make(chan allowed, 1)
	go func() {
		for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			out, err := exec.Command(warden, "approvals", "list", "--json").Output()
			if err != nil {
				person <- allowed{err: err}
				return
			}
			var as []api.ApprovalJSON
			if err := json.Unmarshal(out, &as); err != nil {
				person <- allowed{err: err}
				return
			}
			if len(as) == 0 {
				continue
			}
			tok, _ := os.ReadFile(filepath.Join(state, "token"))
			out, err = exec.Command(warden, "approvals", "allow", as[0].ID, "--yes-i-am-a-person", "--token", strings.TrimSpace(string(tok))).CombinedOutput()
			if err != nil {
				err = fmt.Errorf("%v: %s", err, out)
			}
			person <- allowed{as[0], err}
			return
		}
		person <- allowed{err: errors.New("no approval came")}
	}()
	return person
}

// TestRunThroughServe runs commands while warden serve runs: each takes
// the sandbox serve keeps started and records through serve, and is the
// same run as without it (its streams, its status, its record). Once
// serve is gone, a run starts its own sandbox and opens the store itself.
func TestRunThroughServe(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	warden := sandboxtest.BuildWarden(t)
	state, serve := startServeCmd(t, warden)
	home := t.TempDir()
	project := filepath.Join(home, "p")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARDEN_SANDBOX_TRACE", "1")
	run := func() result {
		return runWarden(t, []string{warden}, home, "run", "--project", project, "--",
			"sh", "-c", "echo out; echo err >&2; exit 3")
	}
	// Serve's first sandbox may still be starting: a run that finds none
	// ready starts its own.
	var r result
	for range 50 {
		if r = run(); strings.Contains(r.stderr, "init taken from warden serve") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(r.stderr, "init taken from warden serve") {
		t.Fatalf("no run took the sandbox warden serve keeps:\n%s", r.stderr)
	}
	if r.code != 3 || r.stdout != "out\n" || !strings.Contains(r.stderr, "\nerr\n") {
		t.Errorf("through serve: status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	serve.Process.Kill()
	serve.Wait()
	after := run()
	if strings.Contains(after.stderr, "init taken from warden serve") || after.code != 3 || after.stdout != "out\n" {
		t.Errorf("without serve: status %d, stdout %q, stderr %q", after.code, after.stdout, after.stderr)
	}
	// Both kinds of run are in the store, recorded alike.
	a := runWarden(t, []string{warden}, home, "audit", "--kind", "run", "--json")
	var statuses []int
	for _, line := range strings.Split(strings.TrimSpace(a.stdout), "\n") {
		var ev struct {
			ExitCode int `json:"exit_code"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("audit --json: %v: %q", err, line)
		}
		statuses = append(statuses, ev.ExitCode)
	}
	if len(statuses) < 2 || statuses[len(statuses)-1] != 3 || statuses[len(statuses)-2] != 3 {
		t.Errorf("the store of %s has the runs' statuses %v, want the last two 3", state, statuses)
	}
}
