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

	api "warden.dev/warden/internal/server"
)

// startServe starts warden serve on a fresh state directory, which
// WARDEN_STATE_DIR names for the rest of the test (and the processes it
// starts), waits for its socket and returns the directory. The directory
// is made with a short path: a Unix socket's path is at most 108 bytes.
func startServe(t *testing.T, warden string) string {
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
			return state
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
