// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"context"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/proxy"
)

const openShellPolicy = `version: 1
network_policies:
  curl_api:
    endpoints:
      - host: api.example.com
        port: 443
      - host: api.example.com
        port: 80
        protocol: rest
        enforcement: enforce
        rules:
          - allow: { method: GET, path: "/echo" }
      - host: internal.corp.example
        port: 443
      - host: cache.corp.example
        port: 443
        allowed_ips: [10.0.0.0/24]
      - host: metadata.google.internal
        port: 80
    binaries:
      - path: /usr/bin/curl
  node_children:
    endpoints:
      - host: files.example.com
        port: 443
    binaries:
      - path: /usr/bin/node
`

func newOpenShellEgress(t *testing.T) *Boundary {
	t.Helper()
	p, err := openshell.Parse("openshell.yaml", []byte(openShellPolicy))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b, err := New(Config{RunID: "run-test", OpenShell: p, CADir: filepath.Join(dir, "ca"),
		TrustBundle: func() (string, error) { return filepath.Join(dir, "ca-bundle.pem"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// TestOpenShellDecisions decides targets as the proxy asks about them,
// each with the caller it found: OpenShell's endpoint-and-binary rule,
// its request rules on an inspected endpoint, then Warden's floor.
func TestOpenShellDecisions(t *testing.T) {
	b := newOpenShellEgress(t)
	if b.TrustBundle() == "" {
		t.Error("an OpenShell policy with an inspected endpoint has no CA for interception")
	}
	curl := &proxy.Caller{PID: 7, Exe: "/usr/bin/curl"}
	python := &proxy.Caller{PID: 8, Exe: "/usr/bin/python3.11", Ancestors: []string{"/usr/bin/dash"}}
	underNode := &proxy.Caller{PID: 9, Exe: "/usr/bin/curl", Ancestors: []string{"/usr/bin/node", "/usr/bin/dash"}}
	unknown := &proxy.Caller{Err: "no process of the sandbox holds the connection's socket"}
	stream := func(host string, port int, c *proxy.Caller) proxy.Target {
		return proxy.Target{Host: host, Port: port, Method: "CONNECT", Via: proxy.ViaConnect, Caller: c}
	}
	request := func(method, path, query string, c *proxy.Caller) proxy.Target {
		return proxy.Target{Host: "api.example.com", Port: 80, Method: method, Protocol: proxy.ProtoHTTP, Path: path, RawPath: path, Query: query, Via: proxy.ViaForward, Caller: c}
	}
	type want struct {
		Allow, Intercept bool
		Rule             string
	}
	tests := []struct {
		name   string
		t      proxy.Target
		addrs  []string // when set, the addresses are judged too
		want   want
		reason string
	}{
		{"the binary the rule names", stream("api.example.com", 443, curl), []string{"203.0.113.7"}, want{Allow: true, Rule: "network_policies.curl_api"}, ""},
		{"the same host, another binary", stream("api.example.com", 443, python), nil, want{Rule: "network_policies.curl_api"}, "python3.11"},
		{"a caller not found matches no binary", stream("api.example.com", 443, unknown), nil, want{Rule: "openshell: default deny"}, "not known"},
		{"no caller at all", stream("api.example.com", 443, nil), nil, want{Rule: "openshell: default deny"}, ""},
		{"an ancestor's rule", stream("files.example.com", 443, underNode), []string{"203.0.113.8"}, want{Allow: true, Rule: "network_policies.node_children"}, ""},
		{"not under that ancestor", stream("files.example.com", 443, curl), nil, want{Rule: "network_policies.node_children"}, "not allowed"},
		{"an inspected stream is intercepted", stream("api.example.com", 80, curl), nil, want{Allow: true, Intercept: true, Rule: "network_policies.curl_api"}, ""},
		{"a request the rules allow", request("GET", "/echo", "x=1", curl), []string{"203.0.113.7"}, want{Allow: true, Rule: "network_policies.curl_api"}, ""},
		{"a method they do not", request("POST", "/echo", "", curl), nil, want{Rule: "network_policies.curl_api"}, "POST"},
		{"HEAD is GET", request("HEAD", "/echo", "", curl), nil, want{Allow: true, Rule: "network_policies.curl_api"}, ""},
		{"a path not canonical is refused, not forwarded", request("GET", "/x/../echo", "", curl), nil, want{Rule: "network_policies.curl_api"}, "canonical"},
		{"an encoded slash is OpenShell's to refuse", request("GET", "/echo%2Fx", "", curl), nil, want{Rule: "network_policies.curl_api"}, ""},
		{"an encoded dot-dot, as sent", request("GET", "/x/%2e%2e/echo", "", curl), nil, want{Rule: "network_policies.curl_api"}, ""},
		{"Warden's floor: a metadata name", stream("metadata.google.internal", 80, curl), nil, want{Rule: "always-denied"}, ""},
		{"Warden's floor: a private address without allowed_ips", stream("internal.corp.example", 443, curl), []string{"10.0.0.5"}, want{Rule: "private-range"}, ""},
		{"a private address inside allowed_ips", stream("cache.corp.example", 443, curl), []string{"10.0.0.5"}, want{Allow: true, Rule: "network_policies.curl_api"}, ""},
		{"an address outside them", stream("cache.corp.example", 443, curl), []string{"10.0.1.5"}, want{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := b.checkName(context.Background(), tt.t)
			if d.Allow && tt.addrs != nil {
				var addrs []netip.Addr
				for _, a := range tt.addrs {
					addrs = append(addrs, netip.MustParseAddr(a))
				}
				d = b.checkAddrs(context.Background(), tt.t, addrs)
				if d.Allow && len(d.Addrs) == 0 {
					t.Error("an allow with no address to dial")
				}
			}
			got := want{Allow: d.Allow, Intercept: d.Intercept, Rule: d.Rule}
			if tt.want.Rule == "" || strings.HasPrefix(got.Rule, tt.want.Rule) {
				got.Rule = tt.want.Rule
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decision (-want +got):\n%s\nreason: %s", diff, d.Reason)
			}
			if !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("reason %q does not say %q", d.Reason, tt.reason)
			}
		})
	}
}

// TestOpenShellNames: the DNS stub answers only the names an endpoint
// names, never an always-denied one; a person's approval does not widen
// an OpenShell policy.
func TestOpenShellNames(t *testing.T) {
	b := newOpenShellEgress(t)
	for name, want := range map[string]bool{"api.example.com": true, "files.example.com": true, "other.example.com": false, "metadata.google.internal": false} {
		if got, rule, _ := b.allowName(name); got != want {
			t.Errorf("allowName(%s) = %v (%s), want %v", name, got, rule, want)
		}
	}
	if err := b.Allow("other.example.com:443"); err == nil {
		t.Error("an approval widened an OpenShell policy")
	}
}

// TestOpenShellDenialBodies: a denial is answered in OpenShell's shape,
// which its clients read: L4 for a connection, L7 with the policy in
// X-OpenShell-Policy for a request.
func TestOpenShellDenialBodies(t *testing.T) {
	b := newOpenShellEgress(t)
	python := &proxy.Caller{PID: 8, Exe: "/usr/bin/python3.11"}
	d := b.checkName(context.Background(), proxy.Target{Host: "api.example.com", Port: 443, Method: "CONNECT", Caller: python})
	if d.Allow || !strings.Contains(string(d.Body), `"error":"policy_denied","detail":"CONNECT api.example.com:443 not permitted by policy"`) {
		t.Errorf("L4 denial body: %s", d.Body)
	}
	curl := &proxy.Caller{PID: 7, Exe: "/usr/bin/curl"}
	d = b.checkName(context.Background(), proxy.Target{Host: "api.example.com", Port: 80, Method: "POST", Protocol: proxy.ProtoHTTP, Path: "/echo", RawPath: "/echo", Caller: curl})
	for _, want := range []string{`"policy":"curl_api"`, `"rule":"POST /echo"`, `"layer":"l7"`, `"binary":"/usr/bin/curl"`} {
		if !strings.Contains(string(d.Body), want) {
			t.Errorf("L7 denial body lacks %s: %s", want, d.Body)
		}
	}
	if d.Header["X-OpenShell-Policy"] != "curl_api" {
		t.Errorf("L7 denial headers: %v", d.Header)
	}
}
