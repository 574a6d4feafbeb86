// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/dnsstub"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/proxy"
)

// testConfig is the configuration of a run of the policy text (its
// network section alone: no managed tier), with the CA and the trust
// bundle in a temporary directory.
func testConfig(t *testing.T, policy string) Config {
	t.Helper()
	f, err := policyfile.Parse("policy.yaml", []byte(policy))
	if err != nil {
		t.Fatal(err)
	}
	rules := f.Network.EgressRules()
	p, err := netpolicy.Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	var specs []credential.Spec
	for _, c := range f.Network.Credentials {
		specs = append(specs, credential.Spec{Name: c.Name, From: c.From, Hosts: c.Hosts})
	}
	dir := t.TempDir()
	return Config{
		RunID:       "run-test",
		Tiers:       netpolicy.NewTiers(p),
		FileRules:   rules,
		Credentials: specs,
		CADir:       filepath.Join(dir, "config", "warden", "ca"),
		TrustBundle: func() (string, error) { return filepath.Join(dir, "cache", "warden", "ca-bundle.pem"), nil },
	}
}

// newTestEgress builds the way out of a run of the policy text.
func newTestEgress(t *testing.T, policy string) *Boundary {
	t.Helper()
	b, err := New(testConfig(t, policy))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

type streamCase struct {
	name             string
	t                proxy.Target
	allow, intercept bool
}

func checkStreams(t *testing.T, e *Boundary, cases []streamCase) {
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
	if e.TrustBundle() == "" {
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
// however the policy opens it, and refusals by a cap are counted in
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
	for range 25 {
		e.recordProxy(audit.NetworkAttempt{Via: audit.ViaConnect, Verdict: audit.VerdictDeny, Rule: "proxy", Limit: "pending"})
		e.recordDNS(dnsstub.Query{Name: "x.example", Type: "A", Rule: "dns-stub", Limit: true})
	}
	l := e.Limits()
	if l.PendingRefused != 25 || l.DNSRefused != 25 || l.Pending != 128 || l.DNSNames != dnsstub.DefaultMaxNames {
		t.Errorf("network_limits = %+v, want 25 refusals of each, caps 128 and %d", l, dnsstub.DefaultMaxNames)
	}
	if got, _ := e.Attempts(); len(got) != 2*maxLimitAttempts {
		t.Errorf("%d attempts listed, want the first %d of each cap", len(got), maxLimitAttempts)
	}
}

// TestEgressRecord: every attempt carries the run's id and a UTC time;
// the stub's questions are recorded as dns attempts; Denied lists each
// refused destination once, in order, as the approver offers them.
func TestEgressRecord(t *testing.T) {
	e := newTestEgress(t, "version: 1\n")
	local := time.FixedZone("local", 3600)
	at := time.Date(2026, 12, 2, 13, 0, 0, 0, local)
	e.recordProxy(audit.NetworkAttempt{Time: at, Via: audit.ViaConnect, Host: "a.example", Port: 443, Method: "CONNECT", Verdict: audit.VerdictDeny, Rule: "default: deny", DurationMS: 3})
	e.recordDNS(dnsstub.Query{Name: "b.example", Type: "A", Rule: "default: deny", Reason: "no rule"})
	e.recordProxy(audit.NetworkAttempt{Time: at, Via: audit.ViaForward, Host: "a.example", Port: 443, Method: "GET", Verdict: audit.VerdictDeny, Rule: "default: deny"})
	e.recordDNS(dnsstub.Query{Name: "c.example", Type: "A", Allowed: true, Rule: "network.rules[0]"})
	got, dropped := e.Attempts()
	if len(got) != 4 || dropped != 0 {
		t.Fatalf("Attempts() = %d, %d dropped; want 4, none dropped", len(got), dropped)
	}
	want := audit.NetworkAttempt{RunID: "run-test", Time: at.UTC(), Via: audit.ViaConnect, Host: "a.example", Port: 443, Method: "CONNECT", Verdict: audit.VerdictDeny, Rule: "default: deny", DurationMS: 3}
	if diff := cmp.Diff(want, got[0]); diff != "" || got[0].Time.Location() != time.UTC {
		t.Errorf("the proxy's attempt as recorded (-want +got):\n%s", diff)
	}
	dns := got[1]
	dns.Time = time.Time{}
	want = audit.NetworkAttempt{RunID: "run-test", Via: audit.ViaDNS, Host: "b.example", Protocol: "dns", Method: "A", Verdict: audit.VerdictDeny, Rule: "default: deny", Reason: "no rule"}
	if diff := cmp.Diff(want, dns); diff != "" {
		t.Errorf("the stub's question as recorded (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a.example:443", "b.example"}, e.Denied()); diff != "" {
		t.Errorf("Denied() (-want +got):\n%s", diff)
	}
}

// TestEgressAllow: an approved rerun allows exactly the destination
// approved, ahead of the policy file's rules; the managed tier keeps its
// say.
func TestEgressAllow(t *testing.T) {
	cfg := testConfig(t, `version: 1
network:
  rules:
    - deny: {host: "*.pypi.org"}
`)
	managed, err := netpolicy.Compile([]netpolicy.Rule{
		{Name: "managed", Verdict: action.Deny, Host: "evil.example"},
		{Verdict: action.Allow},
	})
	if err != nil {
		t.Fatal(err)
	}
	file, err := netpolicy.Compile(cfg.FileRules)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Tiers = netpolicy.NewTiers(file, managed)
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	for _, dest := range []string{"files.pypi.org:8443", "evil.example", "api.example"} {
		if err := e.Allow(dest); err != nil {
			t.Fatalf("Allow(%s): %v", dest, err)
		}
	}
	for _, tt := range []struct {
		host  string
		port  int
		allow bool
		rule  string
	}{
		{"files.pypi.org", 8443, true, "approved at the terminal"},
		{"files.pypi.org", 443, false, "network.rules[0] (policy.yaml:4:7)"},
		{"api.example", 443, true, "approved at the terminal"},
		{"api.example", 80, true, "approved at the terminal"},
		{"api.example", 8080, false, "default: deny"},
		{"evil.example", 443, false, "managed"},
	} {
		tg := proxy.Target{Host: tt.host, Port: tt.port, Method: "CONNECT", Via: proxy.ViaConnect}
		if d := e.checkName(context.Background(), tg); d.Allow != tt.allow || d.Rule != tt.rule {
			t.Errorf("after approval, checkName(%s:%d) = allow %v by %q, want allow %v by %q", tt.host, tt.port, d.Allow, d.Rule, tt.allow, tt.rule)
		}
	}
}

// TestNewUnavailable: a way out that cannot be built is an
// UnavailableError naming the part, with what to do about it.
func TestNewUnavailable(t *testing.T) {
	t.Setenv("WARDEN_TEST_UNSET_TOKEN", "")
	os.Unsetenv("WARDEN_TEST_UNSET_TOKEN")
	methods := "version: 1\nnetwork:\n  rules:\n    - allow: {host: api.example, methods: [GET]}\n"
	for _, tt := range []struct {
		name    string
		policy  string
		edit    func(*Config)
		msg     string
		hint    string
		wrapped error
	}{
		{
			name:   "credential not set",
			policy: "version: 1\nnetwork:\n  credentials:\n    - {name: TOKEN, from: \"env:WARDEN_TEST_UNSET_TOKEN\", hosts: [api.example]}\n",
			msg:    "sandbox unavailable: network credentials: ",
			hint:   "set the variables or files the policy's network.credentials read, or remove the credential",
		},
		{
			name:   "CA directory not writable",
			policy: methods,
			edit: func(c *Config) {
				ro := filepath.Join(t.TempDir(), "file")
				if err := os.WriteFile(ro, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				c.CADir = filepath.Join(ro, "ca")
			},
			msg:  "sandbox unavailable: egress CA: ",
			hint: "the policy names HTTP methods or credentials, which need TLS interception; make ",
		},
		{
			name:    "no place for the trust bundle",
			policy:  methods,
			edit:    func(c *Config) { c.TrustBundle = func() (string, error) { return "", errNoCache } },
			msg:     "sandbox unavailable: egress CA: no cache",
			hint:    "the policy names HTTP methods or credentials, which need TLS interception; make ",
			wrapped: errNoCache,
		},
	} {
		cfg := testConfig(t, tt.policy)
		if tt.edit != nil {
			tt.edit(&cfg)
		}
		_, err := New(cfg)
		var ue *UnavailableError
		if !errors.As(err, &ue) {
			t.Errorf("%s: New() = %v, want an UnavailableError", tt.name, err)
			continue
		}
		hint := tt.hint
		if strings.HasSuffix(hint, "make ") {
			hint += cfg.CADir + " writable"
		}
		if !strings.HasPrefix(ue.Error(), tt.msg) || ue.Hint != hint {
			t.Errorf("%s: New() = %q (hint %q), want %q… (hint %q)", tt.name, ue.Error(), ue.Hint, tt.msg, hint)
		}
		if tt.wrapped != nil && !errors.Is(err, tt.wrapped) {
			t.Errorf("%s: New() = %v, does not wrap %v", tt.name, err, tt.wrapped)
		}
	}
	// Nothing to intercept: no CA is made, whatever its directory.
	cfg := testConfig(t, "version: 1\nnetwork:\n  rules:\n    - allow: {host: api.example}\n")
	cfg.CADir, cfg.TrustBundle = "/nonexistent/ca", nil
	b, err := New(cfg)
	if err != nil {
		t.Fatalf("New() without methods or credentials = %v, want no CA needed", err)
	}
	b.Close()
	if b.TrustBundle() != "" || b.Env() != nil {
		t.Errorf("without a CA: trust bundle %q, env %q; want none", b.TrustBundle(), b.Env())
	}
}

var errNoCache = errors.New("no cache directory for the trust bundle")

// TestFlow: the proxy's protocols are the policy's, and a stream's method
// is not known to the policy.
func TestFlow(t *testing.T) {
	for proto, want := range map[string]netpolicy.Protocol{
		proxy.ProtoUnknown: "", proxy.ProtoHTTP: netpolicy.HTTP, proxy.ProtoHTTPS: netpolicy.HTTPS, proxy.ProtoTCP: netpolicy.TCP,
	} {
		if got := flow(proxy.Target{Protocol: proto}).Protocol; got != want {
			t.Errorf("flow(protocol %q).Protocol = %q, want %q", proto, got, want)
		}
	}
	got := flow(proxy.Target{Host: "a.example", Port: 443, Method: "CONNECT", Via: proxy.ViaSOCKS5})
	if want := (netpolicy.Flow{Host: "a.example", Port: 443}); got != want {
		t.Errorf("flow(a stream) = %+v, want %+v", got, want)
	}
}
