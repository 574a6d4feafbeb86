// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy

// Remembering a destination (docs/spec.md §4 and §9). When a person approves
// a destination and asks Warden to remember it, the rule written is one
// the proxy reads: a network rule, never a guardrail rule. The rules:
//
//   - It is one allow rule naming exactly the host (or the IP literal)
//     and the one port approved, with an expiry: never a wildcard widened
//     from the host, never a catch-all, never another port, and neither a
//     protocol nor methods, which the approval did not name.
//   - It is built only where no written rule decides the destination: a
//     destination a rule denies is not remembered away, and what no rule
//     can open (always denied, a malformed target) is refused.
//   - A destination that an allow rule names already, with narrower
//     matchers (some methods, one protocol), is refused: a rule for the
//     whole destination would widen what that rule says on purpose.
//   - It goes after every written rule. Since no written rule matched the
//     destination by name, that place makes it the rule that decides it,
//     while every rule judging addresses (allowed_ips) keeps its say, and
//     it decides nothing for any other destination.
//   - It must allow the destination once added (checked here, on the
//     compiled rules): a private IP literal, which a rule naming it never
//     opens, is refused rather than written in vain.

import (
	"fmt"
	"slices"
	"time"

	"warden.dev/warden/internal/action"
)

// rememberedLabel names the rule being remembered in [Policy.Remember]'s
// check.
const rememberedLabel = "remembered destination"

// Remember builds the rule that lets t through until the time until,
// judged at now against p's rules: an allow of exactly t's host and port.
// The caller appends it after p's rules. It returns
// [ErrRememberAllowed] when p allows t already, [ErrRememberDenied] when
// a written rule denies t or no rule can open it, and
// [ErrRememberWidens] when an allow rule names t with narrower matchers.
func (p *Policy) Remember(t Target, until, now time.Time) (Rule, error) {
	if !t.Valid() {
		return Rule{}, fmt.Errorf("%w: the target cannot be judged", ErrRememberDenied)
	}
	if !until.After(now) {
		return Rule{}, fmt.Errorf("a remembered rule must expire after %s", now.UTC().Format(time.RFC3339))
	}
	d := p.CheckName(t, "", now)
	switch {
	case d.Verdict == action.Allow:
		return Rule{}, fmt.Errorf("%w: %s by %s", ErrRememberAllowed, t.HostPort(), d.Rule)
	case !d.ByDefault():
		return Rule{}, fmt.Errorf("%w: %s is denied by %s: %s", ErrRememberDenied, t.HostPort(), d.Rule, d.Reason)
	}
	for i := range p.ruleList() {
		cr := &p.rules[i]
		if cr.allow && cr.active(now) && cr.matchHost(&t) && cr.matchPort(t.port) {
			return Rule{}, fmt.Errorf("%w: %s %s; change that rule if the whole destination is meant", ErrRememberWidens, cr.label, cr.describe())
		}
	}
	r := Rule{Verdict: action.Allow, Host: t.Host(), Ports: []int{int(t.port)}, Until: until}
	cr, err := compileRule(r)
	if err != nil {
		return Rule{}, fmt.Errorf("%w: %v", ErrRememberDenied, err)
	}
	cr.label = rememberedLabel
	with := &Policy{rules: append(slices.Clone(p.ruleList()), cr)}
	if d := with.CheckName(t, "", now); d.Verdict != action.Allow || d.Rule != rememberedLabel {
		return Rule{}, fmt.Errorf("%w: even a rule naming it would leave %s denied (%s): %s", ErrRememberDenied, t.HostPort(), d.Rule, d.Reason)
	}
	return r, nil
}
