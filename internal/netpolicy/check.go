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

// Decision is the verdict on one destination.
type Decision struct {
	// Verdict is [action.Allow] or [action.Deny] (the zero value).
	Verdict action.Verdict
	// Rule names what decided: a rule as "network.rules[2]
	// (policy.yaml:12:7)", "default: deny" when no rule matched,
	// "private-range: 10.0.0.0/8" when only rules that cannot open a
	// private range matched, or "always-denied: <what>" for what no rule
	// can open (loopback, unspecified, link-local, cloud metadata,
	// multicast, broadcast, localhost, control-plane port, scoped address,
	// malformed target, malformed method, no address, invalid address).
	Rule string
	// Reason says why, naming the destination; it can be shown to the
	// agent. Values from the request are quoted.
	Reason string
	// Hint says what to do about a deny; empty for an allow.
	Hint string
	// Addrs are the addresses to dial, in the order given, each once, as
	// IPv4 when IPv4-mapped: only after an Allow from [Policy.CheckAddrs]
	// (or from [Policy.CheckName] for an IP literal), and then every
	// address of the answer. Empty otherwise.
	Addrs []netip.Addr
	// MethodDependent is set when the request's method was not known and
	// a rule naming methods took part: the verdict was taken the strict
	// way, and a request with a known method (after TLS interception)
	// may be decided differently.
	MethodDependent bool
}

// ByDefault reports whether d is a deny taken because no rule matched
// (its Rule is "default: deny").
func (d Decision) ByDefault() bool { return d.Verdict != action.Allow && d.Rule == ruleDefault }

// AlwaysDenied reports whether d denies what no rule can open, and what
// that is ("loopback", "localhost", "malformed target"…).
func (d Decision) AlwaysDenied() (string, bool) {
	if d.Verdict == action.Allow {
		return "", false
	}
	return strings.CutPrefix(d.Rule, rulePrefix)
}

// Rule names for decisions not taken by a written rule.
const (
	ruleDefault = "default: deny"
	rulePrefix  = "always-denied: "
)

const hintMethod = "the verdict depends on the HTTP method, which a CONNECT tunnel does not show; judge the request with its method"

// deniedNames are the names denied whatever they resolve to.
var deniedNames = []struct {
	name string
	// sub: subdomains too.
	sub        bool
	what, desc string
	hint       string
}{
	// RFC 6761: localhost and its subdomains are this machine, and
	// resolvers may answer them without asking DNS.
	{"localhost", true, "localhost", "names this machine", hintLocal},
	// GCP's metadata service by name. It resolves to 169.254.169.254,
	// denied anyway, but a denial by name needs no DNS query.
	{"metadata.google.internal", false, "cloud metadata", "is the cloud metadata service", hintMetadata},
	{"metadata", false, "cloud metadata", "is the cloud metadata service", hintMetadata},
}

// deniedName reports whether a normalised name is always denied by name,
// and which row of deniedNames denies it.
func deniedName(name string) (int, bool) {
	for i, n := range deniedNames {
		if name == n.name || n.sub && strings.HasSuffix(name, "."+n.name) {
			return i, true
		}
	}
	return 0, false
}

// Refused is the decision for a target [ParseTarget] refused, err being
// its error: a deny by "always-denied: malformed target".
func Refused(err error) Decision {
	d := Decision{Rule: rulePrefix + "malformed target", Reason: "the target cannot be judged", Hint: hintForm}
	if err != nil {
		d.Reason = err.Error()
	}
	if te, ok := err.(*TargetError); ok && te.Hint != "" {
		d.Hint = te.Hint
	}
	return d
}

// request is one check in progress.
type request struct {
	t      *Target
	method string
	now    time.Time
	// methodDep records that a rule naming methods met an unknown one.
	methodDep bool
	// miss is the first rule that matched the host but not the rest,
	// and why, for the reason of a default deny.
	miss     *rule
	missWhy  missKind
	missAddr addrInfo
	skipped  *rule // an allow rule that could not open a private address
	skipAddr addrInfo
}

// CheckName judges t before its name is resolved, so that a name the
// policy denies is refused without a DNS query. A Deny is final. An Allow
// only says that the name may be resolved: the caller resolves it once
// and passes the answer to [Policy.CheckAddrs], which takes the decision.
// For an IP literal nothing is resolved: CheckName takes the whole
// decision, and its Addrs hold the address to dial.
//
// method is the request's HTTP method, or "" when it is not known (a
// CONNECT tunnel before any TLS interception). With an unknown method, a
// rule naming methods is taken the strict way: a deny rule matches and an
// allow rule does not, and the decision is MethodDependent.
//
// now is the time at which rules are judged (Until); the package never
// reads the clock.
func (p *Policy) CheckName(t Target, method string, now time.Time) Decision {
	if t.addr.IsValid() {
		return p.CheckAddrs(t, method, nil, now)
	}
	rq := &request{t: &t, method: method, now: now}
	if d, ok := rq.precheck(); ok {
		return d
	}
	d, final := p.byName(rq)
	if final {
		d.MethodDependent = rq.methodDep
		return d
	}
	return Decision{
		Verdict:         action.Allow,
		Rule:            d.Rule,
		Reason:          fmt.Sprintf("%s may be allowed: its addresses are judged once it is resolved", rq.dest()),
		MethodDependent: rq.methodDep,
	}
}

// CheckAddrs takes the decision for t reached at addrs, the one answer to
// resolving t's host, and returns the addresses to dial. It is complete on
// its own: it repeats what [Policy.CheckName] judges, so a caller that
// skipped CheckName is still safe. For an IP literal, addrs is ignored:
// the literal is what is dialled.
//
// Every address is judged on its own, top to bottom through the rules.
// If any address is forbidden — always denied, private without a rule
// that opens it, or denied by a rule or the default — the whole answer
// is denied: a name that resolves to one bad address among good ones is
// someone's attempt to pass the bad one. An empty answer is denied. On
// Allow, Addrs is every address of the answer, and only those may be
// dialled.
//
// method and now are as for CheckName.
func (p *Policy) CheckAddrs(t Target, method string, addrs []netip.Addr, now time.Time) Decision {
	rq := &request{t: &t, method: method, now: now}
	if d, ok := rq.precheck(); ok {
		return d
	}
	if t.addr.IsValid() {
		addrs = []netip.Addr{t.addr}
	} else if d, final := p.byName(rq); final {
		d.MethodDependent = rq.methodDep
		return d
	}
	if len(addrs) == 0 {
		return Decision{
			Rule:   rulePrefix + "no address",
			Reason: fmt.Sprintf("%s has no address: the name did not resolve", t.name),
			Hint:   "check the host name; a name without an address is never dialled",
		}
	}
	var (
		first *rule // the rule that allowed the first address
		dial  = make([]netip.Addr, 0, len(addrs))
	)
	for _, a := range addrs {
		ai := classify(a)
		rq.skipped = nil
		cr, d := p.byAddr(rq, ai)
		if cr == nil {
			if len(addrs) > 1 {
				d.Reason += fmt.Sprintf("; %s resolved to %s, and an answer with any forbidden address is denied whole", t.name, joinAddrs(addrs))
			}
			d.MethodDependent = rq.methodDep
			return d
		}
		if first == nil {
			first = cr
		}
		if !slices.Contains(dial, ai.dial) {
			dial = append(dial, ai.dial)
		}
	}
	return Decision{
		Verdict:         action.Allow,
		Rule:            first.label,
		Reason:          fmt.Sprintf("%s matches this allow rule", rq.dest()),
		Addrs:           dial,
		MethodDependent: rq.methodDep,
	}
}

// CheckHost judges a bare host name, before any port, protocol or method
// is known: the question a DNS stub inside the sandbox asks before it
// gives the name an address. It allows when some request to the name
// could be allowed — an allow rule matching the name comes before any
// deny rule matching every request to it — and denies otherwise (a name
// denied whatever it resolves to, such as localhost, included). It errs
// towards allowing: every connection is judged again, with
// [Policy.CheckName] and [Policy.CheckAddrs], when the proxy dials it.
func (p *Policy) CheckHost(name string, now time.Time) Decision {
	n, err := normalizeName(name)
	if err != nil {
		hint := "write the host name alone, in ASCII"
		if _, ok := err.(numericError); ok {
			hint = hintDotted
		}
		return Refused(&TargetError{Target: name, Msg: err.Error(), Hint: hint})
	}
	if i, ok := deniedName(n); ok {
		dn := deniedNames[i]
		return Decision{
			Rule:   rulePrefix + dn.what,
			Reason: fmt.Sprintf("%s %s: always denied, whatever the rules", n, dn.desc),
			Hint:   dn.hint,
		}
	}
	t := Target{name: n}
	for i := range p.ruleList() {
		cr := &p.rules[i]
		if !cr.active(now) || !cr.matchHost(&t) {
			continue
		}
		if cr.allow {
			return Decision{
				Verdict: action.Allow,
				Rule:    cr.label,
				Reason:  fmt.Sprintf("%s may be reached: this rule %s", n, cr.describe()),
			}
		}
		if unconditional(cr) {
			return Decision{
				Rule:   cr.label,
				Reason: fmt.Sprintf("%s matches this deny rule, on every port and for every method", n),
				Hint:   "the policy denies this destination on purpose; do not try to reach it another way, ask the user",
			}
		}
	}
	return Decision{
		Rule:   ruleDefault,
		Reason: fmt.Sprintf("no network rule allows any request to %s; the default is deny", n),
		Hint:   fmt.Sprintf("ask the user to add a network rule for this destination, such as allow: {host: %s, port: 443}", n),
	}
}

// CheckHostPattern judges a host pattern as a guardrail rule writes one
// (a name, "*.domain" or an IP address): could the egress proxy let some
// request through to every host the pattern covers? It allows when the
// first rule covering the pattern allows, before any deny covering it on
// every port and for every method. For a name, a rule covers it when its
// host matches the name, or it names no host and no addresses; for
// "*.domain", when it is a wildcard of domain or of a parent of domain,
// or names no host and no addresses; for an IP address, when it matches
// that literal by host or allowed_ips (and, for a private address, opens
// its range). A rule naming only addresses covers no name: whether a name
// resolves into them is not known here. It is what `warden policy lint`
// compares a guardrail rule's hosts with.
func (p *Policy) CheckHostPattern(pattern string, now time.Time) Decision {
	if a, err := netip.ParseAddr(strings.Trim(pattern, "[]")); err == nil {
		return p.checkIPPattern(a.Unmap(), now)
	}
	domain, wild := strings.CutPrefix(pattern, "*.")
	n, err := normalizeName(domain)
	if err != nil {
		return Refused(&TargetError{Target: pattern, Msg: err.Error(), Hint: "write a host name, or *. and one"})
	}
	what, probe, verb := n, n, "matches"
	if wild {
		what, probe, verb = "the names under "+n, "x."+n, "match"
	}
	if i, ok := deniedName(probe); ok {
		return Decision{
			Rule:   rulePrefix + deniedNames[i].what,
			Reason: fmt.Sprintf("%s: always denied, whatever the rules", what),
			Hint:   deniedNames[i].hint,
		}
	}
	t := Target{name: n}
	for i := range p.ruleList() {
		cr := &p.rules[i]
		covers := false
		switch {
		case cr.kind == anyHost:
			covers = len(cr.ips) == 0
		case wild:
			covers = cr.kind == wildcardHost && strings.HasSuffix("."+n, cr.host)
		default:
			covers = cr.matchHost(&t)
		}
		if !covers || !cr.active(now) {
			continue
		}
		if cr.allow {
			return Decision{Verdict: action.Allow, Rule: cr.label,
				Reason: fmt.Sprintf("%s may be reached: this rule %s", what, cr.describe())}
		}
		if unconditional(cr) {
			return Decision{Rule: cr.label,
				Reason: fmt.Sprintf("%s %s this deny rule, on every port and for every method", what, verb)}
		}
	}
	return Decision{
		Rule:   ruleDefault,
		Reason: fmt.Sprintf("no network rule allows any request to %s; the default is deny", what),
		Hint:   "add a network rule such as " + SuggestAllow(pattern),
	}
}

// SuggestAllow writes the network rule, as YAML, that lets requests on
// port 443 through to the hosts a guardrail's host pattern covers: the
// name, the wildcard, or the IP address (in allowed_ips for a private
// address, which a rule naming the literal never opens). Port 443 is an
// example: a suggestion to edit, not a rule to paste blindly.
func SuggestAllow(pattern string) string {
	if a, err := netip.ParseAddr(strings.Trim(pattern, "[]")); err == nil {
		if classify(a.Unmap()).class == private {
			return fmt.Sprintf("allow: {allowed_ips: [%q], port: 443}", a.Unmap().String())
		}
		return fmt.Sprintf("allow: {host: %q, port: 443}", a.Unmap().String())
	}
	return fmt.Sprintf("allow: {host: %s, port: 443}", yamlHost(pattern))
}

// SuggestDeny writes the network rule, as YAML, that denies every request
// to the hosts a guardrail's host pattern covers; an IP address is
// denied by allowed_ips, whatever name reaches it.
func SuggestDeny(pattern string) string {
	if a, err := netip.ParseAddr(strings.Trim(pattern, "[]")); err == nil {
		return fmt.Sprintf("deny: {allowed_ips: [%q]}", a.Unmap().String())
	}
	return fmt.Sprintf("deny: {host: %s}", yamlHost(pattern))
}

// yamlHost writes a host name for a YAML flow mapping: a wildcard is
// quoted, since "*" starts an alias there.
func yamlHost(h string) string {
	if strings.HasPrefix(h, "*") {
		return fmt.Sprintf("%q", h)
	}
	return h
}

// checkIPPattern is CheckHostPattern for an IP address.
func (p *Policy) checkIPPattern(a netip.Addr, now time.Time) Decision {
	ai := classify(a)
	if ai.class == denied {
		return Decision{
			Rule:   rulePrefix + ai.rng.what,
			Reason: fmt.Sprintf("%s is %s address (%s): always denied, whatever the rules", a, article(ai.rng.what), ai.rng.prefix),
			Hint:   ai.rng.hint,
		}
	}
	t := Target{addr: a}
	for i := range p.ruleList() {
		cr := &p.rules[i]
		if !cr.active(now) || !cr.matchHost(&t) || !cr.matchIPs(ai) {
			continue
		}
		if cr.allow {
			if ai.class == private && !cr.grantsPrivate(&t, ai) {
				continue
			}
			return Decision{Verdict: action.Allow, Rule: cr.label,
				Reason: fmt.Sprintf("%s may be reached: this rule %s", a, cr.describe())}
		}
		// Its allowed_ips, if any, hold a: only the rest can spare
		// some requests.
		if len(cr.ports) == 0 && cr.proto == "" && len(cr.methods) == 0 {
			return Decision{Rule: cr.label,
				Reason: fmt.Sprintf("%s matches this deny rule, on every port and for every method", a)}
		}
	}
	return Decision{
		Rule:   ruleDefault,
		Reason: fmt.Sprintf("no network rule allows any request to %s; the default is deny", a),
		Hint:   "add a network rule such as " + SuggestAllow(a.String()),
	}
}

// unconditional reports whether a rule matches every request to the
// hosts it names: no port, protocol, method or address matcher.
func unconditional(cr *rule) bool {
	return len(cr.ports) == 0 && cr.proto == "" && len(cr.methods) == 0 && len(cr.ips) == 0
}

// precheck denies what no rule can open and needs no address: an invalid
// target or method, a name that is always denied, a control-plane port.
func (rq *request) precheck() (Decision, bool) {
	t := rq.t
	switch {
	case !t.Valid():
		return Refused(nil), true
	case rq.method != "" && !validMethod(rq.method):
		return Decision{
			Rule:   rulePrefix + "malformed method",
			Reason: fmt.Sprintf("method %s is not an HTTP method token", quoteShort(rq.method)),
			Hint:   "an HTTP method is a word such as GET or POST",
		}, true
	}
	if i, ok := deniedName(t.name); ok {
		n := deniedNames[i]
		return Decision{
			Rule:   rulePrefix + n.what,
			Reason: fmt.Sprintf("%s %s: always denied, whatever the rules", t.name, n.desc),
			Hint:   n.hint,
		}, true
	}
	if slices.Contains(controlPlanePorts, t.port) {
		return Decision{
			Rule:   rulePrefix + "control-plane port",
			Reason: fmt.Sprintf("port %d is a Kubernetes control-plane port (etcd 2379, 2380; API server 6443; kubelet 10250, 10255), denied on every host", t.port),
			Hint:   "the cluster's control plane is never reachable from the sandbox; use the service's own API",
		}, true
	}
	if t.addr.IsValid() && t.addr.Zone() != "" && classify(t.addr).class != denied {
		return Decision{
			Rule:   rulePrefix + "scoped address",
			Reason: fmt.Sprintf("%s names a zone (%%%s): scoped addresses reach the host's own links", t.addr.WithZone(""), t.addr.Zone()),
			Hint:   "write the address without a zone",
		}, true
	}
	return Decision{}, false
}

// validMethod accepts an RFC 9110 token.
func validMethod(m string) bool {
	for i := 0; i < len(m); i++ {
		c := m[i]
		if !isAlnum(c) && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return m != ""
}

// missKind is why a rule that matched the host did not match.
type missKind uint8

const (
	missOff missKind = iota + 1
	missExpired
	missPort
	missProto
	missMethodUnknown
	missMethod
	missAddr
)

// matchRequest reports whether cr applies to the request, addresses
// aside, and notes a near miss.
func (rq *request) matchRequest(cr *rule) bool {
	if !cr.matchHost(rq.t) {
		return false
	}
	var why missKind
	switch {
	case cr.off:
		why = missOff
	case !cr.active(rq.now):
		why = missExpired
	case !cr.matchPort(rq.t.port):
		why = missPort
	case !cr.matchProto(rq.t.proto):
		why = missProto
	case len(cr.methods) > 0 && rq.method == "":
		rq.methodDep = true
		if !cr.allow {
			return true
		}
		why = missMethodUnknown
	case !cr.matchMethod(rq.method):
		why = missMethod
	default:
		return true
	}
	rq.noteMiss(cr, why, addrInfo{})
	return false
}

// noteMiss records the first allow rule that matched the host but not
// the rest: it is what the agent would need changed. A rule naming the
// host beats one that matches any host; a deny rule that does not match
// explains nothing. Only the kind is kept: the words are written if a
// reason needs them.
func (rq *request) noteMiss(cr *rule, why missKind, ai addrInfo) {
	if !cr.allow {
		return
	}
	if rq.miss == nil || rq.miss.kind == anyHost && cr.kind != anyHost {
		rq.miss, rq.missWhy, rq.missAddr = cr, why, ai
	}
}

// missText says why the near miss did not match.
func (rq *request) missText() string {
	switch rq.missWhy {
	case missOff:
		return "is disabled"
	case missExpired:
		return "expired at " + rq.miss.until.UTC().Format(time.RFC3339)
	case missPort:
		return fmt.Sprintf("does not match port %d", rq.t.port)
	case missProto:
		return fmt.Sprintf("does not match protocol %s", rq.t.proto)
	case missMethodUnknown:
		return "names methods, and the request's method is not known"
	case missMethod:
		return "does not match method " + rq.method
	case missAddr:
		return "does not hold " + rq.missAddr.describe()
	}
	return "does not match"
}

// byName walks the rules by name alone. It is final when a deny decides
// before any allow could match: a deny rule without allowed_ips, or the
// end of the rules.
func (p *Policy) byName(rq *request) (Decision, bool) {
	var maybe *rule
	for i := range p.ruleList() {
		cr := &p.rules[i]
		if !rq.matchRequest(cr) {
			continue
		}
		if len(cr.ips) > 0 {
			// Depends on the address.
			if cr.allow && maybe == nil {
				maybe = cr
			}
			continue
		}
		if !cr.allow {
			if maybe != nil {
				return Decision{Rule: maybe.label}, false
			}
			return rq.deniedBy(cr, nil), true
		}
		if maybe == nil {
			maybe = cr
		}
		return Decision{Rule: maybe.label}, false
	}
	if maybe != nil {
		return Decision{Rule: maybe.label}, false
	}
	return rq.defaultDeny(), true
}

func (p *Policy) ruleList() []rule {
	if p == nil {
		return nil
	}
	return p.rules
}

// byAddr decides for one address: the allow rule that lets it through,
// or nil and the deny.
func (p *Policy) byAddr(rq *request, ai addrInfo) (*rule, Decision) {
	if ai.rng == invalidRange {
		return nil, Decision{
			Rule:   rulePrefix + ai.rng.what,
			Reason: fmt.Sprintf("the answer for %s holds an invalid address", rq.t.Host()),
			Hint:   ai.rng.hint,
		}
	}
	if ai.class == denied {
		return nil, Decision{
			Rule:   rulePrefix + ai.rng.what,
			Reason: fmt.Sprintf("%s %s address (%s): always denied, whatever the rules", rq.subject(ai), article(ai.rng.what), ai.rng.prefix),
			Hint:   ai.rng.hint,
		}
	}
	// Misses are noted again, in rule order, address misses included.
	rq.miss = nil
	for i := range p.ruleList() {
		cr := &p.rules[i]
		if !rq.matchRequest(cr) {
			continue
		}
		if !cr.matchIPs(ai) {
			rq.noteMiss(cr, missAddr, ai)
			continue
		}
		if !cr.allow {
			return nil, rq.deniedBy(cr, &ai)
		}
		if ai.class == private && !cr.grantsPrivate(rq.t, ai) {
			// A wildcard, a catch-all, an IP literal or a wide
			// allowed_ips never opens a private range; a later rule
			// may.
			if rq.skipped == nil {
				rq.skipped, rq.skipAddr = cr, ai
			}
			continue
		}
		return cr, Decision{}
	}
	if rq.skipped != nil {
		ai := rq.skipAddr
		d := Decision{
			Rule: "private-range: " + ai.rng.prefix.String(),
			Reason: fmt.Sprintf("%s in the private range %s; %s allows %s, but %s, and only a rule naming the exact host or allowed_ips inside the range opens a private range",
				rq.subject(ai), ai.rng.prefix, rq.skipped.label, rq.dest(), rq.skipped.why()),
			Hint: rq.privateHint(ai),
		}
		if rq.miss != nil && rq.miss.kind != anyHost {
			d.Reason += rq.missNote()
		}
		return nil, d
	}
	return nil, rq.defaultDeny()
}

// why says why an allow rule matching a private address does not open
// it.
func (cr *rule) why() string {
	switch {
	case len(cr.ips) > 0:
		return "its allowed_ips are wider than the range"
	case cr.kind == wildcardHost:
		return "it is a wildcard"
	case cr.kind == ipHost:
		return "it names an IP literal"
	}
	return "it is a catch-all"
}

// missNote is the near miss for a reason: " (network.rules[0] (…) allows
// api.github.com, port 443 but does not match port 80)".
func (rq *request) missNote() string {
	if rq.miss == nil {
		return ""
	}
	return fmt.Sprintf(" (%s %s but %s)", rq.miss.label, rq.miss.describe(), rq.missText())
}

func (rq *request) privateHint(ai addrInfo) string {
	if rq.t.name == "" {
		return fmt.Sprintf("to reach %s, a rule must list it (or a part of %s) in allowed_ips", ai.dial, ai.rng.prefix)
	}
	return fmt.Sprintf("to reach it, a rule must name the exact host %s, or list %s (or a part of %s) in allowed_ips", rq.t.name, ai.dial, ai.rng.prefix)
}

// deniedBy is the decision of a deny rule.
func (rq *request) deniedBy(cr *rule, ai *addrInfo) Decision {
	d := Decision{
		Rule:   cr.label,
		Reason: fmt.Sprintf("%s matches this deny rule", rq.dest()),
		Hint:   "the policy denies this destination on purpose; do not try to reach it another way, ask the user",
	}
	if ai != nil && len(cr.ips) > 0 {
		d.Reason += fmt.Sprintf(" (address %s)", ai.describe())
	}
	if len(cr.methods) > 0 && rq.method == "" {
		d.Reason += fmt.Sprintf(": it denies %s, and the request's method is not known, so it is taken to be one of them", strings.Join(cr.methods, ", "))
		d.Hint = hintMethod
	}
	return d
}

func (rq *request) defaultDeny() Decision {
	d := Decision{
		Rule:   ruleDefault,
		Reason: fmt.Sprintf("no network rule allows %s; the default is deny", rq.dest()),
		Hint:   "ask the user to add a network rule for this destination, such as " + rq.suggest(),
	}
	d.Reason += rq.missNote()
	if rq.miss != nil && rq.missWhy == missMethodUnknown {
		d.Hint = hintMethod
	}
	return d
}

// suggest is the narrowest rule that would allow the request.
func (rq *request) suggest() string {
	t := rq.t
	var m []string
	if t.addr.IsValid() {
		m = append(m, fmt.Sprintf("allowed_ips: [%q]", t.addr.WithZone("").Unmap().String()))
	} else {
		m = append(m, "host: "+t.name)
	}
	m = append(m, fmt.Sprintf("port: %d", t.port))
	if rq.method != "" {
		m = append(m, "methods: ["+rq.method+"]")
	}
	return "allow: {" + strings.Join(m, ", ") + "}"
}

// dest is the destination in reasons: "api.github.com:443 (https)".
func (rq *request) dest() string {
	s := fmt.Sprintf("%s (%s)", rq.t.HostPort(), rq.t.proto)
	if rq.method != "" {
		// precheck made it a token: nothing to quote.
		s = rq.method + " " + s
	}
	return s
}

// subject starts a sentence about an address: "10.0.0.5 is" or
// "db.corp resolves to 10.0.0.5, which is".
func (rq *request) subject(ai addrInfo) string {
	if rq.t.name == "" {
		return ai.describe() + " is"
	}
	return fmt.Sprintf("%s resolves to %s, which is", rq.t.name, ai.describe())
}

func article(what string) string {
	switch what[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + what
	}
	return "a " + what
}

func joinAddrs(as []netip.Addr) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}
