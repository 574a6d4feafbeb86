// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"testing"

	"warden.dev/warden/internal/config/openshell"
)

// benchEvaluator returns an evaluator for the note's example A with a
// dozen more policies in front of it, so that the walk is not trivial.
func benchEvaluator(b *testing.B) *openshell.Evaluator {
	b.Helper()
	src := loadCorpus(b)["example_a.yaml"].Policy
	for _, k := range []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1", "b2", "b3"} {
		src += "  " + k + `:
    endpoints:
      - { host: "*.` + k + `.example", ports: [443, 8443] }
      - host: api.` + k + `.example
        port: 443
        protocol: rest
        enforcement: enforce
        rules:
          - allow: { method: GET, path: "/v1/**" }
          - allow: { method: POST, path: "/v1/items/*", query: { dry_run: { any: ["true", "false"] } } }
        deny_rules: [{ method: "*", path: "/v1/admin/**" }]
    binaries: [{ path: "/usr/bin/python3*" }, { path: "/opt/` + k + `/**" }]
`
	}
	p, err := openshell.Parse("bench.yaml", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	return openshell.NewEvaluator(p, openshell.Options{})
}

// BenchmarkL4 decides a connection allowed through an ancestor.
func BenchmarkL4(b *testing.B) {
	ev := benchEvaluator(b)
	c := openshell.Conn{Host: "files.pythonhosted.org", Port: 443, Binary: "/usr/bin/git", Ancestors: []string{"/bin/bash", "/usr/bin/python3.12"}}
	for b.Loop() {
		if d := ev.Connect(c); d.Verdict != openshell.Allow {
			b.Fatal(d.Reason)
		}
	}
}

// BenchmarkL7 decides an inspected request: canonical path, rules, a
// deny rule to check, a query.
func BenchmarkL7(b *testing.B) {
	ev := benchEvaluator(b)
	r := openshell.Request{
		Conn:   openshell.Conn{Host: "api.github.com", Port: 443, Binary: "/usr/bin/gh", Ancestors: []string{"/usr/bin/node", "/bin/bash"}},
		Method: "GET",
		Target: "/repos/acme/widgets/contents/./src/%6Dain.go?ref=main&per_page=100",
	}
	for b.Loop() {
		if d := ev.Request(r); d.Verdict != openshell.Allow {
			b.Fatal(d.Reason)
		}
	}
}

// BenchmarkL7Deny decides a request a deny rule blocks, the longest path
// through the rules.
func BenchmarkL7Deny(b *testing.B) {
	ev := benchEvaluator(b)
	r := openshell.Request{
		Conn:   openshell.Conn{Host: "api.github.com", Port: 443, Binary: "/usr/bin/gh"},
		Method: "PUT",
		Target: "/repos/acme/widgets/branches/main/protection",
	}
	for b.Loop() {
		if d := ev.Request(r); d.Verdict != openshell.Deny {
			b.Fatal(d.Reason)
		}
	}
}
