// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
)

// Finding is a problem `warden policy lint` reports about a rule.
type Finding struct {
	Pos  Pos
	Rule string
	Msg  string
}

func (f Finding) String() string { return fmt.Sprintf("%s: %s", f.Pos, f.Msg) }

// Lint reports rules that can never decide anything, and rules already
// expired at now. A rule is unreachable when, in its own scope and for its
// own class or command:
//
//   - another rule has the same constraints and wins every tie (it is as
//     restrictive or more, and comes first when equal);
//   - it allows, and an unconstrained deny is there: allow never overrides
//     a deny within a scope;
//   - it is unconstrained, and a restrictive rule whose every constraint
//     is a catch-all ("**") is there: that rule matches every request the
//     unconstrained one does and is more specific.
//
// It also reports a command rule that allows an interpreter-wide prefix
// ([InterpreterWide]: python, node -e, bash -c, make, npx…): outside the
// sandbox such a rule cannot allow the code those commands run, which
// builtin:runs-code still asks about, so the rule does not do what it
// seems to. The finding names a command that would.
func Lint(s *Set, now time.Time) []Finding {
	var out []Finding
	type key struct {
		scope Scope
		class action.Class
		cmd   string
	}
	groups := map[key][]*Rule{}
	var order []key
	for _, r := range s.Rules {
		if !r.Expires.IsZero() && !now.Before(r.Expires) {
			out = append(out, Finding{r.Pos, r.ID, fmt.Sprintf("rule %s expired at %s and no longer applies", r.ID, r.Expires.Format(time.RFC3339))})
		}
		if r.Decision == action.Allow && len(r.Command) > 0 && r.Level != Advisory && InterpreterWide(r.Command) {
			out = append(out, Finding{r.Pos, r.ID, fmt.Sprintf("rule %s allows %q, an interpreter-wide prefix: it cannot allow the code %s runs uncontained, which still asks (builtin:runs-code); name the command: %s, or run it contained (warden run, --wrap)",
				r.ID, strings.Join(r.Command, " "), path.Base(r.Command[0]), suggestCommand(r.Command))})
		}
		k := key{r.Scope, r.Class, strings.Join(r.Command, " ")}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	for _, k := range order {
		rules := groups[k]
		for i, r := range rules {
			for j, o := range rules {
				if i == j {
					continue
				}
				if why := shadows(o, r, j < i); why != "" {
					out = append(out, Finding{r.Pos, r.ID, fmt.Sprintf("rule %s can never decide: %s (rule %s at %s)", r.ID, why, o.ID, o.Pos)})
					break
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return out
}

// shadows reports why o keeps r from ever deciding, or "".
func shadows(o, r *Rule, oFirst bool) string {
	if o.Level == Advisory || r.Level == Advisory {
		// An advisory rule never decides, so it shadows nothing, and
		// whether it would have is what it is there to record.
		return ""
	}
	if sameConstraints(o, r) && (o.Decision < r.Decision || o.Decision == r.Decision && oFirst) {
		if o.Decision == r.Decision {
			return "a rule with the same constraints and decision comes first"
		}
		return "a more restrictive rule has the same constraints"
	}
	if r.Decision == action.Allow && o.Decision == action.Deny && !o.Constrained() && o.Expires.IsZero() {
		return "allow never overrides a deny in the same scope, and this deny is unconstrained"
	}
	if !r.Constrained() && o.Decision != action.Allow && catchAll(o) && r.Decision >= o.Decision {
		return "a more specific rule matches every request it does"
	}
	return ""
}

func sameConstraints(a, b *Rule) bool {
	return slices.Equal(a.Paths, b.Paths) && slices.Equal(a.Refs, b.Refs) && slices.Equal(a.Hosts, b.Hosts) &&
		eqLimit(a.MaxCount, b.MaxCount) && eqLimit(a.MaxCents, b.MaxCents) && a.Expires.Equal(b.Expires)
}

func eqLimit(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// catchAll reports whether a constrained rule's constraints match every
// value (only "**" patterns, no limits), so it applies to every request
// that describes those facets.
func catchAll(r *Rule) bool {
	if !r.Constrained() || r.MaxCount != nil || r.MaxCents != nil || !r.Expires.IsZero() {
		return false
	}
	if len(r.Hosts) > 0 {
		return false // no host pattern matches every host
	}
	for _, list := range [][]string{r.Paths, r.Refs} {
		for _, p := range list {
			if p != "**" && p != "/**" {
				return false
			}
		}
	}
	return true
}

// suggestCommand gives an example of a command rule that names what runs,
// for a lint finding about an interpreter-wide prefix.
func suggestCommand(prefix []string) string {
	name := programName(prefix[0])
	p := programs()[name]
	head := strings.Join(prefix, " ")
	switch p.kind {
	case interpreter:
		if len(prefix) > 1 && contains(p.takes, prefix[len(prefix)-1]) {
			return fmt.Sprintf("%q with the code or module it runs", head)
		}
		return fmt.Sprintf("%q with the script it runs, e.g. %q", prefix[0], prefix[0]+" tools/gen.py")
	case runner:
		return fmt.Sprintf("%q with its target, e.g. %q", prefix[0], prefix[0]+" test")
	case tool:
		if len(p.code) > 0 {
			return fmt.Sprintf("%q", prefix[0]+" "+p.code[0])
		}
		return fmt.Sprintf("%q with its subcommand", prefix[0])
	case wrapper:
		return fmt.Sprintf("the command %s runs (a rule on %s covers only %s itself)", prefix[0], prefix[0], prefix[0])
	}
	return fmt.Sprintf("%q with what it runs", head)
}
