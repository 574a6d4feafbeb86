// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gemini

import "warden.dev/warden/internal/adapter"

// Matcher is the BeforeTool matcher `warden hook install gemini` writes:
// the tools this adapter translates, MCP tools under either of Gemini
// CLI's naming schemes (mcp_server_tool, server__tool).
const Matcher = "^(run_shell_command|read_file|write_file|replace|glob|grep_search|search_file_content|list_directory|read_many_files|web_fetch|google_web_search)$|^mcp_|__"

// Honesty is this adapter's row of the honesty matrix. No test runs the
// real Gemini CLI yet: every row is translated from its source and
// documentation, so nothing says yes.
func (Agent) Honesty() adapter.Honesty { return honesty }

var honesty = adapter.Honesty{
	Adapter: "warden hook gemini",
	FiltersTools: adapter.Capability{Level: adapter.No,
		Note: "the BeforeTool hook cannot change Gemini CLI's tool list (BeforeToolSelection could; Warden does not use it): the model sees every tool, and a call Warden denies is refused when it is made"},
	InterceptsCalls: adapter.Capability{Level: adapter.Partial,
		Note: "run_shell_command, read_file, write_file, replace, glob, grep_search, list_directory, read_many_files, web_fetch, google_web_search and MCP calls are decided through BeforeTool once `warden hook install gemini` wrote settings.json (a project's hooks run only in a trusted folder); translated from Gemini CLI's source, not yet tested against the real client; a Warden prompt is Gemini CLI's ask only for the tools it confirms itself (shell, writes, edits, web_fetch, MCP), a deny for the rest, and under --yolo or -p the hook must run with --headless"},
	SeesNativeTools: adapter.Capability{Level: adapter.Partial,
		Note: "Gemini CLI's shell, file, search and web tools are decided; save_memory, write_todos, activate_skill, subagents and extension tools are not matched, and a background shell process is judged only when it starts"},
	Sandboxes: adapter.Capability{Level: adapter.No,
		Note: "with --wrap, allowed run_shell_command calls are rewritten to run under warden run (the rewrite is tested, a run under the real Gemini CLI is not); without it Warden contains nothing, and the file, web and MCP tools run in Gemini CLI's process, decided but uncontained"},
}

// Hooks is what `warden hook install gemini` writes: BeforeTool only
// (Gemini CLI's timeouts are in milliseconds), in ~/.gemini/settings.json
// or the project's .gemini/settings.json.
func (Agent) Hooks() adapter.Hooks {
	return adapter.Hooks{
		UserFile:    ".gemini/settings.json",
		ProjectFile: ".gemini/settings.json",
		Events: []adapter.HookEvent{
			{Event: BeforeTool, Matcher: Matcher, Timeout: 60000, Unit: "ms", Phase: adapter.Before},
		},
		Handler: handler,
		Hints: []string{
			"Gemini CLI runs a project's hooks only in a trusted folder, and warns about a project hook whose command changed",
			"for gemini -p or --yolo sessions install with --headless: a prompt nobody answers must be a deny",
		},
	}
}

// handler is Gemini CLI's hook configuration:
// {"type":"command","command":…,"name":…,"timeout":ms}.
func handler(command string, ev adapter.HookEvent) any {
	return struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Name    string `json:"name"`
		Timeout int    `json:"timeout"`
	}{"command", command, "warden", ev.Timeout}
}
