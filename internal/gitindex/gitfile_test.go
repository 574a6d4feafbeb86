// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex_test

import (
	"strings"
	"testing"

	"warden.dev/warden/internal/gitindex"
)

func TestParseGitFile(t *testing.T) {
	for _, tt := range []struct {
		data, want, err string
	}{
		{data: "gitdir: /main/.git/worktrees/wt\n", want: "/main/.git/worktrees/wt"},
		{data: "gitdir: ../.git/modules/sub\n", want: "/super/.git/modules/sub"},
		{data: "gitdir:   ../x  \r\n", want: "/super/x"},
		{data: "gitdir: /a/../b", want: "/b"},
		{data: "gitdir:\n", err: "empty"},
		{data: "/main/.git\n", err: "not a"},
		{data: "", err: "not a"},
	} {
		got, err := gitindex.ParseGitFile([]byte(tt.data), "/super/sub")
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseGitFile(%q) = %q, %v; want an error with %q", tt.data, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseGitFile(%q) = %q, %v; want %q", tt.data, got, err, tt.want)
		}
	}
}
