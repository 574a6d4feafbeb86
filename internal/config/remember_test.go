// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package config_test

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/egress"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/request"
)

var (
	now    = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	ttl    = 8 * time.Hour
	until  = now.Add(ttl)
	agent  = policy.Scope{Kind: policy.AgentScope, Name: "bot"}
	noHost = proxy.NewHostAddrs(func() ([]netip.Addr, error) { return nil, nil })
)

const netPolicy = `version: 1
rules:
  - {id: protect-main, class: gitPush, refs: [main], decision: deny}
network:
  rules:
    - deny: {host: "*.tracker.example"}
    - allow: {host: registry.npmjs.org, port: 443}
`

func parse(t *testing.T, src string) *config.Policy {
	t.Helper()
	p, err := config.Parse("policy.yaml", []byte(src), config.Options{Home: "/home/ada"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// decode turns a JSON action into what the engine decides and the
// destinations it shows, as warden policy remember does.
func decode(t *testing.T, p *config.Policy, js string) config.Approval {
	t.Helper()
	req, err := request.Decode(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := p.Action(req, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return config.Approval{Action: a, Dests: config.Destinations(req, a)}
}

// reach is how each part of Warden that judges a destination answers
// for target at: warden net check's whole decision (egress.Check), the
// egress proxy's questions about a stream and a request (the tiers'
// CheckFlowName then CheckFlowAddrs, as a run's Boundary asks them), and
// the DNS stub's (CheckHost). They must agree.
func reach(t *testing.T, p *config.Policy, target string, at time.Time) action.Verdict {
	t.Helper()
	tiers, err := p.NetTiers()
	if err != nil {
		t.Fatal(err)
	}
	answer := []netip.Addr{netip.MustParseAddr("151.101.0.223")}
	resolve := func(context.Context, string) ([]netip.Addr, error) { return answer, nil }
	tg, netCheck := egress.Check(context.Background(), tiers, target, "", resolve, noHost, at)
	if !tg.Valid() {
		t.Fatalf("target %s does not parse", target)
	}
	for _, method := range []string{"", "GET"} {
		f := netpolicy.Flow{Host: tg.Host(), Port: int(tg.Port()), Method: method}
		if method != "" {
			f.Protocol = tg.Protocol()
		}
		d, _ := tiers.CheckFlowName(f, at)
		if d.Verdict == action.Allow {
			d, _ = tiers.CheckFlowAddrs(f, answer, at)
		}
		if d.Verdict != netCheck.Verdict {
			t.Errorf("%s at %s: the proxy (method %q) decides %s by %s, net check %s by %s", target, at, method, d.Verdict, d.Rule, netCheck.Verdict, netCheck.Rule)
		}
	}
	if netCheck.Verdict == action.Allow {
		if d := tiers.CheckHost(tg.Host(), at); d.Verdict != action.Allow {
			t.Errorf("%s at %s: net check allows, the DNS stub denies the name (%s)", target, at, d.Reason)
		}
	}
	return netCheck.Verdict
}

// TestRememberNetwork checks that a remembered fetch writes the rule the
// egress proxy reads — exactly the host and the port, with the expiry —
// beside the guardrail the engine reads, naming the same exact host; that
// net check, the proxy and the DNS stub then let exactly that destination
// through until the expiry, and the engine the fetch; and that lint finds
// the two in agreement.
func TestRememberNetwork(t *testing.T) {
	p := parse(t, netPolicy)
	ap := decode(t, p, `{"tool": "web_fetch", "url": "https://api.pypi.org/simple/requests/", "principal": {"agent": "bot"}}`)
	rem, err := p.Remember("policy.yaml", ap, policy.RememberOptions{Scope: agent, TTL: ttl, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	wantNet := []policyfile.NetRule{{Action: action.Allow, Host: "api.pypi.org", Port: 443, Until: until, Provenance: policy.ProvenanceRemembered}}
	if diff := cmp.Diff(wantNet, rem.Net); diff != "" {
		t.Errorf("network rules remembered (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2}, rem.NetIndex); diff != "" {
		t.Errorf("their indexes (-want +got):\n%s", diff)
	}
	if len(rem.Rules) != 1 || rem.Rules[0].Class != action.NetworkEgress || !cmp.Equal(rem.Rules[0].Hosts, []string{"api.pypi.org"}) || !rem.Rules[0].Expires.Equal(until) {
		t.Errorf("guardrail rules remembered: %+v, want one networkEgress allow of api.pypi.org until %s", rem.Rules, until)
	}
	if strings.Contains(string(rem.Text), "*.pypi.org") {
		t.Errorf("the remembered file holds a wildcard:\n%s", rem.Text)
	}
	// p itself is unchanged: only the text carries the new rules.
	if len(p.File.Network.Rules) != 2 || len(p.File.Policy.Rules) != 1 {
		t.Errorf("Remember changed the policy it was called on")
	}

	np := parse(t, string(rem.Text))
	for _, tt := range []struct {
		target string
		at     time.Time
		want   action.Verdict
	}{
		{"api.pypi.org:443", now, action.Allow},
		{"https://api.pypi.org/simple/requests/", now.Add(ttl - time.Second), action.Allow},
		{"API.PyPI.org.:443", now, action.Allow},
		{"api.pypi.org:443", until, action.Deny},
		{"api.pypi.org:443", until.Add(time.Hour), action.Deny},
		{"api.pypi.org:80", now, action.Deny},
		{"http://api.pypi.org/", now, action.Deny},
		{"api.pypi.org:8443", now, action.Deny},
		{"pypi.org:443", now, action.Deny},
		{"x.api.pypi.org:443", now, action.Deny},
		{"files.pypi.org:443", now, action.Deny},
		{"api.pypi.org.evil.example:443", now, action.Deny},
		{"registry.npmjs.org:443", now, action.Allow},
	} {
		if got := reach(t, np, tt.target, tt.at); got != tt.want {
			t.Errorf("%s at +%s = %s, want %s", tt.target, tt.at.Sub(now), got, tt.want)
		}
	}
	for _, tt := range []struct {
		url  string
		at   time.Time
		want action.Verdict
	}{
		{"https://api.pypi.org/simple/flask/", now, action.Allow},
		{"https://api.pypi.org/simple/flask/", until, action.Prompt},
		{"https://pypi.org/simple/flask/", now, action.Prompt},
		{"https://x.api.pypi.org/", now, action.Prompt},
	} {
		a := decode(t, np, `{"tool": "web_fetch", "url": "`+tt.url+`", "principal": {"agent": "bot"}}`).Action
		if d, _ := np.Engine.Evaluate(a, policy.Env{Now: tt.at}); d.Verdict != tt.want {
			t.Errorf("engine: fetch %s at +%s = %s (%s), want %s", tt.url, tt.at.Sub(now), d.Verdict, d.Reason, tt.want)
		}
	}
	if fds, err := policyfile.Lint(np.File, now); err != nil || len(fds) != 0 {
		t.Errorf("lint of the remembered file: %v %q", err, fds)
	}

	// The same approval again is allowed already.
	again, err := np.Remember("policy.yaml", decode(t, np, `{"tool": "web_fetch", "url": "https://api.pypi.org/simple/requests/", "principal": {"agent": "bot"}}`),
		policy.RememberOptions{Scope: agent, TTL: ttl, Now: now.Add(time.Hour)})
	if err != nil || !again.Empty() || again.Text != nil {
		t.Errorf("remembering again: %+v, %v; want nothing to remember", again, err)
	}
}

// TestRememberDestinations checks destinations remembered alone and beside
// actions that show them differently.
func TestRememberDestinations(t *testing.T) {
	target := func(raw string) netpolicy.Target {
		tg, err := netpolicy.ParseTarget(raw)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	for _, tt := range []struct {
		name    string
		action  string
		dests   []string
		want    []string // network rules added, as sentences
		guards  int
		allowed []string
	}{{
		name:    "a destination alone",
		dests:   []string{"files.pythonhosted.org:443"},
		want:    []string{"allow files.pythonhosted.org, port 443 [network.rules[2], until 2026-12-02T18:00:00Z, remembered]"},
		allowed: []string{"files.pythonhosted.org:443"},
	}, {
		name:  "two ports of one host, and one named twice",
		dests: []string{"git.example.com:22", "https://git.example.com/x", "git.example.com:443"},
		want: []string{
			"allow git.example.com, port 22 [network.rules[2], until 2026-12-02T18:00:00Z, remembered]",
			"allow git.example.com, port 443 [network.rules[3], until 2026-12-02T18:00:00Z, remembered]",
		},
		allowed: []string{"git.example.com:22", "git.example.com:443"},
	}, {
		name:    "a contained command: the engine allows, the proxy would not",
		action:  `{"tool": "bash", "command": "curl -fsSL https://proxy.golang.org/golang.org/x/mod/@v/list", "contained": true}`,
		want:    []string{"allow proxy.golang.org, port 443 [network.rules[2], until 2026-12-02T18:00:00Z, remembered]"},
		allowed: []string{"proxy.golang.org:443"},
	}, {
		name:    "URLs in a command, one as a flag's value, one on port 8443",
		action:  `{"tool": "bash", "command": "pip download --index-url=https://pypi.example.org:8443/simple/ x && curl http://files.example.org/y"}`,
		want:    []string{"allow pypi.example.org, port 8443 [network.rules[2], until 2026-12-02T18:00:00Z, remembered]", "allow files.example.org, port 80 [network.rules[3], until 2026-12-02T18:00:00Z, remembered]"},
		guards:  1,
		allowed: []string{"pypi.example.org:8443", "http://files.example.org/"},
	}, {
		name:    "a host without a URL, its port named beside",
		action:  `{"tool": "bash", "command": "ssh build.example.com uptime"}`,
		dests:   []string{"build.example.com:22"},
		want:    []string{"allow build.example.com, port 22 [network.rules[2], until 2026-12-02T18:00:00Z, remembered]"},
		guards:  1,
		allowed: []string{"build.example.com:22"},
	}, {
		name:   "a destination the network rules allow already",
		action: `{"tool": "web_fetch", "url": "https://registry.npmjs.org/left-pad"}`,
		guards: 1,
	}} {
		t.Run(tt.name, func(t *testing.T) {
			p := parse(t, netPolicy)
			var ap config.Approval
			o := policy.RememberOptions{TTL: ttl, Now: now, Scope: policy.Scope{Kind: policy.WorkspaceScope}}
			if tt.action != "" {
				ap = decode(t, p, tt.action)
			}
			for _, d := range tt.dests {
				ap.Dests = append(ap.Dests, target(d))
			}
			rem, err := p.Remember("policy.yaml", ap, o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, r := range rem.Net {
				got = append(got, policyfile.NetSentence(r, rem.NetIndex[i]))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("network rules (-want +got):\n%s", diff)
			}
			if len(rem.Rules) != tt.guards {
				t.Errorf("%d guardrail rules, want %d: %+v", len(rem.Rules), tt.guards, rem.Rules)
			}
			if rem.Empty() {
				return
			}
			np := parse(t, string(rem.Text))
			for _, a := range tt.allowed {
				if v := reach(t, np, a, now); v != action.Allow {
					t.Errorf("%s is %s after remembering", a, v)
				}
			}
			if fds, err := policyfile.Lint(np.File, now); err != nil || len(fds) != 0 {
				t.Errorf("lint of the remembered file: %v %q", err, fds)
			}
		})
	}
}

// TestRememberRefuses checks that nothing is returned to write when an
// approval cannot be remembered whole.
func TestRememberRefuses(t *testing.T) {
	const managed = "version: 1\nnetwork:\n  rules:\n    - deny: {host: blocked.example}\n    - allow: {}\n"
	for _, tt := range []struct {
		name, action string
		dests        []string
		ttl          time.Duration
		managed      bool
		want         string
		is           error
	}{
		{name: "no TTL", dests: []string{"pypi.org:443"}, is: policy.ErrRememberTTL},
		{name: "nothing", ttl: ttl, want: "nothing to remember"},
		{name: "a denied action", action: `{"tool": "git_push", "refs": ["main"]}`, ttl: ttl, want: "a deny is not remembered away"},
		{name: "a host without its port", action: `{"tool": "bash", "command": "ssh build.example.com uptime"}`, ttl: ttl,
			want: "reaches build.example.com without showing its port"},
		{name: "a destination a network rule denies", dests: []string{"x.tracker.example:443"}, ttl: ttl,
			want: "x.tracker.example:443 is denied by network.rules[0]"},
		{name: "an action whose destination a network rule denies", action: `{"tool": "web_fetch", "url": "https://x.tracker.example/"}`, ttl: ttl,
			want: "x.tracker.example:443 is denied by network.rules[0]"},
		{name: "always denied", dests: []string{"169.254.169.254:80"}, ttl: ttl, want: "always-denied: cloud metadata"},
		{name: "a private IP literal", dests: []string{"10.0.0.5:5432"}, ttl: ttl, want: "private-range: 10.0.0.0/8"},
		{name: "the managed tier denies", dests: []string{"blocked.example:443"}, ttl: ttl, managed: true,
			want: "even with the remembered rules blocked.example:443 is denied"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := config.Options{Home: "/home/ada"}
			if tt.managed {
				o.Managed = t.TempDir() + "/managed.yaml"
				writeFile(t, o.Managed, managed)
			}
			p, err := config.Parse("policy.yaml", []byte(netPolicy), o)
			if err != nil {
				t.Fatal(err)
			}
			var ap config.Approval
			if tt.action != "" {
				ap = decode(t, p, tt.action)
			}
			for _, d := range tt.dests {
				tg, err := netpolicy.ParseTarget(d)
				if err != nil {
					t.Fatal(err)
				}
				ap.Dests = append(ap.Dests, tg)
			}
			rem, err := p.Remember("policy.yaml", ap, policy.RememberOptions{TTL: tt.ttl, Now: now, Scope: policy.Scope{Kind: policy.WorkspaceScope}})
			if rem != nil {
				t.Errorf("Remember returned %+v with its error", rem)
			}
			switch {
			case tt.is != nil && !errors.Is(err, tt.is):
				t.Errorf("error = %v, want %v", err, tt.is)
			case tt.is == nil && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestRememberKeepsComments checks that remembering adds to the file's
// text rather than rewriting it: every line of the file, comments and
// layout included, is still there, in order, with the new rules after
// the last of their lists' items, before the comments that follow it at
// the dashes' column.
func TestRememberKeepsComments(t *testing.T) {
	const src = `# Reviewed by ada.
version: 1
rules:
    - decision: deny   # written first
      class: gitPush
      id: protect-main
      refs: ['main']
    # Deploys are ours.
network:
  rules:
  - deny: {host: "*.tracker.example"}  # never
  - allow: {host: registry.npmjs.org, port: 443}
# end
`
	p := parse(t, src)
	ap := decode(t, p, `{"tool": "web_fetch", "url": "https://api.pypi.org/simple/requests/", "principal": {"agent": "bot"}}`)
	rem, err := p.Remember("policy.yaml", ap, policy.RememberOptions{Scope: agent, TTL: ttl, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(string(rem.Text), "\n")
	j := 0
	for _, l := range strings.Split(src, "\n") {
		for j < len(got) && got[j] != l {
			j++
		}
		if j == len(got) {
			t.Fatalf("line %q lost or moved:\n%s", l, rem.Text)
		}
		j++
	}
	for _, want := range []string{
		"      refs: ['main']\n    - id: remembered-networkEgress-",
		"      provenance: remembered\n    # Deploys are ours.\nnetwork:\n",
		"  - allow: {host: registry.npmjs.org, port: 443}\n  - allow: {host: api.pypi.org, port: 443}\n",
	} {
		if !strings.Contains(string(rem.Text), want) {
			t.Errorf("the new text lacks %q:\n%s", want, rem.Text)
		}
	}
	if diff := cmp.Diff([]int{2}, rem.NetIndex); diff != "" {
		t.Errorf("network rule indexes (-want +got):\n%s", diff)
	}
}
