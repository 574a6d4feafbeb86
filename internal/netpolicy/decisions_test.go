// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
)

var update = flag.Bool("update", false, "rewrite the golden decisions in testdata/decisions")

// The golden decision tables live in testdata/decisions/*.txtar. Each holds:
//
//	-- policy.yaml --   a policy file whose network section is under test
//	-- cases --         one JSON object a line: {"name", "target",
//	                    "method", "addrs", "now", "expect"}; addrs is the
//	                    DNS answer for a name (absent or [] for none);
//	                    "expect" is the verdict a person wrote down from
//	                    DESIGN.md §9, checked always
//	-- want --          the golden decision of every case, as
//	                    `warden net check --json` prints it (-update
//	                    rewrites it)
//
// Cases are judged at 2026-12-02T12:00:00Z unless they give "now".
func TestDecisions(t *testing.T) {
	files, err := filepath.Glob("testdata/decisions/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no decision tables: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runTable(t, file)
		})
	}
}

type decisionCase struct {
	Name   string   `json:"name"`
	Target string   `json:"target"`
	Method string   `json:"method"`
	Addrs  []string `json:"addrs"`
	Now    string   `json:"now"`
	Expect string   `json:"expect"`
}

// decisionJSON is the decision as `warden net check --json` prints it.
type decisionJSON struct {
	Decision        string   `json:"decision"`
	Rule            string   `json:"rule"`
	Reason          string   `json:"reason"`
	Addresses       []string `json:"addresses"`
	Hint            string   `json:"hint,omitempty"`
	Target          string   `json:"target,omitempty"`
	MethodDependent bool     `json:"method_dependent,omitempty"`
}

func runTable(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string][]byte{}
	for _, f := range ar.Files {
		sections[f.Name] = f.Data
	}
	pf, err := policyfile.Parse("policy.yaml", sections["policy.yaml"])
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	p, err := netpolicy.Compile(pf.Network.EgressRules())
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	var got bytes.Buffer
	for i, line := range strings.Split(strings.TrimSpace(string(sections["cases"])), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var c decisionCase
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("case %d: %v", i+1, err)
		}
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
		out := decisionJSON{
			Decision:        d.Verdict.String(),
			Rule:            d.Rule,
			Reason:          d.Reason,
			Addresses:       []string{},
			Hint:            d.Hint,
			Target:          tg.String(),
			MethodDependent: d.MethodDependent,
		}
		for _, a := range d.Addrs {
			out.Addresses = append(out.Addresses, a.String())
		}
		got.WriteString("# " + c.Name + "\n")
		enc := json.NewEncoder(&got)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			t.Fatal(err)
		}
	}
	if *update {
		replaced := false
		for i := range ar.Files {
			if ar.Files[i].Name == "want" {
				ar.Files[i].Data, replaced = got.Bytes(), true
			}
		}
		if !replaced {
			ar.Files = append(ar.Files, txtar.File{Name: "want", Data: got.Bytes()})
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(string(sections["want"]), got.String()); diff != "" {
		t.Errorf("decisions differ from the golden file (-want +got); rerun with -update if intended:\n%s", diff)
	}
}
