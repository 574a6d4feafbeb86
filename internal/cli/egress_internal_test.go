// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/dnsstub"
	"warden.dev/warden/internal/proxy"
)

// newTestEgress builds the egress of a run of the policy text, with the
// CA and caches in a temporary home.
func newTestEgress(t *testing.T, policy string) *egress {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv(envManagedPolicy, "")
	path := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(path, []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	lp, err := loadPolicy(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEgress("run-test", lp)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.close)
	return e
}

type streamCase struct {
	name             string
	t                proxy.Target
	allow, intercept bool
}

func checkStreams(t *testing.T, e *egress, cases []streamCase) {
	t.Helper()
	for _, c := range cases {
		d := e.checkName(context.Background(), c.t)
		if d.Allow != c.allow || d.Allow && d.Intercept != c.intercept {
			t.Errorf("%s: checkName(%+v) = allow %v, intercept %v (%s: %s); want allow %v, intercept %v",
				c.name, c.t, d.Allow, d.Intercept, d.Rule, d.Reason, c.allow, c.intercept)
		}
	}
}

// TestEgressMethodDeny: a rule denying some methods of a host before a
// catch-all leaves the host's other methods allowed. A TLS stream to it
// is allowed and intercepted, so that each request is judged with its
// method; a tcp stream, which shows none, is judged the strict way.
func TestEgressMethodDeny(t *testing.T) {
	e := newTestEgress(t, `version: 1
network:
  rules:
    - deny: {host: api.example, methods: [DELETE]}
    - allow: {host: "*.example", ports: [443, 8443]}
`)
	if e.caBundle == "" {
		t.Error("a policy whose rule names a method has no CA: its streams cannot be intercepted")
	}
	connect := proxy.Target{Host: "api.example", Port: 443, Method: "CONNECT", Via: proxy.ViaConnect}
	tls, tcp := connect, connect
	tls.Protocol, tcp.Protocol, tcp.Port = proxy.ProtoHTTPS, proxy.ProtoTCP, 8443
	get, del := tls, tls
	get.Method, get.Path = "GET", "/"
	del.Method, del.Path = "DELETE", "/"
	checkStreams(t, e, []streamCase{
		{"CONNECT", connect, true, true},
		{"TLS stream", tls, true, true},
		{"GET in it", get, true, false},
		{"DELETE in it", del, false, false},
		{"tcp stream", tcp, false, false},
		{"another host", proxy.Target{Host: "www.example", Port: 443, Method: "CONNECT", Protocol: proxy.ProtoHTTPS, Via: proxy.ViaConnect}, true, false},
	})
}

// TestEgressCredentialStreams: with a credential bound, TLS streams are
// intercepted (to replace its placeholder, or catch one going
// elsewhere); a stream that turns out to be neither TLS nor HTTP carries
// no request to replace one in, and is spliced.
func TestEgressCredentialStreams(t *testing.T) {
	t.Setenv("WARDEN_TEST_TOKEN", "token-value")
	e := newTestEgress(t, `version: 1
network:
  rules:
    - allow: {host: "*.example"}
  credentials:
    - {name: API_TOKEN, from: "env:WARDEN_TEST_TOKEN", hosts: [api.example]}
`)
	connect := proxy.Target{Host: "api.example", Port: 22, Method: "CONNECT", Via: proxy.ViaConnect}
	tcp, tls := connect, connect
	tcp.Protocol = proxy.ProtoTCP
	tls.Protocol, tls.Port = proxy.ProtoHTTPS, 443
	other := tls
	other.Host = "files.example"
	checkStreams(t, e, []streamCase{
		{"CONNECT", connect, true, false},
		{"tcp stream", tcp, true, false},
		{"TLS to the credential's host", tls, true, true},
		{"TLS elsewhere", other, true, true},
	})
}

// TestEgressAlwaysDeniedAndLimits: the WireServer address is refused
// however the policy opens it, an address of this machine is refused by
// warden net check as by the proxy, and refusals by a cap are counted in
// network_limits with only the first few listed.
func TestEgressAlwaysDeniedAndLimits(t *testing.T) {
	e := newTestEgress(t, `version: 1
network:
  rules:
    - allow: {allowed_ips: ["168.63.0.0/16", "203.0.113.0/24"]}
    - allow: {}
`)
	for _, a := range []string{"168.63.129.16", "::ffff:168.63.129.16", "64:ff9b::a83f:8110"} {
		tg := proxy.Target{Host: "wire.example", Port: 80, Method: "GET", Protocol: proxy.ProtoHTTP, Path: "/", Via: proxy.ViaForward}
		if d := e.checkAddrs(context.Background(), tg, []netip.Addr{netip.MustParseAddr(a)}); d.Allow || d.Rule != "always-denied: cloud metadata" {
			t.Errorf("checkAddrs(wire.example → %s) = %+v, want always-denied: cloud metadata", a, d)
		}
	}
	orig := hostAddrs
	t.Cleanup(func() { hostAddrs = orig })
	hostAddrs = proxy.NewHostAddrs(func() ([]netip.Addr, error) { return []netip.Addr{netip.MustParseAddr("203.0.113.1")}, nil })
	for target, rule := range map[string]string{
		"203.0.113.1:8080":          proxy.RuleThisMachine,
		"[::ffff:203.0.113.1]:8080": proxy.RuleThisMachine,
		"168.63.129.16:80":          "always-denied: cloud metadata",
		"203.0.113.2:8080":          "network.rules[0]",
	} {
		_, d := decideNet(context.Background(), e.tiers, target, "", answers{}, time.Now())
		if !strings.HasPrefix(d.Rule, rule) {
			t.Errorf("decideNet(%s) = %s by %q (%s), want %s", target, d.Verdict, d.Rule, d.Reason, rule)
		}
	}
	for range 25 {
		e.recordProxy(audit.NetworkAttempt{Via: audit.ViaConnect, Verdict: audit.VerdictDeny, Rule: "proxy", Limit: "pending"})
		e.recordDNS(dnsstub.Query{Name: "x.example", Type: "A", Rule: "dns-stub", Limit: true})
	}
	l := e.networkLimits()
	if l.PendingRefused != 25 || l.DNSRefused != 25 || l.Pending != 128 || l.DNSNames != dnsstub.DefaultMaxNames {
		t.Errorf("network_limits = %+v, want 25 refusals of each, caps 128 and %d", l, dnsstub.DefaultMaxNames)
	}
	if got, _ := e.recorded(); len(got) != 2*maxLimitAttempts {
		t.Errorf("%d attempts listed, want the first %d of each cap", len(got), maxLimitAttempts)
	}
}
