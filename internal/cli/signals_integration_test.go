// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration

package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// TestSignalEndsGatewayServer: a SIGTERM sent to warden mcp reaches the
// gateway as a cancelled context, which ends the server it started
// (the server sees SIGTERM and warden exits), rather than ending warden
// alone and leaving the server running. Only the commands that
// cli.Interruptible names get that; a hook call does not pay for it.
func TestSignalEndsGatewayServer(t *testing.T) {
	warden := sandboxtest.BuildWarden(t)
	dir := t.TempDir()
	ready, got := filepath.Join(dir, "ready"), filepath.Join(dir, "got")
	// The server's command line names the directory, so that a server
	// left running can be found and ended.
	server := `trap 'echo term > "$1/got"; exit 0' TERM; echo up > "$1/ready"; while :; do sleep 0.05; done`
	cmd := exec.Command(warden, "mcp", "--", "sh", "-c", server, "sh", dir)
	cmd.Env = append(os.Environ(), "WARDEN_STATE_DIR="+filepath.Join(dir, "state"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("warden mcp ended before its server started: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = <-done
	b, readErr := os.ReadFile(got)
	if readErr != nil {
		exec.Command("pkill", "-f", "sh "+dir).Run()
		t.Fatalf("warden mcp ended (%v) without ending its server: %v", err, readErr)
	}
	if string(b) != "term\n" {
		t.Errorf("the server wrote %q, want term", b)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Errorf("warden mcp was killed by %v: the signal ended it, not its context", ws.Signal())
	}
}
