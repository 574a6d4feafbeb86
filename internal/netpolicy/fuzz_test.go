// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"encoding/json"
	"net/netip"

	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

// seedTargets are the targets of the golden tables and of a few tricky
// shapes.
func seedTargets(f *testing.F) []string {
	files, _ := filepath.Glob("testdata/decisions/*.txtar")
	seeds := []string{
		"https://example.com/p", "http://h:8080/x", "example.com:443", "[::1]:443",
		"[fe80::1%25eth0]:443", "http://allowed.com@evil.com/", "http://0x7f.1/",
		"HTTPS://A.Example.COM./?q#f", "[::ffff:127.0.0.1]:80", "[64:ff9b::a00:1]:443",
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, fl := range ar.Files {
			if fl.Name != "cases" {
				continue
			}
			for _, line := range strings.Split(string(fl.Data), "\n") {
				var c decisionCase
				if json.Unmarshal([]byte(line), &c) == nil && c.Target != "" {
					seeds = append(seeds, c.Target)
				}
			}
		}
	}
	return seeds
}

// FuzzParseTarget checks, for any input: ParseTarget does not panic; a
// target it accepts renders to text that parses back to the same target;
// an input with a control character, space, backslash or non-ASCII byte,
// or with "@" before the path, is never accepted; an accepted host is an
// IP literal or a lower-case name of letters, digits, '-', '_' and dots.
func FuzzParseTarget(f *testing.F) {
	for _, s := range seedTargets(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tg, err := netpolicy.ParseTarget(raw)
		if err != nil {
			if tg.Valid() {
				t.Fatalf("ParseTarget(%q): a valid target with error %v", raw, err)
			}
			if _, ok := err.(*netpolicy.TargetError); !ok {
				t.Fatalf("ParseTarget(%q): error %T, want *TargetError", raw, err)
			}
			return
		}
		if !tg.Valid() || tg.Port() == 0 {
			t.Fatalf("ParseTarget(%q) = an invalid target without error", raw)
		}
		again, err := netpolicy.ParseTarget(tg.String())
		if err != nil || again != tg {
			t.Fatalf("ParseTarget(%q) renders as %q, which parses to %q, %v", raw, tg.String(), again.String(), err)
		}
		for i := 0; i < len(raw); i++ {
			if c := raw[i]; c < 0x20 || c == 0x7f || c >= 0x80 || c == '\\' || c == ' ' {
				t.Fatalf("ParseTarget(%q) accepted byte %q at %d", raw, c, i)
			}
		}
		authority := raw
		if _, rest, ok := strings.Cut(raw, "://"); ok {
			authority = rest
			if i := strings.IndexAny(rest, "/?#"); i >= 0 {
				authority = rest[:i]
			}
		}
		if strings.Contains(authority, "@") {
			t.Fatalf("ParseTarget(%q) accepted userinfo: host %q", raw, tg.Host())
		}
		if _, isIP := tg.IP(); !isIP {
			h := tg.Host()
			if h == "" || strings.Trim(h, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != "" || strings.HasSuffix(h, ".") {
				t.Fatalf("ParseTarget(%q): host %q is not a normalised name", raw, h)
			}
			if strings.Contains(authority, "%") {
				t.Fatalf("ParseTarget(%q) accepted percent-encoding in the host %q", raw, h)
			}
		}
	})
}

// fuzzRules is the fixed policy of FuzzCheck: a little of everything,
// ending in a catch-all, so that the floor is what stops most requests.
var fuzzRules = []netpolicy.Rule{
	{Verdict: action.Deny, Host: "*.evil.example"},
	{Verdict: action.Allow, Host: "api.example.com", Methods: []string{"GET"}},
	{Verdict: action.Allow, Host: "db.corp", Ports: []int{5432}},
	{Verdict: action.Allow, Host: "*.corp"},
	{Verdict: action.Allow, AllowedIPs: []string{"10.1.0.0/16", "fd00:1::/32"}},
	{Verdict: action.Deny, AllowedIPs: []string{"198.51.100.0/24"}},
	{Verdict: action.Allow, Host: "192.0.2.1"},
	{Verdict: action.Allow},
}

// oracle is an independent statement of docs/spec.md §9's address floor.
var (
	oracleDenied = prefixes("127.0.0.0/8", "::1/128", "0.0.0.0/8", "::/128", "169.254.0.0/16", "fe80::/10",
		"fd00:ec2::254/128", "100.100.100.200/32", "168.63.129.16/32", "224.0.0.0/4", "ff00::/8", "255.255.255.255/32")
	oraclePrivate = prefixes("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7")
	// oracleOpened are the private addresses fuzzRules opens by allowed_ips.
	oracleOpened = prefixes("10.1.0.0/16", "fd00:1::/32")
)

func prefixes(ss ...string) []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range ss {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}

// forms is a and every IPv4 address embedded in it that some network
// delivers to.
func forms(a netip.Addr) []netip.Addr {
	a = a.WithZone("").Unmap()
	out := []netip.Addr{a}
	if a.Is6() {
		b := a.As16()
		v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		switch {
		case netip.MustParsePrefix("::/96").Contains(a),
			netip.MustParsePrefix("::ffff:0:0:0/96").Contains(a),
			netip.MustParsePrefix("64:ff9b::/96").Contains(a):
			out = append(out, v4)
		case netip.MustParsePrefix("2002::/16").Contains(a):
			out = append(out, netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
	}
	return out
}

func inAny(a netip.Addr, ps []netip.Prefix) bool {
	for _, f := range forms(a) {
		for _, p := range ps {
			if p.Contains(f) {
				return true
			}
		}
	}
	return false
}

// alwaysDenied: the oracle's floor. (:: and ::1 are themselves; their
// "IPv4" forms 0.0.0.0 and 0.0.0.1 are denied too.)
func alwaysDenied(a netip.Addr) bool { return !a.IsValid() || inAny(a, oracleDenied) }

// FuzzCheck judges a random target reached at random addresses against
// fuzzRules, both phases as the proxy runs them, and checks: no panic; a
// name CheckHost denies is denied by CheckName; a name CheckName denies
// is denied by CheckAddrs too, the same way; an
// allowed request dials at least one address, only addresses of the
// answer (unmapped), none of them always denied or private and unopened;
// an answer with any such address is denied; a deny dials nothing.
func FuzzCheck(f *testing.F) {
	p, err := netpolicy.Compile(fuzzRules)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seedTargets(f) {
		f.Add(s, "", []byte{4, 93, 184, 216, 34})
		f.Add(s, "GET", []byte{4, 127, 0, 0, 1, 4, 8, 8, 8, 8})
	}
	f.Add("db.corp:5432", "", []byte{4, 10, 0, 0, 5})
	f.Add("x.corp:443", "", []byte{16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 5})
	f.Add("x.example:443", "", []byte{16, 0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1})
	f.Fuzz(func(t *testing.T, raw, method string, ab []byte) {
		answer := decodeAddrs(ab)
		tg, err := netpolicy.ParseTarget(raw)
		if err != nil {
			if d := netpolicy.Refused(err); d.Verdict != action.Deny || len(d.Addrs) != 0 {
				t.Fatalf("Refused(%v) = %+v", err, d)
			}
			return
		}
		name := p.CheckName(tg, method, now)
		d := p.CheckAddrs(tg, method, answer, now)
		if name.Verdict == action.Deny && (d.Verdict != action.Deny || d.Rule != name.Rule) {
			t.Fatalf("%s: CheckName denies by %q, CheckAddrs gives %s by %q", raw, name.Rule, d.Verdict, d.Rule)
		}
		lit, isIP := tg.IP()
		if h := p.CheckHost(tg.Host(), now); !isIP && h.Verdict == action.Deny && name.Verdict != action.Deny {
			t.Fatalf("%s: CheckHost denies %s by %q, CheckName allows by %q", raw, tg.Host(), h.Rule, name.Rule)
		}
		judged := answer
		if isIP {
			judged = []netip.Addr{lit}
		}
		forbidden := false
		for _, a := range judged {
			// Exact-host rules open private ranges; so do allowed_ips
			// inside them.
			opened := tg.Host() == "db.corp" && tg.Port() == 5432 ||
				tg.Host() == "api.example.com" && method == "GET" ||
				inAny(a, oracleOpened)
			if alwaysDenied(a) || inAny(a, oraclePrivate) && !opened {
				forbidden = true
			}
		}
		if d.Verdict != action.Allow {
			if len(d.Addrs) != 0 {
				t.Fatalf("%s at %v: deny by %q dials %v", raw, answer, d.Rule, d.Addrs)
			}
			return
		}
		if forbidden {
			t.Fatalf("%s at %v: allowed by %q although an address is forbidden; dials %v", raw, judged, d.Rule, d.Addrs)
		}
		if len(d.Addrs) == 0 {
			t.Fatalf("%s at %v: allowed by %q with nothing to dial", raw, judged, d.Rule)
		}
		for _, a := range d.Addrs {
			if alwaysDenied(a) {
				t.Fatalf("%s: dials always-denied %s", raw, a)
			}
			found := false
			for _, j := range judged {
				found = found || j.WithZone("").Unmap() == a
			}
			if !found || a.Zone() != "" {
				t.Fatalf("%s: dials %s, not in the answer %v", raw, a, judged)
			}
		}
		if slices.ContainsFunc(judged, func(a netip.Addr) bool { return a.Zone() != "" && !alwaysDenied(a) }) {
			t.Fatalf("%s: allowed a scoped address in %v", raw, judged)
		}
	})
}

// decodeAddrs reads a length-prefixed list: a byte 4 or 16 (otherwise
// the zero Addr, which must be denied), then that many bytes.
func decodeAddrs(b []byte) []netip.Addr {
	var as []netip.Addr
	for len(b) > 0 {
		n := int(b[0])
		b = b[1:]
		switch {
		case n == 4 && len(b) >= 4:
			as = append(as, netip.AddrFrom4([4]byte(b[:4])))
			b = b[4:]
		case n == 16 && len(b) >= 16:
			as = append(as, netip.AddrFrom16([16]byte(b[:16])))
			b = b[16:]
		default:
			as = append(as, netip.Addr{})
			b = nil
		}
	}
	return as
}
