// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"fmt"
	"net/netip"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

// Check destinations as the egress proxy does: by name before the lookup,
// then with the addresses the name resolved to. An allowed name that
// resolves into a private range is still denied, and so is the cloud
// metadata address, which no rule can open.
func ExamplePolicy_CheckAddrs() {
	p, err := netpolicy.Compile([]netpolicy.Rule{
		{Verdict: action.Allow, Host: "*.example.com", Protocol: netpolicy.HTTPS},
	})
	if err != nil {
		panic(err)
	}
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		target string
		addr   string
	}{
		{"api.example.com:443", "203.0.113.7"},
		{"api.example.com:443", "10.0.0.5"},
		{"169.254.169.254:443", "169.254.169.254"},
	} {
		t, err := netpolicy.ParseTarget(c.target)
		if err != nil {
			panic(err)
		}
		d := p.CheckAddrs(t, "CONNECT", []netip.Addr{netip.MustParseAddr(c.addr)}, now)
		fmt.Printf("%s at %s: %s by %s\n", c.target, c.addr, d.Verdict, d.Rule)
	}
	// Output:
	// api.example.com:443 at 203.0.113.7: allow by network.rules[0]
	// api.example.com:443 at 10.0.0.5: deny by private-range: 10.0.0.0/8
	// 169.254.169.254:443 at 169.254.169.254: deny by always-denied: cloud metadata
}
