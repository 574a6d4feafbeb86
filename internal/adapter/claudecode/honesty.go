// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode

import "warden.dev/warden/internal/adapter"

// Matcher is the PreToolUse matcher `warden hook install` writes: the
// tools this adapter translates.
const Matcher = "Bash|Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS|WebFetch|WebSearch|mcp__.*"

// Honesty is this adapter's row of the honesty matrix. Each "yes" or
// "partial" is proved by a test against the real Claude Code client
// (internal/cli/hook_integration_test.go).
var Honesty = adapter.Honesty{
	Adapter: "warden hook claude-code",
	FiltersTools: adapter.Capability{Level: adapter.No,
		Note: "a hook cannot change Claude Code's tool list: the model sees every tool, and a call Warden denies is refused when it is made"},
	InterceptsCalls: adapter.Capability{Level: adapter.Yes,
		Note: "every call of Bash, Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep, LS, WebFetch, WebSearch and mcp__* tools, subagents' included, is decided through PreToolUse before it runs, once `warden hook install claude-code` wrote the entry; a session started with hooks disabled (--bare, disableAllHooks) is not"},
	SeesNativeTools: adapter.Capability{Level: adapter.Partial,
		Note: "Claude Code's shell, file and web tools are decided; Task/Agent, TodoWrite, ExitPlanMode, Skill, BashOutput, KillShell and slash commands are not matched, and a background Bash process is judged only when it starts"},
	Sandboxes: adapter.Capability{Level: adapter.Partial,
		Note: "with --wrap, Bash commands run under warden run (containment floor, egress proxy); without it nothing is contained; Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep, LS, WebFetch and WebSearch run in Claude Code's own process, decided but uncontained, and MCP servers run outside Warden"},
}

func init() { adapter.Register(Honesty) }
