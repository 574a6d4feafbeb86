// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

var (
	allow = action.Allow
	deny  = action.Deny
	// now is when the tables are judged.
	now = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
)

func compile(t testing.TB, rules ...netpolicy.Rule) *netpolicy.Policy {
	t.Helper()
	p, err := netpolicy.Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func addrs(ss ...string) []netip.Addr {
	as := []netip.Addr{}
	for _, s := range ss {
		as = append(as, netip.MustParseAddr(s))
	}
	return as
}

// verdict is what the tables compare of a Decision; the reasons are in
// the golden files.
type verdict struct {
	Verdict         action.Verdict
	Rule            string
	Addrs           []string
	MethodDependent bool
}

func verdictOf(d netpolicy.Decision) verdict {
	v := verdict{Verdict: d.Verdict, Rule: d.Rule, MethodDependent: d.MethodDependent}
	for _, a := range d.Addrs {
		v.Addrs = append(v.Addrs, a.String())
	}
	return v
}

// check runs both phases as the proxy does.
func check(t *testing.T, p *netpolicy.Policy, raw, method string, answer []netip.Addr, at time.Time) netpolicy.Decision {
	t.Helper()
	tg, err := netpolicy.ParseTarget(raw)
	if err != nil {
		return netpolicy.Refused(err)
	}
	d := p.CheckName(tg, method, at)
	full := p.CheckAddrs(tg, method, answer, at)
	if d.Verdict == deny {
		if diff := cmp.Diff(d, full); diff != "" {
			t.Errorf("%s: CheckName denied, CheckAddrs differs (-name +addrs):\n%s", raw, diff)
		}
		return d
	}
	if _, ok := tg.IP(); !ok && len(d.Addrs) != 0 {
		t.Errorf("%s: CheckName of a name returned addresses %v", raw, d.Addrs)
	}
	if full.Verdict == deny && len(full.Addrs) != 0 {
		t.Errorf("%s: a deny with addresses %v", raw, full.Addrs)
	}
	if full.Verdict == deny && (full.Reason == "" || full.Hint == "") {
		t.Errorf("%s: deny %q without reason or hint: %+v", raw, full.Rule, full)
	}
	return full
}

func rule(i int) string { return "network.rules[" + string(rune('0'+i)) + "]" }

func TestCheck(t *testing.T) {
	public := addrs("93.184.216.34")
	for _, tt := range []struct {
		name   string
		rules  []netpolicy.Rule
		target string
		method string
		answer []netip.Addr
		at     time.Time
		want   verdict
	}{
		{name: "no rules", target: "example.com:443", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "exact host", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "https://example.com/", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "exact host, case and trailing dot", rules: []netpolicy.Rule{{Verdict: allow, Host: "Example.COM."}}, target: "EXAMPLE.com.:443", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "exact host, not a subdomain", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "www.example.com:443", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},

		// Wildcards: any depth, never the apex or a look-alike.
		{name: "wildcard subdomain", rules: wild, target: "a.example.com:443", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "wildcard deep", rules: wild, target: "a.b.example.com:443", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "wildcard case and dot", rules: wild, target: "https://A.Example.COM./", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "wildcard apex", rules: wild, target: "example.com:443", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "wildcard apex with dot", rules: wild, target: "example.com.:443", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "wildcard look-alike", rules: wild, target: "evilexample.com:443", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "wildcard as a prefix", rules: wild, target: "example.com.evil.net:443", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "wildcard two dots", rules: wild, target: "a.example.com..:443", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: malformed target"}},

		// Ports.
		{name: "port matches", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com", Ports: []int{443}}}, target: "https://example.com/", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "port differs", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com", Ports: []int{443}}}, target: "https://example.com:8443/", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "port list", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com", Ports: []int{80, 443}}}, target: "http://example.com/", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "port list, other port", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com", Ports: []int{80, 443}}}, target: "example.com:22", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},

		// Protocols.
		{name: "https rule, https URL", rules: proto(netpolicy.HTTPS), target: "https://example.com/", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "https rule, CONNECT 443", rules: proto(netpolicy.HTTPS), target: "example.com:443", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "https rule, CONNECT 22", rules: proto(netpolicy.HTTPS), target: "example.com:22", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "https rule, http URL", rules: proto(netpolicy.HTTPS), target: "http://example.com/", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "tcp rule, CONNECT 22", rules: proto(netpolicy.TCP), target: "example.com:22", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "tcp rule, CONNECT 443", rules: proto(netpolicy.TCP), target: "example.com:443", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "tcp rule, http URL", rules: proto(netpolicy.TCP), target: "http://example.com/", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "http rule, http URL", rules: proto(netpolicy.HTTP), target: "http://example.com/", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "http rule, CONNECT 80", rules: proto(netpolicy.HTTP), target: "example.com:80", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},

		// Methods.
		{name: "allowed method", rules: getOnly, target: "https://example.com/", method: "GET", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "other method", rules: getOnly, target: "https://example.com/", method: "POST", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "allow is exact about case", rules: getOnly, target: "https://example.com/", method: "get", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "unknown method, allow rule", rules: getOnly, target: "example.com:443", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny", MethodDependent: true}},
		{name: "denied method", rules: noPost, target: "https://example.com/", method: "POST", answer: public,
			want: verdict{Verdict: deny, Rule: rule(0)}},
		{name: "denied method, lower case", rules: noPost, target: "https://example.com/", method: "post", answer: public,
			want: verdict{Verdict: deny, Rule: rule(0)}},
		{name: "method the deny rule does not name", rules: noPost, target: "https://example.com/", method: "GET", answer: public,
			want: verdict{Verdict: allow, Rule: rule(1), Addrs: []string{"93.184.216.34"}}},
		{name: "unknown method, deny rule", rules: noPost, target: "example.com:443", answer: public,
			want: verdict{Verdict: deny, Rule: rule(0), MethodDependent: true}},
		{name: "malformed method", rules: noPost, target: "https://example.com/", method: "GE T", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: malformed method"}},

		// enabled: false and until.
		{name: "disabled", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com", Disabled: true}}, target: "example.com:443", answer: public,
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "before until", rules: until, target: "example.com:443", answer: public, at: now,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "at until", rules: until, target: "example.com:443", answer: public, at: now.Add(time.Hour),
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "after until", rules: until, target: "example.com:443", answer: public, at: now.Add(48 * time.Hour),
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "deny until, before", rules: denyUntil, target: "x.evil.example:443", answer: public, at: now,
			want: verdict{Verdict: deny, Rule: rule(0)}},
		{name: "deny until, after", rules: denyUntil, target: "x.evil.example:443", answer: public, at: now.Add(48 * time.Hour),
			want: verdict{Verdict: allow, Rule: rule(1), Addrs: []string{"93.184.216.34"}}},

		// First match wins.
		{name: "deny before allow", rules: []netpolicy.Rule{{Verdict: deny, Host: "*.example.com"}, {Verdict: allow}}, target: "a.example.com:443", answer: public,
			want: verdict{Verdict: deny, Rule: rule(0)}},
		{name: "allow before deny", rules: []netpolicy.Rule{{Verdict: allow, Host: "a.example.com"}, {Verdict: deny, Host: "*.example.com"}}, target: "a.example.com:443", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},

		// Private ranges.
		{name: "private through exact host", rules: []netpolicy.Rule{{Verdict: allow, Host: "db.corp"}}, target: "db.corp:5432", answer: addrs("10.0.0.5"),
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"10.0.0.5"}}},
		{name: "private through allowed_ips", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"10.1.0.0/16"}}}, target: "db.corp:5432", answer: addrs("10.1.2.3"),
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"10.1.2.3"}}},
		{name: "private outside allowed_ips", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"10.1.0.0/16"}}}, target: "db.corp:5432", answer: addrs("10.2.0.1"),
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "private through wildcard", rules: []netpolicy.Rule{{Verdict: allow, Host: "*.corp"}}, target: "db.corp:5432", answer: addrs("10.0.0.5"),
			want: verdict{Verdict: deny, Rule: "private-range: 10.0.0.0/8"}},
		{name: "private through catch-all", rules: []netpolicy.Rule{{Verdict: allow}}, target: "db.corp:5432", answer: addrs("192.168.1.10"),
			want: verdict{Verdict: deny, Rule: "private-range: 192.168.0.0/16"}},
		{name: "private through wide allowed_ips", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"0.0.0.0/0"}}}, target: "db.corp:5432", answer: addrs("172.16.0.9"),
			want: verdict{Verdict: deny, Rule: "private-range: 172.16.0.0/12"}},
		{name: "private through IP literal rule", rules: []netpolicy.Rule{{Verdict: allow, Host: "10.0.0.5"}}, target: "10.0.0.5:5432",
			want: verdict{Verdict: deny, Rule: "private-range: 10.0.0.0/8"}},
		{name: "private IP literal through catch-all", rules: []netpolicy.Rule{{Verdict: allow}}, target: "http://100.64.0.1/",
			want: verdict{Verdict: deny, Rule: "private-range: 100.64.0.0/10"}},
		{name: "private IP literal through allowed_ips", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"10.0.0.5"}}}, target: "10.0.0.5:5432",
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"10.0.0.5"}}},
		{name: "private ULA through exact host", rules: []netpolicy.Rule{{Verdict: allow, Host: "db.corp"}}, target: "db.corp:5432", answer: addrs("fd12::5"),
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"fd12::5"}}},
		{name: "private skipped, later exact host opens", rules: []netpolicy.Rule{{Verdict: allow, Host: "*.corp"}, {Verdict: allow, Host: "db.corp"}}, target: "db.corp:5432", answer: addrs("10.0.0.5"),
			want: verdict{Verdict: allow, Rule: rule(1), Addrs: []string{"10.0.0.5"}}},
		{name: "private skipped, later deny", rules: []netpolicy.Rule{{Verdict: allow}, {Verdict: deny, Host: "db.corp"}}, target: "db.corp:5432", answer: addrs("10.0.0.5"),
			want: verdict{Verdict: deny, Rule: rule(1)}},
		{name: "public through wildcard", rules: []netpolicy.Rule{{Verdict: allow, Host: "*.corp"}}, target: "db.corp:5432", answer: addrs("198.51.100.7"),
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"198.51.100.7"}}},
		{name: "private through NAT64 by wildcard", rules: []netpolicy.Rule{{Verdict: allow, Host: "*.corp"}}, target: "db.corp:5432", answer: addrs("64:ff9b::a00:5"),
			want: verdict{Verdict: deny, Rule: "private-range: 10.0.0.0/8"}},
		{name: "private through NAT64 by allowed_ips", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"10.0.0.0/8"}}}, target: "db.corp:5432", answer: addrs("64:ff9b::a00:5"),
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"64:ff9b::a00:5"}}},

		// Control-plane ports, on every host.
		{name: "etcd", rules: []netpolicy.Rule{{Verdict: allow}}, target: "example.com:2379", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: control-plane port"}},
		{name: "etcd peer", rules: []netpolicy.Rule{{Verdict: allow}}, target: "example.com:2380", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: control-plane port"}},
		{name: "kube-apiserver", rules: []netpolicy.Rule{{Verdict: allow, Host: "k8s.corp"}}, target: "https://k8s.corp:6443/", answer: addrs("10.0.0.1"),
			want: verdict{Verdict: deny, Rule: "always-denied: control-plane port"}},
		{name: "kubelet", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"203.0.113.0/24"}}}, target: "203.0.113.5:10250",
			want: verdict{Verdict: deny, Rule: "always-denied: control-plane port"}},
		{name: "kubelet read-only", rules: []netpolicy.Rule{{Verdict: allow}}, target: "http://example.com:10255/pods", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: control-plane port"}},

		// Names denied whatever they resolve to.
		{name: "localhost", rules: []netpolicy.Rule{{Verdict: allow}}, target: "localhost:8080", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: localhost"}},
		{name: "localhost upper case with dot", rules: []netpolicy.Rule{{Verdict: allow}}, target: "http://LOCALHOST./", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: localhost"}},
		{name: "subdomain of localhost", rules: []netpolicy.Rule{{Verdict: allow, Host: "*.localhost.example"}, {Verdict: allow}}, target: "x.localhost:80", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: localhost"}},
		{name: "localhost as a label elsewhere", rules: []netpolicy.Rule{{Verdict: allow}}, target: "localhost.example.com:443", answer: public,
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34"}}},
		{name: "metadata name", rules: []netpolicy.Rule{{Verdict: allow}}, target: "http://metadata.google.internal/", answer: public,
			want: verdict{Verdict: deny, Rule: "always-denied: cloud metadata"}},

		// Addresses denied whatever the rules; the name resolves there.
		{name: "resolves to loopback", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "example.com:443", answer: addrs("127.0.0.1"),
			want: verdict{Verdict: deny, Rule: "always-denied: loopback"}},
		{name: "resolves to metadata", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "example.com:80", answer: addrs("169.254.169.254"),
			want: verdict{Verdict: deny, Rule: "always-denied: cloud metadata"}},
		{name: "resolves to mapped metadata", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "example.com:80", answer: addrs("::ffff:169.254.169.254"),
			want: verdict{Verdict: deny, Rule: "always-denied: cloud metadata"}},
		{name: "resolves to AWS IPv6 metadata", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "example.com:80", answer: addrs("fd00:ec2::254"),
			want: verdict{Verdict: deny, Rule: "always-denied: cloud metadata"}},
		{name: "resolves to Alibaba metadata", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"100.64.0.0/10"}}}, target: "example.com:80", answer: addrs("100.100.100.200"),
			want: verdict{Verdict: deny, Rule: "always-denied: cloud metadata"}},
		{name: "resolves to Azure WireServer", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"168.63.0.0/16"}}}, target: "example.com:80", answer: addrs("168.63.129.16"),
			want: verdict{Verdict: deny, Rule: "always-denied: cloud metadata"}},
		{name: "one bad address among good ones", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "example.com:443", answer: addrs("93.184.216.34", "2606:2800:220:1::1", "127.0.0.1"),
			want: verdict{Verdict: deny, Rule: "always-denied: loopback"}},
		{name: "one private address among public ones", rules: []netpolicy.Rule{{Verdict: allow, Host: "*.example.com"}}, target: "a.example.com:443", answer: addrs("93.184.216.34", "10.0.0.1"),
			want: verdict{Verdict: deny, Rule: "private-range: 10.0.0.0/8"}},
		{name: "one address outside allowed_ips", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"203.0.113.0/24"}}}, target: "example.com:443", answer: addrs("203.0.113.5", "198.51.100.1"),
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "addresses decided by different rules", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"203.0.113.0/24"}}, {Verdict: allow, Host: "example.com"}}, target: "example.com:443", answer: addrs("203.0.113.5", "198.51.100.1"),
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"203.0.113.5", "198.51.100.1"}}},
		{name: "address denied by allowed_ips deny rule", rules: []netpolicy.Rule{{Verdict: deny, AllowedIPs: []string{"198.51.100.0/24"}}, {Verdict: allow}}, target: "example.com:443", answer: addrs("203.0.113.5", "198.51.100.1"),
			want: verdict{Verdict: deny, Rule: rule(0)}},
		{name: "no answer", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "example.com:443", answer: addrs(),
			want: verdict{Verdict: deny, Rule: "always-denied: no address"}},
		{name: "nil answer", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "example.com:443",
			want: verdict{Verdict: deny, Rule: "always-denied: no address"}},
		{name: "invalid address in the answer", rules: []netpolicy.Rule{{Verdict: allow}}, target: "example.com:443", answer: []netip.Addr{netip.MustParseAddr("93.184.216.34"), {}},
			want: verdict{Verdict: deny, Rule: "always-denied: invalid address"}},
		{name: "duplicates dialled once, mapped as IPv4", rules: []netpolicy.Rule{{Verdict: allow}}, target: "example.com:443", answer: addrs("93.184.216.34", "::ffff:93.184.216.34", "2606:2800:220:1::1"),
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"93.184.216.34", "2606:2800:220:1::1"}}},
		{name: "IP literal ignores the answer", rules: []netpolicy.Rule{{Verdict: allow}}, target: "198.51.100.7:443", answer: addrs("127.0.0.1"),
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"198.51.100.7"}}},
		{name: "IP literal rule", rules: []netpolicy.Rule{{Verdict: allow, Host: "198.51.100.7"}}, target: "[::ffff:198.51.100.7]:443",
			want: verdict{Verdict: allow, Rule: rule(0), Addrs: []string{"198.51.100.7"}}},
		{name: "IP literal rule does not match a name", rules: []netpolicy.Rule{{Verdict: allow, Host: "198.51.100.7"}}, target: "example.com:443", answer: addrs("198.51.100.7"),
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "name rule does not match an IP literal", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "93.184.216.34:443",
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "zone on a global address", rules: []netpolicy.Rule{{Verdict: allow}}, target: "[2001:db8::1%25eth0]:443",
			want: verdict{Verdict: deny, Rule: "always-denied: scoped address"}},

		// Malformed targets are judged: denied.
		{name: "userinfo", rules: []netpolicy.Rule{{Verdict: allow, Host: "allowed.com"}}, target: "http://allowed.com@evil.com/",
			want: verdict{Verdict: deny, Rule: "always-denied: malformed target"}},
		{name: "octal loopback", rules: []netpolicy.Rule{{Verdict: allow}}, target: "http://0177.0.0.1/",
			want: verdict{Verdict: deny, Rule: "always-denied: malformed target"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			at := tt.at
			if at.IsZero() {
				at = now
			}
			for i := range tt.rules {
				tt.rules[i].Name = rule(i)
			}
			got := verdictOf(check(t, compile(t, tt.rules...), tt.target, tt.method, tt.answer, at))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("check(%q, %q, %v) (-want +got):\n%s", tt.target, tt.method, tt.answer, diff)
			}
		})
	}
}

var (
	wild      = []netpolicy.Rule{{Verdict: allow, Host: "*.example.com"}}
	getOnly   = []netpolicy.Rule{{Verdict: allow, Host: "example.com", Methods: []string{"GET"}}}
	noPost    = []netpolicy.Rule{{Verdict: deny, Host: "example.com", Methods: []string{"POST"}}, {Verdict: allow, Host: "example.com"}}
	until     = []netpolicy.Rule{{Verdict: allow, Host: "example.com", Until: now.Add(time.Hour)}}
	denyUntil = []netpolicy.Rule{{Verdict: deny, Host: "*.evil.example", Until: now.Add(time.Hour)}, {Verdict: allow}}
)

func proto(p netpolicy.Protocol) []netpolicy.Rule {
	return []netpolicy.Rule{{Verdict: allow, Host: "example.com", Protocol: p}}
}

// TestAddressClasses judges addresses of every special range, resolved and
// as IP literals, against rules that allow everything they can.
func TestAddressClasses(t *testing.T) {
	p := compile(t, netpolicy.Rule{Verdict: allow})
	for _, tt := range []struct {
		addr string
		// rule is the deciding rule; "" for allowed.
		rule string
	}{
		{"127.0.0.1", "always-denied: loopback"},
		{"127.255.255.254", "always-denied: loopback"},
		{"::1", "always-denied: loopback"},
		{"0.0.0.0", "always-denied: unspecified"},
		{"0.1.2.3", "always-denied: unspecified"},
		{"::", "always-denied: unspecified"},
		{"169.254.169.254", "always-denied: cloud metadata"},
		{"fd00:ec2::254", "always-denied: cloud metadata"},
		{"100.100.100.200", "always-denied: cloud metadata"},
		{"168.63.129.16", "always-denied: cloud metadata"},
		{"::ffff:168.63.129.16", "always-denied: cloud metadata"},
		{"::168.63.129.16", "always-denied: cloud metadata"},
		{"::ffff:0:168.63.129.16", "always-denied: cloud metadata"},
		{"64:ff9b::a83f:8110", "always-denied: cloud metadata"},
		{"2002:a83f:8110::1", "always-denied: cloud metadata"},
		{"168.63.129.17", ""},
		{"169.254.1.1", "always-denied: link-local"},
		{"fe80::1", "always-denied: link-local"},
		{"febf::1", "always-denied: link-local"},
		{"fe80::1%eth0", "always-denied: link-local"},
		{"224.0.0.1", "always-denied: multicast"},
		{"239.255.255.250", "always-denied: multicast"},
		{"ff02::1", "always-denied: multicast"},
		{"ff0e::1", "always-denied: multicast"},
		{"255.255.255.255", "always-denied: broadcast"},
		// IPv4 inside IPv6.
		{"::ffff:127.0.0.1", "always-denied: loopback"},
		{"::ffff:7f00:1", "always-denied: loopback"},
		{"::ffff:169.254.169.254", "always-denied: cloud metadata"},
		{"::ffff:0.0.0.0", "always-denied: unspecified"},
		{"::127.0.0.1", "always-denied: loopback"},
		{"::169.254.169.254", "always-denied: cloud metadata"},
		{"::ffff:0:127.0.0.1", "always-denied: loopback"},
		{"64:ff9b::7f00:1", "always-denied: loopback"},
		{"64:ff9b::a9fe:a9fe", "always-denied: cloud metadata"},
		{"64:ff9b::e000:1", "always-denied: multicast"},
		{"2002:7f00:1::1", "always-denied: loopback"},
		{"2002:a9fe:a9fe::", "always-denied: cloud metadata"},
		// Private.
		{"10.1.2.3", "private-range: 10.0.0.0/8"},
		{"172.16.0.1", "private-range: 172.16.0.0/12"},
		{"172.31.255.255", "private-range: 172.16.0.0/12"},
		{"192.168.1.1", "private-range: 192.168.0.0/16"},
		{"100.64.0.1", "private-range: 100.64.0.0/10"},
		{"100.127.255.255", "private-range: 100.64.0.0/10"},
		{"fc00::1", "private-range: fc00::/7"},
		{"fd12:3456::1", "private-range: fc00::/7"},
		{"::ffff:10.0.0.1", "private-range: 10.0.0.0/8"},
		{"::10.0.0.1", "private-range: 10.0.0.0/8"},
		{"64:ff9b::a00:1", "private-range: 10.0.0.0/8"},
		{"2002:c0a8:101::1", "private-range: 192.168.0.0/16"},
		{"64:ff9b:1::a00:1", "private-range: 64:ff9b:1::/48"},
		{"198.18.0.1", "private-range: 198.18.0.0/15"},
		{"240.0.0.1", "private-range: 240.0.0.0/4"},
		{"fec0::1", "private-range: fec0::/10"},
		// Public.
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"169.253.255.255", ""},
		{"8.8.8.8", ""},
		{"2001:4860:4860::8888", ""},
		{"::ffff:8.8.8.8", ""},
		{"::8.8.8.8", ""},
		{"64:ff9b::808:808", ""},
		{"2002:808:808::1", ""},
		{"fe00::1", ""},
	} {
		a := netip.MustParseAddr(tt.addr)
		tg, err := netpolicy.ParseTarget("host.example:443")
		if err != nil {
			t.Fatal(err)
		}
		d := p.CheckAddrs(tg, "", []netip.Addr{a}, now)
		wantVerdict := deny
		if tt.rule == "" {
			wantVerdict, tt.rule = allow, "network.rules[0]"
		}
		if d.Verdict != wantVerdict || d.Rule != tt.rule {
			t.Errorf("CheckAddrs(host.example, %s) = %s by %q, want %s by %q (%s)", a, d.Verdict, d.Rule, wantVerdict, tt.rule, d.Reason)
		}
		if d.Verdict == allow && (len(d.Addrs) != 1 || d.Addrs[0] != a.Unmap()) {
			t.Errorf("CheckAddrs(host.example, %s) dials %v, want %s", a, d.Addrs, a.Unmap())
		}
		// The same address as an IP literal.
		lit := "[" + strings.ReplaceAll(a.String(), "%", "%25") + "]:443"
		if a.Is4() {
			lit = a.String() + ":443"
		}
		tg, err = netpolicy.ParseTarget(lit)
		if err != nil {
			t.Fatalf("ParseTarget(%q): %v", lit, err)
		}
		if d := p.CheckName(tg, "", now); d.Verdict != wantVerdict || d.Rule != tt.rule {
			t.Errorf("CheckName(%s) = %s by %q, want %s by %q (%s)", lit, d.Verdict, d.Rule, wantVerdict, tt.rule, d.Reason)
		}
	}
}

// TestCheckName covers the first phase: what is refused before any DNS
// query, and what is left to the addresses.
func TestCheckName(t *testing.T) {
	for _, tt := range []struct {
		name   string
		rules  []netpolicy.Rule
		target string
		want   verdict
	}{
		{name: "denied by rule, no query", rules: []netpolicy.Rule{{Verdict: deny, Host: "*.evil.example"}, {Verdict: allow}}, target: "x.evil.example:443",
			want: verdict{Verdict: deny, Rule: rule(0)}},
		{name: "default deny, no query", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "other.example:443",
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "localhost, no query", rules: []netpolicy.Rule{{Verdict: allow}}, target: "localhost:443",
			want: verdict{Verdict: deny, Rule: "always-denied: localhost"}},
		{name: "allowed name: resolve", rules: []netpolicy.Rule{{Verdict: allow, Host: "example.com"}}, target: "example.com:443",
			want: verdict{Verdict: allow, Rule: rule(0)}},
		{name: "allowed_ips before deny: resolve", rules: []netpolicy.Rule{{Verdict: allow, AllowedIPs: []string{"203.0.113.0/24"}}, {Verdict: deny}}, target: "example.com:443",
			want: verdict{Verdict: allow, Rule: rule(0)}},
		{name: "deny with allowed_ips does not decide by name", rules: []netpolicy.Rule{{Verdict: deny, AllowedIPs: []string{"203.0.113.0/24"}}}, target: "example.com:443",
			want: verdict{Verdict: deny, Rule: "default: deny"}},
		{name: "deny with allowed_ips then allow", rules: []netpolicy.Rule{{Verdict: deny, AllowedIPs: []string{"203.0.113.0/24"}}, {Verdict: allow}}, target: "example.com:443",
			want: verdict{Verdict: allow, Rule: rule(1)}},
		{name: "nil policy", target: "example.com:443",
			want: verdict{Verdict: deny, Rule: "default: deny"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.rules {
				tt.rules[i].Name = rule(i)
			}
			var p *netpolicy.Policy
			if tt.rules != nil {
				p = compile(t, tt.rules...)
			}
			tg, err := netpolicy.ParseTarget(tt.target)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, verdictOf(p.CheckName(tg, "", now))); diff != "" {
				t.Errorf("CheckName(%s) (-want +got):\n%s", tt.target, diff)
			}
		})
	}
	var zero netpolicy.Target
	p := compile(t, netpolicy.Rule{Verdict: allow})
	for _, d := range []netpolicy.Decision{p.CheckName(zero, "", now), p.CheckAddrs(zero, "", addrs("8.8.8.8"), now)} {
		if d.Verdict != deny || d.Rule != "always-denied: malformed target" {
			t.Errorf("the zero Target: %s by %q, want deny by always-denied: malformed target", d.Verdict, d.Rule)
		}
	}
}

func TestCompile(t *testing.T) {
	for _, tt := range []struct {
		rule netpolicy.Rule
		err  string // "" for no error
	}{
		{netpolicy.Rule{Verdict: allow}, ""},
		{netpolicy.Rule{Verdict: deny, Host: "localhost"}, ""},
		{netpolicy.Rule{Verdict: deny, AllowedIPs: []string{"127.0.0.0/8"}}, ""},
		{netpolicy.Rule{Verdict: deny, Ports: []int{6443}}, ""},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"0.0.0.0/0", "::/0"}}, ""},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"::ffff:10.0.0.0/104"}}, ""},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"100.100.100.0/24"}}, ""},
		{netpolicy.Rule{Verdict: allow, Host: "2001:db8::1"}, ""},
		{netpolicy.Rule{Verdict: allow, Host: "*.Example.COM."}, ""},
		{netpolicy.Rule{Verdict: allow, Methods: []string{"get", "POST"}, Protocol: netpolicy.HTTPS, Ports: []int{443}}, ""},
		{netpolicy.Rule{Verdict: action.Prompt}, "a network rule allows or denies"},
		{netpolicy.Rule{Verdict: allow, Host: "*"}, "not a host name"},
		{netpolicy.Rule{Verdict: allow, Host: "*.*.example.com"}, "not a host name"},
		{netpolicy.Rule{Verdict: allow, Host: "a..b"}, "not a host name"},
		{netpolicy.Rule{Verdict: allow, Host: "127.1"}, "non-canonical"},
		{netpolicy.Rule{Verdict: allow, Host: "localhost"}, "always denied"},
		{netpolicy.Rule{Verdict: allow, Host: "a.localhost"}, "always denied"},
		{netpolicy.Rule{Verdict: allow, Host: "*.localhost"}, "always denied"},
		{netpolicy.Rule{Verdict: allow, Host: "127.0.0.1"}, "always denied (loopback)"},
		{netpolicy.Rule{Verdict: allow, Host: "::ffff:169.254.169.254"}, "always denied (cloud metadata)"},
		{netpolicy.Rule{Verdict: allow, Host: "fe80::1%eth0"}, "zone"},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"127.0.0.1"}}, "always denied (loopback)"},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"169.254.0.0/16"}}, "always denied (link-local)"},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"169.254.169.254/32"}}, "always denied (cloud metadata)"},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"ff00::/8"}}, "always denied (multicast)"},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"10.0.0.0/33"}}, "not an IP address or CIDR prefix"},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"example.com"}}, "not an IP address or CIDR prefix"},
		{netpolicy.Rule{Verdict: allow, AllowedIPs: []string{"::ffff:0.0.0.0/95"}}, "at least 96 bits"},
		{netpolicy.Rule{Verdict: allow, Ports: []int{0}}, "not in 1-65535"},
		{netpolicy.Rule{Verdict: allow, Ports: []int{65536}}, "not in 1-65535"},
		{netpolicy.Rule{Verdict: allow, Ports: []int{443, 6443}}, "control-plane port"},
		{netpolicy.Rule{Verdict: allow, Protocol: "udp"}, `protocol "udp"`},
		{netpolicy.Rule{Verdict: allow, Methods: []string{"GET /"}}, "not an HTTP method"},
	} {
		tt.rule.Name, tt.rule.Pos = "network.rules[0]", "p.yaml:3:7"
		_, err := netpolicy.Compile([]netpolicy.Rule{tt.rule})
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("Compile(%+v): %v", tt.rule, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Compile(%+v) = %v, want an error containing %q", tt.rule, err, tt.err)
		case err != nil && !strings.HasPrefix(err.Error(), "p.yaml:3:7: network.rules[0]: "):
			t.Errorf("Compile(%+v) = %v, want it to start with the position and name", tt.rule, err)
		}
	}
}

// TestRuleNames checks how decisions name rules.
func TestRuleNames(t *testing.T) {
	p := compile(t, netpolicy.Rule{Verdict: deny, Host: "a.example"}, netpolicy.Rule{Name: "net.rules[1]", Pos: "p.yaml:5:7", Verdict: deny})
	for target, want := range map[string]string{"a.example:443": "network.rules[0]", "b.example:443": "net.rules[1] (p.yaml:5:7)"} {
		tg, _ := netpolicy.ParseTarget(target)
		if got := p.CheckName(tg, "", now).Rule; got != want {
			t.Errorf("CheckName(%s).Rule = %q, want %q", target, got, want)
		}
	}
}

// TestCheckHost covers the DNS stub's question: could any request to this
// name be allowed?
func TestCheckHost(t *testing.T) {
	p := compile(t,
		netpolicy.Rule{Name: rule(0), Verdict: deny, Host: "*.evil.example"},
		netpolicy.Rule{Name: rule(1), Verdict: deny, Host: "api.example.com", Ports: []int{80}},
		netpolicy.Rule{Name: rule(2), Verdict: allow, Host: "api.example.com", Ports: []int{443}, Methods: []string{"GET"}},
		netpolicy.Rule{Name: rule(3), Verdict: allow, Host: "old.example.com", Disabled: true},
		netpolicy.Rule{Name: rule(4), Verdict: allow, Host: "*.evil.example"},
		netpolicy.Rule{Name: rule(5), Verdict: allow, AllowedIPs: []string{"203.0.113.0/24"}, Ports: []int{8080}},
	)
	for _, tt := range []struct {
		name string
		want verdict
	}{
		{"api.example.com", verdict{Verdict: allow, Rule: rule(2)}},
		{"API.Example.com.", verdict{Verdict: allow, Rule: rule(2)}},
		{"x.evil.example", verdict{Verdict: deny, Rule: rule(0)}},
		{"old.example.com", verdict{Verdict: allow, Rule: rule(5)}},
		{"localhost", verdict{Verdict: deny, Rule: "always-denied: localhost"}},
		{"a.localhost", verdict{Verdict: deny, Rule: "always-denied: localhost"}},
		{"metadata.google.internal", verdict{Verdict: deny, Rule: "always-denied: cloud metadata"}},
		{"127.1", verdict{Verdict: deny, Rule: "always-denied: malformed target"}},
		{"a..b", verdict{Verdict: deny, Rule: "always-denied: malformed target"}},
		{"ex%61mple.com", verdict{Verdict: deny, Rule: "always-denied: malformed target"}},
	} {
		if diff := cmp.Diff(tt.want, verdictOf(p.CheckHost(tt.name, now))); diff != "" {
			t.Errorf("CheckHost(%q) (-want +got):\n%s", tt.name, diff)
		}
	}
	if d := compile(t, netpolicy.Rule{Verdict: allow, Host: "a.example"}).CheckHost("b.example", now); d.Verdict != deny || d.Rule != "default: deny" {
		t.Errorf("CheckHost(b.example) = %s by %q, want deny by default: deny", d.Verdict, d.Rule)
	}
}
