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

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

// TestDecideNetResolves checks when warden net check asks the resolver: a
// name refused by name never is (no DNS query leaves for it), an IP
// literal never is, a name given by --resolve never is, and any other
// allowed name is, once. The resolver here is a fake: tests never resolve
// real names.
func TestDecideNetResolves(t *testing.T) {
	p, err := netpolicy.Compile([]netpolicy.Rule{
		{Verdict: action.Deny, Host: "*.evil.example"},
		{Verdict: action.Allow, Host: "*.example"},
		{Verdict: action.Allow, AllowedIPs: []string{"198.51.100.0/24"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	orig := lookupNetIP
	t.Cleanup(func() { lookupNetIP = orig })
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
	for _, tt := range []struct {
		target   string
		resolve  answers
		asked    []string
		verdict  action.Verdict
		rule     string
		inReason string
	}{
		{target: "x.evil.example:443", verdict: action.Deny, rule: "network.rules[0]"},
		{target: "other.test:443", verdict: action.Allow, asked: []string{"other.test"}, rule: "network.rules[2]"},
		{target: "localhost:443", verdict: action.Deny, rule: "always-denied: localhost"},
		{target: "a.example:6443", verdict: action.Deny, rule: "always-denied: control-plane port"},
		{target: "http://a.example@b.example/", verdict: action.Deny, rule: "always-denied: malformed target"},
		{target: "198.51.100.9:443", verdict: action.Allow, rule: "network.rules[2]"},
		{target: "a.example:443", verdict: action.Allow, asked: []string{"a.example"}, rule: "network.rules[1]"},
		{target: "A.Example.:443", verdict: action.Allow, asked: []string{"a.example"}, rule: "network.rules[1]"},
		{target: "a.example:443", resolve: answers{"a.example": addrList("203.0.113.1")}, verdict: action.Allow, rule: "network.rules[1]"},
		{target: "a.example:443", resolve: answers{"a.example": {}}, verdict: action.Deny, rule: "always-denied: no address"},
		{target: "nxdomain.example:443", verdict: action.Deny, asked: []string{"nxdomain.example"}, rule: "always-denied: no address", inReason: "no such host"},
	} {
		asked = nil
		_, d := decideNet(context.Background(), []*netpolicy.Policy{p}, tt.target, "", tt.resolve, time.Now())
		if d.Verdict != tt.verdict || d.Rule != tt.rule || !strings.Contains(d.Reason, tt.inReason) {
			t.Errorf("decideNet(%s) = %s by %q (%s), want %s by %q", tt.target, d.Verdict, d.Rule, d.Reason, tt.verdict, tt.rule)
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
