// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

// Hosts and ports arrive from the sandbox in CONNECT lines, absolute URIs,
// Host headers, TLS SNI and SOCKS5 requests. They are parsed strictly here,
// before any decision, and a form that is not plainly a name or an address
// is refused rather than interpreted (docs/spec.md §9):
//
//   - a name is ASCII letters, digits, '-' and '_' in dot-separated labels
//     of 1 to 63 bytes, at most 253 bytes in all; it is lower-cased and a
//     trailing dot is dropped. Non-ASCII bytes, '%', '\\', spaces,
//     control characters and '@' are refused;
//   - a name whose last label is numeric (digits, or 0x and hex digits) is
//     an IPv4 address and must be a canonical dotted quad: 127.1,
//     0x7f.0.0.1, 2130706433 and 0177.0.0.1 are refused, never decoded,
//     because resolvers disagree about them;
//   - an IPv6 address is written in brackets where a port may follow, has
//     no zone, and an IPv4-mapped one (::ffff:a.b.c.d) is unwrapped to its
//     IPv4 form, so the address judged is the address dialed;
//   - a port is 1 to 65535 in decimal, without sign or leading zeros.

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// errBadHost is wrapped by every host and port parsing error.
var errBadHost = errors.New("not a host name or IP address")

// parseHost parses a host as written in a URL authority, Host header or
// SNI (IPv6 in brackets, or bare when bracketsOptional), and returns its
// normal form: a lower-case name without trailing dot, or an address in
// netip's canonical form.
func parseHost(s string, bare bool) (string, error) {
	if s == "" {
		return "", fmt.Errorf("empty host: %w", errBadHost)
	}
	if strings.HasPrefix(s, "[") || bare && strings.Contains(s, ":") {
		inner := s
		if !bare || strings.HasPrefix(s, "[") {
			if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
				return "", fmt.Errorf("host %q: %w", s, errBadHost)
			}
			inner = s[1 : len(s)-1]
		}
		a, err := netip.ParseAddr(inner)
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", fmt.Errorf("host %q: %w", s, errBadHost)
		}
		return a.Unmap().String(), nil
	}
	name := strings.TrimSuffix(s, ".")
	if name == "" || len(name) > 253 {
		return "", fmt.Errorf("host %q: %w", s, errBadHost)
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return "", fmt.Errorf("host %q: %w", s, errBadHost)
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return "", fmt.Errorf("host %q: %w", s, errBadHost)
			}
		}
	}
	if numericLabel(labels[len(labels)-1]) {
		a, err := netip.ParseAddr(name)
		if err != nil || !a.Is4() || name != s {
			return "", fmt.Errorf("host %q: an IPv4 address must be a canonical dotted quad: %w", s, errBadHost)
		}
		return a.String(), nil
	}
	return strings.ToLower(name), nil
}

// numericLabel reports whether a label would be read as a number by a URL
// parser or inet_aton: decimal digits, or 0x followed by hex digits.
func numericLabel(l string) bool {
	if h, ok := strings.CutPrefix(strings.ToLower(l), "0x"); ok {
		for i := 0; i < len(h); i++ {
			if !strings.ContainsRune("0123456789abcdef", rune(h[i])) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(l); i++ {
		if l[i] < '0' || l[i] > '9' {
			return false
		}
	}
	return true
}

// parsePort parses a decimal port 1–65535 without sign or leading zeros.
func parsePort(s string) (int, error) {
	if s == "" || len(s) > 5 || s[0] == '0' {
		return 0, fmt.Errorf("port %q: %w", s, errBadHost)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("port %q: %w", s, errBadHost)
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("port %q: %w", s, errBadHost)
	}
	return n, nil
}

// parseHostPort parses host[:port] as in a URL authority or Host header.
// When the port is missing it is defPort, or an error when defPort is 0
// (a CONNECT target must name its port).
func parseHostPort(s string, defPort int) (string, int, error) {
	hostPart, portPart := s, ""
	hasPort := false
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", 0, fmt.Errorf("host %q: %w", s, errBadHost)
		}
		hostPart = s[:end+1]
		if rest := s[end+1:]; rest != "" {
			p, ok := strings.CutPrefix(rest, ":")
			if !ok {
				return "", 0, fmt.Errorf("host %q: %w", s, errBadHost)
			}
			portPart, hasPort = p, true
		}
	} else if i := strings.LastIndexByte(s, ':'); i >= 0 {
		hostPart, portPart, hasPort = s[:i], s[i+1:], true
	}
	host, err := parseHost(hostPart, false)
	if err != nil {
		return "", 0, err
	}
	if !hasPort {
		if defPort == 0 {
			return "", 0, fmt.Errorf("%q has no port: %w", s, errBadHost)
		}
		return host, defPort, nil
	}
	port, err := parsePort(portPart)
	if err != nil {
		return "", 0, err
	}
	return host, port, nil
}

// joinHostPort writes host and port as an authority, bracketing IPv6.
func joinHostPort(host string, port int) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + strconv.Itoa(port)
	}
	return host + ":" + strconv.Itoa(port)
}

// isIP reports whether a normalised host is an IP address.
func isIP(host string) bool {
	_, err := netip.ParseAddr(host)
	return err == nil
}
