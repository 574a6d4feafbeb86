// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

import "warden.dev/warden/internal/adapter"

// Matcher is the matcher `warden hook install codex` writes for
// PreToolUse and PermissionRequest: the tools this adapter translates.
// Codex also matches apply_patch under the aliases Write and Edit.
const Matcher = "^(Bash|apply_patch)$|^mcp__"

// Honesty is this adapter's row of the honesty matrix. No test runs the
// real Codex client yet: every row is translated from Codex's source
// (codex-rs/hooks), so nothing says yes.
var Honesty = adapter.Honesty{
	Adapter: "warden hook codex",
	FiltersTools: adapter.Capability{Level: adapter.No,
		Note: "a hook cannot change Codex's tool list: the model sees every tool, and a call Warden denies is refused when it is made"},
	InterceptsCalls: adapter.Capability{Level: adapter.Partial,
		Note: "Bash (Codex's shell, shell_command and exec tools), apply_patch and mcp__* calls are decided through PreToolUse once `warden hook install codex` wrote ~/.codex/hooks.json and the person trusted the hook in Codex's /hooks (an untrusted hook does not run); translated from Codex's source, not yet tested against the real client; Codex's PreToolUse has no ask, so a Warden prompt is a deny there"},
	SeesNativeTools: adapter.Capability{Level: adapter.Partial,
		Note: "Codex's shell and patch tools are decided; view_image, web_search, update_plan, spawn_agent and the other function tools are not matched, a shell session's write_stdin input is not seen, and a background process is judged only when it starts"},
	Sandboxes: adapter.Capability{Level: adapter.No,
		Note: "with --wrap, allowed Bash commands are rewritten to run under warden run (the rewrite is tested, a run inside Codex's own sandbox is not: warden run may be unable to build its sandbox there); without it Warden contains nothing, and apply_patch and MCP calls run in Codex's process, decided but uncontained"},
}

func init() { adapter.Register(Honesty) }
