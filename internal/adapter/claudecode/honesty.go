// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode

import "warden.dev/warden/internal/adapter"

// Matcher is the PreToolUse matcher `warden hook install` writes: the
// tools this adapter translates.
const Matcher = "Bash|Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS|WebFetch|WebSearch|mcp__.*"

// Honesty is this adapter's row of the honesty matrix. The tests against
// the real Claude Code client (internal/cli/hook_integration_test.go)
// prove interception for Bash, Read and Edit and containment of wrapped
// Bash; Write, NotebookEdit and WebFetch payloads were recorded from the
// same client; the rest is translated from Claude Code's documented
// shapes, and the notes say so.
func (Agent) Honesty() adapter.Honesty { return honesty }

var honesty = adapter.Honesty{
	Adapter: "warden hook claude-code",
	FiltersTools: adapter.Capability{Level: adapter.No,
		Note: "a hook cannot change Claude Code's tool list: the model sees every tool, and a call Warden denies is refused when it is made"},
	InterceptsCalls: adapter.Capability{Level: adapter.Yes,
		Note: "every call of Bash, Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep, LS, WebFetch, WebSearch and mcp__* tools is decided through PreToolUse before it runs, once `warden hook install claude-code` wrote the entry (tested against Claude Code 2.1.197 for Bash, Read and Edit; Glob, Grep, MultiEdit, LS, WebSearch and MCP tools, which that version did not offer in the tests, from their documented shapes); a session started with hooks disabled (--bare, disableAllHooks) is not"},
	SeesNativeTools: adapter.Capability{Level: adapter.Partial,
		Note: "Claude Code's shell, file and web tools are decided; Task/Agent, TodoWrite, ExitPlanMode, Skill, BashOutput, KillShell and slash commands are not matched, and a background Bash process is judged only when it starts"},
	Sandboxes: adapter.Capability{Level: adapter.Partial,
		Note: "with --wrap, Bash commands run under warden run (containment floor, egress proxy); without it nothing is contained; Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep, LS, WebFetch and WebSearch run in Claude Code's own process, decided but uncontained, and MCP servers run outside Warden unless started behind `warden mcp --sandbox`"},
	Proven: &adapter.Proof{Client: "Claude Code 2.1.197",
		Tests: []string{"cli.TestClaudeCodeRealClient", "cli.TestClaudeCodeRealClientNoWrap", "cli.TestClaudeCodeRealClientAsk",
			"cli.TestClaudeCodeRealClientGovernance", "cli.TestClaudeCodeRealClientApproval"},
		What: "the planted-instruction scenario through Bash, Read, Write and Edit, with --wrap and without; the PostToolUseFailure note; an ask answered by the person; edits of its own settings refused; an approval through warden serve; every hook call timed and counted"},
}

// Hooks is what `warden hook install claude-code` writes: the events the
// hook answers, with the matcher of each (post-call notes concern wrapped
// Bash commands only), in ~/.claude/settings.json or the project's
// .claude/settings.json.
func (Agent) Hooks() adapter.Hooks {
	return adapter.Hooks{
		UserFile:    ".claude/settings.json",
		ProjectFile: ".claude/settings.json",
		Events: []adapter.HookEvent{
			{Event: "PreToolUse", Matcher: Matcher, Timeout: 60, Unit: "s", Phase: adapter.Before},
			{Event: "PermissionRequest", Matcher: Matcher, Timeout: 60, Unit: "s", Phase: adapter.Permission},
			{Event: "PostToolUse", Matcher: "Bash", Timeout: 60, Unit: "s", Phase: adapter.After},
			{Event: "PostToolUseFailure", Matcher: "Bash", Timeout: 60, Unit: "s", Phase: adapter.After},
		},
		Handler: adapter.CommandHandler,
	}
}
