// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy

// How the tiers combine. The rules:
//
//   - A destination must be allowed by every tier: the policy file's
//     network rules and, when it has a network section, the managed
//     tier's. The first tier that denies decides, and its decision is
//     the answer; when all allow, the answer is the first tier's (the
//     policy file's rule, the one a person wrote for the project), with
//     the addresses to dial, which every tier gives the same.
//   - MethodDependent is set when it is set by any tier asked.
//   - A flow (a request or stream through the proxy) whose protocol is not
//     known yet (a CONNECT before its first byte) is tried with each
//     protocol it could turn out to be, the most natural first; one whose
//     method is not known (a stream) and whose verdict depends on it is
//     tried with each method the allow rules name, then with the common
//     ones ([streamMethods]). The first way in which every tier allows
//     wins, and asks for interception when it took a method the flow did
//     not show or a rule naming methods took part; else the first deny
//     of the most natural reading is the answer.
//
// `warden net check` and the egress proxy both ask through [Tiers], so
// that net check answers what the proxy does.

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"time"

	"warden.dev/warden/internal/action"
)

// Tiers are the network policies a destination must satisfy together:
// the policy file's, and the managed tier's when it has a network
// section. Tiers are immutable and safe for concurrent use.
type Tiers struct {
	ps []*Policy
	// methods are what a flow whose method is not known is tried with:
	// those the allow rules name, then streamMethods.
	methods []string
}

// streamMethods are the methods a stream whose verdict depends on its
// method is tried with, after those the allow rules name. A rule that
// denies some methods leaves the others to the rules after it (deny
// DELETE, then allow everything): a stream is tried with the common
// methods too, or the deny would refuse it whole.
var streamMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// NewTiers combines compiled policies, the policy file's first, then the
// managed tier's when it has a network section (a managed tier without
// one has no say). Every one must allow. With none, everything is denied.
func NewTiers(policies ...*Policy) *Tiers {
	if len(policies) == 0 {
		policies = []*Policy{nil}
	}
	ts := &Tiers{ps: slices.Clone(policies)}
	for _, p := range ts.ps {
		ts.methods = appendNew(ts.methods, p.Methods()...)
	}
	ts.methods = appendNew(ts.methods, streamMethods...)
	return ts
}

func appendNew(s []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	return s
}

// WithFirst returns the tiers with p in place of the first (the policy
// file's): the other tiers keep their say.
func (ts *Tiers) WithFirst(p *Policy) *Tiers {
	ps := slices.Clone(ts.ps)
	ps[0] = p
	return NewTiers(ps...)
}

// NamesMethods reports whether a rule of any tier, allow or deny, enabled
// or not, names HTTP methods: verdicts then depend on the method, which
// only an intercepted stream shows.
func (ts *Tiers) NamesMethods() bool {
	for _, p := range ts.ps {
		for _, r := range p.ruleList() {
			if len(r.methods) > 0 {
				return true
			}
		}
	}
	return false
}

// all asks every tier with check; see the rules at the top of the file.
func (ts *Tiers) all(check func(*Policy) Decision) Decision {
	var allowed Decision
	dep := false
	for i, p := range ts.ps {
		d := check(p)
		dep = dep || d.MethodDependent
		if d.Verdict != action.Allow {
			d.MethodDependent = dep
			return d
		}
		if i == 0 {
			allowed = d
		}
	}
	allowed.MethodDependent = dep
	return allowed
}

// CheckName is [Policy.CheckName] asked of every tier.
func (ts *Tiers) CheckName(t Target, method string, now time.Time) Decision {
	return ts.all(func(p *Policy) Decision { return p.CheckName(t, method, now) })
}

// CheckAddrs is [Policy.CheckAddrs] asked of every tier.
func (ts *Tiers) CheckAddrs(t Target, method string, addrs []netip.Addr, now time.Time) Decision {
	return ts.all(func(p *Policy) Decision { return p.CheckAddrs(t, method, addrs, now) })
}

// CheckHost is [Policy.CheckHost] asked of every tier: the DNS stub's
// question, could any request to name be allowed by all of them?
func (ts *Tiers) CheckHost(name string, now time.Time) Decision {
	return ts.all(func(p *Policy) Decision { return p.CheckHost(name, now) })
}

// Check takes the whole decision for t, as the proxy takes it for a
// request whose protocol and method are known: by name first, where a
// deny is final and nothing is resolved; then, for a name, resolve is
// called once and every tier judges its answer (for an IP literal,
// nothing is resolved). A failed resolution leaves no address (denied),
// and its error is added to the reason. This is `warden net check`'s
// decision; what the proxy checks itself when it dials (the addresses of
// its own machine) is the caller's.
func (ts *Tiers) Check(t Target, method string, resolve func(host string) ([]netip.Addr, error), now time.Time) Decision {
	byName := ts.CheckName(t, method, now)
	if byName.Verdict != action.Allow {
		return byName
	}
	var (
		addrs     []netip.Addr
		lookupErr error
	)
	if _, isIP := t.IP(); !isIP {
		addrs, lookupErr = resolve(t.Host())
	}
	d := ts.CheckAddrs(t, method, addrs, now)
	d.MethodDependent = d.MethodDependent || byName.MethodDependent
	if d.Verdict != action.Allow && lookupErr != nil && len(addrs) == 0 {
		d.Reason += fmt.Sprintf(" (%v)", lookupErr)
	}
	return d
}

// Flow is a request or a stream through the proxy, as the proxy knows it
// when it asks: the destination, and its protocol and method once they
// are known.
type Flow struct {
	// Host is the destination as the sandbox named it: a name or an IP
	// address (without brackets).
	Host string
	Port int
	// Protocol is HTTP, HTTPS or TCP; "" for a stream that has not
	// started (a CONNECT or SOCKS5 request), which could be any.
	Protocol Protocol
	// Method is a request's HTTP method; "" for a stream, whose requests,
	// if any, are not seen unless it is intercepted.
	Method string
	// Path is a request's path, "" for a stream; rules never match it.
	Path string
}

// protocols are the protocols to try for f: its own, or, for a stream not
// started yet, each one it could turn out to be, the most natural first.
func (f Flow) protocols() []Protocol {
	if f.Protocol != "" {
		return []Protocol{f.Protocol}
	}
	if f.Port == 443 {
		return []Protocol{HTTPS, TCP, HTTP}
	}
	return []Protocol{TCP, HTTP, HTTPS}
}

// target is f as a [Target] of protocol proto: a URL for http and https,
// a bare authority for tcp (or https on 443).
func (f Flow) target(proto Protocol) (Target, error) {
	host := f.Host
	if a, err := netip.ParseAddr(host); err == nil && a.Is6() {
		host = "[" + host + "]"
	}
	auth := host + ":" + strconv.Itoa(f.Port)
	switch proto {
	case HTTP, HTTPS:
		path := f.Path
		if path == "" {
			path = "/"
		}
		return ParseTarget(string(proto) + "://" + auth + path)
	}
	return ParseTarget(auth)
}

// CheckFlowName is [Tiers.CheckName] for a flow, which is tried with each
// protocol and method it could have (see the rules at the top of the
// file). intercept, on an Allow, asks that each request of the stream be
// judged with its own method: it was allowed only for some methods, or
// with rules on methods in play. On a Deny, intercept is false.
func (ts *Tiers) CheckFlowName(f Flow, now time.Time) (d Decision, intercept bool) {
	return ts.decideFlow(f, func(t Target, m string) Decision { return ts.CheckName(t, m, now) })
}

// CheckFlowAddrs is [Tiers.CheckAddrs] for a flow, tried as
// [Tiers.CheckFlowName] is.
func (ts *Tiers) CheckFlowAddrs(f Flow, addrs []netip.Addr, now time.Time) (d Decision, intercept bool) {
	return ts.decideFlow(f, func(t Target, m string) Decision { return ts.CheckAddrs(t, m, addrs, now) })
}

// decideFlow asks every tier with check, for each protocol f could have
// and, when the verdict depends on a method not known yet, each method
// the rules name; the first way in which every tier allows wins, else the
// first deny of the most natural reading.
func (ts *Tiers) decideFlow(f Flow, check func(t Target, method string) Decision) (Decision, bool) {
	var first *Decision
	for _, proto := range f.protocols() {
		t, err := f.target(proto)
		if err != nil {
			return Refused(err), false
		}
		methods := []string{f.Method}
		for i := 0; i < len(methods); i++ {
			m := methods[i]
			d := check(t, m)
			if d.Verdict == action.Allow {
				// Allowed only for some methods, or with rules
				// on methods in play: judge each request.
				return d, m != f.Method || d.MethodDependent
			}
			if first == nil {
				first = &d
			}
			if d.MethodDependent && m == "" && len(methods) == 1 && proto != TCP {
				// Worth intercepting if some method is allowed
				// (a tcp stream shows none).
				methods = append(methods, ts.methods...)
			}
		}
	}
	return *first, false
}
