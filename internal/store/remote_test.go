// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/store"
)

// serveRecords is warden serve's part, for TestRecordThroughServe: it
// holds the store in dir open and records what comes on its socket.
func serveRecords(dir string) int {
	s, err := store.Open(context.Background(), dir)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	ln, err := store.ListenRecords(dir)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("ready")
	store.ServeRecords(ln, s)
	return 0
}

// TestRecordThroughServe records through a process that holds the store
// open, as warden serve does, then kills it: the events of both ways are
// in one chain, redacted alike, and nothing is recorded twice.
func TestRecordThroughServe(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("recording through warden serve reads the peer's credentials, on Linux only")
	}
	dir, err := os.MkdirTemp("", "wr-") // a socket's path is short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	serve := exec.Command(os.Args[0])
	serve.Env = append(os.Environ(), "WARDEN_STORE_TEST_SERVE="+dir)
	out, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("serve: %q", line)
	}
	if fi, err := os.Stat(filepath.Join(dir, store.RecordSocket)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the record socket: %v, %v; want 0600", fi, err)
	}

	rec := &store.Recorder{Dir: dir}
	defer rec.Close()
	secret := "token ghp_" + strings.Repeat("a", 36)
	if err := rec.WriteBatch([]audit.Event{decision("a", "one "+secret, "allow"), decision("a", "two", "deny")}); err != nil {
		t.Fatal(err)
	}
	if holds(dir) {
		t.Error("the recorder opened the store although serve recorded")
	}
	serve.Process.Kill()
	serve.Wait()
	// Serve is gone: the recorder opens the store itself.
	if err := rec.Write(decision("a", "three", "allow")); err != nil {
		t.Fatal(err)
	}
	if !holds(dir) {
		t.Error("with serve gone, the recorder did not open the store")
	}
	rec.Close()

	s := open(t, dir)
	got := subjects(t, s, store.Query{})
	want := []string{"one token [redacted]", "two", "three"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the store holds (-want +got):\n%s", diff)
	}
	v, err := s.Verify(context.Background())
	if err != nil || !v.OK() {
		t.Errorf("the chain: %+v, %v", v, err)
	}
}

// holds says whether this process has the store in dir open.
func holds(dir string) bool {
	fds, _ := filepath.Glob("/proc/self/fd/*")
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && target == filepath.Join(dir, "warden.db") {
			return true
		}
	}
	return false
}

// TestRecordSocketBadInput sends what is not a batch: each is refused
// with a reason, and nothing is recorded.
func TestRecordSocketBadInput(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("recording through warden serve reads the peer's credentials, on Linux only")
	}
	dir, err := os.MkdirTemp("", "wr-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := open(t, dir)
	ln, err := store.ListenRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go store.ServeRecords(ln, s)
	for _, bad := range []string{"not json", `{"kind":"run"}`, `[{"schema":1,"kind":"nonsense"}]`} {
		c, err := net.Dial("unix", filepath.Join(dir, store.RecordSocket))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(c, bad)
		reply, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if !strings.Contains(reply, `"error"`) {
			t.Errorf("%q: reply %q, want an error", bad, reply)
		}
	}
	if got := subjects(t, s, store.Query{}); len(got) != 0 {
		t.Errorf("bad input was recorded: %q", got)
	}
}
