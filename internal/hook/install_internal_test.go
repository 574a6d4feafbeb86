// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

import (
	"testing"
)

// TestIsWardenHook: install recognises its own agent's entries and no
// other's, so installing one agent's hook never removes another's.
func TestIsWardenHook(t *testing.T) {
	for _, tt := range []struct {
		cmd, agent string
		want       bool
	}{
		{"/usr/local/bin/warden hook codex", "codex", true},
		{"'/opt/w d/warden' hook codex --wrap", "codex", true},
		{"/usr/local/bin/warden hook codex", "gemini", false},
		{"/usr/local/bin/warden hook gemini --headless", "gemini", true},
		{"/usr/local/bin/warden hook geminix", "gemini", false},
		{"/usr/local/bin/warden hook claude-code", "codex", false},
		{"/usr/local/bin/warden hook claude-code", "claude-code", true},
		{"warden hook claude-code --wrap --policy '/etc/w.yaml'", "claude-code", true},
		{"'/opt/my tools/warden' hook claude-code", "claude-code", true},
		{"/usr/local/bin/warden hook claude-codex", "claude-code", false},
		{"/usr/local/bin/other-guard hook claude-code", "claude-code", false},
		{"python3 rec.py --shell 'warden hook claude-code'", "claude-code", false},
		{"", "claude-code", false},
	} {
		if got := isWardenHook(tt.cmd, tt.agent); got != tt.want {
			t.Errorf("isWardenHook(%q, %s) = %v, want %v", tt.cmd, tt.agent, got, tt.want)
		}
	}
}

func TestParseSettingsRefuses(t *testing.T) {
	for _, in := range []string{`[]`, `{"a":1,}`, `{"a":1} {}`, `{"a":1,"a":2}`, `// comment` + "\n{}", `"x"`} {
		if _, err := parseSettings([]byte(in)); err == nil {
			t.Errorf("parseSettings(%q) = nil error", in)
		}
	}
	o, err := parseSettings([]byte("  \n"))
	if err != nil || len(o.keys) != 0 {
		t.Errorf("parseSettings(blank) = %v, %v; want {}", o, err)
	}
}
