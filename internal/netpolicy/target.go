// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy

// How a target is read. The parser is strict on purpose: whatever it
// accepts means one thing to every client, resolver and server, and
// whatever could mean two things is refused, not guessed at.
//
//   - A target is a URL, http://HOST[:PORT][PATH] or https://…, or a
//     CONNECT authority HOST:PORT. Schemes are case-insensitive; no other
//     scheme is accepted.
//   - Anywhere in the target: no control character, space, backslash or
//     non-ASCII byte. (A backslash is a slash to browsers and not to
//     others; the rest never belong in a request line.)
//   - No userinfo: in http://allowed.com@evil.com/ the host is evil.com,
//     and rather than rely on every reader agreeing, "@" before the path
//     is refused.
//   - HOST is a DNS name (ASCII letters, digits, "-" and "_", labels of at
//     most 63 characters, 253 in all, one trailing dot ignored; compared in
//     lower case), an IPv4 address as a canonical dotted quad, or an IPv6
//     address in brackets, whose zone, if any, is written %25ZONE.
//   - A name whose last label is a number (127.1, 2130706433, 0x7f.1,
//     1.2.3.04, 0177.0.0.1) is an IPv4 address in a form some resolvers
//     decode and others do not; it is refused, never decoded.
//   - Percent-encoding is refused in the host (it is accepted in the path,
//     which is never matched).
//   - PORT is decimal, 1–65535, without leading zeros; a URL without one
//     has its scheme's (80, 443), a CONNECT authority must have one.
//
// The protocol comes from the scheme for a URL. A CONNECT authority is
// https on port 443 and tcp on any other port: that is all the proxy
// knows before the tunnel opens (a proxy that cares whether the stream on
// port 443 really is TLS checks the first bytes itself).

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Protocol is what a connection carries, as far as the proxy can tell
// before it opens it.
type Protocol string

// Protocols. A rule naming [TCP] matches any CONNECT tunnel, HTTPS ones
// included; a rule naming [HTTPS] or [HTTP] matches only those.
const (
	// HTTP is a plain HTTP request through the proxy: an http:// URL.
	HTTP Protocol = "http"
	// HTTPS is an https:// URL, or a CONNECT tunnel to port 443.
	HTTPS Protocol = "https"
	// TCP is a CONNECT tunnel to any other port.
	TCP Protocol = "tcp"
)

// Target is a destination as [ParseTarget] read it. Its fields are
// normalised (host in lower case, without its trailing dot; the port
// filled in) and can be set only by ParseTarget, so a Target is always
// one the rules can judge. The zero Target is not valid: every check
// denies it.
type Target struct {
	proto Protocol
	// name is the host name; empty for an IP literal.
	name string
	// addr is the IP literal, zone included; invalid for a name.
	addr netip.Addr
	port uint16
	// path is everything after a URL's authority, as written; empty
	// for a CONNECT authority.
	path string
	url  bool
}

// Valid reports whether t came from [ParseTarget].
func (t Target) Valid() bool { return t.port != 0 }

// Host is the host name, or the IP literal's text (without brackets).
func (t Target) Host() string {
	if t.addr.IsValid() {
		return t.addr.String()
	}
	return t.name
}

// IP returns the IP literal t names, if it names one.
func (t Target) IP() (netip.Addr, bool) { return t.addr, t.addr.IsValid() }

// Port is the destination port.
func (t Target) Port() uint16 { return t.port }

// Protocol is what the connection carries.
func (t Target) Protocol() Protocol { return t.proto }

// Path is what follows a URL's authority (path, query, fragment) as
// written; it is empty for a CONNECT authority. Rules never match it.
func (t Target) Path() string { return t.path }

// IsURL reports whether t was written as a URL rather than as a CONNECT
// authority.
func (t Target) IsURL() bool { return t.url }

// HostPort is the host and port as a CONNECT authority: "example.com:443",
// "[2001:db8::1]:443".
func (t Target) HostPort() string {
	h := t.name
	if t.addr.IsValid() {
		h = t.addr.String()
		if t.addr.Is6() {
			a, zone := t.addr.WithZone(""), t.addr.Zone()
			h = "[" + a.String()
			if zone != "" {
				h += "%25" + zone
			}
			h += "]"
		}
	}
	return h + ":" + strconv.Itoa(int(t.port))
}

// String renders t so that [ParseTarget] reads it back as t: a URL with
// its port always written, or the CONNECT authority.
func (t Target) String() string {
	if !t.Valid() {
		return ""
	}
	if !t.url {
		return t.HostPort()
	}
	return string(t.proto) + "://" + t.HostPort() + t.path
}

// TargetError is the error [ParseTarget] returns: why the target cannot
// be judged, and what to write instead.
type TargetError struct {
	// Target is the target as given.
	Target string
	Msg    string
	Hint   string
}

func (e *TargetError) Error() string {
	return fmt.Sprintf("target %s: %s", quoteShort(e.Target), e.Msg)
}

// quoteShort quotes s for a message, cut to 100 bytes: the target comes
// from the sandbox and is shown as data.
func quoteShort(s string) string {
	if len(s) > 100 {
		return strconv.Quote(s[:100]) + "…"
	}
	return strconv.Quote(s)
}

// Hints for the errors below.
const (
	hintForm   = "write a URL (https://example.com/path) or a CONNECT authority (example.com:443)"
	hintDotted = "write an IPv4 address as a dotted quad of decimal numbers, such as 192.0.2.1"
)

// ParseTarget reads a URL (http:// or https://) or a CONNECT authority
// (host:port), strictly: see the file comment of target.go, summarised in
// the package documentation. Every error is a [*TargetError]; a target
// that does not parse is denied, and [Refused] gives the decision.
func ParseTarget(raw string) (Target, error) {
	fail := func(msg, hint string) (Target, error) {
		return Target{}, &TargetError{Target: raw, Msg: msg, Hint: hint}
	}
	if raw == "" {
		return fail("empty target", hintForm)
	}
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c < 0x20 || c == 0x7f:
			return fail(fmt.Sprintf("control character %q at byte %d", c, i), "a target never holds control characters")
		case c >= 0x80:
			return fail(fmt.Sprintf("non-ASCII byte at %d", i), "write an internationalised name in its ASCII (xn--) form, and percent-encode the path")
		case c == '\\':
			return fail(fmt.Sprintf("backslash at byte %d", i), "clients disagree on what a backslash means in a URL; write / in a path, and nothing else")
		case c == ' ':
			return fail(fmt.Sprintf("space at byte %d", i), "percent-encode a space in a path as %20")
		}
	}
	var t Target
	authority := raw
	if scheme, rest, ok := strings.Cut(raw, "://"); ok {
		switch s := strings.ToLower(scheme); {
		case s == "http":
			t.proto = HTTP
		case s == "https":
			t.proto = HTTPS
		case s != "" && !strings.ContainsAny(s, "/?#@:[]"):
			return fail(fmt.Sprintf("scheme %q: only http and https go through the proxy", scheme), hintForm)
		default:
			return fail("not a URL or host:port", hintForm)
		}
		t.url = true
		authority = rest
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			authority, t.path = rest[:i], rest[i:]
		}
	} else if strings.ContainsAny(raw, "/?#") {
		return fail("not a URL or host:port: a CONNECT authority has no path", hintForm)
	}
	if strings.Contains(authority, "@") {
		return fail("userinfo (user@ or user:password@) before the host", "send credentials in a header, never in the URL")
	}
	host, port, err := splitHostPort(authority)
	if err != nil {
		return fail(err.Error(), hintForm)
	}
	switch {
	case port != "":
		p, err := parsePort(port)
		if err != nil {
			return fail(err.Error(), "write the port as a decimal number from 1 to 65535")
		}
		t.port = p
	case t.proto == HTTP:
		t.port = 80
	case t.proto == HTTPS:
		t.port = 443
	default:
		return fail("a CONNECT authority needs a port", "write host:port, such as example.com:443")
	}
	if !t.url {
		t.proto = TCP
		if t.port == 443 {
			t.proto = HTTPS
		}
	}
	if strings.HasPrefix(host, "[") {
		a, err := parseBracketed(host)
		if err != nil {
			return fail(err.Error(), "write an IPv6 address in brackets, such as [2001:db8::1], with a zone as %25eth0")
		}
		t.addr = a
		return t, nil
	}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() && a.String() == host {
		t.addr = a
		return t, nil
	}
	name, err := normalizeName(host)
	if err != nil {
		hint := "write the host name alone, in ASCII"
		if _, ok := err.(numericError); ok {
			hint = hintDotted
		}
		return fail(err.Error(), hint)
	}
	t.name = name
	return t, nil
}

// splitHostPort splits an authority at the port's colon. An IPv6
// address must be in brackets: without them, which colon starts the port
// is a guess.
func splitHostPort(s string) (host, port string, err error) {
	if s == "" {
		return "", "", fmt.Errorf("no host")
	}
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", "", fmt.Errorf("unclosed [ in the host")
		}
		host, rest := s[:end+1], s[end+1:]
		if rest == "" {
			return host, "", nil
		}
		if rest[0] != ':' {
			return "", "", fmt.Errorf("unexpected %q after the IPv6 address", rest)
		}
		if rest == ":" {
			return "", "", fmt.Errorf("empty port")
		}
		return host, rest[1:], nil
	}
	if strings.ContainsAny(s, "[]") {
		return "", "", fmt.Errorf("brackets in the host")
	}
	switch n := strings.Count(s, ":"); {
	case n == 0:
		return s, "", nil
	case n > 1:
		return "", "", fmt.Errorf("an IPv6 address must be in brackets")
	}
	host, port, _ = strings.Cut(s, ":")
	switch {
	case host == "":
		return "", "", fmt.Errorf("no host")
	case port == "":
		return "", "", fmt.Errorf("empty port")
	}
	return host, port, nil
}

func parsePort(s string) (uint16, error) {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("port %q is not a decimal number", s)
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("port %q has a leading zero", s)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("port %s is not in 1-65535", s)
	}
	return uint16(n), nil
}

// parseBracketed reads "[v6]" or "[v6%25zone]".
func parseBracketed(s string) (netip.Addr, error) {
	inner := s[1 : len(s)-1]
	text, zone, hasZone := strings.Cut(inner, "%25")
	if strings.Contains(text, "%") || strings.Contains(zone, "%") {
		return netip.Addr{}, fmt.Errorf("percent-encoding in the IPv6 address %s (only the zone separator %%25 is allowed)", s)
	}
	if hasZone && !validZone(zone) {
		return netip.Addr{}, fmt.Errorf("zone %q: want letters, digits, '.', '_', '~' or '-'", zone)
	}
	a, err := netip.ParseAddr(text)
	if err != nil || !a.Is6() || a.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("%s is not an IPv6 address", s)
	}
	if hasZone {
		a = a.WithZone(zone)
	}
	return a, nil
}

// validZone accepts RFC 6874's unreserved characters.
func validZone(z string) bool {
	if z == "" {
		return false
	}
	for i := 0; i < len(z); i++ {
		c := z[i]
		if !isAlnum(c) && c != '.' && c != '_' && c != '~' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// numericError is a name that is an IPv4 address in a non-canonical form.
type numericError struct{ name string }

func (e numericError) Error() string {
	return fmt.Sprintf("%q is an IPv4 address in a non-canonical form (octal, hex, short and integer forms are denied, not decoded)", e.name)
}

// normalizeName checks a DNS name and returns it in lower case without
// its trailing dot.
func normalizeName(s string) (string, error) {
	if strings.Contains(s, "%") {
		return "", fmt.Errorf("percent-encoding in the host %q", s)
	}
	name := strings.TrimSuffix(s, ".")
	if name == "" {
		return "", fmt.Errorf("no host")
	}
	if len(name) > 253 {
		return "", fmt.Errorf("host is longer than 253 characters")
	}
	name = strings.ToLower(name)
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if !validLabel(l) {
			return "", fmt.Errorf("%q is not a host name (labels are 1-63 letters, digits, '-' or '_', not starting or ending with '-')", s)
		}
	}
	if last := labels[len(labels)-1]; isNumeric(last) {
		return "", numericError{s}
	}
	return name, nil
}

func validLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		if c := l[i]; !isAlnum(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// isNumeric reports whether a (lower-case) label is what the WHATWG URL
// parser reads as a number: decimal digits, or 0x and hex digits. A host
// whose last label is numeric is an IPv4 address to such parsers.
func isNumeric(l string) bool {
	digits := l
	hex := false
	if strings.HasPrefix(l, "0x") {
		digits, hex = l[2:], true
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if !(c >= '0' && c <= '9' || hex && c >= 'a' && c <= 'f') {
			return false
		}
	}
	return hex || digits != ""
}
