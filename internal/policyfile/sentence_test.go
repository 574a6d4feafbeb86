// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"testing"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
)

// TestSentence checks rules built in code; the goldens in testdata/valid
// hold the sentences of every parsed rule.
func TestSentence(t *testing.T) {
	for _, tt := range []struct {
		r    policy.Rule
		want string
	}{{
		r:    policy.Rule{ID: "protect-main", Class: action.GitPush, Refs: []string{"main", "release/**"}, Decision: action.Deny, Reason: "main is protected", Expires: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)},
		want: `deny gitPush to refs main or release/** (hard; "main is protected") [protect-main, expires 2026-12-31]`,
	}, {
		r:    policy.Rule{Class: action.FileDelete, Paths: []string{"build/**", "!**/.env"}, MaxCount: ptr[int64](50), Decision: action.Allow},
		want: `allow fileDelete of paths build/** but not **/.env, at most 50 files`,
	}, {
		r:    policy.Rule{Command: []string{"npm", "publish"}, Decision: action.Prompt},
		want: `prompt command "npm publish"`,
	}, {
		r:    policy.Rule{ID: "r", Class: action.NetworkEgress, Hosts: []string{"*.internal", "or", "a b"}, Decision: action.Deny, Level: policy.Advisory, Provenance: policy.ProvenanceRemembered, Expires: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		want: `deny networkEgress on hosts *.internal or "or" or "a b" (advisory) [r, expires 2026-01-02T03:04:05Z, remembered]`,
	}, {
		r:    policy.Rule{Class: action.VendorSyncWrite, MaxCount: ptr[int64](1), MaxCents: ptr[int64](5), Decision: action.Allow},
		want: `allow vendorSyncWrite, at most 1 record, costing at most $0.05`,
	}, {
		r:    policy.Rule{Class: action.GitCommit, Paths: []string{"!vendor/**"}, Decision: action.Prompt},
		want: `prompt gitCommit of any path but not vendor/**`,
	}} {
		if got := policyfile.Sentence(&tt.r); got != tt.want {
			t.Errorf("Sentence(%+v) =\n\t%s\nwant\n\t%s", tt.r, got, tt.want)
		}
	}
}

// TestNetSentence checks network rules built in code, as warden policy
// remember reports the rule it wrote.
func TestNetSentence(t *testing.T) {
	off := false
	for _, tt := range []struct {
		r    policyfile.NetRule
		i    int
		want string
	}{{
		r:    policyfile.NetRule{Action: action.Allow, Host: "pypi.org", Port: 443, Until: time.Date(2026, 12, 2, 17, 52, 31, 0, time.UTC), Provenance: policy.ProvenanceRemembered},
		i:    2,
		want: `allow pypi.org, port 443 [network.rules[2], until 2026-12-02T17:52:31Z, remembered]`,
	}, {
		r:    policyfile.NetRule{Action: action.Deny, Host: "*.evil.example"},
		want: `deny *.evil.example [network.rules[0]]`,
	}, {
		r:    policyfile.NetRule{Action: action.Allow, Ports: []int{80, 443}, Protocol: "https", Methods: []string{"GET", "HEAD"}, Enabled: &off},
		i:    1,
		want: `allow any host, ports 80 or 443, protocol https, methods GET or HEAD, disabled [network.rules[1]]`,
	}, {
		r:    policyfile.NetRule{Action: action.Allow, AllowedIPs: []string{"10.1.0.0/16"}, Port: 5432},
		i:    3,
		want: `allow addresses in 10.1.0.0/16, port 5432 [network.rules[3]]`,
	}} {
		if got := policyfile.NetSentence(tt.r, tt.i); got != tt.want {
			t.Errorf("NetSentence(%+v) =\n\t%s\nwant\n\t%s", tt.r, got, tt.want)
		}
	}
}
