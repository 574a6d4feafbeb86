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

// FuzzHookCodex: whatever bytes arrive on stdin, warden hook codex exits 0
// with one JSON object in a shape Codex's output parser accepts, or 2 with
// a reason on stderr and nothing on stdout. Any other status, or an answer
// Codex would call invalid, lets Codex run the tool.
func FuzzHookCodex(f *testing.F) {
	seedPayloads(f, "../adapter/codex/testdata/payloads")
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","cwd":"/","tool_input":{"command":"*** Begin Patch\n*** Delete File: /proc/self/mem\n*** End Patch"}}`))
	f.Add([]byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","cwd":"/tmp","tool_input":{"command":"'/x/warden' run --no-approver --project '/tmp' --audit-json '/tmp/runs/a.json' -- bash -c 'ls'"}}`))
	fuzzHook(f, "codex", checkCodexShape)
}

// FuzzHookGemini: the same for warden hook gemini and Gemini CLI's
// BeforeTool answer.
func FuzzHookGemini(f *testing.F) {
	seedPayloads(f, "../adapter/gemini/testdata/payloads")
	f.Add([]byte(`{"hook_event_name":"BeforeTool","tool_name":"grep_search","cwd":"/","tool_input":{"pattern":"x","dir_path":"/proc/self"}}`))
	f.Add([]byte(`{"hook_event_name":"BeforeTool","tool_name":"web_fetch","cwd":"/","tool_input":{"prompt":"http://[::1 https://a.example/%zz"}}`))
	fuzzHook(f, "gemini", checkGeminiShape)
}

func seedPayloads(f *testing.F, dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		f.Fatalf("no seed payloads in %s", dir)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func fuzzHook(f *testing.F, adapter string, check func(t *testing.T, out []byte)) {
	state := f.TempDir()
	os.Setenv("HOME", state)
	os.Setenv("XDG_CACHE_HOME", filepath.Join(state, "cache"))
	os.Unsetenv("WARDEN_MANAGED_POLICY")
	f.Fuzz(func(t *testing.T, data []byte) {
		var stdout, stderr bytes.Buffer
		cli.Stdin, cli.Stdout, cli.Stderr = bytes.NewReader(data), &stdout, &stderr
		defer func() { cli.Stdin, cli.Stdout, cli.Stderr = os.Stdin, os.Stdout, os.Stderr }()
		args := []string{"hook", adapter}
		switch len(data) % 3 {
		case 1:
			args = append(args, "--wrap")
		case 2:
			args = append(args, "--headless")
		}
		switch code := cli.Run(context.Background(), args); code {
		case 0:
			check(t, stdout.Bytes())
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
			t.Fatalf("exit %d for %q: %s would run the tool", code, data, adapter)
		}
	})
}

// checkCodexShape checks an answer against codex-rs/hooks'
// output_parser.rs: {} (no opinion), a PreToolUse deny with a reason or
// allow with updatedInput {command}, a PermissionRequest deny with a
// message, a PostToolUse additionalContext. Never ask.
func checkCodexShape(t *testing.T, out []byte) {
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
	var spec map[string]json.RawMessage
	if err := json.Unmarshal(ans["hookSpecificOutput"], &spec); err != nil {
		t.Fatalf("hookSpecificOutput: %v: %s", err, out)
	}
	str := func(k string) string {
		var s string
		if raw, ok := spec[k]; ok && json.Unmarshal(raw, &s) != nil {
			t.Fatalf("%s is not a string: %s", k, out)
		}
		return s
	}
	keys := func(allowed ...string) {
		for k := range spec {
			ok := false
			for _, a := range allowed {
				ok = ok || k == a
			}
			if !ok {
				t.Fatalf("key %q Codex rejects: %s", k, out)
			}
		}
	}
	switch str("hookEventName") {
	case "PreToolUse":
		keys("hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput")
		switch str("permissionDecision") {
		case "deny":
			if str("permissionDecisionReason") == "" || spec["updatedInput"] != nil {
				t.Fatalf("deny without a reason, or with updatedInput: %s", out)
			}
		case "allow":
			var in map[string]any
			if json.Unmarshal(spec["updatedInput"], &in) != nil {
				t.Fatalf("allow without updatedInput: %s", out)
			}
			if _, ok := in["command"].(string); !ok {
				t.Fatalf("updatedInput without a command: %s", out)
			}
		default:
			t.Fatalf("permissionDecision %q: %s", str("permissionDecision"), out)
		}
	case "PermissionRequest":
		keys("hookEventName", "decision")
		var d map[string]any
		if json.Unmarshal(spec["decision"], &d) != nil || len(d) != 2 || d["behavior"] != "deny" || d["message"] == "" {
			t.Fatalf("PermissionRequest answer: %s", out)
		}
	case "PostToolUse":
		keys("hookEventName", "additionalContext")
		if str("additionalContext") == "" {
			t.Fatalf("PostToolUse answer without additionalContext: %s", out)
		}
	default:
		t.Fatalf("hookEventName %q: %s", str("hookEventName"), out)
	}
}

// checkGeminiShape checks an answer against Gemini CLI's BeforeTool
// output (hooks/types.ts): decision allow, ask (with a reason) or deny
// (with a reason), and tool_input {command} only on allow or ask.
func checkGeminiShape(t *testing.T, out []byte) {
	t.Helper()
	var ans struct {
		Decision           string          `json:"decision"`
		Reason             string          `json:"reason"`
		SystemMessage      string          `json:"systemMessage"`
		HookSpecificOutput json.RawMessage `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		t.Fatalf("stdout is not a BeforeTool answer: %v: %q", err, out)
	}
	switch ans.Decision {
	case "allow":
		if ans.Reason != "" {
			t.Fatalf("allow with a reason: %s", out)
		}
	case "ask":
		if ans.Reason == "" || ans.SystemMessage == "" {
			t.Fatalf("ask without a reason: %s", out)
		}
	case "deny":
		if ans.Reason == "" || ans.HookSpecificOutput != nil {
			t.Fatalf("deny without a reason, or with tool_input: %s", out)
		}
	default:
		t.Fatalf("decision %q: %s", ans.Decision, out)
	}
	if ans.HookSpecificOutput != nil {
		var spec struct {
			HookEventName string         `json:"hookEventName"`
			ToolInput     map[string]any `json:"tool_input"`
		}
		if json.Unmarshal(ans.HookSpecificOutput, &spec) != nil || spec.HookEventName != "BeforeTool" || len(spec.ToolInput) != 1 {
			t.Fatalf("hookSpecificOutput: %s", out)
		}
		if _, ok := spec.ToolInput["command"].(string); !ok {
			t.Fatalf("tool_input without a command: %s", out)
		}
	}
}
