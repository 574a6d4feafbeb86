// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package config

// Remembering an approval (docs/spec.md §4) writes the rules the parts of
// Warden that will meet the approved thing again actually read. The
// rules:
//
//   - What the engine asked about (a prompt of the hooks, the MCP gateway,
//     warden explain) becomes guardrail rules: policy.Remember, scoped,
//     generalised one step, with an expiry.
//   - A network destination (a host and a port) becomes a network rule,
//     which the egress proxy of warden run and warden net check read:
//     netpolicy's Remember, exactly that host and port, with the same
//     expiry, after the file's own network rules. A guardrail rule naming
//     the host is never the answer for the proxy: it does not read one.
//   - An approved action's destinations are those its own arguments
//     show with their port: the URL of a fetch, the URLs in its commands
//     ([Destinations]); the caller may name more. A networkEgress rule is
//     remembered for a host only when its network rule is written too, or
//     the network section lets the host through already: an approval
//     that the engine honours and the proxy refuses is not one thing.
//   - Network rules have no scope: a remembered destination is reachable
//     by every contained run of the file, whichever agent asked.
//   - The rules are added to the file's text, which is otherwise kept as
//     it was, comments and order included (policyfile.Append).
//   - Nothing is remembered over a deny, of the engine or of a network
//     rule, nor in vain: the file's new text must parse, compile with the
//     managed tier, and then allow the action and every destination;
//     otherwise nothing is returned to write.

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

// Approval is what a person approved and asked Warden to remember.
type Approval struct {
	// Action is the approved action; nil when only destinations were
	// approved (connections a run's egress proxy denied).
	Action *action.Action
	// Dests are the network destinations approved: the action's own
	// ([Destinations]) and any named beside it.
	Dests []netpolicy.Target
}

// Remembered is what remembering an approval adds to a policy file.
type Remembered struct {
	// Text is the file's new text, nil when nothing was added.
	Text []byte
	// Rules are the guardrail rules added.
	Rules []*policy.Rule
	// Net are the network rules added, and NetIndex their indexes in the
	// new file's network section.
	Net      []policyfile.NetRule
	NetIndex []int
}

// Empty reports whether nothing needed remembering: the approval is
// allowed already, by the engine and by the network rules.
func (r *Remembered) Empty() bool { return len(r.Rules) == 0 && len(r.Net) == 0 }

// Remember answers "remember this" for an approval: it adds to the policy
// file read from path the narrowest rules that let such actions, and
// exactly the approved destinations, through (see the rules at the top of
// this file), and returns the file's new text and the rules added, or an
// empty [Remembered] when the approval is allowed already. Nothing is
// written, and p is not changed.
//
// It returns policy.ErrRememberUnbounded when the action names nothing to
// bound the rules by, and an [*Error] when the action or a destination is
// denied, a networkEgress host has no known port, or the new policy does
// not compile or still does not allow what was approved.
func (p *Policy) Remember(path string, ap Approval, o policy.RememberOptions) (*Remembered, error) {
	if o.TTL <= 0 {
		return nil, policy.ErrRememberTTL
	}
	if ap.Action == nil && len(ap.Dests) == 0 {
		return nil, &Error{Msg: "nothing to remember: no action and no destination"}
	}
	var (
		rem = &Remembered{}
		err error
	)
	if a := ap.Action; a != nil {
		d, _ := p.Engine.Evaluate(a, policy.Env{Now: o.Now})
		switch d.Verdict {
		case action.Deny:
			return nil, &Error{Msg: fmt.Sprintf("the action is denied (%s): a deny is not remembered away", d.Reason),
				Hint: "change or remove the rule that denies it, if that is what you mean"}
		case action.Prompt:
			if rem.Rules, err = policy.Remember(a, d.Confirm, o); err != nil {
				return nil, err
			}
		}
	}
	np, err := netpolicy.Compile(p.File.Network.EgressRules())
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: "see the network section in docs/policy-language.md"}
	}
	until := o.Now.Add(o.TTL).UTC().Truncate(time.Second)
	var seen []string
	for _, t := range ap.Dests {
		if slices.Contains(seen, t.HostPort()) {
			continue
		}
		seen = append(seen, t.HostPort())
		r, err := np.Remember(t, until, o.Now)
		switch {
		case errors.Is(err, netpolicy.ErrRememberAllowed):
			continue
		case errors.Is(err, netpolicy.ErrRememberWidens):
			return nil, &Error{Msg: err.Error(), Hint: "edit the network rule that names it, if the whole destination is meant; nothing was written"}
		case err != nil:
			return nil, &Error{Msg: err.Error(), Hint: "a deny is not remembered away: change the network rules by hand, if that is what you mean; nothing was written"}
		}
		rem.Net = append(rem.Net, policyfile.NetRule{Action: action.Allow, Host: r.Host, Port: r.Ports[0], Until: r.Until,
			Provenance: policy.ProvenanceRemembered})
	}
	if err := portsKnown(rem.Rules, ap.Dests, np, o.Now); err != nil {
		return nil, err
	}
	if rem.Empty() {
		return rem, nil
	}

	// The new file is the old text with the rules inserted, so that the
	// user's comments and order survive; Append checks that it reads
	// back as the file plus the rules, in this order.
	for i := range rem.Net {
		rem.NetIndex = append(rem.NetIndex, len(p.File.Network.Rules)+i)
	}
	src := p.src
	if src == nil {
		src = policyfile.Format(p.File)
	}
	if rem.Text, err = policyfile.Append(path, src, rem.Rules, rem.Net); err != nil {
		return nil, &Error{Msg: err.Error(), Hint: "nothing was written"}
	}
	if err := p.check(path, rem.Text, ap, o.Now); err != nil {
		return nil, err
	}
	return rem, nil
}

// portsKnown refuses a remembered networkEgress rule for a host whose
// network rule cannot be written: no destination names its port, and the
// network section does not let it through already.
func portsKnown(rules []*policy.Rule, dests []netpolicy.Target, np *netpolicy.Policy, now time.Time) error {
	for _, r := range rules {
		if r.Class != action.NetworkEgress {
			continue
		}
		for _, h := range r.Hosts {
			if slices.ContainsFunc(dests, func(t netpolicy.Target) bool { return t.Host() == hostName(h) }) {
				continue
			}
			if np.CheckHostPattern(h, now).Verdict == action.Allow {
				continue
			}
			return &Error{
				Msg: fmt.Sprintf("the action reaches %s without showing its port, so the network rule the egress proxy reads cannot be written; "+
					"a guardrail rule alone would be honoured by the hooks and refused by warden run", h),
				Hint: fmt.Sprintf("name its destination too, host and port as warden net check takes it (warden policy remember --net %s:PORT); nothing was written", h),
			}
		}
	}
	return nil
}

// check reads text as the next command will — parsed as the file at path,
// compiled with the managed tier — and checks that it allows what was
// approved: the action, by the engine, and every destination, by the
// network tiers (the proxy's and warden net check's).
func (p *Policy) check(path string, text []byte, ap Approval, now time.Time) error {
	nf, err := policyfile.Parse(path, text)
	if err != nil {
		return fmt.Errorf("internal error: the remembered policy does not parse: %v", err)
	}
	eng, err := policy.Compile(nf.Policy, policy.Options{Home: p.home, Managed: p.ManagedSet()})
	if err != nil {
		return &Error{Msg: err.Error()}
	}
	const hint = "a more specific rule or the managed tier still decides it; nothing was written"
	if ap.Action != nil {
		if d, _ := eng.Evaluate(ap.Action, policy.Env{Now: now}); d.Verdict != action.Allow {
			return &Error{Msg: fmt.Sprintf("even with the remembered rules the action is %s (%s)", d.Verdict, d.Reason), Hint: hint}
		}
	}
	np := &Policy{File: nf, Managed: p.Managed, home: p.home}
	tiers, err := np.NetTiers()
	if err != nil {
		return err
	}
	for _, t := range ap.Dests {
		if d := tiers.CheckName(t, "", now); d.Verdict != action.Allow {
			return &Error{Msg: fmt.Sprintf("even with the remembered rules %s is denied (%s: %s)", t.HostPort(), d.Rule, d.Reason), Hint: hint}
		}
	}
	return nil
}

// Destinations are the network destinations an action shows with their
// port: the URL of a request (a fetch tool's), and the http and https
// URLs among the words of its commands ("https://pypi.org/simple/x",
// "--index-url=https://…"), each kept when its host is one of the
// action's hosts. A host reached without a URL (ssh, a git remote by
// name) shows no port and gives no destination.
func Destinations(r *request.Request, a *action.Action) []netpolicy.Target {
	var out []netpolicy.Target
	add := func(raw string) {
		t, err := netpolicy.ParseTarget(raw)
		if err != nil || !slices.ContainsFunc(a.Hosts, func(h string) bool { return hostName(h) == t.Host() }) {
			return
		}
		if !slices.ContainsFunc(out, func(o netpolicy.Target) bool { return o.HostPort() == t.HostPort() }) {
			out = append(out, t)
		}
	}
	if r != nil && r.URL != "" {
		add(r.URL)
	}
	for _, argv := range a.Commands {
		for _, w := range argv {
			if i := strings.Index(w, "://"); i > 0 {
				if j := strings.LastIndexByte(w[:i], '='); j >= 0 {
					w = w[j+1:]
				}
				add(w)
			}
		}
	}
	return out
}

// hostName is a host as a target names it: lower case, without a
// trailing dot or an IPv6 literal's brackets.
func hostName(h string) string {
	return strings.Trim(strings.TrimSuffix(strings.ToLower(h), "."), "[]")
}
