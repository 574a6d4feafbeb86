// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gemini

import "warden.dev/warden/internal/adapter"

// Matcher is the BeforeTool matcher `warden hook install gemini` writes:
// the tools this adapter translates, MCP tools under either of Gemini
// CLI's naming schemes (mcp_server_tool, server__tool).
const Matcher = "^(run_shell_command|read_file|write_file|replace|glob|grep_search|search_file_content|list_directory|read_many_files|web_fetch|google_web_search)$|^mcp_|__"

// Honesty is this adapter's row of the honesty matrix. Its calls are
// proven against the real Gemini CLI 0.61.0 (TestGeminiRealClient in
// internal/cli, driven through `gemini -p`); what that test does not
// exercise says unverified. Nothing says yes: Gemini CLI runs tools
// outside the matcher, and a Warden ask hangs a -p session installed
// without --headless.
func (Agent) Honesty() adapter.Honesty { return honesty }

var honesty = adapter.Honesty{
	Adapter: "warden hook gemini",
	FiltersTools: adapter.Capability{Level: adapter.No,
		Note: "the BeforeTool hook cannot change Gemini CLI's tool list (BeforeToolSelection could; Warden does not use it): the model sees every tool, and a call Warden denies is refused when it is made"},
	InterceptsCalls: adapter.Capability{Level: adapter.Partial,
		Note: "run_shell_command, read_file, write_file, replace, glob, grep_search, list_directory, web_fetch, google_web_search and MCP (mcp_SERVER_TOOL) calls, a local subagent's own included, are decided through BeforeTool once `warden hook install gemini` wrote ~/.gemini/settings.json, proven against the real Gemini CLI 0.61.0 under -p (TestGeminiRealClient: a deny's reason reaches the model, or the subagent's model, as the tool's error, and no planted secret reaches either); Gemini CLI itself refuses, before any hook, a file or search tool's path outside the workspace (a file tool's through .env, .git or node_modules too), but not a glob pattern that leaves the workspace (an absolute one, ../, a \"..\" after a wildcard, a brace alternative; the last two, allowed before Warden judged where a pattern can reach, listed ~/.ssh), which Warden now denies (proven); read_many_files is not offered to the model in 0.61, and Gemini CLI runs it itself, with no hook, for an @path in the person's prompt (proven: the file's content is in the first model request; a path outside the workspace is skipped); a project's hooks run only in a trusted folder (unverified); a Warden prompt is Gemini CLI's ask only for the tools it confirms itself, and under -p nothing answers that ask: the tool does not run but the session waits for ever (proven), so -p and --yolo sessions need the hook installed with --headless, which makes it a deny"},
	SeesNativeTools: adapter.Capability{Level: adapter.Partial,
		Note: "Gemini CLI 0.61.0 offers the model activate_skill, enter_plan_mode, invoke_agent, list_background_processes, read_background_output, update_topic and write_todos outside the matcher (listed from TestGeminiRealClient's first model request, which fails on a tool it does not know); invoke_agent itself is not judged, but a local subagent (the generalist) runs its own calls through the same hook, with the main session's id (proven: its shell reads of the planted secrets and its read_file of .env.local were denied, its allowed command ran under --wrap; nothing in the payload says a subagent made the call); a remote (A2A) subagent runs its calls where it runs, unseen by the hook (from the source, unverified), and the browser agent (off by default; its tools are named mcp_browser_agent_TOOL, which the matcher matches) is unverified; read_mcp_resource (offered when an MCP server has resources), save_memory and extension tools are not matched either; a background shell command is judged only when it starts (proven: it stays in the background under --wrap); in the default approval mode -p does not register the shell, write, edit, web_fetch or MCP tools at all (proven)"},
	Sandboxes: adapter.Capability{Level: adapter.No,
		Note: "with --wrap, allowed run_shell_command calls run under warden run, every other argument kept (proven against Gemini CLI 0.61.0: the sandbox's hostname and uid 65534, a background command kept in the background); without it Warden contains nothing, and the file, web and MCP tools run in Gemini CLI's process, decided but uncontained; AfterTool, after a wrapped shell command, tells the model what the sandbox refused (Gemini CLI hands it the rewritten arguments, whose line names the run's record; proven: the note reaches the model in <hook_context>)"},
	Proven: &adapter.Proof{Client: "Gemini CLI 0.61.0", Tests: []string{"cli.TestGeminiRealClient"},
		What: "the planted-instruction scenario through run_shell_command, read_file, write_file, replace, glob, grep_search, list_directory, web_fetch, google_web_search, an MCP tool and a local subagent's own calls, under --yolo with --wrap and without, in the default approval mode, an ask under -p; read_many_files not offered to the model, and a person's @path read with no hook; the tools offered outside the matcher; the AfterTool note on a wrapped run; a self-test with hooks off"},
}

// Hooks is what `warden hook install gemini` writes: BeforeTool, and
// AfterTool for the shell tool, whose wrapped runs it reads back (Gemini
// CLI's timeouts are in milliseconds), in ~/.gemini/settings.json or the
// project's .gemini/settings.json.
func (Agent) Hooks() adapter.Hooks {
	return adapter.Hooks{
		UserFile:    ".gemini/settings.json",
		ProjectFile: ".gemini/settings.json",
		Events: []adapter.HookEvent{
			{Event: BeforeTool, Matcher: Matcher, Timeout: 60000, Unit: "ms", Phase: adapter.Before},
			{Event: AfterTool, Matcher: "^run_shell_command$", Timeout: 60000, Unit: "ms", Phase: adapter.After},
		},
		Handler: handler,
		Hints: []string{
			"Gemini CLI runs a project's hooks only in a trusted folder, and warns about a project hook whose command changed",
			"for gemini -p or --yolo sessions install with --headless: a prompt nobody answers must be a deny (Gemini CLI 0.61 never answers an ask under -p: the session waits for ever)",
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
