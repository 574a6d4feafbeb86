// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"warden.dev/warden/internal/cli"
)

// FuzzHook: whatever bytes arrive on stdin, warden hook claude-code exits
// 0 with one JSON object in Claude Code's shape on stdout, or 2 with a
// reason on stderr and nothing on stdout. Any other status would let
// Claude Code run the tool. Seeds: the payloads recorded from Claude Code
// 2.1.197 and the constructed ones.
func FuzzHook(f *testing.F) {
	for _, dir := range []string{"../adapter/claudecode/testdata/payloads", "../adapter/claudecode/testdata/constructed"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Grep","cwd":"/","tool_input":{"pattern":"x","path":"/proc/self"}}`))
	f.Add([]byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","cwd":"/tmp","tool_input":{"command":"'/x/warden' run --no-approver --project '/tmp' --audit-json '/tmp/runs/a.json' -- bash -c 'ls'"}}`))
	state := f.TempDir()
	os.Setenv("HOME", state)
	os.Setenv("XDG_CACHE_HOME", filepath.Join(state, "cache"))
	os.Unsetenv("WARDEN_MANAGED_POLICY")
	f.Fuzz(func(t *testing.T, data []byte) {
		var stdout, stderr bytes.Buffer
		cli.Stdin, cli.Stdout, cli.Stderr = bytes.NewReader(data), &stdout, &stderr
		defer func() { cli.Stdin, cli.Stdout, cli.Stderr = os.Stdin, os.Stdout, os.Stderr }()
		args := []string{"hook", "claude-code"}
		if len(data)%2 == 1 {
			args = append(args, "--wrap")
		}
		switch code := cli.Run(context.Background(), args); code {
		case 0:
			checkClaudeShape(t, stdout.Bytes())
			if stderr.Len() != 0 {
				t.Errorf("exit 0 with stderr %q", stderr.String())
			}
		case 2:
			if stdout.Len() != 0 {
				t.Errorf("exit 2 with stdout %q", stdout.String())
			}
			if !bytes.HasPrefix(stderr.Bytes(), []byte("warden: error: ")) {
				t.Errorf("exit 2 without a reason on stderr: %q", stderr.String())
			}
		default:
			t.Fatalf("exit %d for %q: Claude Code would run the tool", code, data)
		}
	})
}

// checkClaudeShape checks an answer against what Claude Code reads.
func checkClaudeShape(t *testing.T, out []byte) {
	t.Helper()
	var ans map[string]json.RawMessage
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("stdout is not a JSON object: %v: %q", err, out)
	}
	if len(ans) == 0 {
		return
	}
	if len(ans) != 1 || ans["hookSpecificOutput"] == nil {
		t.Fatalf("answer has keys other than hookSpecificOutput: %s", out)
	}
	var spec struct {
		HookEventName            string          `json:"hookEventName"`
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		Decision                 *struct {
			Behavior string `json:"behavior"`
			Message  string `json:"message"`
		} `json:"decision"`
		AdditionalContext string `json:"additionalContext"`
	}
	if err := json.Unmarshal(ans["hookSpecificOutput"], &spec); err != nil {
		t.Fatalf("hookSpecificOutput: %v: %s", err, out)
	}
	switch spec.HookEventName {
	case "PreToolUse":
		switch spec.PermissionDecision {
		case "allow", "ask", "deny":
		default:
			t.Fatalf("permissionDecision %q: %s", spec.PermissionDecision, out)
		}
		if spec.PermissionDecisionReason == "" {
			t.Fatalf("no permissionDecisionReason: %s", out)
		}
		if spec.UpdatedInput != nil {
			var in map[string]any
			if spec.PermissionDecision == "deny" || json.Unmarshal(spec.UpdatedInput, &in) != nil {
				t.Fatalf("updatedInput on a deny, or not an object: %s", out)
			}
			if _, ok := in["command"].(string); !ok {
				t.Fatalf("updatedInput without a command: %s", out)
			}
		}
	case "PermissionRequest":
		if spec.Decision == nil || spec.Decision.Behavior != "deny" || spec.Decision.Message == "" {
			t.Fatalf("PermissionRequest answer: %s", out)
		}
	case "PostToolUse", "PostToolUseFailure":
		if spec.AdditionalContext == "" {
			t.Fatalf("PostToolUse answer without additionalContext: %s", out)
		}
	default:
		t.Fatalf("hookEventName %q: %s", spec.HookEventName, out)
	}
}
