// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"slices"

	"warden.dev/warden/internal/action"
)

// This file applies the enforcement level of the deciding rule (step 6 of
// the package doc):
//
//   - advisory never decides: resolution goes on as if the rule were
//     absent, and the first advisory rule that would have stopped the
//     action is recorded ([Decision.WouldHave]);
//   - soft denies unless the action carries an override with a
//     justification by a holder of the override permission of the same
//     tier; each tier names its own holders, so a workspace cannot lift a
//     managed soft deny; a lift is an allow recorded in [Decision.Override];
//   - hard is as written;
//   - a rule that names a facet the request lacks asks, and no autonomy
//     mode turns that question into an allow.

// advise records what an advisory rule would have done.
func (ev *evaluation) advise(u unit, sc Scope, c *candidate, managed bool) {
	ev.x.Matched = append(ev.x.Matched, Match{Rule: c.rule.ID, Scope: sc.String(), Unit: u.label(), Decision: c.verdict,
		Escalated: c.escalated, Managed: managed, Outcome: "advisory: recorded, does not decide"})
	if c.verdict != action.Allow && ev.would == "" {
		ev.would = c.verdict.String() + " by advisory rule " + c.rule.ID
	}
	if ev.env.Trace {
		ev.tracef("%s: rule %s is advisory: it would have decided %s; recorded, and resolution goes on without it", u.label(), c.rule.ID, c.verdict)
	}
}

// holders returns who may lift a soft deny of one tier: each tier names
// its own, so a workspace cannot lift a managed soft deny.
func (ev *evaluation) holders(managed bool) []string {
	if managed {
		return ev.e.managedSet.OverrideHolders
	}
	return ev.e.set.OverrideHolders
}

// enforce applies the deciding rule's enforcement level.
func (ev *evaluation) enforce(u unit, sc Scope, c *candidate, managed bool) outcome {
	o := outcome{unit: u, decided: true, verdict: c.verdict, rule: c.rule.ID, scope: sc.String(), level: c.rule.Level,
		cmd: c.rule.Command, words: c.prefix, allows: c.rule.Decision == action.Allow}
	o.reason = c.rule.Reason
	if o.reason == "" {
		o.reason = c.why
	}
	if c.escalated {
		o.escalated = c.why
		// A rule that cannot be checked because the request does not
		// describe the facet is not a question autonomy may answer: a
		// deny further down the chain might be what applies.
		o.sticky = true
	}
	switch c.rule.Level {
	case Soft:
		if o.verdict == action.Deny {
			if ov := ev.a.Override; ov != nil && ov.Justification != "" && slices.Contains(ev.holders(managed), ov.By) {
				o.verdict, o.over = action.Allow, ov
				o.allows = false
				o.reason = fmt.Sprintf("soft deny by %s overridden by %s: %q", c.rule.ID, ov.By, ov.Justification)
				if ev.env.Trace {
					ev.tracef("%s: soft rule %s overridden by %s with a recorded justification", u.label(), c.rule.ID, ov.By)
				}
			} else {
				if ev.env.Trace {
					ev.tracef("%s: soft rule %s denies; a holder of the override permission may lift it with a justification", u.label(), c.rule.ID)
				}
			}
		}
	}
	return o
}
