// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
)

// paths is a repeated path flag.
type paths []string

func (p *paths) String() string     { return strings.Join(*p, ",") }
func (p *paths) Set(v string) error { *p = append(*p, v); return nil }

// openShellPolicy reads path when it is an OpenShell policy file; nil
// (and no error) when path is empty or a Warden policy, which the
// caller loads as usual.
func openShellPolicy(path string) (*openshell.Policy, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil // the usual loading says what is wrong
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, policyfile.MaxSize+1))
	if err != nil || len(src) > policyfile.MaxSize || !openshell.Detect(src) {
		return nil, nil
	}
	p, err := openshell.Parse(path, src)
	if err != nil {
		return nil, badInput(err.Error(), "check the file against OpenShell's policy schema; every error names its line and column")
	}
	return p, nil
}

// openShellNet decides raw under the OpenShell policy p as OpenShell
// does (the endpoint and the calling binary in one rule; for an
// inspected endpoint, the request's method, path and query), then holds
// what it allows to Warden's floor as the proxy would when it dials: the
// addresses the name resolves to, never an always-denied one (loopback,
// link-local, metadata, this machine's own), a private one only inside
// the admitting endpoint's allowed_ips. Without --method the request is
// not known: an inspected endpoint's connection is allowed and its
// requests are said to be judged one by one.
func openShellNet(ctx context.Context, p *openshell.Policy, raw, method, binary string, ancestors []string, resolved answers, now time.Time) (netpolicy.Target, netpolicy.Decision) {
	t, err := netpolicy.ParseTarget(raw)
	if err != nil {
		return t, netpolicy.Refused(err)
	}
	ev := openshell.NewEvaluator(p, openshell.Options{})
	c := openshell.Conn{Host: t.Host(), Port: int(t.Port()), Binary: binary, Ancestors: ancestors}
	od := ev.Connect(c)
	d := osDecision(p, od)
	if od.Verdict == openshell.Deny {
		return t, d
	}
	if od.Inspect {
		switch {
		case t.IsURL() && method != "":
			target := t.Path()
			if target == "" {
				target = "/"
			}
			rd := ev.Request(openshell.Request{Conn: c, Method: method, Target: target})
			if d = osDecision(p, rd); rd.Verdict == openshell.Deny {
				return t, d
			}
		default:
			d.MethodDependent = true
			d.Reason += "; its requests are judged one by one (give --method and a URL to judge one)"
		}
	}
	// The floor, through Warden's own network check with one rule that
	// allows what the endpoint allows, addresses and all.
	floor := netpolicy.Rule{Name: "openshell", Verdict: action.Allow}
	if od.Endpoint != nil {
		for _, pr := range od.Endpoint.AllowedIPs {
			floor.AllowedIPs = append(floor.AllowedIPs, pr.String())
		}
	}
	fp, err := netpolicy.Compile([]netpolicy.Rule{floor})
	if err != nil {
		return t, netpolicy.Decision{Rule: "openshell", Reason: "internal error: " + err.Error()}
	}
	_, fd := decideNet(ctx, netpolicy.NewTiers(fp), raw, "", resolved, now)
	if rng, ok := strings.CutPrefix(fd.Rule, "private-range: "); ok && fd.Verdict != action.Allow {
		// Said in OpenShell's terms: only allowed_ips opens a private
		// address, whatever names the host.
		fd.Reason = fmt.Sprintf("%s resolves to an address in the private range %s, and the endpoint of policy %s that allows it lists no allowed_ips covering it", t.Host(), rng, od.Policy)
		fd.Hint = fmt.Sprintf("list the address, or a part of %s, in that endpoint's allowed_ips", rng)
	}
	if fd.Verdict != action.Allow {
		return t, fd
	}
	d.Addrs = fd.Addrs
	return t, d
}

// osDecision is an OpenShell decision in net check's terms; an audit
// (a denial OpenShell only logs) is an allow that says so.
func osDecision(p *openshell.Policy, od openshell.Decision) netpolicy.Decision {
	d := netpolicy.Decision{Rule: od.RuleName(), Reason: od.Reason, Hint: od.Hint}
	if od.Endpoint != nil {
		d.Rule += fmt.Sprintf(" (%s)", od.Endpoint.Pos)
	}
	if od.Verdict != openshell.Deny {
		d.Verdict = action.Allow
	}
	return d
}
