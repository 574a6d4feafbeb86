// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
)

// Rule is one egress rule as written in a policy. A rule matches a
// request when every matcher it sets matches; an unset matcher matches
// anything. A rule with neither Host nor AllowedIPs is a catch-all.
type Rule struct {
	// Name and Pos say where the rule is written; decisions name the
	// rule as "Name (Pos)", such as "network.rules[2] (policy.yaml:12:7)".
	// An empty Name becomes "network.rules[i]", i its index.
	Name string
	Pos  string
	// Verdict is [action.Allow] or [action.Deny].
	Verdict action.Verdict
	// Host is an exact name ("api.github.com", compared in lower case,
	// a trailing dot ignored), "*.domain" for names under domain at any
	// depth (never domain itself), or an IP address, which matches only a
	// request for that IP literal. Empty matches any host.
	Host string
	// AllowedIPs are addresses or CIDR prefixes; the address dialled must
	// be in one of them. An allow rule's prefix that lies inside a private
	// range opens that range.
	AllowedIPs []string
	// Ports restricts the destination port; empty matches any.
	Ports []int
	// Protocol is [HTTP], [HTTPS] or [TCP] (any CONNECT tunnel); empty
	// matches any.
	Protocol Protocol
	// Methods are HTTP methods; empty matches any. See [Policy.CheckName]
	// for a request whose method is not known.
	Methods []string
	// Disabled turns the rule off.
	Disabled bool
	// Until, when not zero, is when the rule stops applying.
	Until time.Time
}

// controlPlanePorts are denied on every destination: etcd (2379, 2380),
// the Kubernetes API server (6443) and the kubelet (10250, 10255 read-only).
// A sandbox that reaches them can often take over the cluster it runs in.
var controlPlanePorts = []uint16{2379, 2380, 6443, 10250, 10255}

// hostKind is what a rule's host matcher is.
type hostKind uint8

const (
	anyHost hostKind = iota
	exactHost
	wildcardHost
	ipHost
)

// rule is a compiled Rule.
type rule struct {
	label   string
	allow   bool
	kind    hostKind
	host    string // exact name, or the wildcard's suffix with its dot (".example.com")
	ip      netip.Addr
	ips     []netip.Prefix
	ports   []uint16
	proto   Protocol
	methods []string
	off     bool
	until   time.Time
}

// Policy is a compiled list of rules, evaluated top to bottom, first match
// wins, default deny. It is immutable and safe for concurrent use. A nil
// *Policy has no rules: it denies everything.
type Policy struct {
	rules []rule
}

// Compile checks rules and compiles them. It refuses what cannot mean what
// it says: a malformed host, address, port, protocol or method, and an
// allow rule naming only what is always denied (localhost, a loopback or
// metadata address, a control-plane port), which could never allow
// anything. Errors name the rule as "Pos: Name: …".
func Compile(rules []Rule) (*Policy, error) {
	p := &Policy{rules: make([]rule, 0, len(rules))}
	for i, r := range rules {
		cr, err := compileRule(r)
		name := r.Name
		if name == "" {
			name = fmt.Sprintf("network.rules[%d]", i)
		}
		if err != nil {
			if r.Pos != "" {
				return nil, fmt.Errorf("%s: %s: %v", r.Pos, name, err)
			}
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		cr.label = name
		if r.Pos != "" {
			cr.label += " (" + r.Pos + ")"
		}
		p.rules = append(p.rules, cr)
	}
	return p, nil
}

func compileRule(r Rule) (rule, error) {
	var cr rule
	switch r.Verdict {
	case action.Allow:
		cr.allow = true
	case action.Deny:
	default:
		return rule{}, fmt.Errorf("verdict %s: a network rule allows or denies", r.Verdict)
	}
	if err := cr.compileHost(r.Host); err != nil {
		return rule{}, err
	}
	for _, s := range r.AllowedIPs {
		p, err := parsePrefix(s)
		if err != nil {
			return rule{}, err
		}
		if cr.allow {
			if c, rng := lookup(p.Addr()); c == denied && rng.prefix.Bits() <= p.Bits() {
				return rule{}, fmt.Errorf("allowed_ips %s is always denied (%s): no rule can open it", s, rng.what)
			}
		}
		cr.ips = append(cr.ips, p)
	}
	for _, n := range r.Ports {
		if n < 1 || n > 65535 {
			return rule{}, fmt.Errorf("port %d is not in 1-65535", n)
		}
		if cr.allow && slices.Contains(controlPlanePorts, uint16(n)) {
			return rule{}, fmt.Errorf("port %d is a Kubernetes control-plane port, denied on every host: no rule can open it", n)
		}
		cr.ports = append(cr.ports, uint16(n))
	}
	switch r.Protocol {
	case "", HTTP, HTTPS, TCP:
		cr.proto = r.Protocol
	default:
		return rule{}, fmt.Errorf("protocol %q: want http, https or tcp", r.Protocol)
	}
	for _, m := range r.Methods {
		if m == "" || strings.IndexFunc(m, func(c rune) bool { return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') }) >= 0 {
			return rule{}, fmt.Errorf("%q is not an HTTP method", m)
		}
		cr.methods = append(cr.methods, strings.ToUpper(m))
	}
	cr.off, cr.until = r.Disabled, r.Until
	return cr, nil
}

func (cr *rule) compileHost(h string) error {
	if h == "" {
		return nil
	}
	if a, err := netip.ParseAddr(h); err == nil {
		if a.Zone() != "" {
			return fmt.Errorf("host %q: a rule cannot name a zone", h)
		}
		cr.kind, cr.ip = ipHost, a.Unmap()
		if ai := classify(cr.ip); cr.allow && ai.class == denied {
			return fmt.Errorf("host %s is always denied (%s): no rule can open it", h, ai.rng.what)
		}
		return nil
	}
	if rest, ok := strings.CutPrefix(h, "*."); ok {
		name, err := normalizeName(rest)
		if err != nil {
			return fmt.Errorf("host %q: %v", h, err)
		}
		if cr.allow && name == "localhost" {
			return fmt.Errorf("host %q: localhost and its subdomains are always denied: no rule can open them", h)
		}
		cr.kind, cr.host = wildcardHost, "."+name
		return nil
	}
	name, err := normalizeName(h)
	if err != nil {
		return fmt.Errorf("host %q: %v", h, err)
	}
	if _, ok := deniedName(name); ok && cr.allow {
		return fmt.Errorf("host %q is always denied: no rule can open it", h)
	}
	cr.kind, cr.host = exactHost, name
	return nil
}

// parsePrefix reads an address or a CIDR prefix; an IPv4-mapped prefix
// becomes the IPv4 prefix it maps.
func parsePrefix(s string) (netip.Prefix, error) {
	if a, err := netip.ParseAddr(s); err == nil {
		if a.Zone() != "" {
			return netip.Prefix{}, fmt.Errorf("allowed_ips %q: a rule cannot name a zone", s)
		}
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("allowed_ips %q is not an IP address or CIDR prefix", s)
	}
	if p.Addr().Is4In6() {
		if p.Bits() < 96 {
			return netip.Prefix{}, fmt.Errorf("allowed_ips %q: an IPv4-mapped prefix needs at least 96 bits", s)
		}
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return p.Masked(), nil
}

// active reports whether the rule applies at now.
func (cr *rule) active(now time.Time) bool {
	return !cr.off && (cr.until.IsZero() || now.Before(cr.until))
}

// matchHost reports whether the host matcher matches t.
func (cr *rule) matchHost(t *Target) bool {
	switch cr.kind {
	case anyHost:
		return true
	case exactHost:
		return t.name == cr.host
	case wildcardHost:
		return len(t.name) > len(cr.host) && strings.HasSuffix(t.name, cr.host)
	case ipHost:
		return t.addr.IsValid() && t.addr.WithZone("").Unmap() == cr.ip
	}
	return false
}

func (cr *rule) matchPort(p uint16) bool {
	return len(cr.ports) == 0 || slices.Contains(cr.ports, p)
}

func (cr *rule) matchProto(p Protocol) bool {
	return cr.proto == "" || cr.proto == p || cr.proto == TCP && p == HTTPS
}

// matchMethod matches a known method. An allow names the method exactly
// as a server reads it (policies hold upper case); a deny matches it in
// any case, since some servers read "post" as POST.
func (cr *rule) matchMethod(m string) bool {
	if len(cr.methods) == 0 {
		return true
	}
	for _, x := range cr.methods {
		if x == m || !cr.allow && strings.EqualFold(x, m) {
			return true
		}
	}
	return false
}

// grantsPrivate reports whether an allow rule that matched t and ai opens
// ai's private range: it names t's exact host, or one of its allowed_ips
// holding the address lies inside the range (so 0.0.0.0/0 opens no
// private range; 10.1.0.0/16 opens itself).
func (cr *rule) grantsPrivate(t *Target, ai addrInfo) bool {
	if cr.kind == exactHost && t.name != "" {
		return true
	}
	for _, p := range cr.ips {
		if ai.containedIn(p) && ai.rng.prefix.Bits() <= p.Bits() && ai.rng.prefix.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

// matchIPs reports whether ai is in the rule's allowed_ips (true when it
// has none).
func (cr *rule) matchIPs(ai addrInfo) bool {
	if len(cr.ips) == 0 {
		return true
	}
	for _, p := range cr.ips {
		if ai.containedIn(p) {
			return true
		}
	}
	return false
}

// describe is what the rule allows or denies, for a near miss:
// "allows api.github.com, port 443, methods GET, POST".
func (cr *rule) describe() string {
	var parts []string
	switch cr.kind {
	case anyHost:
		if len(cr.ips) == 0 {
			parts = append(parts, "any host")
		}
	case exactHost:
		parts = append(parts, cr.host)
	case wildcardHost:
		parts = append(parts, "*"+cr.host)
	case ipHost:
		parts = append(parts, cr.ip.String())
	}
	if len(cr.ips) > 0 {
		var s []string
		for _, p := range cr.ips {
			s = append(s, p.String())
		}
		parts = append(parts, "addresses in "+strings.Join(s, ", "))
	}
	if len(cr.ports) > 0 {
		var s []string
		for _, p := range cr.ports {
			s = append(s, fmt.Sprint(p))
		}
		parts = append(parts, "port "+strings.Join(s, ", "))
	}
	if cr.proto != "" {
		parts = append(parts, "protocol "+string(cr.proto))
	}
	if len(cr.methods) > 0 {
		parts = append(parts, "methods "+strings.Join(cr.methods, ", "))
	}
	verb := "denies "
	if cr.allow {
		verb = "allows "
	}
	return verb + strings.Join(parts, ", ")
}

// Methods lists the HTTP methods that the policy's allow rules name,
// upper case, each once. A caller that must decide a stream before its
// method is known (a CONNECT tunnel) can ask [Policy.CheckName] again
// with each: if one is allowed, the stream is worth intercepting, to
// judge each request in it with its own method.
func (p *Policy) Methods() []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, r := range p.rules {
		if !r.allow {
			continue
		}
		for _, m := range r.methods {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}
