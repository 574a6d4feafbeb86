// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

import "warden.dev/warden/internal/adapter"

// Matcher is the matcher `warden hook install codex` writes for
// PreToolUse and PermissionRequest: the tools this adapter translates.
// Codex also matches apply_patch under the aliases Write and Edit.
// view_image and the sub-agent tools that take input items (spawn_agent,
// send_input: 0.171.0 names the latter multi_agent_v1send_input) read
// files in Codex's own process and send them to a model, so they are
// matched too; the other sub-agent tools (wait_agent, close_agent,
// resume_agent) read nothing, and a sub-agent's own calls come to the
// hook as the session's do.
const Matcher = "^(Bash|apply_patch|view_image)$|^mcp__|^(multi_agent_v1)?(spawn_agent|send_input)$"

// Honesty is this adapter's row of the honesty matrix, proven against
// the real Codex CLI 0.171.0 (TestCodexRealClient in internal/cli): its
// shell, apply_patch, MCP and view_image calls, a sub-agent's own calls,
// the files the sub-agent tools hand over, the PostToolUse note, --wrap,
// and Codex's own sandbox modes.
func (Agent) Honesty() adapter.Honesty { return honesty }

var honesty = adapter.Honesty{
	Adapter: "warden hook codex",
	FiltersTools: adapter.Capability{Level: adapter.No,
		Note: "a hook cannot change Codex's tool list: the model sees every tool, and a call Warden denies is refused when it is made"},
	InterceptsCalls: adapter.Capability{Level: adapter.Partial,
		Note: "Bash (Codex's shell, shell_command and exec tools), apply_patch, view_image (a read of its file), spawn_agent and send_input (a delegation, and a read of every file their items name) and mcp__* calls are decided through PreToolUse once `warden hook install codex` wrote ~/.codex/hooks.json and the person trusted the hook in Codex's /hooks (an untrusted hook does not run); proven against the real Codex 0.171.0 for its exec_command, its freeform apply_patch, an MCP server's tool, view_image, spawn_agent and send_input, and for a sub-agent's own calls, which Codex passes to the hook naming the sub-agent (denials reach the model as the call's result); Codex's PreToolUse has no ask, so a Warden prompt is a deny there; at PermissionRequest (a call that passed PreToolUse and that Codex's approval policy would have approved) a Warden question is left to Codex's approval, which under `codex exec --approve-for-me` is a reviewing model, not a person, and the payload does not say which: install the hook with --headless to make such questions denies"},
	SeesNativeTools: adapter.Capability{Level: adapter.Partial,
		Note: "Codex's shell, patch and image tools are decided, and so is handing work to a sub-agent (multi_agent_v1, offered by 0.171 to every model), whose own shell, apply_patch, MCP and view_image calls pass the hook as the session's do (proven against Codex 0.171.0: denied, the key and an image in ~/.ssh reaching neither model); wait_agent, close_agent and resume_agent (which read nothing), web_search (run by the model's provider), request_user_input, the goal tools, list_mcp_resources and read_mcp_resource are not matched: read_mcp_resource reaches the MCP server with no hook called (proven: the filesystem server, which serves no resources, answered it), so what a server serves as resources reaches the model unjudged, bounded only by the server's own roots; what is typed into a terminal session (write_stdin) passes no hook, which is why shells, interpreters and consoles are refused uncontained and, with --wrap, run what is typed in the sandbox (proven against Codex 0.171.0), while a pager on a terminal (less, man, git log) runs a typed !command uncontained; a background process is judged only when it starts"},
	Sandboxes: adapter.Capability{Level: adapter.No,
		Note: "with --wrap, allowed Bash commands run under warden run when Codex runs them unsandboxed (danger-full-access; proven against Codex 0.171.0, a sub-agent's included); inside Codex's own sandboxes (workspace-write, read-only) warden run cannot build its own and refuses, saying so (sandbox unavailable, 125); without --wrap Warden contains nothing, and apply_patch, view_image and MCP calls run in Codex's process, decided but uncontained"},
	Proven: &adapter.Proof{Client: "Codex CLI 0.171.0", Tests: []string{"cli.TestCodexRealClient"},
		What: "the planted-instruction scenario through exec_command, apply_patch and an MCP server's tool, with --wrap and without, in each of Codex's sandbox modes, and through a sub-agent's own calls; view_image, and a local_image handed to a sub-agent by spawn_agent or send_input, of an image in ~/.ssh denied (under a matcher that leaves these tools out, as Warden's did, the harness sees the image's bytes reach the models); read_mcp_resource passing no hook; the PostToolUse note on a wrapped run; a PermissionRequest deny; what is typed into a terminal session; every hook call timed and counted"},
}

// Hooks is what `warden hook install codex` writes: the events the hook
// answers (post-call notes concern wrapped Bash commands only; Codex's
// timeouts are seconds), in $CODEX_HOME/hooks.json (~/.codex by default)
// or the project's .codex/hooks.json.
func (Agent) Hooks() adapter.Hooks {
	return adapter.Hooks{
		UserFile:    ".codex/hooks.json",
		UserDirEnv:  "CODEX_HOME",
		ProjectFile: ".codex/hooks.json",
		Events: []adapter.HookEvent{
			{Event: "PreToolUse", Matcher: Matcher, Timeout: 60, Unit: "s", Phase: adapter.Before},
			{Event: "PermissionRequest", Matcher: Matcher, Timeout: 60, Unit: "s", Phase: adapter.Permission},
			{Event: "PostToolUse", Matcher: "^Bash$", Timeout: 60, Unit: "s", Phase: adapter.After},
		},
		Handler: adapter.CommandHandler,
		Hints: []string{
			"Codex runs a hook it does not manage only once you trusted it: open /hooks in Codex and trust Warden's entries (until then Codex does not call Warden)",
			"a project's .codex/hooks.json is read only when Codex trusts the project",
		},
	}
}
