// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy

// Which addresses a connection may reach, whatever the rules say.
//
//   - Always denied: loopback, unspecified, link-local (cloud metadata
//     included), multicast and broadcast. No rule opens them.
//   - Private: the RFC 1918 ranges, CGNAT, IPv6 unique-local, and a few
//     other ranges that are not on the public internet. Only an allow rule
//     naming the exact host, or an allowed_ips prefix inside the range,
//     opens them.
//   - Everything else is public.
//
// An address is judged in every form it can reach: an IPv4-mapped address
// is the IPv4 address (and is dialled as such); an IPv4-compatible,
// IPv4-translated, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address is
// judged as both the IPv6 address and the IPv4 address inside it, and the
// stricter verdict counts, because a NAT64 gateway or a 6to4 relay
// delivers to the inner address. The zone of a scoped address is not part
// of the judgement; a zone on anything but a link-local address (which is
// always denied anyway) is refused on its own.

import (
	"fmt"
	"net/netip"
)

// class is how reachable an address is, from the most open.
type class uint8

const (
	public class = iota
	private
	denied
)

// addrRange is one row of the address tables.
type addrRange struct {
	prefix netip.Prefix
	class  class
	// what names the range in rule names and reasons ("loopback").
	what string
	hint string
}

func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// Hints shared by the rows below.
const (
	hintLocal     = "services on this machine are never reachable through the egress proxy, whatever the policy says"
	hintMetadata  = "cloud metadata services hold the host's credentials and are never reachable from the sandbox; pass what the command needs another way"
	hintNoHost    = "this address names no single host; connect to the service's own address"
	hintLinkLocal = "link-local addresses belong to the host's own network segment and are never reachable from the sandbox"
)

// alwaysDenied is checked first, in order: the metadata addresses come
// before the ranges that hold them so that a denial names them.
var alwaysDenied = []addrRange{
	// AWS, GCP, Azure, OpenStack and most others serve instance metadata
	// and credentials here.
	{mustPrefix("169.254.169.254/32"), denied, "cloud metadata", hintMetadata},
	// AWS's IPv6 metadata endpoint (inside fc00::/7, a private range, so
	// it needs its own row).
	{mustPrefix("fd00:ec2::254/128"), denied, "cloud metadata", hintMetadata},
	// Alibaba Cloud's metadata endpoint (inside 100.64.0.0/10, CGNAT).
	{mustPrefix("100.100.100.200/32"), denied, "cloud metadata", hintMetadata},
	// Azure's WireServer: a public address that only the host's own
	// network answers, serving the guest agent its configuration and
	// certificates (and proxying to the instance metadata service).
	{mustPrefix("168.63.129.16/32"), denied, "cloud metadata", hintMetadata},
	{mustPrefix("127.0.0.0/8"), denied, "loopback", hintLocal},
	{mustPrefix("::1/128"), denied, "loopback", hintLocal},
	// "This network": 0.0.0.0 reaches the local host on Linux.
	{mustPrefix("0.0.0.0/8"), denied, "unspecified", hintNoHost},
	{mustPrefix("::/128"), denied, "unspecified", hintNoHost},
	{mustPrefix("169.254.0.0/16"), denied, "link-local", hintLinkLocal},
	{mustPrefix("fe80::/10"), denied, "link-local", hintLinkLocal},
	{mustPrefix("224.0.0.0/4"), denied, "multicast", hintNoHost},
	{mustPrefix("ff00::/8"), denied, "multicast", hintNoHost},
	{mustPrefix("255.255.255.255/32"), denied, "broadcast", hintNoHost},
}

// invalidRange stands for the zero netip.Addr in an answer.
var invalidRange = addrRange{class: denied, what: "invalid address", hint: "the resolver gave no usable address; check the host name"}

// privateRanges need an exact-host rule or allowed_ips.
var privateRanges = []addrRange{
	{mustPrefix("10.0.0.0/8"), private, "private", ""},
	{mustPrefix("172.16.0.0/12"), private, "private", ""},
	{mustPrefix("192.168.0.0/16"), private, "private", ""},
	// Carrier-grade NAT; also where Tailscale and some clouds put their
	// internal services.
	{mustPrefix("100.64.0.0/10"), private, "private", ""},
	{mustPrefix("fc00::/7"), private, "private", ""},
	// Not listed by docs/spec.md §9, but not public either, so they get the
	// same treatment: benchmarking (RFC 2544), reserved class E (which
	// some clouds use for internal networks; broadcast is denied above),
	// deprecated IPv6 site-local, and local-use NAT64 (RFC 8215), whose
	// prefix length, and so where the IPv4 address sits, only the local
	// operator knows.
	{mustPrefix("198.18.0.0/15"), private, "private", ""},
	{mustPrefix("240.0.0.0/4"), private, "private", ""},
	{mustPrefix("fec0::/10"), private, "private", ""},
	{mustPrefix("64:ff9b:1::/48"), private, "private", ""},
}

// addrInfo is an address as judged.
type addrInfo struct {
	// orig is the address as given, zone included, for messages.
	orig netip.Addr
	// dial is what the proxy connects to: unmapped, without zone.
	dial netip.Addr
	// inner is the IPv4 address embedded in dial, when there is one.
	inner netip.Addr
	// via says how inner is embedded ("NAT64"), for messages.
	via   string
	class class
	// rng is the row that decided class; zero for public.
	rng addrRange
}

// classify judges one address.
func classify(a netip.Addr) addrInfo {
	ai := addrInfo{orig: a, dial: a.WithZone("").Unmap()}
	if !a.IsValid() {
		// A resolver bug, or a caller's: nothing to dial.
		ai.class, ai.rng = denied, invalidRange
		return ai
	}
	ai.class, ai.rng = lookup(ai.dial)
	if in, via, ok := embedded(ai.dial); ok {
		ai.inner, ai.via = in, via
		if c, r := lookup(in); c > ai.class {
			ai.class, ai.rng = c, r
		}
	}
	return ai
}

// lookup finds the class of a in the tables.
func lookup(a netip.Addr) (class, addrRange) {
	for _, r := range alwaysDenied {
		if r.prefix.Contains(a) {
			return denied, r
		}
	}
	for _, r := range privateRanges {
		if r.prefix.Contains(a) {
			return private, r
		}
	}
	return public, addrRange{}
}

var (
	compatPrefix     = mustPrefix("::/96")
	translatedPrefix = mustPrefix("::ffff:0:0:0/96")
	nat64Prefix      = mustPrefix("64:ff9b::/96")
	sixToFourPrefix  = mustPrefix("2002::/16")
)

// embedded returns the IPv4 address inside an IPv6 address that carries
// one in a form some network will deliver to. IPv4-mapped addresses are
// unmapped before this is called.
func embedded(a netip.Addr) (netip.Addr, string, bool) {
	if !a.Is6() {
		return netip.Addr{}, "", false
	}
	b := a.As16()
	switch {
	case compatPrefix.Contains(a):
		// :: and ::1 are judged as themselves (unspecified, loopback);
		// their "IPv4" would only blur the reason.
		if a == netip.IPv6Unspecified() || a == netip.IPv6Loopback() {
			return netip.Addr{}, "", false
		}
		return netip.AddrFrom4([4]byte(b[12:])), "IPv4-compatible", true
	case translatedPrefix.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:])), "IPv4-translated", true
	case nat64Prefix.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:])), "NAT64", true
	case sixToFourPrefix.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), "6to4", true
	}
	return netip.Addr{}, "", false
}

// describe is the address for a reason: "10.0.0.5", or
// "64:ff9b::a00:5 (NAT64 for 10.0.0.5)" when the inner address decided.
func (ai addrInfo) describe() string {
	s := ai.orig.String()
	switch {
	case ai.orig.Is4In6():
		s += fmt.Sprintf(" (IPv4-mapped %s)", ai.dial)
	case ai.inner.IsValid() && ai.rng.prefix.Contains(ai.inner):
		s += fmt.Sprintf(" (%s for %s)", ai.via, ai.inner)
	}
	return s
}

// containedIn reports whether p holds the address in any of its forms.
func (ai addrInfo) containedIn(p netip.Prefix) bool {
	return p.Contains(ai.dial) || (ai.inner.IsValid() && p.Contains(ai.inner))
}
