// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"errors"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

// TestRemember checks the rule a remembered destination becomes: an allow
// of exactly its host and port, with the expiry given, for targets written
// as a proxy's denial or warden net check names them.
func TestRemember(t *testing.T) {
	until := now.Add(8 * time.Hour)
	for _, tt := range []struct {
		target string
		want   netpolicy.Rule
	}{
		{"pypi.org:443", netpolicy.Rule{Verdict: allow, Host: "pypi.org", Ports: []int{443}, Until: until}},
		{"https://files.pythonhosted.org/packages/x.whl", netpolicy.Rule{Verdict: allow, Host: "files.pythonhosted.org", Ports: []int{443}, Until: until}},
		{"http://deb.debian.org/debian", netpolicy.Rule{Verdict: allow, Host: "deb.debian.org", Ports: []int{80}, Until: until}},
		{"PROXY.Golang.org.:443", netpolicy.Rule{Verdict: allow, Host: "proxy.golang.org", Ports: []int{443}, Until: until}},
		{"api.github.com:8443", netpolicy.Rule{Verdict: allow, Host: "api.github.com", Ports: []int{8443}, Until: until}},
		{"203.0.113.5:22", netpolicy.Rule{Verdict: allow, Host: "203.0.113.5", Ports: []int{22}, Until: until}},
		{"[2001:db8::5]:443", netpolicy.Rule{Verdict: allow, Host: "2001:db8::5", Ports: []int{443}, Until: until}},
	} {
		p := compile(t,
			netpolicy.Rule{Verdict: allow, Host: "api.github.com", Ports: []int{443}},
			netpolicy.Rule{Verdict: allow, Host: "pypi.org", Ports: []int{443}, Until: now.Add(-time.Hour)},
		)
		got, err := p.Remember(mustTarget(t, tt.target), until, now)
		if err != nil {
			t.Errorf("Remember(%s): %v", tt.target, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Remember(%s) (-want +got):\n%s", tt.target, diff)
		}
	}
}

// TestRememberReachesOnlyThat checks what a remembered rule, appended as
// the caller appends it, lets through the proxy's whole decision (name,
// then addresses): exactly the host and port approved, until the expiry;
// not another port, not a subdomain, not the apex, not a look-alike.
func TestRememberReachesOnlyThat(t *testing.T) {
	written := []netpolicy.Rule{{Verdict: allow, Host: "registry.npmjs.org", Ports: []int{443}}}
	until := now.Add(time.Hour)
	r, err := compile(t, written...).Remember(mustTarget(t, "api.pypi.org:443"), until, now)
	if err != nil {
		t.Fatal(err)
	}
	ts := netpolicy.NewTiers(compile(t, append(slices.Clone(written), r)...))
	resolve := func(string) ([]netip.Addr, error) { return addrs("151.101.0.223"), nil }
	for _, tt := range []struct {
		target string
		at     time.Time
		want   action.Verdict
	}{
		{"api.pypi.org:443", now, allow},
		{"https://api.pypi.org/simple/", now, allow},
		{"API.PyPI.org.:443", until.Add(-time.Second), allow},
		{"api.pypi.org:443", until, deny},
		{"api.pypi.org:443", until.Add(time.Hour), deny},
		{"api.pypi.org:80", now, deny},
		{"http://api.pypi.org/", now, deny},
		{"api.pypi.org:8443", now, deny},
		{"pypi.org:443", now, deny},
		{"x.api.pypi.org:443", now, deny},
		{"files.pypi.org:443", now, deny},
		{"evilapi.pypi.org:443", now, deny},
		{"api.pypi.org.evil.example:443", now, deny},
		{"registry.npmjs.org:443", now, allow},
	} {
		d := ts.Check(mustTarget(t, tt.target), "", resolve, tt.at)
		if d.Verdict != tt.want {
			t.Errorf("Check(%s) at +%s = %v by %s (%s), want %v", tt.target, tt.at.Sub(now), d.Verdict, d.Rule, d.Reason, tt.want)
		}
	}
	// The DNS stub's question agrees: the name only.
	for name, want := range map[string]action.Verdict{"api.pypi.org": allow, "pypi.org": deny, "x.api.pypi.org": deny} {
		if d := ts.CheckHost(name, now); d.Verdict != want {
			t.Errorf("CheckHost(%s) = %v, want %v", name, d.Verdict, want)
		}
	}
}

// TestRememberRefuses checks that nothing is remembered over a written
// deny, for what no rule can open, over a narrower allow, or when the
// destination is allowed already.
func TestRememberRefuses(t *testing.T) {
	p := compile(t,
		netpolicy.Rule{Name: "get-only", Verdict: allow, Host: "api.github.com", Ports: []int{443}, Methods: []string{"GET"}},
		netpolicy.Rule{Name: "plain-http", Verdict: allow, Host: "mirror.example", Protocol: netpolicy.HTTP},
		netpolicy.Rule{Name: "evil", Verdict: deny, Host: "*.evil.example"},
		netpolicy.Rule{Name: "no-post", Verdict: deny, Host: "upload.example", Methods: []string{"POST"}},
		netpolicy.Rule{Name: "npm", Verdict: allow, Host: "registry.npmjs.org", Ports: []int{443}},
		netpolicy.Rule{Name: "off", Verdict: allow, Host: "off.example", Disabled: true},
	)
	until := now.Add(time.Hour)
	for _, tt := range []struct {
		target string
		until  time.Time
		want   error
	}{
		{"registry.npmjs.org:443", until, netpolicy.ErrRememberAllowed},
		{"x.evil.example:443", until, netpolicy.ErrRememberDenied},
		{"upload.example:443", until, netpolicy.ErrRememberDenied},
		{"localhost:8080", until, netpolicy.ErrRememberDenied},
		{"127.0.0.1:8080", until, netpolicy.ErrRememberDenied},
		{"169.254.169.254:80", until, netpolicy.ErrRememberDenied},
		{"metadata.google.internal:80", until, netpolicy.ErrRememberDenied},
		{"k8s.example:6443", until, netpolicy.ErrRememberDenied},
		{"10.0.0.5:5432", until, netpolicy.ErrRememberDenied},
		{"api.github.com:443", until, netpolicy.ErrRememberWidens},
		{"https://mirror.example/", until, netpolicy.ErrRememberWidens},
	} {
		_, err := p.Remember(mustTarget(t, tt.target), tt.until, now)
		if !errors.Is(err, tt.want) {
			t.Errorf("Remember(%s) error = %v, want %v", tt.target, err, tt.want)
		}
	}
	// A disabled rule decides nothing; another port of a narrow rule's
	// host is another destination.
	for _, target := range []string{"off.example:443", "api.github.com:8443"} {
		if _, err := p.Remember(mustTarget(t, target), until, now); err != nil {
			t.Errorf("Remember(%s): %v", target, err)
		}
	}
	if _, err := p.Remember(netpolicy.Target{}, until, now); !errors.Is(err, netpolicy.ErrRememberDenied) {
		t.Errorf("Remember(zero Target) error = %v, want %v", err, netpolicy.ErrRememberDenied)
	}
	if _, err := p.Remember(mustTarget(t, "pypi.org:443"), now, now); err == nil {
		t.Errorf("Remember with an expiry of now succeeded")
	}
}

// TestCheckHostPattern checks the question lint asks of a guardrail's host
// patterns: could some request reach every host the pattern covers?
func TestCheckHostPattern(t *testing.T) {
	p := compile(t,
		netpolicy.Rule{Name: "old", Verdict: allow, Host: "old.example", Until: now.Add(-time.Hour)},
		netpolicy.Rule{Name: "pypi", Verdict: allow, Host: "pypi.org", Ports: []int{443}},
		netpolicy.Rule{Name: "gh-sub", Verdict: allow, Host: "*.github.com", Ports: []int{443}},
		netpolicy.Rule{Name: "evil", Verdict: deny, Host: "*.evil.example"},
		netpolicy.Rule{Name: "evil-post", Verdict: deny, Host: "*.corp.example", Methods: []string{"POST"}},
		netpolicy.Rule{Name: "corp", Verdict: allow, Host: "*.corp.example"},
		netpolicy.Rule{Name: "ip", Verdict: allow, Host: "203.0.113.5"},
		netpolicy.Rule{Name: "lan", Verdict: allow, AllowedIPs: []string{"10.1.0.0/16"}, Ports: []int{5432}},
	)
	for _, tt := range []struct {
		pattern string
		want    verdict
	}{
		{"pypi.org", verdict{Verdict: allow, Rule: "pypi"}},
		{"files.pythonhosted.org", verdict{Rule: "default: deny"}},
		{"old.example", verdict{Rule: "default: deny"}},
		{"api.github.com", verdict{Verdict: allow, Rule: "gh-sub"}},
		{"github.com", verdict{Rule: "default: deny"}},
		{"*.github.com", verdict{Verdict: allow, Rule: "gh-sub"}},
		{"*.api.github.com", verdict{Verdict: allow, Rule: "gh-sub"}},
		{"*.githubusercontent.com", verdict{Rule: "default: deny"}},
		{"*.pypi.org", verdict{Rule: "default: deny"}},
		{"*.evil.example", verdict{Rule: "evil"}},
		{"*.x.evil.example", verdict{Rule: "evil"}},
		{"*.corp.example", verdict{Verdict: allow, Rule: "corp"}},
		{"*.localhost", verdict{Rule: "always-denied: localhost"}},
		{"203.0.113.5", verdict{Verdict: allow, Rule: "ip"}},
		{"203.0.113.6", verdict{Rule: "default: deny"}},
		{"10.1.2.3", verdict{Verdict: allow, Rule: "lan"}},
		{"10.2.0.1", verdict{Rule: "default: deny"}},
		{"[::1]", verdict{Rule: "always-denied: loopback"}},
	} {
		if got := verdictOf(p.CheckHostPattern(tt.pattern, now)); !cmp.Equal(tt.want, got) {
			t.Errorf("CheckHostPattern(%s) = %+v, want %+v", tt.pattern, got, tt.want)
		}
	}
	// A catch-all covers every pattern, but never opens a private
	// address.
	all := compile(t, netpolicy.Rule{Name: "all", Verdict: allow})
	for pattern, want := range map[string]action.Verdict{"*.example.com": allow, "example.com": allow, "198.51.100.1": allow, "10.0.0.1": deny} {
		if d := all.CheckHostPattern(pattern, now); d.Verdict != want {
			t.Errorf("catch-all: CheckHostPattern(%s) = %v, want %v", pattern, d.Verdict, want)
		}
	}
}

// TestSuggest checks the network rules lint suggests for a guardrail's
// host patterns (policyfile's lint tests parse them as a policy file).
func TestSuggest(t *testing.T) {
	for _, tt := range []struct{ pattern, allow, deny string }{
		{"pypi.org", "allow: {host: pypi.org, port: 443}", "deny: {host: pypi.org}"},
		{"*.github.com", `allow: {host: "*.github.com", port: 443}`, `deny: {host: "*.github.com"}`},
		{"203.0.113.5", `allow: {host: "203.0.113.5", port: 443}`, `deny: {allowed_ips: ["203.0.113.5"]}`},
		{"10.1.2.3", `allow: {allowed_ips: ["10.1.2.3"], port: 443}`, `deny: {allowed_ips: ["10.1.2.3"]}`},
		{"[2001:db8::1]", `allow: {host: "2001:db8::1", port: 443}`, `deny: {allowed_ips: ["2001:db8::1"]}`},
	} {
		if got := netpolicy.SuggestAllow(tt.pattern); got != tt.allow {
			t.Errorf("SuggestAllow(%s) = %s, want %s", tt.pattern, got, tt.allow)
		}
		if got := netpolicy.SuggestDeny(tt.pattern); got != tt.deny {
			t.Errorf("SuggestDeny(%s) = %s, want %s", tt.pattern, got, tt.deny)
		}
	}
}
