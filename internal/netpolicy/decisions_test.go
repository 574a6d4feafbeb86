// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"testing"
	"time"

	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/report"
)

// The golden decision tables live in testdata/decisions/*.txtar. Each holds:
//
//	-- policy.yaml --   a policy file whose network section is under test
//	-- cases --         one JSON object a line: {"name", "target",
//	                    "method", "addrs", "now", "expect"}; addrs is the
//	                    DNS answer for a name (absent or [] for none);
//	                    "expect" is the verdict a person wrote down from
//	                    docs/spec.md §9, checked always
//	-- want --          the golden decision of every case, as
//	                    `warden net check --json` prints it (-update
//	                    rewrites it)
//
// Cases are judged at 2026-12-02T12:00:00Z unless they give "now".
func TestDecisions(t *testing.T) {
	goldentest.Run(t, "testdata/decisions/*.txtar", runTable)
}

type decisionCase struct {
	Name   string   `json:"name"`
	Target string   `json:"target"`
	Method string   `json:"method"`
	Addrs  []string `json:"addrs"`
	Now    string   `json:"now"`
	Expect string   `json:"expect"`
}

func runTable(t *testing.T, _ string, in goldentest.Sections) goldentest.Sections {
	pf, err := policyfile.Parse("policy.yaml", in["policy.yaml"])
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	p, err := netpolicy.Compile(pf.Network.EgressRules())
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	var got bytes.Buffer
	for _, c := range goldentest.Cases[decisionCase](t, in["cases"]) {
		at := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
		if c.Now != "" {
			if at, err = time.Parse(time.RFC3339, c.Now); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
		}
		var answer []netip.Addr
		for _, s := range c.Addrs {
			a, err := netip.ParseAddr(s)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			answer = append(answer, a)
		}
		d := check(t, p, c.Target, c.Method, answer, at)
		if d.Verdict.String() != c.Expect {
			t.Errorf("%s: %s = %s by %s (%s), want %s", c.Name, c.Target, d.Verdict, d.Rule, d.Reason, c.Expect)
		}
		tg, _ := netpolicy.ParseTarget(c.Target)
		// As warden net check --json prints it.
		out := report.NetCheck(tg, d)
		got.WriteString("# " + c.Name + "\n")
		enc := json.NewEncoder(&got)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			t.Fatal(err)
		}
	}
	return goldentest.Sections{"want": got.Bytes()}
}
