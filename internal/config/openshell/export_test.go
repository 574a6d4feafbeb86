// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
)

var exportNow = time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)

// methods are those a probe tries; "" is a connection.
var methods = []string{"", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// wardenSays is Warden's decision. A request is allowed when Warden's
// proxy allows it sent as a plain-HTTP URL or inside a tunnel it
// intercepts (its method known); a connection (method "") when some
// request may be allowed on it. floor reports what no rule decides
// (always denied, private ranges), which OpenShell's evaluator leaves to
// its proxy.
//
// extra are methods to try too for a connection: any a rule names.
func wardenSays(p *netpolicy.Policy, host string, port int, method string, extra ...string) (allow, floor bool) {
	try := append(slices.Clip(methods), extra...)
	if method != "" {
		try = []string{method}
	}
	for _, raw := range []string{hostPort(host, port), "http://" + hostPort(host, port) + "/x"} {
		t, err := netpolicy.ParseTarget(raw)
		if err != nil {
			return false, true
		}
		for _, m := range try {
			if m == "" && t.Protocol() == netpolicy.HTTP {
				continue
			}
			d := p.CheckName(t, m, exportNow)
			if floorRule(d.Rule) {
				return false, true
			}
			if d.Verdict == action.Allow {
				allow = true
			}
		}
	}
	return allow, false
}

func floorRule(r string) bool {
	return strings.HasPrefix(r, "always-denied") || strings.HasPrefix(r, "private-range")
}

func hostPort(host string, port int) string {
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + ":" + strconv.Itoa(port)
}

// openShellSays is the exported policy's decision for any binary: a
// request is allowed when its connection is and, on an inspected
// connection, when the request is. canonical is false when OpenShell
// refuses the target's path before any rule.
func openShellSays(ev *openshell.Evaluator, host string, port int, method, target string) (allow, canonical bool) {
	c := openshell.Conn{Host: host, Port: port, Binary: "/usr/bin/curl"}
	d := ev.Connect(c)
	if a, err := netip.ParseAddr(host); err == nil && d.Verdict == openshell.Allow && len(d.Endpoint.AllowedIPs) > 0 &&
		!slices.ContainsFunc(d.Endpoint.AllowedIPs, func(p netip.Prefix) bool { return p.Contains(a) }) {
		// The proxy's check: an IP literal outside the endpoint's
		// allowed_ips is not dialled.
		return false, true
	}
	if d.Verdict != openshell.Allow || method == "" || !d.Inspect {
		return d.Verdict == openshell.Allow, true
	}
	r := ev.Request(openshell.Request{Conn: c, Method: method, Target: target})
	u, _ := url.Parse(target)
	return r.Verdict == openshell.Allow, u == nil || r.Path == u.Path
}

// TestExportRoundTrip imports every policy of the corpus into Warden's
// rules (binaries aside: OpenShell's endpoint-only identity, since
// Warden's rules do not see the caller), exports those back to OpenShell,
// and decides every case of the corpus under all three. The export must
// never allow what the Warden rules deny, and must decide as they do when
// it reports nothing lost; when neither direction lost anything, the
// export decides as the policy it came from.
func TestExportRoundTrip(t *testing.T) {
	var compared, allowed, exact, whole int
	for name, cf := range loadCorpus(t) {
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			p, err := openshell.Parse(name, []byte(cf.Policy))
			if err != nil {
				t.Fatal(err)
			}
			o := openshell.Options{EndpointOnly: true}
			imp := openshell.Import(p, o)
			lossless := !slices.ContainsFunc(imp.Items, func(it openshell.Item) bool {
				return it.Status == openshell.Narrowed || it.Status == openshell.Unmapped
			})
			wp, err := netpolicy.Compile(imp.Rules)
			if err != nil {
				t.Fatal(err)
			}
			x, err := openshell.ExportNetwork(imp.Rules, exportNow)
			if err != nil {
				t.Fatal(err)
			}
			p2, err := openshell.Parse("export", x.YAML)
			if err != nil {
				t.Fatal(err)
			}
			orig, ev := openshell.NewEvaluator(p, o), openshell.NewEvaluator(p2, openshell.Options{})
			for _, c := range cf.Cases {
				c.fill(cf.Defaults)
				w, floor := wardenSays(wp, c.Host, c.Port, c.Method)
				e, canonical := openShellSays(ev, c.Host, c.Port, c.Method, c.Target)
				if floor || !canonical {
					continue
				}
				compared++
				probe := fmt.Sprintf("%s: %s %s:%d%s", c.Name, c.Method, c.Host, c.Port, c.Target)
				if w {
					allowed++
				}
				if e && !w || e != w && !x.Lossy() {
					t.Errorf("%s: the Warden rules allow: %v, the export: %v\nrules: %v\nexport:\n%s\nreport: %+v", probe, w, e, imp.Rules, x.YAML, x.Items)
				}
				if x.Lossy() {
					continue
				}
				exact++
				if !lossless {
					continue
				}
				whole++
				if s, _ := openShellSays(orig, c.Host, c.Port, c.Method, c.Target); s != e {
					t.Errorf("%s: the policy allows: %v, its round trip: %v\nexport:\n%s", probe, s, e, x.YAML)
				}
			}
		})
	}
	t.Logf("%d corpus cases compared: %d allowed by the imported rules, %d under an export that lost nothing, %d of them under an import that lost nothing too", compared, allowed, exact, whole)
	if allowed < 50 || whole < 50 {
		t.Errorf("the round trip compares too few allowed cases (%d) or exact round trips (%d) to prove anything", allowed, whole)
	}
}

// TestExport checks what a Warden policy's rules become, and that the
// export decides as they do on a grid of hosts, ports and methods.
func TestExport(t *testing.T) {
	allow := func(host string, ports []int, methods ...string) netpolicy.Rule {
		return netpolicy.Rule{Verdict: action.Allow, Host: host, Ports: ports, Methods: methods}
	}
	deny := func(host string, ports []int, methods ...string) netpolicy.Rule {
		return netpolicy.Rule{Verdict: action.Deny, Host: host, Ports: ports, Methods: methods}
	}
	https := []int{443}
	tests := []struct {
		name   string
		rules  []netpolicy.Rule
		want   []string // each rule's status
		yaml   string   // when set, the whole export
		hosts  []string
		lossy  bool
		narrow bool // the export allows less somewhere
	}{{
		name:  "exact host and port",
		rules: []netpolicy.Rule{allow("pypi.org", https)},
		want:  []string{"mapped"},
		yaml: `version: 1
network_policies:
  network_rules_000:
    name: "network.rules[0]"
    endpoints:
      - host: "pypi.org"
        port: 443
    binaries:
      - path: /**
`,
		hosts: []string{"pypi.org", "www.pypi.org"},
	}, {
		name:  "wildcard is OpenShell's leading **",
		rules: []netpolicy.Rule{allow("*.example.com", []int{80, 443})},
		want:  []string{"mapped"},
		hosts: []string{"example.com", "a.example.com", "a.b.example.com", "example.org"},
	}, {
		name:  "methods, GET without HEAD",
		rules: []netpolicy.Rule{allow("api.github.com", https, "GET", "POST")},
		want:  []string{"mapped"},
		yaml: `version: 1
network_policies:
  network_rules_000:
    name: "network.rules[0]"
    endpoints:
      - host: "api.github.com"
        port: 443
        protocol: rest
        enforcement: enforce
        rules:
          - allow: { method: "GET", path: "**" }
          - allow: { method: "POST", path: "**" }
        deny_rules:
          - { method: "HEAD", path: "**" }
    binaries:
      - path: /**
`,
		hosts: []string{"api.github.com"},
	}, {
		name:  "a deny of methods covering the allow",
		rules: []netpolicy.Rule{deny("*.github.com", nil, "DELETE"), allow("api.github.com", https)},
		want:  []string{"mapped", "mapped"},
		hosts: []string{"api.github.com", "github.com"},
	}, {
		name:  "a deny of methods under the allow's wildcard gets an endpoint",
		rules: []netpolicy.Rule{deny("admin.example.com", nil, "POST", "DELETE"), allow("*.example.com", https, "GET", "HEAD", "POST", "DELETE")},
		want:  []string{"mapped", "mapped"},
		hosts: []string{"admin.example.com", "www.example.com"},
	}, {
		name:  "a deny of a whole host under the wildcard cannot be said",
		rules: []netpolicy.Rule{deny("evil.example.com", nil), allow("*.example.com", https)},
		want:  []string{"mapped", "unmapped"},
		hosts: []string{"evil.example.com", "good.example.com"},
		lossy: true, narrow: true,
	}, {
		name:  "a deny covering the allow leaves it dead",
		rules: []netpolicy.Rule{deny("*.example.com", nil), allow("a.example.com", https)},
		want:  []string{"mapped", "not applied"},
		hosts: []string{"a.example.com"},
	}, {
		name:  "any host and any port are not endpoints",
		rules: []netpolicy.Rule{allow("", https), allow("pypi.org", nil)},
		want:  []string{"unmapped", "unmapped"},
		hosts: []string{"pypi.org"},
		lossy: true, narrow: true,
	}, {
		name:  "an allow with an end",
		rules: []netpolicy.Rule{{Verdict: action.Allow, Host: "pypi.org", Ports: https, Until: exportNow.Add(time.Hour)}},
		want:  []string{"unmapped"},
		hosts: []string{"pypi.org"},
		lossy: true, narrow: true,
	}, {
		name:  "an inspected rule narrows a plain one on the same host",
		rules: []netpolicy.Rule{allow("api.github.com", https, "GET"), allow("api.github.com", https)},
		want:  []string{"mapped", "narrowed"},
		hosts: []string{"api.github.com"},
		lossy: true, narrow: true,
	}, {
		name:  "http is inspected",
		rules: []netpolicy.Rule{{Verdict: action.Allow, Host: "example.com", Ports: []int{80}, Protocol: netpolicy.HTTP}},
		want:  []string{"mapped"},
		hosts: []string{"example.com"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := openshell.ExportNetwork(tt.rules, exportNow)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range x.Items {
				got = append(got, it.Status.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("statuses (-want +got):\n%s\nitems: %+v\n%s", diff, x.Items, x.YAML)
			}
			if tt.yaml != "" {
				if diff := cmp.Diff(tt.yaml, string(x.YAML)); diff != "" {
					t.Errorf("export (-want +got):\n%s", diff)
				}
			}
			if x.Lossy() != tt.lossy {
				t.Errorf("Lossy() = %v, want %v", x.Lossy(), tt.lossy)
			}
			p2, err := openshell.Parse("export", x.YAML)
			if err != nil {
				t.Fatal(err)
			}
			wp, err := netpolicy.Compile(tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			ev := openshell.NewEvaluator(p2, openshell.Options{})
			narrowed := false
			for _, h := range tt.hosts {
				for _, port := range []int{80, 443, 6443, 8443} {
					for _, m := range methods {
						w, floor := wardenSays(wp, h, port, m)
						o, _ := openShellSays(ev, h, port, m, "/x")
						if floor {
							continue
						}
						probe := fmt.Sprintf("%s %s:%d", m, h, port)
						switch {
						case o && !w:
							t.Errorf("%s: the export allows what Warden denies\n%s", probe, x.YAML)
						case w && !o && !tt.narrow:
							t.Errorf("%s: the export denies what Warden allows\n%s", probe, x.YAML)
						case w && !o:
							narrowed = true
						}
					}
				}
			}
			if tt.narrow && !narrowed {
				t.Errorf("the export was to allow less somewhere, and allows the same on every probe")
			}
		})
	}
}

// FuzzExport exports the network rules of any policy file Warden reads:
// the export must read back, and never allow what the rules deny on a
// grid of the hosts and ports the rules name.
func FuzzExport(f *testing.F) {
	f.Add("version: 1\nnetwork:\n  rules:\n    - deny: {host: a.example.com, methods: [POST]}\n    - allow: {host: \"*.example.com\", port: 443, methods: [GET]}\n")
	f.Add("version: 1\nnetwork:\n  rules:\n    - allow: {host: api.github.com, ports: [80, 443], protocol: http}\n    - allow: {allowed_ips: [203.0.113.0/24], port: 8080}\n")
	f.Add("version: 1\nnetwork:\n  rules:\n    - deny: {host: \"*.x.example.com\", port: 443}\n    - allow: {host: \"*.example.com\", ports: [443, 8443], protocol: https}\n")
	f.Fuzz(func(t *testing.T, src string) {
		pf, err := policyfile.Parse("fuzz.yaml", []byte(src))
		if err != nil {
			return
		}
		rules := pf.Network.EgressRules()
		wp, err := netpolicy.Compile(rules)
		if err != nil {
			return
		}
		x, err := openshell.ExportNetwork(rules, exportNow)
		if err != nil {
			t.Fatal(err)
		}
		p2, err := openshell.Parse("export", x.YAML)
		if err != nil {
			t.Fatal(err)
		}
		ev := openshell.NewEvaluator(p2, openshell.Options{})
		hosts := []string{"example.com", "a.example.com", "203.0.113.9"}
		ports := []int{80, 443}
		var named []string
		for _, r := range rules {
			named = append(named, r.Methods...)
			if h := strings.TrimPrefix(r.Host, "*."); h != "" {
				hosts = append(hosts, h, "x."+h)
			}
			ports = append(ports, r.Ports...)
		}
		for _, h := range hosts {
			for _, port := range ports {
				for _, m := range methods {
					w, floor := wardenSays(wp, h, port, m, named...)
					if o, _ := openShellSays(ev, h, port, m, "/x"); o && !w && !floor {
						t.Fatalf("%s %s:%d: the export allows what Warden denies\n%s", m, h, port, x.YAML)
					}
				}
			}
		}
	})
}

// TestExportLiterals: a rule naming an IP literal that Warden's floor
// never opens (private, NAT64's local use, Azure's WireServer, metadata)
// is left out with nothing lost; a public one is exported.
func TestExportLiterals(t *testing.T) {
	for lit, want := range map[string]string{
		"203.0.113.7": "mapped", "10.1.2.3": "not applied", "168.63.129.16": "not applied",
		"169.254.169.254": "not applied", "64:ff9b:1::1": "not applied", "2001:db8::1": "mapped",
	} {
		x, err := openshell.ExportNetwork([]netpolicy.Rule{{Verdict: action.Allow, Host: lit, Ports: []int{443}}}, exportNow)
		if err != nil {
			t.Fatal(err)
		}
		if got := x.Items[0].Status.String(); got != want {
			t.Errorf("%s: %s, want %s (%s)", lit, got, want, x.Items[0].Note)
		}
	}
}
