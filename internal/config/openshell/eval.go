// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

// How a connection and a request are decided (research note §4). The
// rules, which the package doc states for users:
//
//   - deny by default: no network policy, an unidentified caller, a host
//     that is not a name or address, or no endpoint, deny;
//   - a connection is allowed when one network policy has both an
//     endpoint matching host and port and a binary matching the caller's
//     executable or one of its ancestors'; the policy named is the
//     smallest key that allows;
//   - a request on an allowed connection is inspected when an endpoint
//     of those policies with an inspected protocol (rest, websocket,
//     graphql, mcp, json-rpc) matches host and port; the one whose
//     endpoint path selects the request with the highest specificity
//     decides how (protocol, tls, enforcement); a plain L4 endpoint on
//     the same host:port does not bypass it;
//   - for rest, allows are existential over every rest endpoint of
//     those policies that selects the request, deny rules are global
//     over the same set and win;
//   - a denied request under an endpoint whose enforcement is not
//     enforce is forwarded (Audit); a request refused before the rules
//     (its path or query), or one needing an inspection Warden does not
//     implement, is denied whatever the enforcement.

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Verdict is what a decision does. The zero Verdict is Deny.
type Verdict uint8

// Verdicts.
const (
	// Deny refuses the connection or request.
	Deny Verdict = iota
	// Allow lets it through.
	Allow
	// Audit is a denied request on an endpoint that does not enforce:
	// it is logged and forwarded.
	Audit
)

// String returns "deny", "allow" or "audit".
func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Audit:
		return "audit"
	}
	return "deny"
}

// Layers a decision is made at.
const (
	L4 = "l4"
	L7 = "l7"
)

// Conn is a connection as the caller resolved it: the host and port asked
// for, and the caller's executable and its ancestors' executables (the
// kernel's /proc/PID/exe paths, parent first), never argv.
type Conn struct {
	Host      string
	Port      int
	Binary    string
	Ancestors []string
}

// Request is an HTTP request on a connection. Target is the request
// target as sent: the path and, after ?, the raw query.
type Request struct {
	Conn
	Method string
	Target string
}

// Options are what the evaluator is told about its environment.
type Options struct {
	// Symlinks maps a binary path of the policy that is a symlink to the
	// path it resolves to inside the sandbox; either form matches the
	// caller. Globs are not resolved.
	Symlinks map[string]string
	// EndpointOnly ignores binaries: every policy admits any caller
	// (OpenShell's relaxed binary identity).
	EndpointOnly bool
}

// Decision is the answer to a connection or a request. A deny is a
// result, not an error.
type Decision struct {
	Verdict Verdict
	// Layer is L4 (the connection decided it) or L7 (a request rule).
	Layer string
	// Policy is the key of the network policy that decided, when one
	// did; Rule where in it: "endpoints[0]", "endpoints[0].rules[1]",
	// "endpoints[0].deny_rules[0]".
	Policy, Rule string
	// Reason says why, naming the policy and rule.
	Reason string
	// Hint, when set, says what might be meant (a binary that is a
	// symlink).
	Hint string
	// Endpoint is the endpoint that decided or, for a connection, the
	// first that allowed it.
	Endpoint *Endpoint
	// Inspect, on an allowed connection, says its requests must be
	// decided with [Evaluator.Request].
	Inspect bool
	// Path is the request's canonical path, which is what is forwarded.
	Path string
}

// Evaluator decides connections and requests under one policy. It is
// immutable and safe for concurrent use.
type Evaluator struct {
	p   *Policy
	opt Options
}

// NewEvaluator returns an evaluator for p. A nil p denies everything.
func NewEvaluator(p *Policy, opt Options) *Evaluator {
	if p == nil {
		p = &Policy{}
	}
	return &Evaluator{p: p, opt: opt}
}

// hit is an endpoint that a connection reached, in a policy that admits
// the caller.
type hit struct {
	np *NetworkPolicy
	i  int
	e  *Endpoint
}

func (h hit) where() string { return fmt.Sprintf("endpoints[%d]", h.i) }

// Connect decides a connection.
func (ev *Evaluator) Connect(c Conn) Decision {
	hits, d := ev.connect(c)
	if d.Verdict == Allow {
		for _, h := range hits {
			if inspected(h.e) && h.e.TLS != "skip" {
				d.Inspect = true
			}
		}
	}
	return d
}

// inspected reports whether e's requests are parsed and judged.
func inspected(e *Endpoint) bool {
	switch e.Protocol {
	case ProtoREST, ProtoWebSocket, ProtoGraphQL, ProtoMCP, ProtoJSONRPC:
		return true
	}
	return false
}

func (ev *Evaluator) connect(c Conn) ([]hit, Decision) {
	deny := Decision{Layer: L4}
	if len(ev.p.Network) == 0 {
		deny.Reason = "network connections not allowed by policy"
		return nil, deny
	}
	host, err := normalHost(c.Host)
	if err != nil {
		deny.Reason = fmt.Sprintf("%v: %q", err, c.Host)
		return nil, deny
	}
	if c.Binary == "" {
		deny.Reason = "caller binary not identified: connections need a known executable"
		return nil, deny
	}
	var hits []hit
	var missed []*NetworkPolicy
	var via string
	for _, np := range ev.p.Network {
		var eh []hit
		for i, e := range np.Endpoints {
			if e.matchHost(host) && containsPort(e.Ports, c.Port) {
				eh = append(eh, hit{np, i, e})
			}
		}
		if len(eh) == 0 {
			continue
		}
		if ev.opt.EndpointOnly {
			hits = append(hits, eh...)
			continue
		}
		if p, ok := ev.binaryMatch(np, c); ok {
			if via == "" {
				via = p
			}
			hits = append(hits, eh...)
		} else {
			missed = append(missed, np)
		}
	}
	hp := hostPort(host, c.Port)
	if len(hits) == 0 {
		if len(missed) == 0 {
			deny.Reason = fmt.Sprintf("endpoint %s not allowed by any policy", hp)
			return nil, deny
		}
		np := missed[0]
		deny.Policy = np.Key
		deny.Reason = fmt.Sprintf("binary %s%s not allowed in policy %s for %s", c.Binary, ancestors(c), np.Key, hp)
		deny.Hint = ev.symlinkHint(np, c)
		return nil, deny
	}
	h := hits[0]
	d := Decision{Verdict: Allow, Layer: L4, Policy: h.np.Key, Rule: h.where(), Endpoint: h.e}
	if ev.opt.EndpointOnly {
		d.Reason = fmt.Sprintf("%s allowed by policy %s (%s); binaries not checked", hp, h.np.Key, h.where())
	} else {
		d.Reason = fmt.Sprintf("%s allowed by policy %s (%s) for binary %s", hp, h.np.Key, h.where(), via)
	}
	return hits, d
}

func hostPort(host string, port int) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + strconv.Itoa(port)
	}
	return host + ":" + strconv.Itoa(port)
}

func ancestors(c Conn) string {
	if len(c.Ancestors) == 0 {
		return ""
	}
	return " (ancestors: " + strings.Join(c.Ancestors, ", ") + ")"
}

func containsPort(ports []int, p int) bool {
	for _, q := range ports {
		if q == p {
			return true
		}
	}
	return false
}

// binaryMatch returns the caller's path that one of np's binaries
// matches: its executable first, then its ancestors'.
func (ev *Evaluator) binaryMatch(np *NetworkPolicy, c Conn) (string, bool) {
	for _, b := range np.Binaries {
		if m, ok := ev.matchBinary(b, c.Binary); ok {
			return m, true
		}
	}
	for _, a := range c.Ancestors {
		for _, b := range np.Binaries {
			if m, ok := ev.matchBinary(b, a); ok {
				return m, true
			}
		}
	}
	return "", false
}

func (ev *Evaluator) matchBinary(b *Binary, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if b.glob != nil {
		return p, b.glob.match(p)
	}
	if p == b.Path {
		return p, true
	}
	if t, ok := ev.opt.Symlinks[b.Path]; ok && t == p {
		return p + " (via symlink " + b.Path + ")", true
	}
	return "", false
}

// symlinkHint names a binary of np that the caller's executable looks
// like the target of (python3 for python3.11), when np's symlink is not
// known to the evaluator.
func (ev *Evaluator) symlinkHint(np *NetworkPolicy, c Conn) string {
	base := path.Base(c.Binary)
	for _, b := range np.Binaries {
		if b.glob != nil {
			continue
		}
		if _, ok := ev.opt.Symlinks[b.Path]; ok {
			continue
		}
		if pb := path.Base(b.Path); pb != base && strings.HasPrefix(base, pb) {
			return fmt.Sprintf("policy binary %s may be a symlink to %s; list the target's path, or let the runtime resolve the symlink", b.Path, c.Binary)
		}
	}
	return ""
}

// Request decides a request: its connection first, then, when an
// inspected endpoint serves it, its method, path and query.
func (ev *Evaluator) Request(r Request) Decision {
	hits, d := ev.connect(r.Conn)
	if d.Verdict != Allow {
		return d
	}
	rawPath, rawQuery, _ := strings.Cut(r.Target, "?")
	host, _ := normalHost(r.Host)
	hp := hostPort(host, r.Port)

	// Pick the inspected endpoint whose path selects the request with
	// the highest specificity; the first of equals.
	var best *hit
	var bestPath string
	bestSpec := -1
	var pathErr error
	anyInspected := false
	for i := range hits {
		h := &hits[i]
		if !inspected(h.e) {
			continue
		}
		anyInspected = true
		cp, err := canonicalPath(rawPath, h.e.AllowEncodedSlash)
		if err != nil {
			pathErr = err
			continue
		}
		spec := 0
		if h.e.path != nil {
			if !h.e.path.match(cp) {
				continue
			}
			spec = h.e.path.spec
		}
		if spec > bestSpec {
			best, bestPath, bestSpec = h, cp, spec
		}
	}
	if !anyInspected {
		d.Reason += "; requests not inspected"
		return d
	}
	deny := Decision{Layer: L7, Policy: hits[0].np.Key, Endpoint: hits[0].e}
	if best == nil {
		if pathErr != nil {
			deny.Reason = fmt.Sprintf("request to %s refused: %v", hp, pathErr)
		} else {
			deny.Reason = fmt.Sprintf("no inspected endpoint of %s serves path %s", hp, rawPath)
		}
		return deny
	}
	deny.Policy, deny.Rule, deny.Endpoint, deny.Path = best.np.Key, best.where(), best.e, bestPath
	method := strings.ToUpper(r.Method)
	if best.e.TLS == "skip" {
		d.Reason += "; tls: skip, requests not inspected"
		d.Endpoint = best.e
		return d
	}
	if best.e.Protocol != ProtoREST {
		deny.Reason = fmt.Sprintf("%s %s: %s inspection is not implemented in Warden; denied (fail closed) by policy %s (%s)", method, bestPath, best.e.Protocol, best.np.Key, best.where())
		return deny
	}
	query, err := parseQuery(rawQuery)
	if err != nil {
		deny.Reason = fmt.Sprintf("request to %s refused: %v", hp, err)
		return deny
	}

	var allowed, denied *ruleHit
	for i := range hits {
		h := &hits[i]
		if h.e.Protocol != ProtoREST || h.e.TLS == "skip" {
			continue
		}
		cp, err := canonicalPath(rawPath, h.e.AllowEncodedSlash)
		if err != nil || (h.e.path != nil && !h.e.path.match(cp)) {
			continue
		}
		if allowed == nil {
			for j, m := range h.e.Rules {
				if m.matches(method, cp, query, false) {
					allowed = &ruleHit{h, fmt.Sprintf("%s.rules[%d]", h.where(), j), m}
					break
				}
			}
		}
		if denied == nil {
			for j, m := range h.e.DenyRules {
				if m.matches(method, cp, query, true) {
					denied = &ruleHit{h, fmt.Sprintf("%s.deny_rules[%d]", h.where(), j), m}
					break
				}
			}
		}
	}
	switch {
	case denied != nil:
		deny.Policy, deny.Rule = denied.h.np.Key, denied.rule
		deny.Reason = fmt.Sprintf("%s %s blocked by deny rule %s of policy %s", method, bestPath, denied.rule, denied.h.np.Key)
	case allowed != nil:
		desc := allowed.m.Method + " " + allowed.m.Path
		if allowed.m.Preset != "" {
			desc = "access: " + allowed.m.Preset
		}
		return Decision{
			Verdict: Allow, Layer: L7, Policy: allowed.h.np.Key, Rule: allowed.rule, Endpoint: allowed.h.e, Path: bestPath,
			Reason: fmt.Sprintf("%s %s allowed by policy %s (%s: %s)", method, bestPath, allowed.h.np.Key, allowed.rule, desc),
		}
	default:
		deny.Reason = fmt.Sprintf("%s %s not permitted by policy %s (%s)", method, bestPath, best.np.Key, best.where())
	}
	if !best.e.Enforced() {
		deny.Verdict = Audit
		deny.Reason = "audit: would deny, forwarded: " + deny.Reason
	}
	return deny
}

type ruleHit struct {
	h    *hit
	rule string
	m    *Matcher
}

// matches reports whether a REST matcher matches a request. A GET
// matcher matches HEAD too. Query parameters differ between allow and
// deny: an allow needs every value of each parameter to match, a deny
// one value of each.
func (m *Matcher) matches(method, p string, query map[string][]string, deny bool) bool {
	if m.Method != "" && m.Method != "*" && m.Method != method && !(m.Method == "GET" && method == "HEAD") {
		return false
	}
	if m.path != nil && !m.path.match(p) {
		return false
	}
	for _, q := range m.Query {
		vals := query[q.Name]
		if len(vals) == 0 {
			return false
		}
		n := 0
		for _, v := range vals {
			if q.match(v) {
				n++
			}
		}
		if deny && n == 0 || !deny && n < len(vals) {
			return false
		}
	}
	return true
}

func (q *QueryMatcher) match(v string) bool {
	for _, g := range q.globs {
		if g.match(v) {
			return true
		}
	}
	return false
}

// parseQuery reads a raw query into its parameters' decoded values, +
// being a space. A malformed escape is an error.
func parseQuery(raw string) (map[string][]string, error) {
	q := map[string][]string{}
	if raw == "" {
		return q, nil
	}
	for _, kv := range strings.Split(raw, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		var err error
		if k, err = unescapeQuery(k); err != nil {
			return nil, err
		}
		if v, err = unescapeQuery(v); err != nil {
			return nil, err
		}
		q[k] = append(q[k], v)
	}
	return q, nil
}

func unescapeQuery(s string) (string, error) {
	if !strings.ContainsAny(s, "%+") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			b.WriteByte(' ')
		case '%':
			if i+2 >= len(s) {
				return "", fmt.Errorf("malformed percent-encoding in query")
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return "", fmt.Errorf("malformed percent-encoding in query")
			}
			b.WriteByte(hi<<4 | lo)
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// Inspects reports whether some endpoint of p names an inspected
// protocol whose requests are read (not tls: skip): a proxy must then be
// able to read TLS.
func (p *Policy) Inspects() bool {
	for _, np := range p.Network {
		for _, e := range np.Endpoints {
			if inspected(e) && e.TLS != "skip" {
				return true
			}
		}
	}
	return false
}

// MayReach reports whether some endpoint of p, for any binary and port,
// names host: a DNS stub answers only such names.
func (p *Policy) MayReach(host string) bool {
	h, err := normalHost(host)
	if err != nil {
		return false
	}
	for _, np := range p.Network {
		for _, e := range np.Endpoints {
			if e.matchHost(h) {
				return true
			}
		}
	}
	return false
}

// RuleName names what decided, as Warden's records and answers name a
// rule: "network_policies.KEY.RULE", "network_policies.KEY", or
// "openshell: default deny" when no policy did.
func (d Decision) RuleName() string {
	switch {
	case d.Policy != "" && d.Rule != "":
		return "network_policies." + d.Policy + "." + d.Rule
	case d.Policy != "":
		return "network_policies." + d.Policy
	}
	return "openshell: default deny"
}
