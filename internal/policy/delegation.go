// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
)

// This file holds the delegation barriers and the autonomy ceiling (step 2
// of the package doc, with the managed tier's caps of step 7):
//
//   - a delegation chain deeper than the depth limit is denied: the
//     policy's limit, [DefaultMaxDepth] when it sets none, and the managed
//     tier can only lower it;
//   - an agent that appears twice in the chain is denied (a cycle);
//   - an action that costs more than the delegator's remaining budget is
//     denied: a delegation cannot create budget;
//   - the mode in force is the least autonomous of the policy's autonomy,
//     the principal's mode, the managed tier's autonomy, and the autonomy
//     either tier sets for the agent and for each of its delegators; an
//     unset value takes no part, and nothing set at all is
//     actWithApproval.

// mode is the autonomy in force, the ceiling of step 2 of resolution
// (package doc): the least autonomous of the policy's dial, the caller's
// mode, the managed tier's autonomy and every delegator's own setting in
// either tier. Unset values take no part; nothing set at all means
// actWithApproval. The string says why, for the trace.
func (ev *evaluation) mode() (action.Mode, string) {
	p := ev.a.Principal
	m, why := action.ActWithApproval, "the default"
	switch pol := ev.e.set.Autonomy; {
	case pol != "" && p.Mode != "" && p.Mode.MoreFree(pol):
		m, why = pol, "the policy's autonomy; the principal's "+string(p.Mode)+" cannot exceed it"
	case p.Mode != "":
		m, why = p.Mode, "the principal's mode"
	case pol != "":
		m, why = pol, "the policy's autonomy"
	}
	if ma := ev.e.managedSet.Autonomy; ma != "" && m.MoreFree(ma) {
		m, why = ma, "capped by the managed tier's autonomy"
	}
	for _, auto := range [2]map[string]action.Mode{ev.e.set.Delegation.Autonomy, ev.e.managedSet.Delegation.Autonomy} {
		for i := 0; len(auto) > 0 && i <= len(p.Delegation); i++ {
			agent := p.Agent
			if i < len(p.Delegation) {
				agent = p.Delegation[i]
			}
			if am, ok := auto[agent]; ok && m.MoreFree(am) {
				m, why = am, "capped by the autonomy of "+agent+" (a delegate never acts more freely than its delegator)"
			}
		}
	}
	return m, why
}

// delegation applies the barriers of step 2 of resolution (package doc):
// depth, cycle and budget. It returns the barrier and why the action is
// refused, or "".
func (ev *evaluation) delegation() (barrier, reason string) {
	p := ev.a.Principal
	if len(p.Delegation) == 0 {
		return "", ""
	}
	max := ev.e.set.Delegation.MaxDepth
	if max <= 0 {
		max = DefaultMaxDepth
	}
	if mm := ev.e.managedSet.Delegation.MaxDepth; mm > 0 && mm < max {
		max = mm
	}
	if len(p.Delegation) > max {
		return "depth", fmt.Sprintf("delegation barrier (depth): the chain %s is %d deep, the limit is %d",
			strings.Join(append(slices.Clone(p.Delegation), p.Agent), " → "), len(p.Delegation), max)
	}
	seen := make(map[string]bool, len(p.Delegation)+1)
	for _, id := range append(slices.Clone(p.Delegation), p.Agent) {
		if id != "" && seen[id] {
			return "cycle", fmt.Sprintf("delegation barrier (cycle): agent %q appears twice in the chain %s",
				id, strings.Join(append(slices.Clone(p.Delegation), p.Agent), " → "))
		}
		seen[id] = true
	}
	if p.BudgetCents != nil {
		cost := int64(0)
		if ev.a.Cents != nil {
			cost = *ev.a.Cents
		}
		if cost > *p.BudgetCents {
			return "budget", fmt.Sprintf("delegation barrier (budget): the action costs %d cents and the delegator has %d left; a delegation cannot create budget", cost, *p.BudgetCents)
		}
	}
	if ev.env.Trace {
		ev.tracef("delegation: chain of %d within the depth limit, no cycle, within budget", len(p.Delegation))
	}
	return "", ""
}
