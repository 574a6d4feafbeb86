// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"errors"
	"fmt"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

// policyRemember answers "remember this" for one prompted action: the
// narrowest rules that let such actions through, with an expiry
// (config's Remember), written to the policy file only once the new
// policy is checked to allow the action; otherwise it is left as it was.
func policyRemember(args []string) error {
	fs := newFlags("policy remember", "policy remember --scope SCOPE --ttl DURATION [--command] FILE < action.json")
	scopeFlag := fs.String("scope", "", "`scope` of the new rules: workspace, agent:<id> or space:<id>")
	ttl := fs.Duration("ttl", 0, "how long the approval lasts, e.g. 8h (required)")
	asCommand := fs.Bool("command", false, "remember the command invocations instead of the classes")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return badInput("policy remember takes one policy file", "the action to remember is read as JSON on stdin")
	}
	sc, err := policy.ParseScope(*scopeFlag)
	if err != nil {
		return badInput(err.Error(), "remembered rules live at workspace, agent:<id> or space:<id>")
	}
	lp, err := loadPolicy(files[0])
	if err != nil {
		return err
	}
	req, err := request.Decode(Stdin)
	if err != nil {
		return badInput(err.Error())
	}
	a, _, err := lp.Action(req, cwd())
	if err != nil {
		return badInput(err.Error())
	}
	t := now()
	d, _ := lp.Engine.Evaluate(a, policy.Env{Now: t})
	switch {
	case d.Verdict == action.Deny:
		return badInput(fmt.Sprintf("the action is denied (%s): a deny is not remembered away", d.Reason),
			"change or remove the rule that denies it, if that is what you mean")
	case d.Verdict == action.Allow:
		fmt.Fprintln(Stdout, "the action is already allowed; nothing to remember")
		return nil
	}
	text, rules, err := lp.Remember(files[0], a, d, policy.RememberOptions{Scope: sc, TTL: *ttl, Now: t, Command: *asCommand})
	if errors.Is(err, policy.ErrRememberUnbounded) {
		return badInput(err.Error(), "the action must name what to constrain the rule by (refs, paths or hosts)")
	}
	if err != nil {
		return err
	}
	if err := writeFileAtomic(files[0], text); err != nil {
		return badInput(err.Error())
	}
	for _, r := range rules {
		fmt.Fprintf(Stdout, "remembered: %s\n", policyfile.Sentence(r))
	}
	return nil
}
