// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

// The policy's judgement of a run's command (docs/spec.md §11), before
// anything of it starts. The rules:
//
//   - The command is a contained bash action: its argv quoted into the
//     command line a shell would run, started in the run's working
//     directory, in the run's project, judged by the engine of warden
//     explain with the policy the run loaded (and its managed tier). An
//     argv that cannot be written as a shell line is judged as an argv
//     list, which runs code that is not analysed.
//   - Identities are not taken from the command line: --agent names the
//     record, not a principal whose rules apply.
//   - A deny exits 126 with the deciding rule and its reason. A prompt
//     goes to the approver; with none (no terminal, --no-approver) it is
//     a deny, as the engine says.
//   - A command a hook already decided and rewrote for --wrap names its
//     grant (--grant ID). The grant is redeemed — claimed, removed, and
//     checked against this very argv, directory, project and policy —
//     before anything is judged: a valid one stands for the judgement; a
//     missing, used, expired, forged or mismatched one is noted and the
//     command judged in full, never run on its strength.
//   - An evaluation error is a deny.

import (
	"fmt"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/grant"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
)

// judge decides the run's command, redeeming its grant first, and
// returns the refusal of a command that may not run, and whether the
// person approved it at the terminal.
func (p *plan) judge() (refusal *Exit, approved bool) {
	d := &audit.RunDecision{By: "run"}
	if p.rec != nil {
		p.rec.Decision = d
	}
	if id := p.o.Grant; id != "" {
		d.Grant = id
		g, err := p.redeem(id)
		if err == nil {
			d.By, d.Verdict, d.Rule, d.Reason, d.Answered = "grant", g.Verdict, g.Rule, g.Reason, g.Answered
			return nil, false
		}
		d.GrantRefused = err.Error()
		p.o.Report.Say(fmt.Sprintf("note: --grant %s: %v; the command is judged in full", id, err))
	}
	line, quoted := quoteArgv(p.spec.Argv)
	req := request.Request{Tool: "bash", Cwd: p.spec.Dir, Project: p.spec.Project, Contained: true}
	if quoted {
		req.Command = line
	} else {
		req.Commands = [][]string{p.spec.Argv}
		line = fmt.Sprintf("%q", p.spec.Argv)
	}
	env := policy.Env{Now: time.Now(), NoApprover: p.o.Ask == nil}
	a, dec, err := p.lp.Decide(&req, p.spec.Dir, env)
	if err != nil {
		d.Verdict, d.Answered, d.Reason = action.Deny.String(), action.Deny.String(), err.Error()
		return &Exit{Status: StatusRefused, Msg: fmt.Sprintf("not run: the command cannot be judged: %v", err)}, false
	}
	// An approver that may be absent (warden serve) is looked for only
	// when the command is not simply allowed: not there, the command is
	// judged as with no approver at all.
	var ask Approver
	if dec.Verdict != action.Allow {
		if ask = p.approver(); ask == nil && !env.NoApprover {
			env.NoApprover = true
			dec, _ = p.lp.Engine.Evaluate(a, env)
		}
	}
	rule := dec.Rule
	if rule == "" {
		rule = "policy"
	}
	d.Verdict, d.Rule, d.Reason, d.Answered = dec.Verdict.String(), dec.Rule, dec.Reason, dec.Verdict.String()
	switch dec.Verdict {
	case action.Allow:
		return nil, false
	case action.Prompt:
		// The engine gives a prompt only when an approver is there.
		ask.Tell(fmt.Sprintf("%s: %s", rule, dec.Reason))
		if yes(ask.Ask(fmt.Sprintf("policy: run %s in the sandbox? [y/N]", line))) {
			d.Answered = action.Allow.String()
			p.o.Report.Say(fmt.Sprintf("note: %s asked, and the command was approved %s", rule, approvedWhere(ask)))
			return nil, true
		}
		d.Answered = action.Deny.String()
		return &Exit{Status: StatusRefused, Msg: fmt.Sprintf("not run: %s: the command was not approved", rule)}, false
	}
	hints := []string{"'warden explain' shows the decision: {\"tool\":\"bash\",\"contained\":true,\"command\":…}"}
	if ask == nil {
		hints = append(hints, "a command the policy asks about needs a terminal to ask at, or a hook with --wrap that asks in the agent's prompt")
	}
	return &Exit{Status: StatusRefused, Msg: fmt.Sprintf("not run: %s: %s", rule, dec.Reason), Hints: hints}, false
}

// redeem redeems grant id for this run.
func (p *plan) redeem(id string) (grant.Decision, error) {
	if p.o.Dirs.Grants == "" {
		return grant.Decision{}, grant.ErrNotFound
	}
	b := grant.Binding{
		Argv:    p.spec.Argv,
		Dir:     realPath(p.o.Dir),
		Project: p.spec.Project,
		Policy:  p.lp.Revisions(),
	}
	return grant.Redeem(p.o.Dirs.Grants, id, b, time.Now())
}

// quoteArgv writes argv as the one shell command line that runs it, when
// every argument can be quoted.
func quoteArgv(argv []string) (string, bool) {
	line := ""
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			return "", false
		}
		if i > 0 {
			line += " "
		}
		line += q
	}
	return line, true
}
