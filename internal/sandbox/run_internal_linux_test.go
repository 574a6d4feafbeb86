// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCleanEnv(t *testing.T) {
	t.Setenv("PATH", "relative:/usr/local/go/bin::/usr/bin")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("TERM", "")
	got := cleanEnv(Spec{Home: "/home/u", Cache: "/c", Env: []string{"GOTMPDIR=/mine", "CI=1"}}, true)
	want := []string{
		"PATH=/usr/local/go/bin:/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "USER=nobody",
		"GOTMPDIR=/mine", "XDG_CACHE_HOME=/c", "npm_config_cache=/c/npm", "CI=1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cleanEnv (-want +got):\n%s", diff)
	}
}
