// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/adapter/codex"
)

func TestParseRejects(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"empty", ``, "empty payload"},
		{"not json", `{"hook_event_name":`, "payload:"},
		{"array", `[]`, "payload:"},
		{"two objects", `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/","tool_input":{}} {}`, "unexpected data"},
		{"no event", `{"tool_name":"Bash","cwd":"/","tool_input":{}}`, `no "hook_event_name"`},
		{"other event", `{"hook_event_name":"SessionStart","tool_name":"Bash","cwd":"/","tool_input":{}}`, `"SessionStart" is not one Warden answers`},
		{"claude-only event", `{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","cwd":"/","tool_input":{}}`, `not one Warden answers`},
		{"no tool", `{"hook_event_name":"PreToolUse","cwd":"/","tool_input":{}}`, `no "tool_name"`},
		{"relative cwd", `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"x","tool_input":{}}`, "not an absolute path"},
		{"input not object", `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/","tool_input":"ls"}`, "not a JSON object"},
		{"no input", `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/"}`, "not a JSON object"},
		{"transcript not string", `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/","transcript_path":3,"tool_input":{}}`, "payload:"},
		{"not utf-8", "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"\xff\",\"cwd\":\"/\",\"tool_input\":{}}", "not UTF-8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := codex.Parse([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) || p != nil {
				t.Errorf("Parse(%q) = %v, %v; want an error with %q", tt.in, p, err, tt.want)
			}
		})
	}
}

func TestTranslateRejects(t *testing.T) {
	for _, tt := range []struct {
		tool, input, want string
	}{
		{"Bash", `{}`, `no "command"`},
		{"Bash", `{"command":" "}`, `no "command"`},
		{"Bash", `{"command":["bash","-lc","ls"]}`, `"command" is not a string`},
		{"Bash", `{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Frobnicate File: x\n*** End Patch\nEOF"}`, "apply_patch: patch line 2"},
		{"apply_patch", `{}`, `no "command"`},
		{"apply_patch", `{"command":"--- a/x\n+++ b/x\n"}`, `does not start with "*** Begin Patch"`},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: x\n+y\n"}`, `does not end with "*** End Patch"`},
		{"apply_patch", `{"command":"*** Begin Patch\n*** End Patch"}`, "touches no file"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: \n*** End Patch"}`, "no path"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Move to: y\n*** End Patch"}`, "Move to that does not follow"},
		{"apply_patch", `{"command":"*** Begin Patch\n+orphan\n*** Add File: x\n*** End Patch"}`, "before any file header"},
	} {
		t.Run(tt.tool+tt.input, func(t *testing.T) {
			p := &codex.Payload{Event: codex.PreToolUse, ToolName: tt.tool, Cwd: "/p", ToolInput: json.RawMessage(tt.input)}
			c, err := translate(p, adapter.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || c != nil {
				t.Errorf("Translate(%s %s) = %v, %v; want an error with %q", tt.tool, tt.input, c, err, tt.want)
			}
		})
	}
}

func TestToolNames(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"Bash", "bash"},
		{"mcp__github__create_issue", "mcp:github/create_issue"},
		{"mcp__my-srv__do__thing", "mcp:my-srv/do__thing"},
		{"mcp__nope", "codex:mcp__nope"},
		{"view_image", "codex:view_image"},
		{"shell", "codex:shell"}, // the payload says Bash; a raw name is not trusted
	} {
		p := &codex.Payload{Event: codex.PreToolUse, ToolName: tt.name, Cwd: "/p", ToolInput: json.RawMessage(`{"command":"ls"}`)}
		c, err := translate(p, adapter.Options{})
		if err != nil {
			t.Fatalf("Translate(%s): %v", tt.name, err)
		}
		if c.Requests[0].Tool != tt.want {
			t.Errorf("Translate(%s).Requests[0].Tool = %q, want %q", tt.name, c.Requests[0].Tool, tt.want)
		}
	}
}

func TestParsePatch(t *testing.T) {
	for _, tt := range []struct {
		name, patch string
		want        []codex.Change
	}{
		{"every op", "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.go\n@@ func f() {\n-1\n+2\n*** End of File\n*** Delete File: c.go\n*** Update File: d.go\n*** Move to: e/d.go\n@@\n-x\n+y\n*** End Patch\n",
			[]codex.Change{{Op: codex.Add, Path: "a.txt"}, {Op: codex.Update, Path: "b.go"}, {Op: codex.Delete, Path: "c.go"}, {Op: codex.Update, Path: "d.go", MoveTo: "e/d.go"}}},
		{"crlf and blank edges", "\n*** Begin Patch\r\n*** Delete File: /abs/x\r\n*** End Patch\r\n\n", []codex.Change{{Op: codex.Delete, Path: "/abs/x"}}},
		{"a header-like content line is content", "*** Begin Patch\n*** Add File: a\n+*** Delete File: b\n*** End Patch", []codex.Change{{Op: codex.Add, Path: "a"}}},
	} {
		got, err := codex.ParsePatch(tt.patch)
		if err != nil {
			t.Fatalf("%s: ParsePatch: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: ParsePatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestPatchRequests: a patch becomes a write of every file written and a
// delete of every file removed, a moved file being both.
func TestPatchRequests(t *testing.T) {
	in, _ := json.Marshal(map[string]string{"command": "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Add File: c\n+x\n*** Delete File: d\n*** End Patch"})
	p := &codex.Payload{Event: codex.PreToolUse, ToolName: "apply_patch", Cwd: "/p", ToolInput: in}
	c, err := translate(p, adapter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type req struct {
		Tool  string
		Paths []string
	}
	var got []req
	for _, r := range c.Requests {
		got = append(got, req{r.Tool, r.Paths})
	}
	want := []req{{"write_file", []string{"b", "c"}}, {"delete_file", []string{"a", "d"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	// A shell command that runs apply_patch after cd judges the patch in
	// that directory.
	in, _ = json.Marshal(map[string]string{"command": "cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x\n+y\n*** End Patch\nEOF"})
	p = &codex.Payload{Event: codex.PreToolUse, ToolName: "Bash", Cwd: "/p", ToolInput: in}
	if c, err = translate(p, adapter.Options{}); err != nil {
		t.Fatal(err)
	}
	if len(c.Requests) != 2 || c.Requests[1].Tool != "write_file" || c.Requests[1].Cwd != "/p/sub" {
		t.Errorf("cd sub && apply_patch: requests %+v, want bash then write_file in /p/sub", c.Requests)
	}
}

// TestVerdict: Codex's PreToolUse has no ask, so a prompt is a deny
// there; at PermissionRequest it is the person's, unless nobody can
// answer (headless, or Codex's approvals off).
func TestVerdict(t *testing.T) {
	for _, tt := range []struct {
		e        codex.Event
		mode     string
		v        action.Verdict
		headless bool
		want     action.Verdict
	}{
		{codex.PreToolUse, "default", action.Prompt, false, action.Deny}, // no ask at PreToolUse
		{codex.PreToolUse, "default", action.Allow, false, action.Allow},
		{codex.PreToolUse, "default", action.Deny, false, action.Deny},
		{codex.PermissionRequest, "default", action.Prompt, false, action.Prompt},
		{codex.PermissionRequest, "default", action.Prompt, true, action.Deny},
		{codex.PermissionRequest, "bypassPermissions", action.Prompt, false, action.Deny},
		{codex.PermissionRequest, "default", action.Allow, true, action.Allow},
	} {
		p := &codex.Payload{Event: tt.e, PermissionMode: tt.mode, ToolName: "Bash", Cwd: "/p", ToolInput: json.RawMessage(`{"command":"ls"}`)}
		c, err := translate(p, adapter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := adapter.Verdict(tt.v, !tt.headless && c.Asks); got != tt.want {
			t.Errorf("%s, %s, %v, headless %v: verdict %v, want %v", tt.e, tt.mode, tt.v, tt.headless, got, tt.want)
		}
	}
}

// answer is an answer at an event.
type answer struct {
	e codex.Event
	a adapter.Answer
}

// TestAnswerShapes: only the shapes Codex's output parser accepts.
func TestAnswerShapes(t *testing.T) {
	for _, tt := range []struct {
		name string
		a    answer
		want string
	}{
		{"deny", answer{codex.PreToolUse, adapter.Answer{Verdict: action.Deny, Reason: "no <x> & y"}}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no <x> & y"}}`},
		{"deny without reason", answer{codex.PreToolUse, adapter.Answer{Verdict: action.Deny}}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Warden denied this call."}}`},
		{"allow is no opinion", answer{codex.PreToolUse, adapter.Answer{Verdict: action.Allow, Reason: "ok"}}, `{}`},
		{"allow with a rewrite", answer{codex.PreToolUse, adapter.Answer{Verdict: action.Allow, Input: json.RawMessage(`{"command":"w"}`)}}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"w"}}}`},
		{"permission deny", answer{codex.PermissionRequest, adapter.Answer{Verdict: action.Deny, Reason: "r"}}, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"r"}}}`},
		{"permission prompt is the person's", answer{codex.PermissionRequest, adapter.Answer{Verdict: action.Prompt, Reason: "r"}}, `{}`},
		{"permission allow is never given", answer{codex.PermissionRequest, adapter.Answer{Verdict: action.Allow}}, `{}`},
		{"post note", answer{codex.PostToolUse, adapter.Answer{Context: "c"}}, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}`},
		{"post nothing", answer{codex.PostToolUse, adapter.Answer{}}, `{}`},
	} {
		if got := strings.TrimSpace(string(codex.Agent{}.Answer(&adapter.Call{Event: string(tt.a.e)}, tt.a.a))); got != tt.want {
			t.Errorf("%s: JSON = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestWrapRecognised: PostToolUse sees the rewritten command; the call is
// judged as the inner one, contained, with its record.
func TestWrapRecognised(t *testing.T) {
	w := &adapter.Wrapper{Exe: "/w/warden", Project: "/p", AuditDir: "/s/runs"}
	in, _ := json.Marshal(map[string]string{"command": w.Wrap("go test ./...", "/p", "call_1")})
	p := &codex.Payload{Event: codex.PostToolUse, ToolName: "Bash", Cwd: "/p", ToolInput: in}
	c, err := translate(p, adapter.Options{Wrap: w})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Wrapped || c.Audit != "/s/runs/call_1.json" || c.Requests[0].Command != "go test ./..." || !c.Requests[0].Contained {
		t.Errorf("Translate(wrapped) = %+v", c)
	}
}

func TestHonestyRegistered(t *testing.T) {
	for _, h := range adapter.Matrix() {
		if h.Adapter == "warden hook codex" {
			if h.InterceptsCalls.Level == adapter.Yes || h.Sandboxes.Level == adapter.Yes {
				t.Errorf("codex claims yes without a test against the real client: %+v", h)
			}
			return
		}
	}
	t.Error("no honesty row for warden hook codex")
}

// translate runs the agent's translation of a payload, as the hook does
// after parsing it.
func translate(p *codex.Payload, opt adapter.Options) (*adapter.Call, error) {
	c := &adapter.Call{Event: string(p.Event), Tool: p.ToolName, Cwd: p.Cwd, Session: p.SessionID, Payload: p}
	if err := (codex.Agent{}).Translate(c, opt); err != nil {
		return nil, err
	}
	return c, nil
}
