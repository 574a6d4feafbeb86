// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

// What `warden policy lint` finds in a whole file: the guardrails'
// findings (policy.Lint), and where the file's two network vocabularies
// disagree. The rules:
//
//   - The guardrails (rules:) are read by the engine: the hooks, the MCP
//     gateway and warden explain judge with them what an agent asks for,
//     and a rule's hosts match the hosts a request names (a fetch tool's
//     URL, the hosts shell analysis finds in a command). The network
//     section is read by the egress proxy of every warden run, and by
//     warden net check: it judges every connection a contained program
//     opens, whatever asked for it. Neither reads the other.
//   - A guardrail allow naming hosts, of any class, says the agent may
//     reach them. Where the network section lets no request through to
//     one of them, a contained command cannot reach it: lint says so, why
//     (no rule allows it, a network rule denies it, or it is always
//     denied), and names the network rule that would let it (port 443 as
//     an example).
//   - A networkEgress deny or prompt naming hosts stops the requests that
//     name them. Where the network section lets a request through to one
//     of them, a contained program reaches it without naming it: lint
//     says so, names the network rule that lets it, and the network deny
//     that would hold (written before that rule: the first match wins).
//   - Advisory rules decide nothing and expired ones no longer apply
//     (policy.Lint reports those); both are left out, and so are negated
//     patterns ("!h"), which name no host to reach.
//   - A network rule whose until: has passed no longer applies, and is
//     reported as an expired guardrail is.

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policy"
)

// engineReaders says which parts of Warden read a guardrail rule, and
// proxyReaders which read the network section.
const (
	engineReaders = "read only by the engine (hooks, the MCP gateway, warden explain: requests that name the host)"
	proxyReaders  = "warden run's egress proxy and warden net check read network: alone"
)

// Lint reports what `warden policy lint` finds in f at now: the findings
// of [policy.Lint], expired network rules, and guardrail rules naming
// hosts that the network section does not treat alike (see the rules at
// the top of this file), in file order. It returns an error when the
// network section does not compile.
func Lint(f *File, now time.Time) ([]policy.Finding, error) {
	np, err := netpolicy.Compile(f.Network.EgressRules())
	if err != nil {
		return nil, err
	}
	out := policy.Lint(f.Policy, now)
	for i, r := range f.Network.Rules {
		if !r.Until.IsZero() && !now.Before(r.Until) {
			name := fmt.Sprintf("network.rules[%d]", i)
			out = append(out, policy.Finding{Pos: r.Pos, Rule: name,
				Msg: fmt.Sprintf("%s expired at %s and no longer applies", name, r.Until.UTC().Format(time.RFC3339))})
		}
	}
	for _, r := range f.Policy.Rules {
		if fd, ok := lintHosts(r, np, now); ok {
			out = append(out, fd)
		}
	}
	slices.SortStableFunc(out, func(a, b policy.Finding) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return out, nil
}

// lintHosts compares a guardrail rule's hosts with the network section.
func lintHosts(r *policy.Rule, np *netpolicy.Policy, now time.Time) (policy.Finding, bool) {
	if len(r.Hosts) == 0 || r.Level == policy.Advisory || !r.Expires.IsZero() && !now.Before(r.Expires) {
		return policy.Finding{}, false
	}
	if r.Decision != action.Allow && (len(r.Command) > 0 || r.Class != action.NetworkEgress) {
		// A restrictive rule of another class stops that kind of action
		// on those hosts (a push, an upload), which a network deny,
		// stopping every connection, does not express.
		return policy.Finding{}, false
	}
	var (
		hosts, fix []string
		why        reasons
	)
	for _, h := range r.Hosts {
		if strings.HasPrefix(h, "!") {
			continue
		}
		d := np.CheckHostPattern(h, now)
		reached := d.Verdict == action.Allow
		if reached == (r.Decision == action.Allow) {
			continue
		}
		hosts = append(hosts, pattern(h))
		always, isAlways := d.AlwaysDenied()
		switch {
		case reached:
			why.add(d.Rule+" lets requests through to %s", pattern(h))
			fix = append(fix, netpolicy.SuggestDeny(h))
		case d.ByDefault():
			why.add("no rule allows %s", pattern(h))
			fix = append(fix, netpolicy.SuggestAllow(h))
		case isAlways && always == h:
			why.add("%s is always denied", pattern(h))
		case isAlways:
			why.add("%s is always denied ("+always+")", pattern(h))
		default:
			why.add(d.Rule+" denies %s", pattern(h))
		}
	}
	if len(hosts) == 0 {
		return policy.Finding{}, false
	}
	what := r.Class.String()
	if len(r.Command) > 0 {
		what = fmt.Sprintf("command %q", strings.Join(r.Command, " "))
	}
	var msg string
	if r.Decision == action.Allow {
		msg = fmt.Sprintf("rule %s allows %s %s, %s; %s, where %s, so a contained command cannot reach %s",
			r.ID, what, facetPhrase("on", "host", "hosts", r.Hosts), engineReaders, proxyReaders, why, them(hosts))
		if len(fix) > 0 {
			msg += fmt.Sprintf("; to let it, add under network.rules: %s", strings.Join(fix, " and "))
		}
	} else {
		verb := "denies"
		if r.Decision == action.Prompt {
			verb = "asks before"
		}
		msg = fmt.Sprintf("rule %s %s %s %s, %s; %s, where %s, so a contained program reaches %s without naming %s; to stop that too, add under network.rules, before the rule that lets it: %s",
			r.ID, verb, what, facetPhrase("on", "host", "hosts", r.Hosts), engineReaders, proxyReaders, why, them(hosts), them(hosts), strings.Join(fix, " and "))
	}
	return policy.Finding{Pos: r.Pos, Rule: r.ID, Msg: msg}, true
}

// reasons says why hosts are, or are not, reached, one clause for each
// cause in the order met: "no rule allows a.example and b.example, and
// network.rules[0] (…) denies c.example". A cause holds %s where its
// hosts go.
type reasons struct {
	causes []string
	hosts  [][]string
}

func (rs *reasons) add(cause, host string) {
	for i, c := range rs.causes {
		if c == cause {
			rs.hosts[i] = append(rs.hosts[i], host)
			return
		}
	}
	rs.causes = append(rs.causes, cause)
	rs.hosts = append(rs.hosts, []string{host})
}

func (rs reasons) String() string {
	clauses := make([]string, len(rs.causes))
	for i, c := range rs.causes {
		if len(rs.hosts[i]) > 1 {
			c = strings.Replace(c, "%s is ", "%s are ", 1)
		}
		clauses[i] = strings.Replace(c, "%s", strings.Join(rs.hosts[i], " and "), 1)
	}
	return strings.Join(clauses, ", and ")
}

// them is "it" for one host, "them" for more.
func them(hosts []string) string {
	if len(hosts) == 1 {
		return "it"
	}
	return "them"
}
