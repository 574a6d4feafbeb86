// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

var tiersNow = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

func mustCompile(t *testing.T, rules ...netpolicy.Rule) *netpolicy.Policy {
	t.Helper()
	p, err := netpolicy.Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustTarget(t *testing.T, raw string) netpolicy.Target {
	t.Helper()
	tg, err := netpolicy.ParseTarget(raw)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestTiersCombine: every tier must allow; the first deny decides; an
// allow names the policy file's rule; MethodDependent is set by any tier.
func TestTiersCombine(t *testing.T) {
	file := mustCompile(t,
		netpolicy.Rule{Name: "file[0]", Verdict: action.Allow, Host: "get.example", Methods: []string{"GET"}},
		netpolicy.Rule{Name: "file[1]", Verdict: action.Deny, Host: "*.evil.example"},
		netpolicy.Rule{Name: "file[2]", Verdict: action.Allow},
	)
	managed := mustCompile(t,
		netpolicy.Rule{Name: "managed[0]", Verdict: action.Deny, Host: "*.pypi.org"},
		netpolicy.Rule{Name: "managed[1]", Verdict: action.Deny, Host: "api.example", Methods: []string{"DELETE"}},
		netpolicy.Rule{Name: "managed[2]", Verdict: action.Allow},
	)
	ts := netpolicy.NewTiers(file, managed)
	addrs := []netip.Addr{netip.MustParseAddr("198.51.100.7")}
	for _, tt := range []struct {
		target, method string
		verdict        action.Verdict
		rule           string
		dependent      bool
	}{
		{target: "https://files.pypi.org/", method: "GET", verdict: action.Deny, rule: "managed[0]"},
		{target: "x.evil.example:443", verdict: action.Deny, rule: "file[1]"},
		{target: "https://api.github.com/", method: "GET", verdict: action.Allow, rule: "file[2]"},
		// The managed tier's deny naming a method decides a stream,
		// taken the strict way.
		{target: "api.example:443", verdict: action.Deny, rule: "managed[1]", dependent: true},
		{target: "https://api.example/", method: "GET", verdict: action.Allow, rule: "file[2]"},
		// The file tier's rule naming a method marks the allow.
		{target: "get.example:443", verdict: action.Allow, rule: "file[2]", dependent: true},
		{target: "https://get.example/", method: "GET", verdict: action.Allow, rule: "file[0]"},
	} {
		tg := mustTarget(t, tt.target)
		d := ts.CheckAddrs(tg, tt.method, addrs, tiersNow)
		if d.Verdict != tt.verdict || d.Rule != tt.rule || d.MethodDependent != tt.dependent {
			t.Errorf("CheckAddrs(%s, %q) = %s by %q (dependent %v; %s), want %s by %q (dependent %v)",
				tt.target, tt.method, d.Verdict, d.Rule, d.MethodDependent, d.Reason, tt.verdict, tt.rule, tt.dependent)
		}
		if d.Verdict == action.Allow && !slices.Equal(d.Addrs, addrs) {
			t.Errorf("CheckAddrs(%s) dials %v, want %v", tt.target, d.Addrs, addrs)
		}
		if n := ts.CheckName(tg, tt.method, tiersNow); n.Verdict == action.Deny && n.Rule != tt.rule {
			t.Errorf("CheckName(%s) = deny by %q, want none or by %q", tt.target, n.Rule, tt.rule)
		}
	}
	for name, want := range map[string]string{"files.pypi.org": "managed[0]", "x.evil.example": "file[1]", "api.github.com": "file[2]"} {
		if d := ts.CheckHost(name, tiersNow); d.Rule != want {
			t.Errorf("CheckHost(%s) = %s by %q, want by %q", name, d.Verdict, d.Rule, want)
		}
	}
	if d := netpolicy.NewTiers().CheckName(mustTarget(t, "https://example.com/"), "GET", tiersNow); d.Verdict != action.Deny || d.Rule != "default: deny" {
		t.Errorf("no tiers: CheckName = %s by %q, want deny by default: deny", d.Verdict, d.Rule)
	}
	// An approved rerun replaces the file tier; the managed tier keeps
	// its say.
	approved := ts.WithFirst(mustCompile(t, netpolicy.Rule{Name: "approved", Verdict: action.Allow, Host: "files.pypi.org"}))
	for target, want := range map[string]string{"https://files.pypi.org/": "managed[0]", "https://api.github.com/": "default: deny"} {
		if d := approved.CheckAddrs(mustTarget(t, target), "GET", addrs, tiersNow); d.Verdict != action.Deny || d.Rule != want {
			t.Errorf("after WithFirst, CheckAddrs(%s) = %s by %q, want deny by %q", target, d.Verdict, d.Rule, want)
		}
	}
}

func TestTiersNamesMethods(t *testing.T) {
	plain := mustCompile(t, netpolicy.Rule{Verdict: action.Allow, Host: "a.example"})
	deny := mustCompile(t, netpolicy.Rule{Verdict: action.Deny, Host: "a.example", Methods: []string{"DELETE"}, Disabled: true})
	for _, tt := range []struct {
		name string
		ts   *netpolicy.Tiers
		want bool
	}{
		{"none", netpolicy.NewTiers(plain), false},
		{"a disabled deny in the managed tier", netpolicy.NewTiers(plain, deny), true},
		{"in the file tier", netpolicy.NewTiers(deny), true},
	} {
		if got := tt.ts.NamesMethods(); got != tt.want {
			t.Errorf("%s: NamesMethods() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestTiersCheckResolves checks when the whole decision asks the
// resolver: a name refused by name never is (no DNS query leaves for
// it), an IP literal never is, any other allowed name is, once; a
// failed lookup is a deny that says why.
func TestTiersCheckResolves(t *testing.T) {
	ts := netpolicy.NewTiers(mustCompile(t,
		netpolicy.Rule{Verdict: action.Deny, Host: "*.evil.example"},
		netpolicy.Rule{Verdict: action.Allow, Host: "*.example"},
		netpolicy.Rule{Verdict: action.Allow, AllowedIPs: []string{"198.51.100.0/24"}},
	))
	var asked []string
	resolve := func(host string) ([]netip.Addr, error) {
		asked = append(asked, host)
		switch host {
		case "nxdomain.example":
			return nil, errors.New("no such host")
		case "empty.example":
			return nil, nil
		}
		return []netip.Addr{netip.MustParseAddr("198.51.100.7")}, nil
	}
	for _, tt := range []struct {
		target   string
		asked    []string
		verdict  action.Verdict
		rule     string
		inReason string
	}{
		{target: "x.evil.example:443", verdict: action.Deny, rule: "network.rules[0]"},
		{target: "other.test:443", verdict: action.Allow, asked: []string{"other.test"}, rule: "network.rules[2]"},
		{target: "localhost:443", verdict: action.Deny, rule: "always-denied: localhost"},
		{target: "a.example:6443", verdict: action.Deny, rule: "always-denied: control-plane port"},
		{target: "198.51.100.9:443", verdict: action.Allow, rule: "network.rules[2]"},
		{target: "a.example:443", verdict: action.Allow, asked: []string{"a.example"}, rule: "network.rules[1]"},
		{target: "A.Example.:443", verdict: action.Allow, asked: []string{"a.example"}, rule: "network.rules[1]"},
		{target: "empty.example:443", verdict: action.Deny, asked: []string{"empty.example"}, rule: "always-denied: no address"},
		{target: "nxdomain.example:443", verdict: action.Deny, asked: []string{"nxdomain.example"}, rule: "always-denied: no address", inReason: " (no such host)"},
	} {
		asked = nil
		d := ts.Check(mustTarget(t, tt.target), "", resolve, tiersNow)
		if d.Verdict != tt.verdict || d.Rule != tt.rule || !strings.Contains(d.Reason, tt.inReason) {
			t.Errorf("Check(%s) = %s by %q (%s), want %s by %q", tt.target, d.Verdict, d.Rule, d.Reason, tt.verdict, tt.rule)
		}
		if diff := cmp.Diff(tt.asked, asked); diff != "" {
			t.Errorf("Check(%s) asked the resolver (-want +got):\n%s", tt.target, diff)
		}
	}
}

// TestTiersFlows: a flow is tried with each protocol a stream not started
// yet could turn out to be, and, when its verdict depends on a method it
// does not show, with each method; what is allowed only that way is
// intercepted, so that each request is judged with its own method.
func TestTiersFlows(t *testing.T) {
	ts := netpolicy.NewTiers(mustCompile(t,
		netpolicy.Rule{Verdict: action.Deny, Host: "api.example", Methods: []string{"DELETE"}},
		netpolicy.Rule{Verdict: action.Allow, Host: "get.test", Methods: []string{"GET"}},
		netpolicy.Rule{Verdict: action.Allow, Host: "git.example", Protocol: netpolicy.TCP, Ports: []int{22}},
		netpolicy.Rule{Verdict: action.Allow, Host: "plain.example", Protocol: netpolicy.HTTP},
		netpolicy.Rule{Verdict: action.Allow, Host: "*.example", Ports: []int{443, 8443}},
	))
	addrs := []netip.Addr{netip.MustParseAddr("198.51.100.7")}
	for _, tt := range []struct {
		name             string
		f                netpolicy.Flow
		allow, intercept bool
		rule             string
	}{
		{"CONNECT, a method denied", netpolicy.Flow{Host: "api.example", Port: 443}, true, true, "network.rules[4]"},
		{"TLS stream, a method denied", netpolicy.Flow{Host: "api.example", Port: 443, Protocol: netpolicy.HTTPS}, true, true, "network.rules[4]"},
		{"GET in it", netpolicy.Flow{Host: "api.example", Port: 443, Protocol: netpolicy.HTTPS, Method: "GET", Path: "/"}, true, false, "network.rules[4]"},
		{"DELETE in it", netpolicy.Flow{Host: "api.example", Port: 443, Protocol: netpolicy.HTTPS, Method: "DELETE", Path: "/"}, false, false, "network.rules[0]"},
		{"tcp stream, which shows no method", netpolicy.Flow{Host: "api.example", Port: 8443, Protocol: netpolicy.TCP}, false, false, "network.rules[0]"},
		{"CONNECT, only GET allowed", netpolicy.Flow{Host: "get.test", Port: 443}, true, true, "network.rules[1]"},
		{"CONNECT to an ssh port", netpolicy.Flow{Host: "git.example", Port: 22}, true, false, "network.rules[2]"},
		{"CONNECT that turns out http", netpolicy.Flow{Host: "plain.example", Port: 80}, true, false, "network.rules[3]"},
		{"another host", netpolicy.Flow{Host: "www.example", Port: 443}, true, false, "network.rules[4]"},
		{"nothing allows it", netpolicy.Flow{Host: "www.test", Port: 443}, false, false, "default: deny"},
		{"IPv6 literal", netpolicy.Flow{Host: "2001:db8::1", Port: 443}, false, false, "default: deny"},
		{"malformed", netpolicy.Flow{Host: "a b", Port: 443}, false, false, "always-denied: malformed target"},
	} {
		for _, phase := range []string{"name", "addrs"} {
			d, intercept := ts.CheckFlowName(tt.f, tiersNow)
			if phase == "addrs" {
				d, intercept = ts.CheckFlowAddrs(tt.f, addrs, tiersNow)
			}
			if (d.Verdict == action.Allow) != tt.allow || intercept != tt.intercept || d.Rule != tt.rule {
				t.Errorf("%s: CheckFlow (%s) = %s by %q, intercept %v (%s); want allow %v by %q, intercept %v",
					tt.name, phase, d.Verdict, d.Rule, intercept, d.Reason, tt.allow, tt.rule, tt.intercept)
			}
		}
	}
	// The first deny of the most natural reading: a stream to 443 not
	// started yet is denied as https.
	if d, _ := ts.CheckFlowName(netpolicy.Flow{Host: "www.test", Port: 443}, tiersNow); !strings.Contains(d.Reason, "www.test:443 (https)") {
		t.Errorf("CheckFlowName(www.test:443) = %q, want the reason for https", d.Reason)
	}
}
