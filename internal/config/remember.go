// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package config

import (
	"fmt"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
)

// Remember answers "remember this" for one prompted action a: it adds the
// narrowest rules that let such actions through (policy.Remember,
// DESIGN.md §4) to the policy file, and returns the file's new text and
// the rules added. The text is checked as the next run will read it: it
// parses (named path), compiles with the managed tier, and now allows a.
// Nothing is written; p's file holds the new rules afterwards.
//
// It returns policy.ErrRememberUnbounded when a names nothing to bound
// the rules by, and an [*Error] when the new policy does not compile or
// still does not allow a.
func (p *Policy) Remember(path string, a *action.Action, d policy.Decision, o policy.RememberOptions) ([]byte, []*policy.Rule, error) {
	rules, err := policy.Remember(a, d.Confirm, o)
	if err != nil {
		return nil, nil, err
	}
	f := p.File
	f.Policy.Rules = append(f.Policy.Rules, rules...)
	text := policyfile.Format(f)
	nf, err := policyfile.Parse(path, text)
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: the remembered policy does not parse: %v", err)
	}
	eng, err := policy.Compile(nf.Policy, policy.Options{Home: p.home, Managed: p.ManagedSet()})
	if err != nil {
		return nil, nil, &Error{Msg: err.Error()}
	}
	if nd, _ := eng.Evaluate(a, policy.Env{Now: o.Now}); nd.Verdict != action.Allow {
		return nil, nil, &Error{Msg: fmt.Sprintf("even with the remembered rules the action is %s (%s)", nd.Verdict, nd.Reason),
			Hint: "a more specific rule or the managed tier still decides it; nothing was written"}
	}
	return text, rules, nil
}
