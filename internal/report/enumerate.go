// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/governance"
	"warden.dev/warden/internal/pathguard"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
)

// EnumerateOptions narrow an enumeration.
type EnumerateOptions struct {
	// Agent and Space keep only the scopes that apply to them.
	Agent, Space string
	// Mode is the autonomy mode in force, at most the policy's (empty:
	// the policy's).
	Mode action.Mode
	// Contained shows the built-in defaults for actions under warden run.
	Contained bool
}

// Enumerate writes, scope by scope, what an agent can do under lp before
// it runs (warden policy enumerate): every rule as a sentence, the
// built-in defaults and the floor.
func Enumerate(w io.Writer, lp *config.Policy, o EnumerateOptions) {
	set := lp.File.Policy
	m := set.Autonomy.Effective()
	if lp.Managed != nil && lp.Managed.Policy.Autonomy != "" {
		m = m.Least(lp.Managed.Policy.Autonomy)
	}
	if o.Mode != "" {
		m = m.Least(o.Mode)
	}
	filter := o.Agent != "" || o.Space != ""
	applies := func(sc policy.Scope) bool {
		switch sc.Kind {
		case policy.SpaceScope:
			return !filter || sc.Name == o.Space
		case policy.AgentScope:
			return !filter || sc.Name == o.Agent
		case policy.ModeScope:
			return !filter || sc.Name == string(m)
		}
		return true
	}
	fmt.Fprintf(w, "Policy %s (autonomy %s)\n", set.Source, m)
	switch m {
	case action.ProposeOnly:
		fmt.Fprintln(w, "  proposeOnly: every gated action is denied; the agent may only read and propose.")
	case action.ActFreely:
		fmt.Fprintln(w, "  actFreely: prompts are allowed without asking, except those of the floor and of rules the request cannot be checked against; denies stay denies.")
	default:
		fmt.Fprintln(w, "  actWithApproval: prompts go to an approver; with none connected they are denied.")
	}
	scopes := []policy.ScopeKind{policy.SpaceScope, policy.AgentScope, policy.WorkspaceScope, policy.ModeScope, policy.Builtin}
	var tiers []struct {
		title string
		set   *policy.Set
	}
	tiers = append(tiers, struct {
		title string
		set   *policy.Set
	}{"", set})
	if lp.Managed != nil {
		tiers = append(tiers, struct {
			title string
			set   *policy.Set
		}{"managed tier (can only tighten): ", lp.Managed.Policy})
	}
	for _, tier := range tiers {
		for _, kind := range scopes {
			var lines []string
			names := map[string][]string{}
			var order []string
			for _, r := range tier.set.Rules {
				if r.Scope.Kind != kind || !applies(r.Scope) {
					continue
				}
				sc := r.Scope.String()
				if _, ok := names[sc]; !ok {
					order = append(order, sc)
				}
				names[sc] = append(names[sc], "  - "+policyfile.Sentence(r))
			}
			for _, sc := range order {
				lines = append(lines, fmt.Sprintf("\n%sscope %s\n%s", tier.title, sc, strings.Join(names[sc], "\n")))
			}
			for _, l := range lines {
				fmt.Fprintln(w, l)
			}
		}
	}
	fmt.Fprintf(w, "\nbuilt-in defaults (when no rule above decides; contained=%t)\n", o.Contained)
	for _, c := range action.Classes() {
		v, why := c.Default(o.Contained)
		line := fmt.Sprintf("  - %s %s (%s)", v, c, c.Covers())
		if why != "" {
			line += ": not contained, so it asks"
		}
		fmt.Fprintln(w, line)
	}
	if o.Contained {
		fmt.Fprintln(w, "  - allow a command that runs unanalysed code (make test, python -c …): the sandbox is under it")
	} else {
		fmt.Fprintln(w, "  - prompt a command that runs unanalysed code (make test, python -c …), unless a rule names the command: not contained, so it asks (builtin:runs-code)")
	}
	fmt.Fprintln(w, "  - allow reading inside the project; prompt reading outside it")
	fmt.Fprintln(w, "\nfloor (no rule can loosen it)")
	fmt.Fprintln(w, "  - deny reading or writing a sensitive path, by any tool:")
	for _, e := range pathguard.SensitiveSet() {
		fmt.Fprintf(w, "      %s\n", e.Pattern)
	}
	for _, e := range lp.Sensitive() {
		fmt.Fprintf(w, "      %s (added by policy)\n", e)
	}
	fmt.Fprintln(w, "  - deny a path that cannot be resolved (loops, NUL bytes, permission)")
	fmt.Fprintln(w, "  - prompt at least for commands that cannot be analysed or that execute downloaded or decoded text")
	Governance(w, lp.File.Policy.Exempt)
}

// Governance prints the governance floor (docs/spec.md §5): what is denied,
// what is always asked, and the paths the policy exempts.
func Governance(w io.Writer, exempt []string) {
	fmt.Fprintln(w, "  - deny any access to Warden's own configuration and state, writing the policy files in force or a project's .warden/, and running warden approvals, serve, init, policy remember|trust or hook install")
	fmt.Fprintln(w, "  - prompt at least for writing, deleting, renaming or linking over a governance path, by any tool, contained or not:")
	var locked, guarded []string
	add := func(e governance.Entry, where string) {
		line := fmt.Sprintf("      %s%s — %s", where, e.Name, e.Why)
		if e.Tier == governance.Locked {
			locked = append(locked, line)
		} else {
			guarded = append(guarded, line)
		}
	}
	for _, e := range append(slices.Clone(governance.HookSettings), governance.HostExecuted...) {
		add(e, "any directory: ")
	}
	for _, e := range governance.InHome {
		add(e, "~/")
	}
	for _, e := range governance.OnHost {
		add(e, "")
	}
	fmt.Fprintln(w, "    never exempted: everything in a .git directory but git's data, the core.hooksPath directories, the agents' hook settings,")
	fmt.Fprintln(w, strings.Join(locked, "\n"))
	fmt.Fprintln(w, "    exemptable by name (governance.exempt): the directories on PATH,")
	fmt.Fprintln(w, strings.Join(guarded, "\n"))
	fmt.Fprintf(w, "  - exempted by this policy: %s\n", Exemptions(exempt))
}

// Exemptions is the policy's governance exemptions in words.
func Exemptions(exempt []string) string {
	if len(exempt) == 0 {
		return "none"
	}
	return strings.Join(exempt, ", ") + " (rules decide them)"
}
