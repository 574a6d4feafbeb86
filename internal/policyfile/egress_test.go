// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
)

func TestEgressRules(t *testing.T) {
	src := `version: 1
network:
  rules:
    - allow: {host: api.github.com, port: 443, methods: [get, POST]}
    - deny: {host: "*.evil.example", ports: [80, 443], protocol: https}
      until: 2026-12-03T00:00:00Z
    - allow: {allowed_ips: ["203.0.113.0/24"]}
      enabled: false
    - allow: {}
      enabled: true
`
	f, err := policyfile.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []netpolicy.Rule{
		{Name: "network.rules[0]", Pos: "p.yaml:4:7", Verdict: action.Allow, Host: "api.github.com", Ports: []int{443}, Methods: []string{"GET", "POST"}},
		{Name: "network.rules[1]", Pos: "p.yaml:5:7", Verdict: action.Deny, Host: "*.evil.example", Ports: []int{80, 443}, Protocol: netpolicy.HTTPS,
			Until: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)},
		{Name: "network.rules[2]", Pos: "p.yaml:7:7", Verdict: action.Allow, AllowedIPs: []string{"203.0.113.0/24"}, Disabled: true},
		{Name: "network.rules[3]", Pos: "p.yaml:9:7", Verdict: action.Allow},
	}
	got := f.Network.EgressRules()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EgressRules (-want +got):\n%s", diff)
	}
	if _, err := netpolicy.Compile(got); err != nil {
		t.Errorf("Compile(EgressRules): %v", err)
	}
	if got := (policyfile.Network{}).EgressRules(); len(got) != 0 {
		t.Errorf("EgressRules of no network section = %v, want none", got)
	}
}
