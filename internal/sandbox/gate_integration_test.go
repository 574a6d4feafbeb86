// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// TestGate: a run held back by Spec.Gate starts nothing of its command
// until the gate says so: called off, it leaves no trace of the command
// and no cgroup; let through after longer than its timeout, the command
// still has all of its timeout.
func TestGate(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	t.Run("called off", func(t *testing.T) {
		project := varTempDir(t)
		var dirs []string
		withCgroupHook(t, func(ds []string) { dirs = ds })
		gate := make(chan bool, 1)
		done := make(chan error, 1)
		var out strings.Builder
		go func() {
			_, err := warmRun(context.Background(), Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo ran > ran"),
				Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Timeout: time.Minute, Gate: gate})
			done <- err
		}()
		// Built meanwhile: the gate is what holds it.
		time.Sleep(200 * time.Millisecond)
		if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
			t.Fatal("the command ran before the gate said so")
		}
		gate <- false
		if err := <-done; !errors.Is(err, ErrNotStarted) {
			t.Fatalf("run called off: %v, want ErrNotStarted\n%s", err, out.String())
		}
		if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
			t.Error("the command of a run called off ran")
		}
		for _, d := range dirs {
			if _, err := os.Stat(d); err == nil {
				t.Errorf("the cgroup %s of a run called off is left", d)
			}
		}
	})
	t.Run("let through late", func(t *testing.T) {
		project := varTempDir(t)
		gate := make(chan bool, 1)
		go func() {
			time.Sleep(1500 * time.Millisecond)
			gate <- true
		}()
		var out strings.Builder
		res, err := warmRun(context.Background(), Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo ran > ran"),
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Timeout: time.Second, Gate: gate})
		if err != nil || res.TimedOut || res.Status() != 0 {
			t.Fatalf("run: %v, timed out %v, status %d\n%s", err, res.TimedOut, res.Status(), out.String())
		}
		if _, err := os.Stat(filepath.Join(project, "ran")); err != nil {
			t.Errorf("the command let through did not run: %v", err)
		}
	})
}
