// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

// How Warden's network: rules (package netpolicy: ordered, first match
// wins, default deny) become an OpenShell policy (deny by default, every
// allow an endpoint, deny rules only as REST deny_rules, global across the
// endpoints a request reaches). The rules:
//
//   - An export never widens, judged request by request as Warden's proxy
//     judges them when it sees the method (after TLS interception) and
//     connection by connection: what OpenShell could not be told exactly
//     is left out (Unmapped) or narrowed (Narrowed), and said so.
//   - Every allow rule is one network policy, keyed network_rules_NNN
//     after its index, for every binary ("/**"): Warden's rules do not
//     look at the caller.
//   - Hosts: exact names and IP literals as they are, Warden's "*.x.com"
//     (any depth, never the apex) as OpenShell's "**.x.com"; a rule for
//     any host is Unmapped, and so is "*.com", a wildcard OpenShell
//     refuses. A private IP literal is never opened by a Warden rule, so
//     it is left out with nothing lost.
//   - Ports: a rule for any port is Unmapped (an OpenShell endpoint names
//     its ports).
//   - Protocols: a rule without methods is an uninspected L4 endpoint
//     (tcp, https, or any); http is a REST endpoint allowing every method,
//     so that only HTTP passes as in Warden. A rule with methods is a REST
//     endpoint, enforcement: enforce, one allow rule a method on every
//     path; GET without HEAD adds a HEAD deny rule, since OpenShell's GET
//     matches HEAD.
//   - Deny rules matter only before the allows they overlap (after, the
//     default denies the same). One that denies all of an allow's
//     destinations makes the allow dead (left out, nothing lost). One
//     naming methods becomes deny_rules: on the allow's endpoint when it
//     covers the allow's hosts, else on an endpoint of its own for the
//     hosts they share, holding the allow's rules (which allow nothing
//     more there) so that its deny rules reach those hosts. One without
//     methods that denies part of an allow (a host under its wildcard,
//     some addresses) cannot be said: the allow is Unmapped.
//   - Disabled rules are left out; a rule with an end (until:) is left
//     out when it is an allow (OpenShell's would not end) and kept for
//     good when it is a deny (Narrowed).
//   - A name that resolves to a private address: Warden's exact-name
//     rule opens it, OpenShell needs allowed_ips for it: narrowed, said
//     in the policy's header.

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

// Export is a Warden policy's network rules as an OpenShell policy.
type Export struct {
	// YAML is the OpenShell policy file; [Parse] reads it back.
	YAML []byte
	// Items list every Warden rule and what became of it, in order.
	Items []Item
}

// Lossy reports whether some rule was narrowed or left out with what it
// allowed.
func (x *Export) Lossy() bool { return slices.ContainsFunc(x.Items, Item.Lost) }

// exported is one endpoint being written.
type exported struct {
	host       string
	ports      []int
	allowedIPs []string
	// rest: inspected; methods nil with rest is every method.
	rest    bool
	methods []string
	denies  []string // deny_rules methods
}

// ExportNetwork writes rules, as a policy file lists them, as an OpenShell
// policy, with the report of every rule (see export.go for the rules).
// now is the time at which until: is judged.
func ExportNetwork(rules []netpolicy.Rule, now time.Time) (*Export, error) {
	x := &Export{}
	eps := make([][]*exported, len(rules))
	for i, r := range rules {
		name := ruleName(r, i)
		it := Item{Construct: name}
		if r.Pos != "" {
			it.Construct += " (" + r.Pos + ")"
		}
		eps[i], it.Status, it.Note = exportRule(rules, i, now)
		x.Items = append(x.Items, it)
	}
	reach(rules, eps, x.Items)
	var b strings.Builder
	b.WriteString("version: 1\nnetwork_policies:")
	n := 0
	for i, es := range eps {
		if len(es) == 0 {
			continue
		}
		key := fmt.Sprintf("network_rules_%03d", i)
		fmt.Fprintf(&b, "\n  %s:\n    name: %q\n    endpoints:", key, ruleName(rules[i], i))
		for _, e := range es {
			b.WriteString(e.yaml())
		}
		b.WriteString("\n    binaries:\n      - path: /**")
		x.Items[i].Warden = key
		n++
	}
	if n == 0 {
		b.WriteString(" {}")
	}
	b.WriteString("\n")
	x.YAML = []byte(b.String())
	if _, err := Parse("export", x.YAML); err != nil {
		return nil, fmt.Errorf("internal error: the exported policy does not read back: %v", err)
	}
	return x, nil
}

func ruleName(r netpolicy.Rule, i int) string {
	if r.Name != "" {
		return r.Name
	}
	return fmt.Sprintf("network.rules[%d]", i)
}

// reach narrows the rules whose requests another rule's endpoint
// reaches: OpenShell inspects a connection when any endpoint for its
// host and port is inspected, allows what any of their rules allows, and
// denies what any of their deny rules denies.
func reach(rules []netpolicy.Rule, eps [][]*exported, items []Item) {
	for i, es := range eps {
		if items[i].Status != Mapped {
			continue
		}
	next:
		for _, e := range es {
			for j, os := range eps {
				if j == i {
					// A rule's own endpoints: the second and later
					// carry the deny rules of denies before it.
					continue
				}
				for _, o := range os {
					if !e.meets(o) {
						continue
					}
					if why := e.reachedBy(o); why != "" {
						items[i].Status = Narrowed
						items[i].Note = join(items[i].Note, fmt.Sprintf("shares host and port with %s, whose %s reach its requests in OpenShell", ruleName(rules[j], j), why))
						break next
					}
				}
			}
		}
	}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// meets reports whether e and o may serve the same host and port.
func (e *exported) meets(o *exported) bool {
	if !slices.ContainsFunc(e.ports, func(p int) bool { return slices.Contains(o.ports, p) }) {
		return false
	}
	return e.host == "" || o.host == "" || hostsMeet(strings.TrimPrefix(e.host, "*"), strings.TrimPrefix(o.host, "*"))
}

// reachedBy says what of o changes the requests e allows, or "".
func (e *exported) reachedBy(o *exported) string {
	if o.rest && !e.rest {
		return "inspection and rules"
	}
	for _, m := range o.denies {
		if slices.Contains(e.denies, m) {
			continue
		}
		if !e.rest || len(e.methods) == 0 || slices.Contains(e.methods, m) || (m == "HEAD" && slices.Contains(e.methods, "GET")) {
			return "deny rules (" + m + ")"
		}
	}
	return ""
}

// exportRule is rules[i]'s endpoints, given the rules before it.
func exportRule(rules []netpolicy.Rule, i int, now time.Time) ([]*exported, Status, string) {
	r := rules[i]
	switch {
	case r.Disabled:
		return nil, NotApplied, "disabled"
	case r.Verdict != action.Allow:
		switch {
		case !r.Until.IsZero() && !now.Before(r.Until):
			return nil, NotApplied, "ended " + r.Until.Format(time.RFC3339)
		case !r.Until.IsZero():
			return nil, Narrowed, "OpenShell's deny rules do not end: it holds after " + r.Until.Format(time.RFC3339)
		}
		return nil, Mapped, "a deny: the allows after it are written without what it denies"
	case !r.Until.IsZero():
		return nil, Unmapped, "allows until " + r.Until.Format(time.RFC3339) + "; OpenShell's allows do not end, so it is left out"
	}
	var notes []string
	st := Mapped
	e := &exported{allowedIPs: r.AllowedIPs}
	switch {
	case r.Host == "" && len(r.AllowedIPs) == 0:
		return nil, Unmapped, "any host: an OpenShell endpoint names a host or allowed_ips; left out"
	case r.Host == "":
	case strings.HasPrefix(r.Host, "*."):
		e.host = "*" + r.Host
	default:
		if a, err := netip.ParseAddr(r.Host); err == nil && !opensLiteral(a) {
			return nil, NotApplied, "a private or special IP literal, which no Warden rule opens; left out, nothing lost"
		}
		e.host = r.Host
	}
	for _, p := range r.Ports {
		if r.Protocol == netpolicy.HTTPS && p != 443 {
			// Only a URL names https on another port; a tunnel to it
			// is tcp.
			notes = append(notes, fmt.Sprintf("port %d left out: OpenShell cannot tell an https URL from a tunnel there", p))
			st = Narrowed
			continue
		}
		e.ports = append(e.ports, p)
	}
	switch {
	case len(r.Ports) == 0:
		return nil, Unmapped, "any port: an OpenShell endpoint names its ports; left out"
	case len(e.ports) == 0:
		if st == Narrowed {
			return nil, Unmapped, strings.Join(notes, "; ")
		}
		return nil, NotApplied, strings.Join(notes, "; ")
	}
	switch {
	case len(r.Methods) > 0:
		e.rest, e.methods = true, r.Methods
		if slices.Contains(r.Methods, "GET") && !slices.Contains(r.Methods, "HEAD") {
			e.denies = append(e.denies, "HEAD")
		}
	case r.Protocol == netpolicy.HTTP:
		e.rest = true
		notes = append(notes, "inspected, every method allowed: only HTTP passes, as in Warden")
	case r.Protocol == netpolicy.TCP:
		notes = append(notes, "an uninspected connection, as Warden's tcp (any tunnel)")
	}
	if e.host != "" {
		if err := validHost(e.host); err != nil {
			return nil, Unmapped, fmt.Sprintf("OpenShell refuses the host: %v; left out", err)
		}
	}
	eps := []*exported{e}
	// The deny rules before it.
	for j := range i {
		d := rules[j]
		if d.Verdict == action.Allow || d.Disabled || (!d.Until.IsZero() && !now.Before(d.Until)) || !overlaps(d, r) {
			continue
		}
		dname := d.Name
		if dname == "" {
			dname = fmt.Sprintf("network.rules[%d]", j)
		}
		if len(d.Methods) == 0 {
			if covers(d, r) {
				return nil, NotApplied, dname + " denies all of it first; left out, nothing lost"
			}
			return nil, Unmapped, dname + " denies part of what it allows, which OpenShell cannot say; left out"
		}
		if len(d.AllowedIPs) > 0 {
			return nil, Unmapped, dname + " denies methods by address, which OpenShell cannot say; left out"
		}
		if d.Protocol != "" && d.Protocol != r.Protocol {
			notes = append(notes, fmt.Sprintf("%s's methods are denied for every protocol, not %s alone", dname, d.Protocol))
			st = Narrowed
		}
		if !e.rest {
			// A deny naming methods judges requests: the connection
			// becomes inspected, every method allowed but the denied.
			e.rest = true
			notes = append(notes, "inspected, so that "+dname+"'s methods are denied")
		}
		// The deny reaches the hosts both match, on the ports both
		// match: on r's own endpoint when that is all of r's, else on an
		// endpoint of its own allowing what r allows there.
		c := &exported{host: e.host, allowedIPs: r.AllowedIPs, rest: true, methods: e.methods, denies: slices.Clone(d.Methods)}
		if !hostCovers(d.Host, r.Host) {
			c.host = "*" + d.Host
			if !strings.HasPrefix(d.Host, "*.") {
				c.host = d.Host
			}
		}
		for _, p := range e.ports {
			if len(d.Ports) == 0 || slices.Contains(d.Ports, p) {
				c.ports = append(c.ports, p)
			}
		}
		if c.host == e.host && len(c.ports) == len(e.ports) {
			e.denies = append(e.denies, d.Methods...)
			continue
		}
		if err := validHost(c.host); err != nil {
			return nil, Unmapped, fmt.Sprintf("%s's host cannot be an OpenShell endpoint (%v); left out", dname, err)
		}
		eps = append(eps, c)
	}
	for _, x := range eps {
		slices.Sort(x.denies)
		x.denies = slices.Compact(x.denies)
	}
	return eps, st, strings.Join(notes, "; ")
}

// opensLiteral reports whether Warden's own rules can open the IP
// literal a at all, asked of netpolicy itself, which holds the floor: a
// private or special address (metadata, NAT64, Azure's WireServer…) is
// opened only by allowed_ips, never by a rule naming it.
func opensLiteral(a netip.Addr) bool {
	p, err := netpolicy.Compile([]netpolicy.Rule{{Verdict: action.Allow, Host: a.String()}})
	if err != nil {
		return false
	}
	t, err := netpolicy.ParseTarget(netip.AddrPortFrom(a, 443).String())
	if err != nil {
		return false
	}
	return p.CheckName(t, "", time.Time{}).Verdict == action.Allow
}

// overlaps reports whether some request may match both d and r (taken
// wide: two host wildcards, or addresses, may always meet).
func overlaps(d, r netpolicy.Rule) bool {
	if !hostsMeet(d.Host, r.Host) {
		return false
	}
	if len(d.Ports) > 0 && len(r.Ports) > 0 && !slices.ContainsFunc(d.Ports, func(p int) bool { return slices.Contains(r.Ports, p) }) {
		return false
	}
	if d.Protocol != "" && r.Protocol != "" && d.Protocol != r.Protocol &&
		!(d.Protocol == netpolicy.TCP && r.Protocol == netpolicy.HTTPS) && !(r.Protocol == netpolicy.TCP && d.Protocol == netpolicy.HTTPS) {
		return false
	}
	if len(d.Methods) > 0 && len(r.Methods) > 0 && !slices.ContainsFunc(d.Methods, func(m string) bool { return slices.Contains(r.Methods, m) }) {
		return false
	}
	return true
}

// covers reports whether d matches every request r matches, methods
// aside.
func covers(d, r netpolicy.Rule) bool {
	switch {
	case len(d.AllowedIPs) > 0:
		return false
	case len(d.Ports) > 0 && (len(r.Ports) == 0 || slices.ContainsFunc(r.Ports, func(p int) bool { return !slices.Contains(d.Ports, p) })):
		return false
	case d.Protocol != "" && d.Protocol != r.Protocol && !(d.Protocol == netpolicy.TCP && r.Protocol == netpolicy.HTTPS):
		return false
	case len(d.Methods) > 0 && (len(r.Methods) == 0 || slices.ContainsFunc(r.Methods, func(m string) bool { return !slices.Contains(d.Methods, m) })):
		return false
	}
	return hostCovers(d.Host, r.Host)
}

// hostCovers reports whether Warden host matcher d matches every host r
// does.
func hostCovers(d, r string) bool {
	d, r = strings.ToLower(d), strings.ToLower(r)
	switch {
	case d == "":
		return true
	case r == "":
		return false
	case d == r:
		return true
	case strings.HasPrefix(d, "*."):
		return strings.HasSuffix(strings.TrimPrefix(r, "*"), d[1:])
	}
	return false
}

// hostsMeet reports whether Warden host matchers a and b may match the
// same host.
func hostsMeet(a, b string) bool {
	return hostCovers(a, b) || hostCovers(b, a)
}

// yaml writes the endpoint as an item of endpoints:.
func (e *exported) yaml() string {
	var b strings.Builder
	b.WriteString("\n      - ")
	lead := ""
	field := func(s string) {
		b.WriteString(lead + s)
		lead = "\n        "
	}
	if e.host != "" {
		field("host: " + strconv.Quote(e.host))
	}
	if len(e.ports) == 1 {
		field("port: " + strconv.Itoa(e.ports[0]))
	} else {
		var ps []string
		for _, p := range e.ports {
			ps = append(ps, strconv.Itoa(p))
		}
		field("ports: [" + strings.Join(ps, ", ") + "]")
	}
	if len(e.allowedIPs) > 0 {
		var qs []string
		for _, ip := range e.allowedIPs {
			qs = append(qs, strconv.Quote(ip))
		}
		field("allowed_ips: [" + strings.Join(qs, ", ") + "]")
	}
	if !e.rest {
		return b.String()
	}
	field("protocol: rest")
	field("enforcement: enforce")
	field("rules:")
	methods := e.methods
	if len(methods) == 0 {
		methods = []string{"*"}
	}
	for _, m := range methods {
		b.WriteString(fmt.Sprintf("\n          - allow: { method: %q, path: \"**\" }", m))
	}
	if len(e.denies) > 0 {
		field("deny_rules:")
		for _, m := range e.denies {
			b.WriteString(fmt.Sprintf("\n          - { method: %q, path: \"**\" }", m))
		}
	}
	return b.String()
}

// validHost checks h as OpenShell checks an endpoint's host.
func validHost(h string) error {
	_, err := checkHostPattern(h)
	return err
}
