// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

// How an OpenShell policy maps onto Warden's own network: rules
// (package netpolicy: first match wins, default deny; a rule names a host,
// allowed_ips, ports, a protocol and HTTP methods, and sees neither the
// calling binary, nor paths, nor queries). The rules:
//
//   - A translation never widens: what a Warden rule would allow beyond
//     what OpenShell allows is not written; the grant is left out, and
//     its traffic is denied under Warden's rules (fail closed). Only the
//     evaluator of this package enforces such a grant as written.
//   - A network policy scoped to binaries (any list that is not "**" or
//     "/**") cannot be expressed: each of its endpoints is Unmapped.
//   - Hosts: exact names and IP literals map as they are; "**.x.com" is
//     Warden's "*.x.com" (any depth, never the apex); every other glob
//     ("*.x.com" is one label only in OpenShell) is Unmapped.
//   - Ports: the Kubernetes control-plane ports, which Warden denies on
//     every host and OpenShell only on private-admitting paths, are
//     dropped (Narrowed).
//   - REST: rules whose paths are all "**" without a query map to
//     methods (GET adds HEAD, "*" any method); deny rules of that shape
//     to deny rules written before every allow; any path or query
//     matcher makes the endpoint Unmapped. An endpoint that does not
//     enforce (audit) only logs in OpenShell, so its methods in Warden
//     block what OpenShell would forward: Narrowed.
//   - WebSocket, GraphQL, MCP and JSON-RPC: Unmapped. tls: skip, sql and
//     tcp endpoints are not inspected by OpenShell and map as L4 rules.
//   - Everything that is not a network grant (filesystem, landlock,
//     process, middlewares, credential options) is NotApplied: Warden's
//     network: rules do not carry it.

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

// Status is what became of one construct of an OpenShell policy in
// Warden's network: rules.
type Status uint8

// Statuses, from the exact to the absent.
const (
	// Mapped: the Warden rules allow and deny exactly what OpenShell
	// does for this construct.
	Mapped Status = iota
	// Narrowed: the Warden rules allow less (fail closed).
	Narrowed
	// Unmapped: not expressible; left out, so its traffic is denied.
	Unmapped
	// NotApplied: not a network grant, or a protection OpenShell
	// applies that Warden's network rules do not carry.
	NotApplied
)

// String returns "mapped", "narrowed", "unmapped" or "not applied".
func (s Status) String() string {
	return [...]string{"mapped", "narrowed", "unmapped", "not applied"}[s]
}

// Item is one construct of the policy and what became of it.
type Item struct {
	Pos Pos
	// Construct names it: "network_policies.github.endpoints[0]".
	Construct string
	Status    Status
	// Warden is the network: rule written for it, in the policy file's
	// flow form, or "".
	Warden string
	// Note says what differs and what happens instead.
	Note string
}

// String says what became of the construct, on one line: "construct:
// status as rule (note)".
func (it Item) String() string {
	line := fmt.Sprintf("%s: %s", it.Construct, it.Status)
	if it.Warden != "" {
		line += " as " + it.Warden
	}
	if it.Note != "" {
		line += " (" + it.Note + ")"
	}
	return strings.ReplaceAll(line, "\n", " ")
}

// Lost reports whether the construct was narrowed or left out with what
// it allowed.
func (it Item) Lost() bool { return it.Status == Narrowed || it.Status == Unmapped }

// Report is the translation of an OpenShell policy into Warden's
// network: rules.
type Report struct {
	// Rules are the Warden rules, deny rules first, in the order they
	// must be evaluated; each compiles with [netpolicy.Compile].
	Rules []netpolicy.Rule
	// Items list every construct of the policy, in file order.
	Items []Item
}

// Import translates p into Warden's network: rules and reports on every
// construct, mapped or not (see import.go for the rules). It never widens
// what p allows as an [Evaluator] with the same options decides it: with
// o.EndpointOnly (OpenShell's relaxed binary identity), a policy scoped
// to binaries admits every caller, and maps.
func Import(p *Policy, o Options) Report {
	var r Report
	var denies, allows []netpolicy.Rule
	if fs := p.Filesystem; fs != nil {
		r.Items = append(r.Items, Item{Pos: fs.Pos, Construct: "filesystem_policy", Status: NotApplied,
			Note: "not a network rule; Warden's sandbox section holds its own read_only and read_write lists"})
	}
	if p.Landlock != "best_effort" {
		r.Items = append(r.Items, Item{Pos: p.LandlockPos, Construct: "landlock", Status: NotApplied, Note: "Warden's sandbox decides how it applies Landlock"})
	}
	if pr := p.Process; pr != nil {
		r.Items = append(r.Items, Item{Pos: pr.Pos, Construct: "process", Status: NotApplied, Note: "Warden runs the agent as the calling user"})
	}
	var all []*mapped
	for _, np := range p.Network {
		all = append(all, importPolicy(np, o.EndpointOnly)...)
	}
	demoteOverlaps(all)
	for _, m := range all {
		r.Items = append(r.Items, m.items...)
		if m.items[0].Status == Mapped || m.items[0].Status == Narrowed {
			denies = append(denies, m.denies...)
			allows = append(allows, m.rule)
		}
	}
	for _, mw := range p.Middlewares {
		r.Items = append(r.Items, Item{Pos: mw.Pos, Construct: "network_middlewares." + mw.Key, Status: NotApplied,
			Note: fmt.Sprintf("Warden does not run OpenShell middlewares: %s is not applied", mw.Middleware)})
	}
	r.Rules = append(denies, allows...)
	slices.SortStableFunc(r.Items, func(a, b Item) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return r
}

// allBinaries reports whether bins admit every executable.
func allBinaries(bins []*Binary) bool {
	for _, b := range bins {
		if b.Path == "**" || b.Path == "/**" {
			return true
		}
	}
	return false
}

// mapped is one endpoint's translation: its rules, and its items (the
// endpoint's first, then its options').
type mapped struct {
	e      *Endpoint
	rule   netpolicy.Rule
	denies []netpolicy.Rule
	items  []Item
}

func importPolicy(np *NetworkPolicy, endpointOnly bool) []*mapped {
	prefix := "network_policies." + np.Key
	scoped := !endpointOnly && !allBinaries(np.Binaries)
	var names []string
	for _, b := range np.Binaries {
		names = append(names, b.Path)
	}
	var out []*mapped
	for i, e := range np.Endpoints {
		name := fmt.Sprintf("%s.endpoints[%d]", prefix, i)
		it := Item{Pos: e.Pos, Construct: name}
		rule, deny, status, note := importEndpoint(e)
		switch {
		case status == Unmapped:
		case scoped:
			status = Unmapped
			note = fmt.Sprintf("scoped to binaries %s; Warden's network rules do not see the calling binary, so it is left out (would be %s)",
				strings.Join(names, ", "), flow(rule))
		default:
			rule.Name, rule.Pos = name, e.Pos.String()
			for j := range deny {
				deny[j].Name, deny[j].Pos = fmt.Sprintf("%s.deny_rules[%d]", name, j), e.Pos.String()
			}
			if _, err := netpolicy.Compile(append([]netpolicy.Rule{rule}, deny...)); err != nil {
				status, note = Unmapped, fmt.Sprintf("Warden refuses the rule: %v", err)
				break
			}
			it.Warden = flow(rule)
			for _, d := range deny {
				it.Warden += "; " + flow(d)
			}
		}
		it.Status, it.Note = status, note
		m := &mapped{e: e, rule: rule, denies: deny, items: []Item{it}}
		for _, opt := range e.Options {
			m.items = append(m.items, Item{Pos: e.Pos, Construct: name + "." + opt, Status: NotApplied,
				Note: "credential and protocol options are not carried by Warden's network rules"})
		}
		out = append(out, m)
	}
	return out
}

// demoteOverlaps leaves out a mapped endpoint that shares a host and port
// with an inspected endpoint whose rules Warden does not carry: OpenShell
// inspects such a connection (a plain endpoint beside an inspected one
// does not bypass inspection, and deny rules reach across policies), so
// the mapped rule alone would allow more.
func demoteOverlaps(all []*mapped) {
	for _, m := range all {
		it := &m.items[0]
		if it.Status != Mapped && it.Status != Narrowed {
			continue
		}
		for _, o := range all {
			if o == m || !inspected(o.e) || o.e.TLS == "skip" || !overlap(m.e, o.e) {
				continue
			}
			carried := o.items[0].Status == Mapped || o.items[0].Status == Narrowed
			if carried && inspected(m.e) && m.e.TLS != "skip" {
				continue
			}
			it.Status, it.Warden = Unmapped, ""
			it.Note = fmt.Sprintf("shares host and port with %s, which OpenShell inspects and Warden's rules cannot: left out (would be %s)", o.items[0].Construct, flow(m.rule))
			break
		}
	}
}

// overlap reports whether two endpoints may serve the same host and port.
// A hostless endpoint overlaps any host, and two globs are taken to
// overlap.
func overlap(a, b *Endpoint) bool {
	var hostsMay bool
	switch {
	case a.Host == "" || b.Host == "" || (a.host != nil && b.host != nil):
		hostsMay = true
	case a.host != nil:
		hostsMay = a.host.match(strings.ToLower(b.Host))
	case b.host != nil:
		hostsMay = b.host.match(strings.ToLower(a.Host))
	default:
		hostsMay = strings.EqualFold(a.Host, b.Host)
	}
	if !hostsMay {
		return false
	}
	for _, p := range a.Ports {
		if slices.Contains(b.Ports, p) {
			return true
		}
	}
	return false
}

// controlPlane are ports Warden denies on every destination.
var controlPlane = []int{2379, 2380, 6443, 10250, 10255}

// importEndpoint maps one endpoint, ignoring binaries.
func importEndpoint(e *Endpoint) (rule netpolicy.Rule, denies []netpolicy.Rule, st Status, note string) {
	rule.Verdict = action.Allow
	var notes []string
	narrowed := false
	switch {
	case e.Host == "":
	case e.host == nil:
		rule.Host = strings.ToLower(e.Host)
		if a, err := netip.ParseAddr(e.Host); err == nil && a.Unmap().IsPrivate() {
			notes = append(notes, "a private IP literal: Warden's rules open private ranges only to exact names and allowed_ips")
			narrowed = true
		}
	case strings.HasPrefix(e.Host, "**.") && !strings.Contains(e.Host[3:], "*"):
		rule.Host = "*." + strings.ToLower(e.Host[3:])
	default:
		return rule, nil, Unmapped, fmt.Sprintf("host glob %q has no Warden equivalent (Warden's *.domain is any depth); left out", e.Host)
	}
	for _, pfx := range e.AllowedIPs {
		rule.AllowedIPs = append(rule.AllowedIPs, prefixText(pfx))
	}
	for _, port := range e.Ports {
		if slices.Contains(controlPlane, port) {
			notes = append(notes, fmt.Sprintf("port %d dropped: Warden denies Kubernetes control-plane ports on every host", port))
			continue
		}
		rule.Ports = append(rule.Ports, port)
	}
	if len(rule.Ports) == 0 {
		return rule, nil, Unmapped, strings.Join(notes, "; ")
	}
	if e.Protocol == ProtoTCP {
		rule.Protocol = netpolicy.TCP
		notes = append(notes, "OpenShell's transparent TCP with policy DNS becomes a CONNECT tunnel through Warden's proxy")
	}
	if e.Protocol == ProtoSQL {
		notes = append(notes, "sql is audit-only in OpenShell: mapped as an uninspected connection")
	}
	if inspected(e) && e.TLS == "skip" {
		notes = append(notes, "tls: skip is never inspected: mapped as an uninspected connection")
	} else if inspected(e) {
		if e.Protocol != ProtoREST {
			return rule, nil, Unmapped, fmt.Sprintf("%s inspection has no Warden network rule; left out, so it is denied", e.Protocol)
		}
		if e.Path != "" && e.Path != "/**" && e.Path != "**" {
			return rule, nil, Unmapped, fmt.Sprintf("endpoint path %q selects requests by path, which Warden's network rules do not see; left out", e.Path)
		}
		methods, ok := restMethods(e.Rules)
		if !ok {
			return rule, nil, Unmapped, "rules match paths or queries, which Warden's network rules do not see; left out, so they are denied"
		}
		rule.Methods = methods
		for _, m := range e.DenyRules {
			dm, ok := restMethods([]*Matcher{m})
			if !ok {
				return rule, nil, Unmapped, "a deny rule matches paths or queries, which Warden's network rules do not see: without it the endpoint would allow more, so it is left out"
			}
			d := netpolicy.Rule{Verdict: action.Deny, Host: rule.Host, AllowedIPs: rule.AllowedIPs, Ports: rule.Ports, Methods: dm}
			denies = append(denies, d)
		}
		if !e.Enforced() {
			notes = append(notes, "enforcement is audit in OpenShell (denied requests forwarded); Warden blocks them")
		}
	}
	st = Mapped
	if narrowed || len(rule.Ports) < len(e.Ports) || (inspected(e) && !e.Enforced() && e.TLS != "skip") {
		st = Narrowed
	}
	return rule, denies, st, strings.Join(notes, "; ")
}

// restMethods returns the methods of REST matchers whose paths are all
// "**" (or unset) and that have no query: nil for any method.
func restMethods(ms []*Matcher) ([]string, bool) {
	var out []string
	for _, m := range ms {
		if (m.Path != "" && m.Path != "**") || len(m.Query) > 0 {
			return nil, false
		}
		switch m.Method {
		case "", "*":
			return nil, true
		case "GET":
			out = append(out, "GET", "HEAD")
		default:
			out = append(out, m.Method)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

func prefixText(p netip.Prefix) string {
	if p.IsSingleIP() {
		return p.Addr().String()
	}
	return p.String()
}

// flow writes a Warden rule as the policy file's flow form.
func flow(r netpolicy.Rule) string {
	var parts []string
	if r.Host != "" {
		parts = append(parts, "host: "+quoteHost(r.Host))
	}
	if len(r.AllowedIPs) > 0 {
		parts = append(parts, "allowed_ips: ["+strings.Join(r.AllowedIPs, ", ")+"]")
	}
	if len(r.Ports) > 0 {
		var ps []string
		for _, p := range r.Ports {
			ps = append(ps, strconv.Itoa(p))
		}
		parts = append(parts, "ports: ["+strings.Join(ps, ", ")+"]")
	}
	if r.Protocol != "" {
		parts = append(parts, "protocol: "+string(r.Protocol))
	}
	if len(r.Methods) > 0 {
		parts = append(parts, "methods: ["+strings.Join(r.Methods, ", ")+"]")
	}
	verb := "allow"
	if r.Verdict == action.Deny {
		verb = "deny"
	}
	return verb + ": {" + strings.Join(parts, ", ") + "}"
}

func quoteHost(h string) string {
	if strings.HasPrefix(h, "*") || strings.Contains(h, ":") {
		return strconv.Quote(h)
	}
	return h
}
