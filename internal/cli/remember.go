// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"errors"
	"fmt"
	"strings"

	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

const rememberSynopsis = "policy remember --scope SCOPE --ttl DURATION [--command] [--net TARGET]... FILE < action.json\n" +
	"       warden policy remember --ttl DURATION --net TARGET... FILE"

// targets holds --net: destinations as warden net check takes them.
type targets []netpolicy.Target

func (ts *targets) String() string {
	var s []string
	for _, t := range *ts {
		s = append(s, t.HostPort())
	}
	return strings.Join(s, ",")
}

func (ts *targets) Set(v string) error {
	t, err := netpolicy.ParseTarget(v)
	if err != nil {
		return err
	}
	*ts = append(*ts, t)
	return nil
}

// policyRemember answers "remember this" for an approved action, or for
// approved network destinations alone (no --scope): the narrowest rules
// that let them through, with an expiry (config's Remember), written to
// the policy file only once the new policy is checked to allow them;
// otherwise it is left as it was.
func policyRemember(args []string) error {
	fs := newFlags("policy remember", rememberSynopsis)
	scopeFlag := fs.String("scope", "", "`scope` of the guardrail rules: workspace, agent:<id> or space:<id>; without it, only the --net destinations are remembered")
	ttl := fs.Duration("ttl", 0, "how long the approval lasts, e.g. 8h (required)")
	asCommand := fs.Bool("command", false, "remember the command invocations instead of the classes")
	var dests targets
	fs.Var(&dests, "net", "a network `TARGET` to remember, host:port or a URL, as warden net check takes it (repeatable)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return badInput("policy remember takes one policy file", "the action to remember is read as JSON on stdin")
	}
	lp, err := loadPolicy(files[0])
	if err != nil {
		return err
	}
	ap := config.Approval{Dests: dests}
	o := policy.RememberOptions{TTL: *ttl, Now: now(), Command: *asCommand}
	if *scopeFlag != "" || len(dests) == 0 || *asCommand {
		if o.Scope, err = policy.ParseScope(*scopeFlag); err != nil {
			return badInput(err.Error(), "remembered rules live at workspace, agent:<id> or space:<id>; network destinations alone need --net and no --scope")
		}
		req, err := request.Decode(Stdin)
		if err != nil {
			return badInput(err.Error())
		}
		if ap.Action, _, err = lp.Action(req, cwd()); err != nil {
			return badInput(err.Error())
		}
		ap.Dests = append(config.Destinations(req, ap.Action), dests...)
	}
	rem, err := lp.Remember(files[0], ap, o)
	if errors.Is(err, policy.ErrRememberUnbounded) {
		return badInput(err.Error(), "the action must name what to constrain the rule by (refs, paths or hosts)")
	}
	if errors.Is(err, policy.ErrRememberTTL) {
		return badInput(err.Error(), "give --ttl, e.g. --ttl 8h")
	}
	if err != nil {
		return err
	}
	if rem.Empty() {
		fmt.Fprintln(Stdout, "already allowed, by the rules and the network rules; nothing to remember")
		return nil
	}
	if err := writeFileAtomic(files[0], rem.Text); err != nil {
		return badInput(err.Error())
	}
	for _, l := range rememberedLines(rem) {
		fmt.Fprintf(Stdout, "remembered: %s\n", l)
	}
	return nil
}

// rememberedLines says what a remembered approval added, a rule a line.
func rememberedLines(rem *config.Remembered) []string {
	var out []string
	for _, r := range rem.Rules {
		out = append(out, policyfile.Sentence(r))
	}
	for i, r := range rem.Net {
		out = append(out, "network "+policyfile.NetSentence(r, rem.NetIndex[i]))
	}
	return out
}
