// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"fmt"
	"net/netip"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

// BenchmarkCheck measures one decision as the proxy takes it — CheckName,
// then CheckAddrs with a two-address answer — against policies of 10 and
// 1,000 rules (exact hosts, wildcards, allowed_ips, mixed ports and
// methods) where the request matches only the last rule, the worst case
// of a first-match walk.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			var rules []netpolicy.Rule
			for i := range n - 1 {
				r := netpolicy.Rule{Verdict: action.Allow, Ports: []int{443}}
				switch i % 4 {
				case 0:
					r.Host = fmt.Sprintf("svc%d.example.com", i)
				case 1:
					r.Host = fmt.Sprintf("*.zone%d.example.net", i)
				case 2:
					r.Host, r.Methods = fmt.Sprintf("api%d.example.org", i), []string{"GET", "POST"}
				case 3:
					r.AllowedIPs = []string{fmt.Sprintf("203.0.%d.0/24", i%256)}
					r.Ports = []int{8000 + i%1000}
				}
				rules = append(rules, r)
			}
			rules = append(rules, netpolicy.Rule{Verdict: action.Allow, Host: "*.target.example", Ports: []int{443}})
			p := compile(b, rules...)
			tg, err := netpolicy.ParseTarget("https://api.target.example/v1/items")
			if err != nil {
				b.Fatal(err)
			}
			answer := []netip.Addr{netip.MustParseAddr("198.51.100.7"), netip.MustParseAddr("2001:db8::7")}
			b.ReportAllocs()
			for b.Loop() {
				if d := p.CheckName(tg, "GET", now); d.Verdict != action.Allow {
					b.Fatalf("CheckName = %+v", d)
				}
				if d := p.CheckAddrs(tg, "GET", answer, now); d.Verdict != action.Allow || len(d.Addrs) != 2 {
					b.Fatalf("CheckAddrs = %+v", d)
				}
			}
		})
	}
}
