// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
)

// lintNow is when the lint tables are judged.
var lintNow = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// TestLint checks every finding of whole files, guardrails beside network
// rules, against testdata/lint.
func TestLint(t *testing.T) {
	goldentest.Run(t, "testdata/lint/*.txtar", func(t *testing.T, _ string, in goldentest.Sections) goldentest.Sections {
		f, err := policyfile.Parse("policy.yaml", policyYAML(t, in))
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		fds, err := policyfile.Lint(f, lintNow)
		if err != nil {
			t.Fatalf("Lint: %v", err)
		}
		var b strings.Builder
		for _, fd := range fds {
			b.WriteString(fd.String() + "\n")
		}
		return goldentest.Sections{"findings.golden": []byte(b.String())}
	})
}

// TestLintNetworkDoesNotCompile: a network rule that cannot mean what it
// says is an error of lint, with its position, not a finding.
func TestLintNetworkDoesNotCompile(t *testing.T) {
	f, err := policyfile.Parse("policy.yaml", []byte("version: 1\nnetwork:\n  rules:\n    - allow: {host: localhost}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = policyfile.Lint(f, lintNow)
	const want = `policy.yaml:4:7: network.rules[0]: host "localhost" is always denied: no rule can open it`
	if err == nil || err.Error() != want {
		t.Errorf("Lint error = %v, want %s", err, want)
	}
}

// TestLintSuggestionsHold applies the network rule each finding suggests
// — an allow after the file's rules, a deny before them — and checks that
// it parses, that lint no longer reports the guardrail, and that the
// proxy's own decision now agrees with it on port 443.
func TestLintSuggestionsHold(t *testing.T) {
	for _, tt := range []struct {
		host, decision, network string
	}{
		{"pypi.org", "allow", ""},
		{"*.github.com", "allow", "    - deny: {host: evil.github.com}\n"},
		{"203.0.113.5", "allow", ""},
		{"10.1.2.3", "allow", "    - allow: {}\n"},
		{"paste.example", "deny", "    - allow: {}\n"},
		{"*.paste.example", "prompt", "    - allow: {host: \"*.example\"}\n"},
		{"198.51.100.7", "deny", "    - allow: {}\n"},
	} {
		guard := "version: 1\nrules:\n  - {id: r, class: networkEgress, hosts: [\"" + tt.host + "\"], decision: " + tt.decision + "}\nnetwork:\n  rules:\n"
		before := guard + tt.network
		if tt.network == "" {
			before = guard + "    - deny: {host: unrelated.example}\n"
		}
		fds := lint(t, before)
		if len(fds) != 1 {
			t.Errorf("%s %s: %d findings before the fix, want 1: %q", tt.decision, tt.host, len(fds), fds)
			continue
		}
		var after string
		if tt.decision == "allow" {
			after = before + "    - " + netpolicy.SuggestAllow(tt.host) + "\n"
		} else {
			after = guard + "    - " + netpolicy.SuggestDeny(tt.host) + "\n" + tt.network
		}
		if fds := lint(t, after); len(fds) != 0 {
			t.Errorf("%s %s: after the suggested rule, findings %q\n%s", tt.decision, tt.host, fds, after)
		}
		// The proxy agrees on a concrete host of the pattern.
		f, err := policyfile.Parse("policy.yaml", []byte(after))
		if err != nil {
			t.Fatal(err)
		}
		np, err := netpolicy.Compile(f.Network.EgressRules())
		if err != nil {
			t.Fatal(err)
		}
		host := strings.Replace(tt.host, "*", "a", 1)
		target, err := netpolicy.ParseTarget("https://" + host + "/")
		if err != nil {
			t.Fatal(err)
		}
		d := np.CheckAddrs(target, "GET", addrsOf("198.51.100.7"), lintNow)
		if want := tt.decision == "allow"; (d.Verdict == action.Allow) != want {
			t.Errorf("%s %s: the proxy decides %s:443 %s by %s, want it to agree", tt.decision, tt.host, host, d.Verdict, d.Rule)
		}
	}
}

func lint(t *testing.T, src string) []string {
	t.Helper()
	f, err := policyfile.Parse("policy.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	fds, err := policyfile.Lint(f, lintNow)
	if err != nil {
		t.Fatalf("Lint: %v", err)
	}
	var out []string
	for _, fd := range fds {
		out = append(out, fd.String())
	}
	return out
}

func addrsOf(ss ...string) []netip.Addr {
	var as []netip.Addr
	for _, s := range ss {
		as = append(as, netip.MustParseAddr(s))
	}
	return as
}
