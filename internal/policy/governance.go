// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/governance"
)

// The floor's rules for governance (docs/spec.md §5 and §13).
const (
	// RuleGovernance holds a governance path: Warden's own are denied,
	// the others asked about.
	RuleGovernance = "floor:governance-path"
	// RuleSelfGovernance denies the commands by which an agent would
	// govern itself.
	RuleSelfGovernance = "floor:self-governance"
)

// selfGoverning are the warden subcommands an agent never runs on its own
// behalf: each approves, remembers, trusts or serves decisions, or sets
// Warden up (docs/spec.md §13).
var selfGoverning = [][]string{
	{"approvals"},
	{"serve"},
	{"init"},
	{"policy", "remember"},
	{"policy", "trust"},
	{"hook", "install"},
	// Uninstalling removes the hook that decides the agent's own calls.
	{"hook", "uninstall"},
}

// governed is the floor's governance step: a deny (rule and reason) when
// the action reaches Warden's own places or runs a self-governing warden
// command, else the reason it is at least a prompt (a governance path
// written that no exemption covers), or "".
func (ev *evaluation) governed() (rule, deny, prompt string) {
	for _, argv := range ev.a.Commands {
		if sub, ok := selfGoverningCommand(argv); ok {
			return RuleSelfGovernance, fmt.Sprintf("warden %s decides what agents may do: an agent never runs it on its own behalf (floor: self-governance)", sub), ""
		}
	}
	for i := range ev.a.Paths {
		p := &ev.a.Paths[i]
		for _, g := range p.Governed {
			switch {
			case g.Tier == governance.Own:
				return RuleGovernance, fmt.Sprintf("path %q is %s (floor: governance paths)", p.Raw, g.Why), ""
			case prompt != "":
			case g.Tier == governance.Locked || !ev.exempt(g.Path):
				prompt = fmt.Sprintf("path %q is a governance path — %s — so writing it is never allowed without asking", p.Raw, g.Why)
			}
		}
	}
	return "", "", prompt
}

// exempt reports whether the policy exempts the governance path p: it is
// one of the paths governance.exempt names, or below one.
func (ev *evaluation) exempt(p string) bool {
	for _, e := range ev.e.set.Exempt {
		switch {
		case strings.HasPrefix(e, "~/"):
			if ev.e.home == "" {
				continue
			}
			e = path.Join(ev.e.home, e[2:])
		case !strings.HasPrefix(e, "/"):
			if ev.a.Project == "" {
				continue
			}
			e = path.Join(ev.a.Project, e)
		}
		if action.Within(e, p) {
			return true
		}
	}
	return false
}

// selfGoverningCommand reports whether argv runs one of selfGoverning,
// and which.
func selfGoverningCommand(argv []string) (string, bool) {
	if len(argv) < 2 || path.Base(argv[0]) != "warden" {
		return "", false
	}
	var words []string
	for _, w := range argv[1:] {
		if !strings.HasPrefix(w, "-") {
			words = append(words, w)
		}
		if len(words) == 2 {
			break
		}
	}
	for _, s := range selfGoverning {
		if len(words) >= len(s) && slices.Equal(words[:len(s)], s) {
			return strings.Join(s, " "), true
		}
	}
	return "", false
}
