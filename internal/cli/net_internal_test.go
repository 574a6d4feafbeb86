// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/proxy"
)

// TestDecideNet checks what warden net check adds to the tiers'
// decision (netpolicy.Tiers.Check): --resolve answers a name instead of
// the resolver (compared as the target's host is, the first answer
// counting), the resolver is asked with a deadline, and an address of
// this machine is refused as the proxy refuses it when it dials. The
// resolver here is a fake: tests never resolve real names.
func TestDecideNet(t *testing.T) {
	p, err := netpolicy.Compile([]netpolicy.Rule{
		{Verdict: action.Deny, Host: "*.evil.example"},
		{Verdict: action.Allow, Host: "*.example"},
		{Verdict: action.Allow, AllowedIPs: []string{"198.51.100.0/24", "203.0.113.0/24"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	origLookup, origHost := lookupNetIP, hostAddrs
	t.Cleanup(func() { lookupNetIP, hostAddrs = origLookup, origHost })
	lookupNetIP = func(ctx context.Context, network, host string) ([]netip.Addr, error) {
		asked = append(asked, host)
		if _, ok := ctx.Deadline(); !ok {
			t.Errorf("lookup of %s without a deadline", host)
		}
		if host == "nxdomain.example" {
			return nil, errors.New("no such host")
		}
		return []netip.Addr{netip.MustParseAddr("198.51.100.7")}, nil
	}
	hostAddrs = proxy.NewHostAddrs(func() ([]netip.Addr, error) { return addrList("203.0.113.1"), nil })
	resolved := answers{}
	for _, v := range []string{"given.example=203.0.113.5", "Given.Example.=198.51.100.9", "none.example=", "mine.example=203.0.113.1"} {
		if err := resolved.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		target   string
		asked    []string
		verdict  action.Verdict
		rule     string
		inReason string
		addrs    []netip.Addr
	}{
		{target: "x.evil.example:443", verdict: action.Deny, rule: "network.rules[0]"},
		{target: "a.example:443", verdict: action.Allow, asked: []string{"a.example"}, rule: "network.rules[1]", addrs: addrList("198.51.100.7")},
		{target: "GIVEN.example.:443", verdict: action.Allow, rule: "network.rules[1]", addrs: addrList("203.0.113.5")},
		{target: "none.example:443", verdict: action.Deny, rule: "always-denied: no address"},
		{target: "nxdomain.example:443", verdict: action.Deny, asked: []string{"nxdomain.example"}, rule: "always-denied: no address", inReason: "no such host"},
		{target: "198.51.100.9:443", verdict: action.Allow, rule: "network.rules[2]", addrs: addrList("198.51.100.9")},
		{target: "http://a.example@b.example/", verdict: action.Deny, rule: "always-denied: malformed target"},
		// This machine, by address or by name: the proxy would refuse
		// to dial it.
		{target: "203.0.113.1:8080", verdict: action.Deny, rule: proxy.RuleThisMachine},
		{target: "[::ffff:203.0.113.1]:8080", verdict: action.Deny, rule: proxy.RuleThisMachine},
		{target: "mine.example:443", verdict: action.Deny, rule: proxy.RuleThisMachine},
		{target: "203.0.113.2:8080", verdict: action.Allow, rule: "network.rules[2]", addrs: addrList("203.0.113.2")},
		{target: "168.63.129.16:80", verdict: action.Deny, rule: "always-denied: cloud metadata"},
	} {
		asked = nil
		_, d := decideNet(context.Background(), netpolicy.NewTiers(p), tt.target, "", resolved, time.Now())
		if d.Verdict != tt.verdict || d.Rule != tt.rule || !strings.Contains(d.Reason, tt.inReason) {
			t.Errorf("decideNet(%s) = %s by %q (%s), want %s by %q", tt.target, d.Verdict, d.Rule, d.Reason, tt.verdict, tt.rule)
		}
		if diff := cmp.Diff(tt.addrs, d.Addrs, cmpopts.EquateComparable(netip.Addr{})); diff != "" {
			t.Errorf("decideNet(%s) dials (-want +got):\n%s", tt.target, diff)
		}
		if diff := cmp.Diff(tt.asked, asked); diff != "" {
			t.Errorf("decideNet(%s) asked the resolver (-want +got):\n%s", tt.target, diff)
		}
	}
}

func addrList(ss ...string) []netip.Addr {
	var as []netip.Addr
	for _, s := range ss {
		as = append(as, netip.MustParseAddr(s))
	}
	return as
}
