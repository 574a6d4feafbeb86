// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gemini_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/adapter/gemini"
)

func TestParseRejects(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"empty", ``, "empty payload"},
		{"not json", `{"hook_event_name":`, "payload:"},
		{"array", `[]`, "payload:"},
		{"two objects", `{"hook_event_name":"BeforeTool","tool_name":"read_file","cwd":"/","tool_input":{}} {}`, "unexpected data"},
		{"no event", `{"tool_name":"read_file","cwd":"/","tool_input":{}}`, `no "hook_event_name"`},
		{"before model", `{"hook_event_name":"BeforeModel","tool_name":"read_file","cwd":"/","tool_input":{}}`, `"BeforeModel" is not one Warden answers`},
		{"claude event", `{"hook_event_name":"PreToolUse","tool_name":"read_file","cwd":"/","tool_input":{}}`, `not one Warden answers`},
		{"no tool", `{"hook_event_name":"BeforeTool","cwd":"/","tool_input":{}}`, `no "tool_name"`},
		{"relative cwd", `{"hook_event_name":"BeforeTool","tool_name":"read_file","cwd":".","tool_input":{}}`, "not an absolute path"},
		{"input not object", `{"hook_event_name":"BeforeTool","tool_name":"read_file","cwd":"/","tool_input":[]}`, "not a JSON object"},
		{"mcp_context wrong", `{"hook_event_name":"BeforeTool","tool_name":"x","cwd":"/","tool_input":{},"mcp_context":"github"}`, "payload:"},
		{"not utf-8", "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"\xff\",\"cwd\":\"/\",\"tool_input\":{}}", "not UTF-8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := gemini.Parse([]byte(tt.in))
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
		{"run_shell_command", `{}`, `no "command"`},
		{"run_shell_command", `{"command":"  "}`, `no "command"`},
		{"run_shell_command", `{"command":"ls","dir_path":3}`, `"dir_path" is not a string`},
		{"read_file", `{}`, `no "file_path"`},
		{"read_file", `{"file_path":7}`, `not a string`},
		{"write_file", `{"file_path":"a\u0000b","content":""}`, "NUL"},
		{"replace", `{"old_string":"a"}`, `no "file_path"`},
		{"list_directory", `{}`, `no "dir_path"`},
		{"glob", `{"dir_path":"/x"}`, `no "pattern"`},
		{"grep_search", `{"pattern":"x","dir_path":["a"]}`, "not a string"},
		{"read_many_files", `{}`, `no "include"`},
		{"read_many_files", `{"include":"*.md"}`, "not a list of strings"},
		{"read_many_files", `{"include":[]}`, `empty "include"`},
		{"glob", `{"pattern":"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"}`, "brace alternatives"},
		{"read_many_files", `{"include":["{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"]}`, "brace alternatives"},
		{"web_fetch", `{"prompt":"summarise the docs"}`, "holds no http:// or https:// URL"},
		{"web_fetch", `{"url":"https://x.example"}`, `no "prompt"`},
		{"google_web_search", `{"query":1}`, "not a string"},
	} {
		t.Run(tt.tool+tt.input, func(t *testing.T) {
			p := &gemini.Payload{Event: gemini.BeforeTool, ToolName: tt.tool, Cwd: "/p", ToolInput: json.RawMessage(tt.input)}
			c, err := translate(p, adapter.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || c != nil {
				t.Errorf("Translate(%s %s) = %v, %v; want an error with %q", tt.tool, tt.input, c, err, tt.want)
			}
		})
	}
}

func TestTranslate(t *testing.T) {
	type req struct {
		Tool, Command, URL, Cwd string
		Path                    string
		Paths                   []string
		Recursive               bool
	}
	for _, tt := range []struct {
		tool, input string
		mcp         *gemini.MCPContext
		want        []req
		confirms    bool
	}{
		{"run_shell_command", `{"command":"ls","dir_path":"sub"}`, nil, []req{{Tool: "bash", Command: "ls", Cwd: "/p/sub"}}, true},
		{"run_shell_command", `{"command":"ls","directory":"/abs"}`, nil, []req{{Tool: "bash", Command: "ls", Cwd: "/abs"}}, true},
		{"read_file", `{"file_path":"a.go"}`, nil, []req{{Tool: "read_file", Path: "a.go", Cwd: "/p"}}, false},
		{"replace", `{"file_path":"/p/a.go","old_string":"x","new_string":"y"}`, nil, []req{{Tool: "edit_file", Path: "/p/a.go", Cwd: "/p"}}, true},
		{"glob", `{"pattern":"/etc/*.conf"}`, nil, []req{{Tool: "glob", Paths: []string{"/p", "/etc"}, Cwd: "/p"}}, false},
		{"list_directory", `{"path":"/q"}`, nil, []req{{Tool: "list_dir", Paths: []string{"/q"}, Cwd: "/p"}}, false},
		{"read_many_files", `{"include":["a.md","~/.aws/**"]}`, nil, []req{{Tool: "read_file", Paths: []string{"/p/a.md", "~/.aws"}, Cwd: "/p", Recursive: true}}, false},
		// A pattern that leaves the search directory (glob.go): Gemini
		// CLI 0.61 listed ~/.ssh for each of these, its own workspace
		// check passed (TestGeminiRealClient, "read tools").
		{"glob", `{"pattern":"*/../../home/.ssh/*"}`, nil, []req{{Tool: "glob", Paths: []string{"/p"}, Cwd: "/p"}, {Tool: "glob", Paths: []string{"/"}, Cwd: "/p", Recursive: true}}, false},
		{"glob", `{"pattern":"{../home/.ssh/*,x}","dir_path":"sub"}`, nil, []req{{Tool: "glob", Paths: []string{"/p/sub", "/p/home/.ssh"}, Cwd: "/p"}}, false},
		{"glob", `{"pattern":"src/**/*.{ts,tsx}"}`, nil, []req{{Tool: "glob", Paths: []string{"/p", "/p/src"}, Cwd: "/p"}}, false},
		{"read_many_files", `{"include":["src/*/../../.env.local"]}`, nil, []req{{Tool: "read_file", Paths: []string{"/p"}, Cwd: "/p", Recursive: true}}, false},
		{"read_many_files", `{"include":["src/{../.env.local,x}"]}`, nil, []req{{Tool: "read_file", Paths: []string{"/p/.env.local", "/p/src/x"}, Cwd: "/p"}}, false},
		{"grep_search", `{"pattern":"TOKEN=","include_pattern":".env*"}`, nil, []req{{Tool: "grep", Paths: []string{"/p"}, Cwd: "/p", Recursive: true}}, false},
		{"web_fetch", `{"prompt":"compare https://a.example/x, and (https://b.example/y)."}`, nil, []req{{Tool: "web_fetch", URL: "https://a.example/x", Cwd: "/p"}, {Tool: "web_fetch", URL: "https://b.example/y", Cwd: "/p"}}, true},
		{"mcp_my_server_do", `{}`, &gemini.MCPContext{ServerName: "my_server", ToolName: "do"}, []req{{Tool: "mcp:my_server/do", Cwd: "/p"}}, true},
		{"mcp__gh__issue", `{}`, nil, []req{{Tool: "mcp:gh/issue", Cwd: "/p"}}, true},
		{"write_todos", `{"todos":[]}`, nil, []req{{Tool: "gemini:write_todos", Cwd: "/p"}}, false},
	} {
		p := &gemini.Payload{Event: gemini.BeforeTool, ToolName: tt.tool, Cwd: "/p", ToolInput: json.RawMessage(tt.input), MCPContext: tt.mcp}
		c, err := translate(p, adapter.Options{})
		if err != nil {
			t.Fatalf("Translate(%s %s): %v", tt.tool, tt.input, err)
		}
		var got []req
		for _, r := range c.Requests {
			g := req{Tool: r.Tool, Command: r.Command, URL: r.URL, Cwd: r.Cwd, Paths: r.Paths, Recursive: r.Recursive}
			if r.Path != nil {
				g.Path = *r.Path
			}
			got = append(got, g)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Translate(%s %s) requests (-want +got):\n%s", tt.tool, tt.input, diff)
		}
		if c.Asks != tt.confirms {
			t.Errorf("Translate(%s).Asks = %v, want %v", tt.tool, c.Asks, tt.confirms)
		}
	}
}

// TestVerdict: a prompt is an ask only for the tools Gemini CLI confirms
// itself, and only when someone is there.
func TestVerdict(t *testing.T) {
	shell := &adapter.Call{Asks: true}
	read := &adapter.Call{}
	for _, tt := range []struct {
		c        *adapter.Call
		v        action.Verdict
		headless bool
		want     action.Verdict
	}{
		{shell, action.Prompt, false, action.Prompt},
		{shell, action.Prompt, true, action.Deny},
		{read, action.Prompt, false, action.Deny}, // Gemini CLI would not ask
		{read, action.Allow, true, action.Allow},
		{shell, action.Deny, false, action.Deny},
	} {
		if got := adapter.Verdict(tt.v, !tt.headless && tt.c.Asks); got != tt.want {
			t.Errorf("Verdict(asks %v, %v, headless %v) = %v, want %v", tt.c.Asks, tt.v, tt.headless, got, tt.want)
		}
	}
}

func TestAnswerShapes(t *testing.T) {
	for _, tt := range []struct {
		name string
		a    adapter.Answer
		want string
	}{
		{"allow", adapter.Answer{Verdict: action.Allow}, `{"decision":"allow"}`},
		{"allow wrapped", adapter.Answer{Verdict: action.Allow, Input: json.RawMessage(`{"command":"w"}`)}, `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"w"}}}`},
		{"ask", adapter.Answer{Verdict: action.Prompt, Reason: "why"}, `{"decision":"ask","reason":"why","systemMessage":"why"}`},
		{"deny", adapter.Answer{Verdict: action.Deny, Reason: "no <x>", Input: json.RawMessage(`{"command":"w"}`)}, `{"decision":"deny","reason":"no <x>"}`},
		{"deny without reason", adapter.Answer{Verdict: action.Deny}, `{"decision":"deny","reason":"Warden denied this call."}`},
	} {
		if got := strings.TrimSpace(string(gemini.Agent{}.Answer(nil, tt.a))); got != tt.want {
			t.Errorf("%s: JSON = %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestWrapRecognised(t *testing.T) {
	w := &adapter.Wrapper{Exe: "/w/warden", Project: "/p"}
	in, _ := json.Marshal(map[string]string{"command": w.Wrap("make", "/p/sub", "")})
	p := &gemini.Payload{Event: gemini.BeforeTool, ToolName: "run_shell_command", Cwd: "/p", ToolInput: in}
	c, err := translate(p, adapter.Options{Wrap: w})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Wrapped || c.Requests[0].Command != "make" || !c.Requests[0].Contained {
		t.Errorf("Translate(wrapped) = %+v", c)
	}
}

// TestHonestyRegistered: the row claims no yes (Gemini CLI runs tools
// outside the matcher), and each row that says what the real client did
// names the version and the test that proves it.
func TestHonestyRegistered(t *testing.T) {
	for _, h := range adapter.Matrix() {
		if h.Adapter != "warden hook gemini" {
			continue
		}
		if h.InterceptsCalls.Level == adapter.Yes || h.Sandboxes.Level == adapter.Yes {
			t.Errorf("gemini claims yes, though Gemini CLI runs tools outside the matcher: %+v", h)
		}
		for name, c := range map[string]adapter.Capability{"intercepts calls": h.InterceptsCalls, "sandboxes": h.Sandboxes} {
			if !strings.Contains(c.Note, "Gemini CLI 0.61.0") || !strings.Contains(c.Note, "proven") {
				t.Errorf("%s: the row does not name the client version it was proven against: %q", name, c.Note)
			}
		}
		if n := h.InterceptsCalls.Note; !strings.Contains(n, "TestGeminiRealClient") || !strings.Contains(n, "unverified") {
			t.Errorf("intercepts calls: the row names no test, or claims tools no test exercises: %q", n)
		}
		return
	}
	t.Error("no honesty row for warden hook gemini")
}

// translate runs the agent's translation of a payload, as the hook does
// after parsing it.
func translate(p *gemini.Payload, opt adapter.Options) (*adapter.Call, error) {
	c := &adapter.Call{Event: p.Event, Tool: p.ToolName, Cwd: p.Cwd, Session: p.SessionID, Payload: p}
	if err := (gemini.Agent{}).Translate(c, opt); err != nil {
		return nil, err
	}
	return c, nil
}
