// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"os"
	"testing"
)

// TestMain lets the test binary serve as the sandbox init, since [Run]
// re-executes /proc/self/exe, and as the other processes the tests of a
// warm sandbox need (helperMode).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == InitArg {
		Init()
	}
	if code, ok := helperMode(m); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

func TestResultStatus(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    Result
		want int
	}{
		{"exit 0", Result{}, 0},
		{"exit 3", Result{ExitCode: 3}, 3},
		{"SIGKILL", Result{ExitCode: -1, Signal: 9}, 137},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Status(); got != tt.want {
				t.Errorf("Status() = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestHomeMasks(t *testing.T) {
	got := HomeMasks("/home/u")
	for _, want := range []string{"/home/u/.ssh", "/home/u/.gnupg", "/home/u/.aws", "/home/u/.netrc",
		"/home/u/.git-credentials", "/home/u/.docker/config.json", "/home/u/.kube", "/home/u/.config/gh/hosts.yml",
		"/home/u/.docker", "/home/u/.npmrc", "/home/u/.pypirc", "/home/u/.config/gcloud", "/home/u/.vault-token",
		"/home/u/.gem/credentials", "/home/u/.config/hub", "/home/u/.bash_history", "/home/u/.zsh_history",
		"/home/u/.local/share/fish/fish_history", "/home/u/.python_history", "/home/u/.psql_history"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("HomeMasks lacks %s; got %q", want, got)
		}
	}
	if HomeMasks("") != nil {
		t.Error("HomeMasks(\"\") is not empty")
	}
}
