// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"context"
	"encoding/json"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/proxy"
)

// agreeManaged is the managed tier the tables are also run with: it
// tightens (a host, a method) and leaves private ranges to the file
// tier.
const agreeManaged = `version: 1
network:
  rules:
    - deny: {host: "*.evil.example"}
    - deny: {host: api.example.com, methods: [PUT]}
    - allow: {allowed_ips: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"]}
    - allow: {}
`

// TestDecisionsAgree runs every case of the decision tables — netpolicy's
// (../netpolicy/testdata/decisions/*.txtar), with the policy file's tier
// alone and with agreeManaged, and this package's (testdata/*.txtar),
// with the managed tier each holds — through the two ways Warden decides
// a destination: a run's egress decider, asked as the proxy asks it
// (checkName, then checkAddrs with the answer), and warden net check's
// (netpolicy.Tiers.Check). They must agree: the same verdict, rule,
// reason, hint and addresses.
//
// They may differ in one way only, the one the proxy is built for: a
// stream whose verdict depends on a method it does not show is denied by
// net check the strict way (method_dependent), and allowed by the proxy
// intercepted, so that each request inside is judged with its own method;
// net check must then allow some method.
//
// Cases the proxy never puts to its decider are left out, and counted: a
// target its own parser refuses (malformed, a zone), and the addresses of
// a name allowed by name without any (the proxy refuses an empty answer
// itself).
func TestDecisionsAgree(t *testing.T) {
	shared, err := filepath.Glob("../netpolicy/testdata/decisions/*.txtar")
	if err != nil || len(shared) == 0 {
		t.Fatalf("no decision tables in netpolicy: %v", err)
	}
	own, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(own) == 0 {
		t.Fatalf("no decision tables here: %v", err)
	}
	var n agreeCounts
	for _, file := range shared {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		sections := readTable(t, file)
		t.Run(name, func(t *testing.T) { agree(t, sections, nil, true, &n) })
		t.Run(name+"+managed", func(t *testing.T) { agree(t, sections, []byte(agreeManaged), false, &n) })
	}
	for _, file := range own {
		sections := readTable(t, file)
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			agree(t, sections, sections["managed.yaml"], true, &n)
		})
	}
	t.Logf("%d decisions compared, %d intercepted streams checked, %d cases the proxy does not ask about", n.compared, n.intercepted, n.skipped)
	if n.compared < 100 || n.intercepted < 3 {
		t.Errorf("%d decisions compared and %d intercepted streams: the tables no longer exercise both paths", n.compared, n.intercepted)
	}
}

type agreeCounts struct{ compared, intercepted, skipped int }

func readTable(t *testing.T, file string) map[string][]byte {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string][]byte{}
	for _, f := range ar.Files {
		sections[f.Name] = f.Data
	}
	return sections
}

// agree runs one table's cases through both paths, with the managed
// tier's policy text if any; expect says whether the cases' "expect" is
// net check's verdict with these tiers.
func agree(t *testing.T, sections map[string][]byte, managedText []byte, expect bool, n *agreeCounts) {
	cfg := testConfig(t, string(sections["policy.yaml"]))
	file, err := netpolicy.Compile(cfg.FileRules)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Tiers = netpolicy.NewTiers(file)
	methods := slices.Concat(file.Methods(), []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
	if managedText != nil {
		mf, err := policyfile.Parse("managed.yaml", managedText)
		if err != nil {
			t.Fatal(err)
		}
		managed, err := netpolicy.Compile(mf.Network.EgressRules())
		if err != nil {
			t.Fatal(err)
		}
		cfg.Tiers = netpolicy.NewTiers(file, managed)
		methods = append(methods, managed.Methods()...)
	}
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	for _, c := range readCases(t, sections["cases"]) {
		answer := func(string) ([]netip.Addr, error) { return c.addrs, nil }
		// net check's whole path: parse, judge, resolve, judge, and the
		// refusal of this machine's addresses (none here).
		_, netCheck := Check(context.Background(), cfg.Tiers, c.raw, c.method,
			func(context.Context, string) ([]netip.Addr, error) { return c.addrs, nil }, noHostAddrs, c.at)
		if expect && netCheck.Verdict.String() != c.expect {
			t.Errorf("%s: net check: %s = %s by %q (%s), want %s", c.name, c.raw, netCheck.Verdict, netCheck.Rule, netCheck.Reason, c.expect)
		}
		pt, addrs, unwrapped, ok := proxyAsks(c)
		if !ok {
			n.skipped++
			continue
		}
		b.now = func() time.Time { return c.at }
		pd := b.checkName(context.Background(), pt)
		if pd.Allow {
			if len(addrs) == 0 {
				// The proxy refuses an empty answer itself.
				n.skipped++
				continue
			}
			pd = b.checkAddrs(context.Background(), pt, addrs)
		}
		if netCheck.Verdict == action.Deny && netCheck.MethodDependent && pd.Allow && pd.Intercept {
			n.intercepted++
			if !slices.ContainsFunc(methods, func(m string) bool {
				return cfg.Tiers.Check(c.target, m, answer, c.at).Verdict == action.Allow
			}) {
				t.Errorf("%s: the proxy intercepts %+v, and net check allows no method", c.name, pt)
			}
			continue
		}
		n.compared++
		want := proxy.Decision{Allow: netCheck.Verdict == action.Allow, Rule: netCheck.Rule, Reason: netCheck.Reason, Hint: netCheck.Hint, Addrs: netCheck.Addrs}
		got := pd
		got.Intercept = false
		if unwrapped && got.Reason != want.Reason {
			// The proxy unwraps IPv4-mapped addresses before it
			// asks: the reason names the IPv4 address alone.
			want.Reason = got.Reason
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(proxy.Decision{}), cmp.Comparer(func(a, b netip.Addr) bool { return a == b })); diff != "" {
			t.Errorf("%s: %s (method %q): the proxy's decider differs from net check (-net check +proxy):\n%s", c.name, c.raw, c.method, diff)
		}
	}
}

type agreeCase struct {
	name, raw, method string
	expect            string
	target            netpolicy.Target
	parseErr          error
	addrs             []netip.Addr
	at                time.Time
}

func readCases(t *testing.T, data []byte) []agreeCase {
	t.Helper()
	var out []agreeCase
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var c struct {
			Name, Target, Method, Now, Expect string
			Addrs                             []string
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		ac := agreeCase{name: c.Name, raw: c.Target, method: c.Method, expect: c.Expect, at: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}
		if c.Now != "" {
			var err error
			if ac.at, err = time.Parse(time.RFC3339, c.Now); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
		}
		for _, s := range c.Addrs {
			ac.addrs = append(ac.addrs, netip.MustParseAddr(s))
		}
		ac.target, ac.parseErr = netpolicy.ParseTarget(c.Target)
		out = append(out, ac)
	}
	return out
}

// proxyAsks is what the proxy puts to its decider for c, once it knows
// the protocol: a request with its method, or, without one, a stream
// (CONNECT); and the answer as the proxy passes it (IPv4 unwrapped, no
// zone, each once), and whether that changed an address. ok is false for
// what the proxy never asks about.
func proxyAsks(c agreeCase) (pt proxy.Target, addrs []netip.Addr, unwrapped, ok bool) {
	tg := c.target
	if c.parseErr != nil {
		return proxy.Target{}, nil, false, false
	}
	ip, isIP := tg.IP()
	if isIP && ip.Zone() != "" {
		return proxy.Target{}, nil, false, false
	}
	if isIP {
		addrs = []netip.Addr{ip.Unmap()}
		unwrapped = ip.Is4In6()
	} else {
		for _, a := range c.addrs {
			unwrapped = unwrapped || a.Is4In6() || a.Zone() != ""
			if a = a.Unmap().WithZone(""); a.IsValid() && !slices.Contains(addrs, a) {
				addrs = append(addrs, a)
			}
		}
	}
	host := tg.Host()
	if isIP {
		host = ip.Unmap().String()
	}
	pt = proxy.Target{Host: host, Port: int(tg.Port()), Protocol: string(tg.Protocol()), Method: c.method, Via: proxy.ViaConnect}
	if path, _, _ := strings.Cut(tg.Path(), "?"); c.method != "" {
		pt.Path = path
		if tg.Protocol() == netpolicy.HTTP {
			pt.Via = proxy.ViaForward
		}
	} else {
		pt.Method = "CONNECT"
	}
	return pt, addrs, unwrapped, true
}

// noHostAddrs is a machine with no address of its own.
var noHostAddrs = proxy.NewHostAddrs(func() ([]netip.Addr, error) { return nil, nil })
