// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package unixsock_test

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"warden.dev/warden/internal/unixsock"
)

// TestListening: a listening socket says so; no socket, a plain file
// and a socket whose listener is gone do not.
func TestListening(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.sock")
	ln, err := net.Listen("unix", live)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	stale := filepath.Join(dir, "stale.sock")
	gone, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	gone.SetUnlinkOnClose(false)
	gone.Close()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{live: true, stale: false, plain: false, filepath.Join(dir, "none"): false} {
		if got := unixsock.Listening(path); got != want {
			t.Errorf("Listening(%s) = %v, want %v", filepath.Base(path), got, want)
		}
	}
}
