// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// TestToolchainTerminal runs a command with Spec.Terminal in this process
// (so that the race detector sees the relays): the command's terminal is
// its own, /dev/pts/0 of the sandbox's devpts, with the caller's size;
// what is typed at the caller's terminal reaches it; what it shows is
// captured as stdout; the caller's terminal is as it was.
func TestToolchainTerminal(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	master, slave := newPTY(t)
	before := termios(t, slave)
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// Types once the command asks.
	go func() {
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			mu.Lock()
			asked := strings.Contains(screen.String(), "type:")
			mu.Unlock()
			if asked {
				master.WriteString("hello\r")
				return
			}
		}
	}()
	res, err := warmRun(context.Background(), Spec{
		Argv:     sh(`tty; stty size; echo type:; read x; echo got=$x`),
		Project:  t.TempDir(),
		Terminal: true,
		Stdin:    slave, Stdout: slave, Stderr: slave,
		Timeout: time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Stdout.String()
	t.Logf("status %d, stdout %q", res.Status(), got)
	for _, want := range []string{"/dev/pts/0\r\n", "0 0\r\n", "got=hello\r\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the command's terminal showed %q, want %q in it", got, want)
		}
	}
	if res.Status() != 0 {
		t.Errorf("status %d, want 0", res.Status())
	}
	if diff := cmp.Diff(before, termios(t, slave)); diff != "" {
		t.Errorf("the caller's terminal changed (-before +after):\n%s", diff)
	}
}
