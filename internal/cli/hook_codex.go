// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden hook codex answers Codex's PreToolUse, PermissionRequest and
// PostToolUse hooks (package codex says how); warden hook install codex
// writes ~/.codex/hooks.json (or .codex/hooks.json in the project).

import (
	"fmt"
	"os"
	"path/filepath"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/adapter/codex"
)

// decideCodex answers one Codex hook payload.
func decideCodex(h *hookOptions, data []byte) ([]byte, error) {
	p, err := codex.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("reading Codex's hook payload: %v", err)
	}
	state := hookStateDir(h.adapter)
	project := findProject(p.Cwd)
	opt := codex.Options{Project: project}
	if h.wrap {
		if opt.Wrap, err = hookWrapper(h, project, state); err != nil {
			return nil, err
		}
	}
	call, err := codex.Translate(p, opt)
	if err != nil {
		return nil, fmt.Errorf("reading Codex's hook payload: %v", err)
	}
	limiter := &noteLimiter{dir: state, session: p.SessionID, now: h.now}

	if p.Event == codex.PostToolUse {
		ans := codex.Answer{Event: p.Event}
		if call.Wrapped && call.Audit != "" {
			ans.Context = sandboxContext(limiter, call.Audit, h.now, func(rep adapter.RunReport) (string, string) {
				return adapter.SandboxNote(call.Subject, rep), adapter.Key(call.Subject, "sandbox")
			})
		}
		return ans.JSON(), nil
	}

	lp, err := loadHookPolicy(h.policy)
	if err != nil {
		return nil, err
	}
	a, d, err := judge(h, lp, p.Cwd, call.Requests, nil)
	if err != nil {
		return nil, fmt.Errorf("%s call: %v", p.ToolName, err)
	}
	v := codex.Verdict(p.Event, d.Verdict, p.PersonCanAnswer(h.headless))
	ans := codex.Answer{Event: p.Event, Verdict: v, Reason: codex.Note(p.Event, call, a, d, v)}
	if v == action.Deny {
		ans.Reason = limitedReason(limiter, call.Subject, d, ans.Reason)
	}
	if opt.Wrap != nil && call.Bash && !call.Wrapped && v == action.Allow && p.Event == codex.PreToolUse {
		prepareAuditDir(opt.Wrap)
		ans.UpdatedInput, err = codex.UpdatedInput(p, opt.Wrap.Wrap(call.Requests[0].Command, p.Cwd, p.ToolUseID))
		if err != nil {
			return nil, fmt.Errorf("--wrap: %v", err)
		}
	}
	return ans.JSON(), nil
}

// codexHookEvents are the events the installed hook answers; post-call
// notes concern wrapped Bash commands only. Codex's timeouts are seconds.
var codexHookEvents = []hookEvent{
	{"PreToolUse", codex.Matcher, 30, "s"},
	{"PermissionRequest", codex.Matcher, 30, "s"},
	{"PostToolUse", "^Bash$", 30, "s"},
}

func installCodex(args []string) error {
	return installHook(hookInstall{
		adapter: "codex",
		user: func() (string, string, error) {
			// Codex keeps its configuration in $CODEX_HOME, ~/.codex by
			// default.
			if dir := os.Getenv("CODEX_HOME"); dir != "" {
				return filepath.Join(dir, "hooks.json"), "$CODEX_HOME/hooks.json", nil
			}
			home := homeDir()
			if home == "" {
				return "", "", badInput("no home directory for ~/.codex/hooks.json", "use --project, or set CODEX_HOME")
			}
			return filepath.Join(home, ".codex", "hooks.json"), "~/.codex/hooks.json", nil
		},
		project: filepath.Join(".codex", "hooks.json"),
		events:  codexHookEvents,
		handler: commandHandler,
		hints: []string{
			"Codex runs a hook it does not manage only once you trusted it: open /hooks in Codex and trust Warden's entries (until then Codex does not call Warden)",
			"a project's .codex/hooks.json is read only when Codex trusts the project",
		},
	}, args)
}
