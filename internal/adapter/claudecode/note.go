// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode

// Notes follow the rules of package adapter's notes (values quoted as
// data, Warden's own advice, rate-limited by the caller); these name
// Claude Code's tools and say why a prompt nobody can answer is a deny.

import (
	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/policy"
)

// unanswered is why a prompt became a deny in a Claude Code session.
const unanswered = "Nobody can answer Warden's question in this session (it runs headless or in dontAsk mode), so it is denied: an unanswered question is never a yes."

// The execution record's report, as package adapter defines it.
type (
	RunReport = adapter.RunReport
	Attempt   = adapter.Attempt
	Syscall   = adapter.Syscall
)

// Note is the reason given for a deny (fed to the model) or an ask (shown
// to the person). verdict is the answer's verdict, after [Verdict]: a
// deny of a prompt means nobody could answer it.
func Note(c *Call, a *action.Action, d policy.Decision, verdict action.Verdict) string {
	return adapter.Note(c.subject(), a, d, verdict, unanswered)
}

// Repeat is the reason for a block already explained within the rate
// limit.
func Repeat(c *Call, d policy.Decision) string { return adapter.Repeat(c.subject(), d) }

// Held is the reason for a deny whose note the rate limit holds back.
func Held(c *Call, d policy.Decision) string { return adapter.Held(c.subject(), d) }

// Key identifies a block for the rate limit.
func Key(c *Call, rule string) string { return adapter.Key(c.subject(), rule) }

// SandboxNote is PostToolUse's note on a wrapped command's run; empty
// when the sandbox refused nothing.
func SandboxNote(c *Call, r RunReport) string { return adapter.SandboxNote(c.subject(), r) }

func (c *Call) subject() adapter.Subject {
	kind := "tool"
	switch {
	case c.Bash:
		kind = "command"
	case c.Request.URL != "":
		kind = "url"
	case c.Tool == "Glob":
		kind = "pattern"
	case c.Request.Path != nil || len(c.Request.Paths) > 0:
		kind = "path"
	}
	return adapter.Subject{Tool: c.Tool, Kind: kind, Value: c.Subject}
}
