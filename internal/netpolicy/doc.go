// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package netpolicy decides which network destinations the sandbox may
// reach through the egress proxy (docs/spec.md §9). It is pure and
// deterministic — no I/O, no DNS, no clock: the caller resolves names and
// passes the time — so `warden net check` answers exactly what the proxy
// will do.
//
// # Two phases
//
// The proxy resolves a name once, judges every address of the answer, and
// dials only the addresses judged, so that no second resolution can point
// the connection elsewhere:
//
//	t, err := netpolicy.ParseTarget(raw)         // a URL or a CONNECT host:port
//	if err != nil {
//		return netpolicy.Refused(err)            // malformed: denied, never guessed at
//	}
//	d := p.CheckName(t, method, now)             // before any DNS query
//	if d.Verdict != action.Allow {
//		return d                                 // refused by name: nothing resolved
//	}
//	if _, isIP := t.IP(); !isIP {
//		addrs, _ := resolver.LookupNetIP(ctx, "ip", t.Host())
//		d = p.CheckAddrs(t, method, addrs, now)  // the decision
//	}
//	// on Allow, dial exactly d.Addrs
//
// A DNS stub inside the sandbox, which hears a name before any port or
// method, asks [Policy.CheckHost]: could any request to this name be
// allowed? Its answer only saves the sandbox a pointless connection; the
// proxy judges every one as above.
//
// # Tiers
//
// A destination must be allowed by the policy file's rules and, when the
// managed tier has a network section, by the managed tier's too.
// [Tiers] asks them all, the same way for the proxy and for `warden net
// check`: [Tiers.Check] is net check's whole decision, and
// [Tiers.CheckFlowName] and [Tiers.CheckFlowAddrs] are the proxy's
// questions about a [Flow], which may be a stream whose protocol or
// method is not known yet (tiers.go states the rules).
//
// # Rules
//
// Rules ([Rule], compiled by [Compile]) are evaluated top to bottom; the
// first that matches decides; when none does, the request is denied. A
// rule matches when each matcher it sets matches: host (an exact name,
// case-insensitive, one trailing dot ignored; "*.example.com" for names
// under example.com at any depth, never example.com itself nor
// evilexample.com; or an IP address, matching a request for that literal),
// allowed_ips (the address dialled lies in one of the prefixes), port or
// ports, protocol (http, https, or tcp for any CONNECT tunnel) and HTTP
// methods. A disabled rule, or one whose Until has passed, does not match.
//
// The rules are judged per address: when a name resolves to several
// addresses, each goes through the rules on its own, and if any of them
// is forbidden the whole answer is denied. An empty answer is denied.
//
// # What no rule opens
//
// Whatever the rules say, these are denied, before any rule is read:
//
//   - loopback (127.0.0.0/8, ::1), unspecified (0.0.0.0/8, ::),
//     link-local (169.254.0.0/16, fe80::/10), cloud metadata
//     (169.254.169.254, fd00:ec2::254, 100.100.100.200, and Azure's
//     WireServer 168.63.129.16), multicast
//     (224.0.0.0/4, ff00::/8) and broadcast (255.255.255.255), in any
//     form: IPv4-mapped, IPv4-compatible and IPv4-translated addresses,
//     NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are judged as
//     the IPv4 address they carry too, and the stricter verdict counts;
//   - the names localhost and *.localhost (and the metadata service's
//     names, metadata.google.internal and metadata);
//   - the Kubernetes control-plane ports 2379, 2380, 6443, 10250 and
//     10255, on every host;
//   - scoped IPv6 addresses (a zone) other than link-local ones, which are
//     denied anyway;
//   - a target that [ParseTarget] refuses.
//
// The addresses of the machine the proxy runs on are not known here (the
// package reads nothing): the proxy refuses them itself when it dials,
// and `warden net check` asks the proxy's check too (package proxy,
// HostAddrs).
//
// # Private ranges
//
// 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10 and fc00::/7
// (and, being no more public, 198.18.0.0/15, 240.0.0.0/4, fec0::/10 and
// the local-use NAT64 prefix 64:ff9b:1::/48) are reached only through an
// allow rule that names the exact host asked for, or through an
// allowed_ips prefix that holds the address and lies inside the range.
// A wildcard, a catch-all, a rule naming an IP literal, or allowed_ips
// wider than the range (0.0.0.0/0) do not match a private address: the
// walk goes on to the next rule, and the denial, if nothing else matches,
// is "private-range: <range>" with a hint naming the rule that would open
// it.
//
// # Methods
//
// A CONNECT tunnel does not show its HTTP method. A request whose method
// is not known ("") is judged the strict way: a deny rule naming methods
// matches it, an allow rule naming methods does not, and the decision is
// marked [Decision.MethodDependent] so that a proxy able to intercept TLS
// knows that each request inside, judged with its method, may be decided
// differently.
//
// # Targets
//
// [ParseTarget] reads a URL (http:// or https://) or a CONNECT authority
// host:port. A URL's protocol is its scheme; a CONNECT authority is https
// on port 443 and tcp on any other. Control characters, spaces,
// backslashes and non-ASCII bytes are refused anywhere; userinfo and
// percent-encoding in the host are refused; IPv4 is accepted only as a
// canonical dotted quad (127.1, 0177.0.0.1, 0x7f.1, 2130706433 and
// 1.2.3.04 are refused, not decoded); IPv6 must be in brackets, its zone
// written %25zone.
//
// # Decisions
//
// A deny is a result, not an error: [Decision] carries the verdict, the
// rule that decided ("network.rules[2] (policy.yaml:12:7)", "default:
// deny", "private-range: 10.0.0.0/8", "always-denied: loopback"), a reason
// an agent can act on and a hint.
package netpolicy
