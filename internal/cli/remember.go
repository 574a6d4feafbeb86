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

// policyRemember answers "remember this" for one prompted action: it adds
// the narrowest rules that let such actions through (DESIGN.md §4) to the
// policy file, with an expiry and provenance "remembered". The file is
// rewritten only when the new policy parses, compiles and now allows the
// action; otherwise it is left as it was.
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
	a, _, err := req.Action(request.Options{Dir: cwd(), Home: homeDir(), Sensitive: lp.sensitiveExtra()})
	if err != nil {
		return badInput(err.Error())
	}
	t := now()
	d, _ := lp.engine.Evaluate(a, policy.Env{Now: t})
	switch {
	case d.Verdict == action.Deny:
		return badInput(fmt.Sprintf("the action is denied (%s): a deny is not remembered away", d.Reason),
			"change or remove the rule that denies it, if that is what you mean")
	case d.Verdict == action.Allow:
		fmt.Fprintln(Stdout, "the action is already allowed; nothing to remember")
		return nil
	}
	rules, err := policy.Remember(a, d.Confirm, policy.RememberOptions{Scope: sc, TTL: *ttl, Now: t, Command: *asCommand})
	if err != nil {
		hint := ""
		if errors.Is(err, policy.ErrRememberUnbounded) {
			hint = "the action must name what to constrain the rule by (refs, paths or hosts)"
		}
		return badInput(err.Error(), hint)
	}
	f := lp.file
	f.Policy.Rules = append(f.Policy.Rules, rules...)
	text := policyfile.Format(f)
	// Check the result as the next run will read it before writing.
	nf, err := policyfile.Parse(files[0], text)
	if err != nil {
		return fmt.Errorf("internal error: the remembered policy does not parse: %v", err)
	}
	eng, err := policy.Compile(nf.Policy, policy.Options{Home: homeDir(), Managed: managedSet(lp)})
	if err != nil {
		return badInput(err.Error())
	}
	if nd, _ := eng.Evaluate(a, policy.Env{Now: t}); nd.Verdict != action.Allow {
		return badInput(fmt.Sprintf("even with the remembered rules the action is %s (%s)", nd.Verdict, nd.Reason),
			"a more specific rule or the managed tier still decides it; nothing was written")
	}
	if err := writeFileAtomic(files[0], text); err != nil {
		return badInput(err.Error())
	}
	for _, r := range rules {
		fmt.Fprintf(Stdout, "remembered: %s\n", policyfile.Sentence(r))
	}
	return nil
}

func managedSet(lp *loadedPolicy) *policy.Set {
	if lp.managed == nil {
		return nil
	}
	return lp.managed.Policy
}
