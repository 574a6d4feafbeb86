// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/adapter/mcp"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/hook"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
)

// govTarget is a governance path, relative to the project (P/) or the
// home (H/) or absolute, and whether the floor denies it (Warden's own)
// or asks.
type govTarget struct {
	path string
	own  bool
}

var govTargets = []govTarget{
	{"P/.claude/settings.json", false},
	{"P/.claude/settings.local.json", false},
	{"P/.claude/commands/x.md", false},
	{"P/.codex/config.toml", false},
	{"P/.codex/hooks.json", false},
	{"P/.gemini/settings.json", false},
	{"P/.cursor/mcp.json", false},
	{"P/.windsurf/rules.md", false},
	{"P/.continue/config.yaml", false},
	{"P/.mcp.json", false},
	{"P/.git/hooks/pre-commit", false},
	{"P/.git/config", false},
	{"P/.git/info/attributes", false},
	{"P/.husky/pre-commit", false}, // core.hooksPath
	{"P/.vscode/tasks.json", false},
	{"P/.idea/workspace.xml", false},
	{"P/.zed/tasks.json", false},
	{"P/app.code-workspace", false},
	{"P/.devcontainer/devcontainer.json", false},
	{"P/.envrc", false},
	{"P/sub/.envrc", false},
	{"P/.github/hooks/session.json", false},
	{"P/.opencode/plugins/x.ts", false},
	{"P/.kiro/settings/mcp.json", false},
	{"P/sub/.nvimrc", false},
	{"P/sub/.exrc", false},
	{"P/mise.toml", false},
	{"P/.dir-locals.el", false},
	{"P/.warden/policy.yaml", true},
	{"H/.bashrc", false},
	{"H/.profile", false},
	{"H/.zshrc", false},
	{"H/.bash_profile", false},
	{"H/.config/fish/config.fish", false},
	{"H/.ssh/authorized_keys", false},
	{"H/.ssh/config", false},
	{"H/.gitconfig", false},
	{"H/.config/git/config", false},
	{"H/.claude/settings.json", false},
	{"H/.claude.json", false},
	{"H/.codex/config.toml", false},
	{"H/.gemini/settings.json", false},
	{"H/.config/systemd/user/x.service", false},
	{"H/.local/bin/git", false},
	{"H/bin/ls", false},
	{"H/.config/warden/policy.yaml", true},
	{"H/.local/state/warden/warden.db", true},
	{"/var/spool/cron/crontabs/u", false},
}

// govSituation is where the agent runs: the project a repository or not,
// the home a repository (dotfiles) or not, the agent started in the
// project, the home or the root.
type govSituation struct {
	name             string
	repo, homeRepo   bool
	startHome, start string // "project", "home" or "/"
}

var govSituations = []govSituation{
	{name: "repository", repo: true, start: "project"},
	{name: "no repository", start: "project"},
	{name: "home is a repository", repo: true, homeRepo: true, start: "project"},
	{name: "started in the home", repo: true, homeRepo: true, start: "home"},
	{name: "started in /", repo: true, start: "/"},
}

// govTool is one tool of one agent writing, deleting or replacing path:
// the payload (or the request, for the MCP server and explain).
type govTool struct {
	name     string
	agent    string                                  // "" for the MCP gate and explain
	payload  func(cwd, path string) map[string]any   // a hook payload
	request  func(cwd, path string) *request.Request // else a request
	absolute bool                                    // takes absolute paths only
}

// shellWrites are the ways a shell command writes, replaces, links over
// or deletes a file; every agent's shell tool is tried with the first
// few, Claude Code's with all.
var shellWrites = []string{"echo x > %s", "mv /tmp/x %s", "rm -f %s", "echo x >> %s", "tee %s < /dev/null",
	"cp /etc/hostname %s", "ln -sf /tmp/x %s", "sed -i s/a/b/ %s", "touch %s", "truncate -s0 %s"}

func shellPayloads(agent, event, tool string, n int) []govTool {
	var out []govTool
	for _, cmd := range shellWrites[:n] {
		out = append(out, govTool{name: agent + " " + tool + " " + strings.Fields(cmd)[0], agent: agent,
			payload: func(cwd, p string) map[string]any {
				return map[string]any{"hook_event_name": event, "session_id": "s", "cwd": cwd, "tool_name": tool,
					"tool_input": map[string]any{"command": fmt.Sprintf(cmd, shellQuote(p))}}
			}})
	}
	return out
}

func govTools() []govTool {
	claude := func(tool string, in func(p string) map[string]any) govTool {
		return govTool{name: "claude-code " + tool, agent: "claude-code", payload: func(cwd, p string) map[string]any {
			return map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": cwd, "tool_name": tool, "tool_input": in(p)}
		}}
	}
	gemini := func(tool string, in func(p string) map[string]any) govTool {
		return govTool{name: "gemini " + tool, agent: "gemini", payload: func(cwd, p string) map[string]any {
			return map[string]any{"hook_event_name": "BeforeTool", "session_id": "s", "cwd": cwd, "tool_name": tool, "tool_input": in(p)}
		}}
	}
	fs, _ := mcp.Builtin("filesystem")
	mcpTool := func(tool string, args func(p string) map[string]any) govTool {
		return govTool{name: "mcp filesystem " + tool, absolute: true, request: func(cwd, p string) *request.Request {
			raw := map[string]json.RawMessage{}
			for k, v := range args(p) {
				raw[k], _ = json.Marshal(v)
			}
			req, err := fs.Request("filesystem", tool, raw)
			if err != nil {
				return &request.Request{Tool: "invalid: " + err.Error()}
			}
			return req
		}}
	}
	tools := []govTool{
		claude("Write", func(p string) map[string]any {
			return map[string]any{"file_path": p, "content": "{\"disableAllHooks\":true}"}
		}),
		claude("Edit", func(p string) map[string]any {
			return map[string]any{"file_path": p, "old_string": "a", "new_string": "b", "replace_all": false}
		}),
		claude("MultiEdit", func(p string) map[string]any {
			return map[string]any{"file_path": p, "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}
		}),
		claude("NotebookEdit", func(p string) map[string]any { return map[string]any{"notebook_path": p, "new_source": "x"} }),
		{name: "codex apply_patch add", agent: "codex", payload: func(cwd, p string) map[string]any {
			return map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "1", "cwd": cwd, "tool_name": "apply_patch",
				"tool_input": map[string]any{"command": "*** Begin Patch\n*** Add File: " + p + "\n+x\n*** End Patch\n"}}
		}},
		{name: "codex apply_patch delete", agent: "codex", payload: func(cwd, p string) map[string]any {
			return map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "1", "cwd": cwd, "tool_name": "apply_patch",
				"tool_input": map[string]any{"command": "*** Begin Patch\n*** Delete File: " + p + "\n*** End Patch\n"}}
		}},
		{name: "codex apply_patch move", agent: "codex", payload: func(cwd, p string) map[string]any {
			return map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "1", "cwd": cwd, "tool_name": "apply_patch",
				"tool_input": map[string]any{"command": "*** Begin Patch\n*** Update File: /tmp/x\n*** Move to: " + p + "\n@@\n-a\n+b\n*** End Patch\n"}}
		}},
		gemini("write_file", func(p string) map[string]any { return map[string]any{"file_path": p, "content": "x"} }),
		gemini("replace", func(p string) map[string]any {
			return map[string]any{"file_path": p, "old_string": "a", "new_string": "b"}
		}),
		mcpTool("write_file", func(p string) map[string]any { return map[string]any{"path": p, "content": "x"} }),
		mcpTool("edit_file", func(p string) map[string]any {
			return map[string]any{"path": p, "edits": []any{map[string]any{"oldText": "a", "newText": "b"}}}
		}),
		mcpTool("move_file", func(p string) map[string]any { return map[string]any{"source": "/tmp/x", "destination": p} }),
		mcpTool("create_directory", func(p string) map[string]any { return map[string]any{"path": p} }),
		{name: "explain write_file", request: func(cwd, p string) *request.Request {
			return &request.Request{Tool: "write_file", Path: &p, Cwd: cwd}
		}},
		{name: "explain delete_file", request: func(cwd, p string) *request.Request {
			return &request.Request{Tool: "delete_file", Path: &p, Cwd: cwd}
		}},
	}
	tools = append(tools, shellPayloads("claude-code", "PreToolUse", "Bash", len(shellWrites))...)
	tools = append(tools, shellPayloads("codex", "PreToolUse", "Bash", 3)...)
	tools = append(tools, shellPayloads("gemini", "BeforeTool", "run_shell_command", 3)...)
	return tools
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// spellings are the ways of naming the target t from cwd: absolute,
// relative, through "..", "//" and "/./", through a link planted in the
// directory the agent writes in, and in another case.
func spellings(t *testing.T, cwd, target, plant string) map[string]string {
	dir, base := filepath.Dir(target), filepath.Base(target)
	out := map[string]string{
		"absolute": target,
		"dotdot":   filepath.Join(dir, "..", filepath.Base(dir)) + "/x/../" + base,
		"slashes":  strings.Replace(dir, "/", "//", 2) + "/./" + base,
		"case":     dir + "/" + strings.ToUpper(base),
	}
	if dir == "/" {
		out["dotdot"] = target
	}
	if rel, err := filepath.Rel(cwd, target); err == nil && cwd != "/" {
		out["relative"] = rel
	}
	// The link: a directory link planted where the agent writes,
	// pointing at the target's directory.
	h := fnv.New32a()
	h.Write([]byte(target))
	link := filepath.Join(plant, fmt.Sprintf("lnk%x", h.Sum32()))
	if _, err := os.Lstat(link); err != nil {
		if err := os.Symlink(dir, link); err != nil {
			t.Fatal(err)
		}
	}
	out["planted link"] = link + "/" + base
	return out
}

// TestGovernanceFloor: every governance path, in every spelling, from
// every tool of every adapter, the MCP gateway and explain, in a project
// that is a repository or not, with a home that is a repository, and
// started in the home and at the root, is at least asked about, and
// Warden's own are denied; nothing reaches allow.
func TestGovernanceFloor(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("requires git to make the repositories: not found")
	}
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	tools := govTools()
	for _, sit := range govSituations {
		t.Run(sit.name, func(t *testing.T) {
			t.Parallel()
			govSituationFloor(t, sit, tools, now)
		})
	}
}

func govSituationFloor(t *testing.T, sit govSituation, tools []govTool, now time.Time) {
	cases := 0
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, project := filepath.Join(root, "home"), filepath.Join(root, "home", "src", "p")
	os.MkdirAll(filepath.Join(project, "sub"), 0o755)
	if sit.homeRepo {
		gitInit(t, home)
	}
	if sit.repo {
		gitInit(t, project)
		run(t, project, "git", "config", "core.hooksPath", ".husky")
	}
	p, err := config.Load("", config.Options{Home: home,
		Own:  []string{filepath.Join(home, ".config", "warden"), filepath.Join(home, ".local", "state", "warden")},
		PATH: filepath.Join(home, ".local", "bin") + ":/usr/bin:/bin"})
	if err != nil {
		t.Fatal(err)
	}
	cwd := map[string]string{"project": project, "home": home, "/": "/"}[sit.start]
	plant := cwd
	if cwd == "/" {
		plant = project // the agent cannot plant in /; it plants where it can
	}
	for _, tg := range govTargets {
		if tg.path == "P/.husky/pre-commit" && !sit.repo {
			continue // a hooks directory only a repository names
		}
		target := tg.path
		switch {
		case strings.HasPrefix(target, "P/"):
			target = filepath.Join(project, target[2:])
		case strings.HasPrefix(target, "H/"):
			target = filepath.Join(home, target[2:])
		}
		for spelling, path := range spellings(t, cwd, target, plant) {
			for _, tool := range tools {
				if tool.absolute && !filepath.IsAbs(path) {
					continue
				}
				cases++
				d := govDecide(t, p, tool, cwd, path, home, now)
				name := fmt.Sprintf("%s: %s writes %s (%s: %s)", sit.name, tool.name, tg.path, spelling, path)
				switch {
				case d.Verdict == action.Allow:
					t.Errorf("%s: allowed by %s: %s", name, d.Rule, d.Reason)
				case tg.own && d.Verdict != action.Deny:
					t.Errorf("%s: %s by %s, want deny: %s", name, d.Verdict, d.Rule, d.Reason)
				case d.Rule != policy.RuleGovernance && d.Rule != "floor:sensitive-path" && d.Rule != "mcp:invalid-call" &&
					!strings.HasPrefix(d.Rule, "adapter:"):
					t.Errorf("%s: %s by %s, want the floor's governance rule: %s", name, d.Verdict, d.Rule, d.Reason)
				}
			}
		}
	}
	t.Logf("%s: %d tool calls judged", sit.name, cases)
}

// govDecide judges one call as the hook (or the gateway, or explain)
// would: the project found as Decide finds it.
func govDecide(t *testing.T, p *config.Policy, tool govTool, cwd, path, home string, now time.Time) policy.Decision {
	t.Helper()
	project := gitindex.Project(cwd, home)
	if tool.request != nil {
		req := tool.request(cwd, path)
		if strings.HasPrefix(req.Tool, "invalid: ") {
			return policy.Decision{Verdict: action.Deny, Rule: "mcp:invalid-call", Reason: req.Tool}
		}
		if req.Cwd == "" { // the gateway's
			req.Cwd, req.Project, req.NoProject = cwd, project, project == ""
		}
		_, d, err := p.Decide(req, cwd, policy.Env{Now: now})
		if err != nil {
			return policy.Decision{Verdict: action.Deny, Rule: "mcp:invalid-call", Reason: err.Error()}
		}
		return d
	}
	ag := agent(t, tool.agent)
	c, err := ag.Parse(payload(t, tool.payload(cwd, path)))
	if err == nil {
		err = ag.Translate(c, adapter.Options{Project: project})
	}
	if err != nil {
		return policy.Decision{Verdict: action.Deny, Rule: "adapter:refused", Reason: err.Error()}
	}
	_, d, err := hook.Judge(p, c, now, home)
	if err != nil {
		return policy.Decision{Verdict: action.Deny, Rule: "adapter:refused", Reason: err.Error()}
	}
	return d
}

func gitInit(t *testing.T, dir string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	run(t, dir, "git", "-c", "init.defaultBranch=main", "init", "-q")
}

func run(t *testing.T, dir string, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
}
