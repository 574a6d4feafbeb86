// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package callerid_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"warden.dev/warden/internal/callerid"
)

// TestTrustOnFirstUse runs a binary from a path, replaces the file at
// that path with another binary and runs it again: the second process is
// not the binary first seen under that path, while the first still is.
func TestTrustOnFirstUse(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "tool")
	install := func(from string) {
		t.Helper()
		src, err := exec.LookPath(from)
		if err != nil {
			t.Fatalf("%s is needed: %v", from, err)
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		// A new file renamed over the path, as a swap would.
		tmp := bin + ".new"
		if err := os.WriteFile(tmp, b, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, bin); err != nil {
			t.Fatal(err)
		}
	}
	start := func(args ...string) *exec.Cmd {
		t.Helper()
		cmd := exec.Command(bin, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
		return cmd
	}
	var tf callerid.TOFU
	install("sleep")
	first := start("30")
	if why := tf.Check("/proc/"+strconv.Itoa(first.Process.Pid)+"/exe", bin); why != "" {
		t.Fatalf("the first use: %s", why)
	}
	again := start("30")
	if why := tf.Check("/proc/"+strconv.Itoa(again.Process.Pid)+"/exe", bin); why != "" {
		t.Errorf("the same binary again: %s", why)
	}
	install("tail")
	swapped := start("-f", "/dev/null")
	if why := tf.Check("/proc/"+strconv.Itoa(swapped.Process.Pid)+"/exe", bin); !strings.Contains(why, "SHA-256 changed") {
		t.Errorf("a binary swapped under the same path: %q", why)
	}
	if why := tf.Check("/proc/"+strconv.Itoa(first.Process.Pid)+"/exe", bin); why != "" {
		t.Errorf("the first process, still running the first binary: %s", why)
	}
}
