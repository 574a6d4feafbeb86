// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden hook gemini answers Gemini CLI's BeforeTool hook (package gemini
// says how); warden hook install gemini writes ~/.gemini/settings.json (or
// .gemini/settings.json in the project).

import (
	"fmt"
	"path/filepath"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter/gemini"
)

// decideGemini answers one Gemini CLI BeforeTool payload.
func decideGemini(h *hookOptions, data []byte) ([]byte, error) {
	p, err := gemini.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("reading Gemini CLI's hook payload: %v", err)
	}
	state := hookStateDir(h.adapter)
	project := findProject(p.Cwd)
	opt := gemini.Options{Project: project}
	if h.wrap {
		if opt.Wrap, err = hookWrapper(h, project, state); err != nil {
			return nil, err
		}
		// BeforeTool carries no call id to name an execution record by,
		// and Gemini CLI's AfterTool is not answered: no records.
		opt.Wrap.AuditDir = ""
	}
	call, err := gemini.Translate(p, opt)
	if err != nil {
		return nil, fmt.Errorf("reading Gemini CLI's hook payload: %v", err)
	}
	lp, err := loadHookPolicy(h.policy)
	if err != nil {
		return nil, err
	}
	a, d, err := judge(h, lp, p.Cwd, call.Requests, call.Recursive)
	if err != nil {
		return nil, fmt.Errorf("%s call: %v", p.ToolName, err)
	}
	v := gemini.Verdict(call, d.Verdict, h.headless)
	ans := gemini.Answer{Verdict: v, Reason: gemini.Note(call, a, d, v, h.headless)}
	if v == action.Allow {
		ans.Reason = ""
	}
	if v == action.Deny {
		limiter := &noteLimiter{dir: state, session: p.SessionID, now: h.now}
		ans.Reason = limitedReason(limiter, call.Subject, d, ans.Reason)
	}
	if opt.Wrap != nil && call.Shell && !call.Wrapped && v != action.Deny {
		ans.ToolInput, err = gemini.WrappedInput(opt.Wrap.Wrap(call.Requests[0].Command, call.Dir, ""))
		if err != nil {
			return nil, fmt.Errorf("--wrap: %v", err)
		}
	}
	return ans.JSON(), nil
}

// geminiHookEvents: BeforeTool only. Gemini CLI's timeouts are in
// milliseconds.
var geminiHookEvents = []hookEvent{
	{"BeforeTool", gemini.Matcher, 30000, "ms"},
}

// geminiHandler is Gemini CLI's hook configuration:
// {"type":"command","command":…,"name":…,"timeout":ms}.
func geminiHandler(command string, ev hookEvent) any {
	return struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Name    string `json:"name"`
		Timeout int    `json:"timeout"`
	}{"command", command, "warden", ev.timeout}
}

func installGemini(args []string) error {
	return installHook(hookInstall{
		adapter: "gemini",
		user: func() (string, string, error) {
			home := homeDir()
			if home == "" {
				return "", "", badInput("no home directory for ~/.gemini/settings.json", "use --project")
			}
			return filepath.Join(home, ".gemini", "settings.json"), "~/.gemini/settings.json", nil
		},
		project: filepath.Join(".gemini", "settings.json"),
		events:  geminiHookEvents,
		handler: geminiHandler,
		hints: []string{
			"Gemini CLI runs a project's hooks only in a trusted folder, and warns about a project hook whose command changed",
			"for gemini -p or --yolo sessions install with --headless: a prompt nobody answers must be a deny",
		},
	}, args)
}
