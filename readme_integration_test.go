// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration

package warden_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestReadmeFirstCommand runs the README's first command as a newcomer
// types it, in the repository: it builds warden and runs
// examples/attack.sh under warden run on the embedded defaults. Every
// step is blocked, as seen from outside: ~/.bashrc is unchanged, no git
// hook was planted, and the record names the refused destination and the
// refused system calls.
func TestReadmeFirstCommand(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("requires root, as CI runs the integration tests (as another user it needs unprivileged user namespaces)")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^    \$ (.+)$`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no command line")
	}
	line := string(m[1])
	t.Cleanup(func() { os.Remove("warden"); os.Remove("run.json") })
	home, _ := os.UserHomeDir()
	bashrc := filepath.Join(home, ".bashrc")
	before, beforeErr := os.ReadFile(bashrc)
	cmd := exec.Command("sh", "-c", line)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	t.Logf("%s\n%s", line, out)
	after, afterErr := os.ReadFile(bashrc)
	if string(before) != string(after) || (beforeErr == nil) != (afterErr == nil) {
		t.Errorf("~/.bashrc changed under warden run")
	}
	if _, err := os.Lstat(".git/hooks/post-checkout"); err == nil {
		t.Errorf(".git/hooks/post-checkout was planted")
	}
	var rec struct {
		Network []struct {
			Host    string `json:"host"`
			Port    int    `json:"port"`
			Verdict string `json:"verdict"`
		} `json:"network_attempts"`
		Syscalls []struct {
			Syscall string `json:"syscall"`
		} `json:"blocked_syscalls"`
	}
	b, err := os.ReadFile("run.json")
	if err != nil || json.Unmarshal(b, &rec) != nil {
		t.Fatalf("run.json: %v\n%s", err, b)
	}
	denied := false
	for _, n := range rec.Network {
		denied = denied || n.Host == "exfil.example" && n.Port == 443 && n.Verdict == "deny"
	}
	if _, err := exec.LookPath("curl"); err == nil && !denied {
		t.Errorf("the record has no denied exfil.example:443: %+v", rec.Network)
	}
	var calls []string
	for _, s := range rec.Syscalls {
		calls = append(calls, s.Syscall)
	}
	if _, err := exec.LookPath("strace"); err == nil && !slices.Contains(calls, "ptrace") {
		t.Errorf("the record has no refused ptrace: %v", calls)
	}
}
