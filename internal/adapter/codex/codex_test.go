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
		{"Bash", `{"command":"ls","Command":"rm -rf ~"}`, `the keys "command" and "Command" differ only in case`},
		{"Bash", `{"Command":"rm -rf ~"}`, `"Command" is "command" in another case`},
		{"Bash", `{"command":"cat patch.txt | apply_patch"}`, "standard input Warden cannot see"},
		{"Bash", `{"command":"apply_patch \"$P\""}`, "known only when the command runs"},
		{"Bash", `{"command":"cd ~/x && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF"}`, "home directory"},
		{"Bash", `{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ~/../x\n+x\n*** End Patch\nEOF"}`, "leaves the home directory"},
		{"apply_patch", `{}`, `no "command"`},
		{"apply_patch", `{"command":"--- a/x\n+++ b/x\n"}`, `the first line of the patch must be "*** Begin Patch"`},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: x\n+y\n"}`, `the last line of the patch must be "*** End Patch"`},
		{"apply_patch", `{"command":"*** Begin Patch\n*** End Patch"}`, "touches no file"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: \n*** End Patch"}`, "is not a file header"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Update File: a\n*** Move to: \n@@\n-x\n*** End Patch"}`, "a file header with no path"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Move to: y\n*** End Patch"}`, "is not a file header"},
		{"apply_patch", `{"command":"*** Begin Patch\n+orphan\n*** Add File: x\n*** End Patch"}`, "is not a file header"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Delete File: a\ngarbage\n*** End Patch"}`, `patch line 3: "garbage" is not a file header`},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: a\n+x\n\n*** Delete File: b\n*** End Patch"}`, `patch line 4: "" is not a file header`},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Update File: a\n*** End Patch"}`, "has no change"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Update File: a\n@@\n-x\nstray\n*** End Patch"}`, `"stray" where a change starting with @@ was expected`},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch"}`, "a change with no lines"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Delete File: a\u0000b\n*** End Patch"}`, "NUL"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Delete File: a\n*** End Patch","Command":"*** Begin Patch\n*** Delete File: ~/.bashrc\n*** End Patch"}`, "differ only in case"},
		{"view_image", `{}`, `no "path"`},
		{"view_image", `{"path":3}`, `"path" is not a string`},
		{"view_image", `{"path":"a.png","Path":"/home/ada/.ssh/k.png"}`, "differ only in case"},
		{"view_image", `{"path":"~/../x.png"}`, "leaves the home directory"},
		{"view_image", `{"path":"a\u0000b"}`, "NUL"},
		{"spawn_agent", `{"items":{}}`, "items"},
		{"spawn_agent", `{"items":[{"type":"local_image","path":3}]}`, "is not a string"},
		{"spawn_agent", `{"items":[{"type":"local_image","path":""}]}`, "items[0] has an empty path"},
		{"spawn_agent", `{"items":[{"type":"local_image","path":"a.png","Path":"/home/ada/.ssh/k.png"}]}`, "differ only in case"},
		{"multi_agent_v1send_input", `{"target":"a","items":[{"type":"local_image","path":"~/../k.png"}]}`, "leaves the home directory"},
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
		{"request_user_input", "codex:request_user_input"},
		{"multi_agent_v1wait_agent", "codex:multi_agent_v1wait_agent"},
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

// TestParsePatch: the files a patch touches, as Codex's parser reads
// them (codex-rs/apply-patch/src/parser.rs).
func TestParsePatch(t *testing.T) {
	for _, tt := range []struct {
		name, patch string
		want        []codex.Change
	}{
		{"every op", "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.go\n@@ func f() {\n-1\n+2\n*** End of File\n*** Delete File: c.go\n*** Update File: d.go\n*** Move to: e/d.go\n@@\n-x\n+y\n*** End Patch\n",
			[]codex.Change{{Op: codex.Add, Path: "a.txt"}, {Op: codex.Update, Path: "b.go"}, {Op: codex.Delete, Path: "c.go"}, {Op: codex.Update, Path: "d.go", MoveTo: "e/d.go"}}},
		{"crlf and blank edges", "\n*** Begin Patch\r\n*** Delete File: /abs/x\r\n*** End Patch\r\n\n", []codex.Change{{Op: codex.Delete, Path: "/abs/x"}}},
		{"a header-like content line is content", "*** Begin Patch\n*** Add File: a\n+*** Delete File: b\n*** End Patch", []codex.Change{{Op: codex.Add, Path: "a"}}},
		// Headers are trimmed: an indented header after an Add File's
		// content is the next file, not content.
		{"indented header", "*** Begin Patch\n*** Add File: a\n+x\n   *** Add File: /etc/cron.d/x  \n+y\n*** End Patch", []codex.Change{{Op: codex.Add, Path: "a"}, {Op: codex.Add, Path: "/etc/cron.d/x"}}},
		{"padded markers", "  *** Begin Patch  \n\t*** Delete File: a\n *** End Patch ", []codex.Change{{Op: codex.Delete, Path: "a"}}},
		// The path is the rest of the trimmed line: a second space is
		// part of it. Move to is not trimmed.
		{"path keeps inner space", "*** Begin Patch\n*** Delete File:  a\n*** End Patch", []codex.Change{{Op: codex.Delete, Path: " a"}}},
		{"move keeps trailing space", "*** Begin Patch\n*** Update File: a\n*** Move to: b \n@@\n-x\n*** End Patch", []codex.Change{{Op: codex.Update, Path: "a", MoveTo: "b "}}},
		// An indented Move to is a context line of the first change.
		{"indented move is context", "*** Begin Patch\n*** Update File: a\n *** Move to: b\n+x\n*** End Patch", []codex.Change{{Op: codex.Update, Path: "a"}}},
		{"first change without @@", "*** Begin Patch\n*** Update File: a\n import x\n+y\n*** End Patch", []codex.Change{{Op: codex.Update, Path: "a"}}},
		{"blank lines between changes", "*** Begin Patch\n*** Update File: a\n@@\n-x\n\n   \n@@ f\n@@ g\n+y\n*** End Patch", []codex.Change{{Op: codex.Update, Path: "a"}}},
		{"heredoc wrapped", "<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n", []codex.Change{{Op: codex.Delete, Path: "a"}}},
		{"empty add", "*** Begin Patch\n*** Add File: a\n*** Delete File: b\n*** End Patch", []codex.Change{{Op: codex.Add, Path: "a"}, {Op: codex.Delete, Path: "b"}}},
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
	type req struct {
		Tool  string
		Paths []string
	}
	for _, tt := range []struct {
		tool, command string
		want          []req // after the shell command's own request
	}{
		{"apply_patch", "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n*** Add File: c\n+x\n*** Delete File: d\n*** End Patch",
			[]req{{"write_file", []string{"/p/b", "/p/c"}}, {"delete_file", []string{"/p/a", "/p/d"}}}},
		// Codex removes . and .. lexically; older versions joined the
		// path as it is: both are judged. ~/ is the home directory (and a
		// directory named ~ to older versions).
		{"apply_patch", "*** Begin Patch\n*** Add File: link/../x\n+x\n*** Add File: ~/.bashrc\n+x\n*** Add File: /etc/./hosts\n+x\n*** End Patch",
			[]req{{"write_file", []string{"/p/x", "/p/link/../x", "~/.bashrc", "/p/~/.bashrc", "/etc/hosts", "/etc/./hosts"}}}},
		// A shell command that runs apply_patch after cd judges the patch
		// in that directory, read both ways.
		{"Bash", "cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x\n+y\n*** End Patch\nEOF",
			[]req{{"write_file", []string{"/p/sub/x"}}}},
		{"Bash", "apply_patch<<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF",
			[]req{{"delete_file", []string{"/p/x"}}}},
		// The shell tool's argv, joined: bash -lc 'SCRIPT'.
		{"Bash", "bash -lc 'apply_patch <<'\"'\"'EOF'\"'\"'\n*** Begin Patch\n*** Add File: x\n+y\n*** End Patch\nEOF\n'",
			[]req{{"write_file", []string{"/p/x"}}}},
		{"Bash", "apply_patch '*** Begin Patch\n*** Add File: x\n+y\n*** End Patch'",
			[]req{{"write_file", []string{"/p/x"}}}},
		// Not Codex's form: bash runs the apply_patch program.
		{"Bash", "echo start; cd /tmp/w && printf '%s' '*** Begin Patch\n*** Add File: x\n+y\n*** End Patch' | apply_patch",
			[]req{{"write_file", []string{"/tmp/w/x"}}}},
		{"Bash", "sudo -u ada apply_patch --preserve-crlf '*** Begin Patch\n*** Delete File: y\n*** End Patch'",
			[]req{{"delete_file", []string{"/p/y"}}}},
		// Codex reads the heredoc as written; bash would expand it. A
		// <<- heredoc's tabs: Codex keeps them, bash removes them.
		{"Bash", "apply_patch <<-'EOF'\n\t*** Begin Patch\n\t*** Update File: a\n\t*** Move to: b\n\t@@\n\t-x\n\t*** End Patch\n\tEOF",
			nil},
		{"Bash", "apply_patch --help", nil},
	} {
		in, _ := json.Marshal(map[string]string{"command": tt.command})
		p := &codex.Payload{Event: codex.PreToolUse, ToolName: tt.tool, Cwd: "/p", ToolInput: in}
		c, err := translate(p, adapter.Options{})
		if tt.want == nil {
			if err == nil {
				t.Errorf("Translate(%s %q) = %+v, want an error", tt.tool, tt.command, c.Requests)
			}
			continue
		}
		if err != nil {
			t.Errorf("Translate(%s %q): %v", tt.tool, tt.command, err)
			continue
		}
		var got []req
		for _, r := range c.Requests {
			if r.Tool != "bash" {
				got = append(got, req{r.Tool, r.Paths})
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Translate(%s %q) requests (-want +got):\n%s", tt.tool, tt.command, diff)
		}
	}
}

// TestReadRequests: view_image reads its file; a sub-agent tool is a
// delegation, and a read of every file its input items name, which Codex
// reads and gives the sub-agent's model. Paths resolve as a patch's do.
func TestReadRequests(t *testing.T) {
	type req struct {
		Tool  string
		Paths []string
	}
	for _, tt := range []struct {
		tool, input string
		want        []req
	}{
		{"view_image", `{"path":"shot.png"}`, []req{{"read_file", []string{"/p/shot.png"}}}},
		// Codex joins the path to the turn's directory; ~ is read as
		// the home directory too.
		{"view_image", `{"path":"~/.ssh/key.png"}`, []req{{"read_file", []string{"~/.ssh/key.png", "/p/~/.ssh/key.png"}}}},
		{"view_image", `{"path":"/etc/../root/x.png"}`, []req{{"read_file", []string{"/root/x.png", "/etc/../root/x.png"}}}},
		{"spawn_agent", `{"message":"Follow the README."}`, []req{{"delegate_task", nil}}},
		{"multi_agent_v1spawn_agent", `{"fork_context":true}`, []req{{"delegate_task", nil}}},
		{"spawn_agent", `{"items":[{"type":"text","text":"look"},{"type":"local_image","path":"/home/ada/.ssh/k.png"},{"type":"skill","name":"s","path":"s/SKILL.md"}]}`,
			[]req{{"delegate_task", nil}, {"read_file", []string{"/home/ada/.ssh/k.png", "/p/s/SKILL.md"}}}},
		// A path that looks like a URL is a path all the same: a
		// directory named app: in the project would make it one.
		{"send_input", `{"target":"a","items":[{"type":"mention","name":"m","path":"app://x"}]}`,
			[]req{{"delegate_task", nil}, {"read_file", []string{"/p/app:/x", "/p/app://x"}}}},
		{"multi_agent_v1send_input", `{"target":"a","message":"go on"}`, []req{{"delegate_task", nil}}},
	} {
		p := &codex.Payload{Event: codex.PreToolUse, ToolName: tt.tool, Cwd: "/p", ToolInput: json.RawMessage(tt.input)}
		c, err := translate(p, adapter.Options{})
		if err != nil {
			t.Errorf("Translate(%s %s): %v", tt.tool, tt.input, err)
			continue
		}
		var got []req
		for _, r := range c.Requests {
			got = append(got, req{r.Tool, r.Paths})
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Translate(%s %s) requests (-want +got):\n%s", tt.tool, tt.input, diff)
		}
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
