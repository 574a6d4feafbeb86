// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/config/openshell"
)

// net wraps endpoint YAML (indented for an endpoints list item) in a
// policy with one network policy.
func net(endpoint string) string {
	return "version: 1\nnetwork_policies:\n  p:\n    endpoints:\n      - " +
		strings.ReplaceAll(strings.TrimSpace(endpoint), "\n", "\n        ") +
		"\n    binaries: [{ path: /usr/bin/curl }]\n"
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      string // the whole error
	}{
		{"empty file", "", "p.yaml:1:1: policy file is empty; it needs at least version: 1"},
		{"no version", "network_policies: {}\n", "p.yaml:1:1: policy needs version: 1"},
		{"version 2", "version: 2\n", "p.yaml:1:10: unsupported version 2; want 1"},
		{"version string", "version: \"1\"\n", "p.yaml:1:10: version must be an integer, not a string"},
		{"unknown top key", "version: 1\ncedar_policy: x\n", `p.yaml:2:1: unknown key "cedar_policy" in policy; want version, filesystem_policy, landlock, process, network_policies, network_middlewares`},
		{"duplicate key", "version: 1\nversion: 1\n", `p.yaml:2:1: duplicate key "version" in policy (first at 1:1)`},
		{"not a mapping", "- a\n", "p.yaml:1:1: policy must be a mapping, not a list"},
		{"malformed yaml", "version: [1\n", "p.yaml:1:1: malformed YAML: did not find expected ',' or ']'"},
		{"alias", "version: 1\nnetwork_policies:\n  a: &x\n    endpoints: []\n  b: *x\n", "p.yaml:5:6: YAML aliases are not supported; write the value out"},
		{"two documents", "version: 1\n---\nversion: 1\n", "p.yaml:2:1: policy file holds more than one YAML document"},

		{"fs relative", "version: 1\nfilesystem_policy:\n  read_only: [usr]\n", `p.yaml:3:15: read_only path "usr" must be absolute`},
		{"fs dotdot", "version: 1\nfilesystem_policy:\n  read_write: [/tmp/../etc]\n", `p.yaml:3:16: read_write path "/tmp/../etc" must not contain ..`},
		{"fs rw root", "version: 1\nfilesystem_policy:\n  read_write: [/]\n", "p.yaml:3:16: read_write must not include /: that is the whole file system"},
		{"fs ro root fine but unknown key", "version: 1\nfilesystem_policy:\n  read_only: [/]\n  deny: [/x]\n", `p.yaml:4:3: unknown key "deny" in filesystem_policy; want include_workdir, read_only, read_write`},
		{"fs long", "version: 1\nfilesystem_policy:\n  read_only: [/" + strings.Repeat("a", 4096) + "]\n", "p.yaml:3:15: read_only path is longer than 4096 characters"},
		{"fs too many", "version: 1\nfilesystem_policy:\n  read_only: [" + strings.Repeat("/a, ", 256) + "/b]\n", "p.yaml:3:14: filesystem_policy lists more than 256 paths"},
		{"landlock", "version: 1\nlandlock: {compatibility: strict}\n", `p.yaml:2:27: unknown landlock compatibility "strict"; want best_effort, hard_requirement`},
		{"process root", "version: 1\nprocess: {run_as_user: 0}\n", "p.yaml:2:24: run_as_user must not be root (0)"},
		{"process minus one", "version: 1\nprocess: {run_as_group: -1}\n", "p.yaml:2:25: run_as_group -1 is out of range; want 1 to 4294967294"},
		{"process too big", "version: 1\nprocess: {run_as_user: 4294967295}\n", "p.yaml:2:24: run_as_user 4294967295 is out of range; want 1 to 4294967294"},
		{"process name", "version: 1\nprocess: {run_as_user: root}\n", `p.yaml:2:24: run_as_user "root": want sandbox or a number from 1 to 4294967294`},

		{"provider key", "version: 1\nnetwork_policies:\n  _provider_github: {}\n", `p.yaml:3:3: network policy key "_provider_github": keys starting _provider_ are reserved for provider rules`},
		{"unknown rule key", "version: 1\nnetwork_policies:\n  p: {hosts: []}\n", `p.yaml:3:7: unknown key "hosts" in network policy p; want name, endpoints, binaries`},
		{"binary relative", "version: 1\nnetwork_policies:\n  p: {binaries: [{path: curl}]}\n", `p.yaml:3:25: binary path "curl" must be absolute (or a glob)`},
		{"binary bad glob", "version: 1\nnetwork_policies:\n  p: {binaries: [{path: \"/usr/[bin\"}]}\n", `p.yaml:3:25: binary path "/usr/[bin": unclosed [ in a glob`},
		{"binary no path", "version: 1\nnetwork_policies:\n  p: {binaries: [{harness: true}]}\n", "p.yaml:3:18: binary needs a path"},

		{"port and ports", net("{ host: a.example, port: 443, ports: [443] }"), "p.yaml:5:28: endpoint has both port and ports; use one"},
		{"no port", net("{ host: a.example }"), "p.yaml:5:9: endpoint needs port or ports"},
		{"port zero", net("{ host: a.example, port: 0 }"), "p.yaml:5:34: port must be between 1 and 65535, got 0"},
		{"ports empty", net("{ host: a.example, ports: [] }"), "p.yaml:5:35: ports must not be empty"},
		{"no host no ips", net("{ port: 443 }"), "p.yaml:5:9: endpoint needs a host, or allowed_ips for any host whose addresses lie in them"},
		{"bare star", net("{ host: \"*\", port: 443 }"), `p.yaml:5:17: host "*" matches every host; leave host out and use allowed_ips instead`},
		{"bare double star", net("{ host: \"**\", port: 443 }"), `p.yaml:5:17: host "**" matches every host; leave host out and use allowed_ips instead`},
		{"tld wildcard", net("{ host: \"*.com\", port: 443 }"), `p.yaml:5:17: host "*.com": a wildcard may not be in the last two labels (TLD wildcards are refused)`},
		{"second level wildcard", net("{ host: \"x.*.com\", port: 443 }"), `p.yaml:5:17: host "x.*.com": a wildcard may not be in the last two labels (TLD wildcards are refused)`},
		{"partial middle", net("{ host: \"a.b*.x.com\", port: 443 }"), `p.yaml:5:17: host "a.b*.x.com": a wildcard in a middle label must be the whole label`},
		{"double star middle", net("{ host: \"a.**.x.com\", port: 443 }"), `p.yaml:5:17: host "a.**.x.com": ** may only be the whole first label`},
		{"double star partial", net("{ host: \"**x.y.com\", port: 443 }"), `p.yaml:5:17: host "**x.y.com": ** may only be the whole first label`},
		{"host question", net("{ host: \"a?.x.com\", port: 443 }"), `p.yaml:5:17: host "a?.x.com": only * and a leading ** are wildcards in a host`},
		{"host scheme", net("{ host: \"https://x.com\", port: 443 }"), `p.yaml:5:17: host "https://x.com": write the host name alone, without a scheme, port or path`},
		{"host port", net("{ host: \"x.com:443\", port: 443 }"), `p.yaml:5:17: host "x.com:443": write the host name alone, without a scheme, port or path`},
		{"host empty label", net("{ host: \"x..com\", port: 443 }"), `p.yaml:5:17: host "x..com" has an empty label`},
		{"ips loopback", net("{ allowed_ips: [127.0.0.1], port: 443 }"), "p.yaml:5:25: allowed_ips: 127.0.0.1 touches loopback addresses (127.0.0.0/8), which are always blocked"},
		{"ips covering loopback", net("{ allowed_ips: [0.0.0.0/0], port: 443 }"), "p.yaml:5:25: allowed_ips: 0.0.0.0/0 touches loopback addresses (127.0.0.0/8), which are always blocked"},
		{"ips link-local", net("{ allowed_ips: [169.254.169.254], port: 443 }"), "p.yaml:5:25: allowed_ips: 169.254.169.254 touches link-local addresses (169.254.0.0/16), which are always blocked"},
		{"ips unspecified", net("{ allowed_ips: [0.0.0.0], port: 443 }"), "p.yaml:5:25: allowed_ips: 0.0.0.0 touches unspecified addresses (0.0.0.0/32), which are always blocked"},
		{"ips v6 loopback", net("{ allowed_ips: [\"::1\"], port: 443 }"), "p.yaml:5:25: allowed_ips: ::1 touches loopback addresses (::1/128), which are always blocked"},
		{"ips v6 link-local", net("{ allowed_ips: [\"fe80::/64\"], port: 443 }"), "p.yaml:5:25: allowed_ips: fe80::/64 touches link-local addresses (fe80::/10), which are always blocked"},
		{"ips mapped loopback", net("{ allowed_ips: [\"::ffff:127.0.0.1\"], port: 443 }"), "p.yaml:5:25: allowed_ips: ::ffff:127.0.0.1 touches loopback addresses (127.0.0.0/8), which are always blocked"},
		{"ips bad", net("{ allowed_ips: [10.0.0.0/33], port: 443 }"), `p.yaml:5:25: allowed_ips: "10.0.0.0/33" is not an IP address or CIDR`},
		{"ips empty", net("{ allowed_ips: [], port: 443 }"), "p.yaml:5:24: allowed_ips must not be empty"},
		{"bad protocol", net("{ host: a.example, port: 443, protocol: http }"), `p.yaml:5:49: unknown protocol "http"; want rest, websocket, graphql, mcp, json-rpc, tcp, sql`},
		{"rules without protocol", net("{ host: a.example, port: 443, rules: [{allow: {method: GET, path: /}}] }"), "p.yaml:5:39: rules needs a protocol: (rest, websocket, graphql, mcp or json-rpc)"},
		{"empty rules", net("{ host: a.example, port: 443, protocol: rest, rules: [] }"), "p.yaml:5:62: rules must not be empty; leave them out, or use access:"},
		{"access and rules", net("{ host: a.example, port: 443, protocol: rest, access: full, rules: [{allow: {method: GET, path: /}}] }"), "p.yaml:5:69: an endpoint has access or rules, not both"},
		{"bad access", net("{ host: a.example, port: 443, protocol: rest, access: admin }"), `p.yaml:5:63: unknown access "admin"; want read-only, read-write, full`},
		{"access for mcp", net("{ host: a.example, port: 443, protocol: mcp, access: full }"), "p.yaml:5:54: access presets are not available for protocol: mcp; write rules"},
		{"access for json-rpc", net("{ host: a.example, port: 443, protocol: json-rpc, access: read-only }"), "p.yaml:5:59: access presets are not available for protocol: json-rpc; write rules"},
		{"deny without base", net("{ host: a.example, port: 443, protocol: rest, deny_rules: [{method: GET}] }"), "p.yaml:5:55: deny_rules need an allow base: rules or access"},
		{"deny without protocol", net("{ host: a.example, port: 443, deny_rules: [{method: GET}] }"), "p.yaml:5:39: deny_rules needs a protocol: (rest, websocket, graphql, mcp or json-rpc)"},
		{"rule without allow", net("{ host: a.example, port: 443, protocol: rest, rules: [{deny: {method: GET}}] }"), `p.yaml:5:64: unknown key "deny" in rule; want allow`},
		{"rest allow needs path", net("{ host: a.example, port: 443, protocol: rest, rules: [{allow: {method: GET}}] }"), "p.yaml:5:71: a rest allow rule needs method and path"},
		{"rest rule graphql field", net("{ host: a.example, port: 443, protocol: rest, rules: [{allow: {method: GET, path: /, fields: [a]}}] }"), `p.yaml:5:94: unknown key "fields" in allow rule; want method, path, query`},
		{"rest path relative", net("{ host: a.example, port: 443, protocol: rest, rules: [{allow: {method: GET, path: api}}] }"), `p.yaml:5:91: path "api" must start with / (or be ** for any path)`},
		{"rest bad method", net("{ host: a.example, port: 443, protocol: rest, rules: [{allow: {method: \"GE T\", path: /}}] }"), `p.yaml:5:80: "GE T" is not an HTTP method or *`},
		{"query empty", net("{ host: a.example, port: 443, protocol: rest, rules: [{allow: {method: GET, path: /, query: {}}}] }"), "p.yaml:5:101: query must not be empty; leave it out"},
		{"query any empty", net("{ host: a.example, port: 443, protocol: rest, rules: [{allow: {method: GET, path: /, query: {q: {any: []}}}}] }"), "p.yaml:5:111: query q: any must not be empty"},
		{"query number", net("{ host: a.example, port: 443, protocol: rest, rules: [{allow: {method: GET, path: /, query: {q: 1}}}] }"), "p.yaml:5:105: query q must be a glob or {any: [globs]}, not an integer"},
		{"ws bad method", net("{ host: a.example, port: 443, protocol: websocket, rules: [{allow: {method: POST}}] }"), `p.yaml:5:85: websocket method "POST": want GET, WEBSOCKET_TEXT or *`},
		{"mcp glob outside tools", net("{ host: a.example, port: 443, protocol: mcp, rules: [{allow: {method: \"resources/*\"}}] }"), `p.yaml:5:79: mcp method "resources/*": globs are allowed only in the tools/ family`},
		{"mcp other param", net("{ host: a.example, port: 443, protocol: mcp, rules: [{allow: {method: tools/call, params: {}}}] }"), `p.yaml:5:91: unknown key "params" in allow rule; want method, tool`},
		{"jsonrpc glob", net("{ host: a.example, port: 443, protocol: json-rpc, rules: [{allow: {method: \"eth_*\"}}] }"), `p.yaml:5:84: json-rpc method "eth_*": want an exact method or *`},
		{"graphql op", net("{ host: a.example, port: 443, protocol: graphql, rules: [{allow: {operation_type: delete}}] }"), `p.yaml:5:91: unknown operation_type "delete"; want query, mutation, subscription, *`},
		{"tcp glob host", net("{ host: \"*.db.example\", port: 5432, protocol: tcp }"), "p.yaml:5:11: protocol: tcp needs an exact DNS host, not a glob"},
		{"tcp ip host", net("{ host: 10.0.0.1, port: 5432, protocol: tcp }"), "p.yaml:5:11: protocol: tcp needs an exact DNS host, not an IP address"},
		{"tcp hostless", net("{ allowed_ips: [10.0.0.0/8], port: 5432, protocol: tcp }"), "p.yaml:5:9: protocol: tcp needs an exact DNS host; a hostless endpoint cannot be resolved by policy DNS"},
		{"tcp with access", net("{ host: db.example, port: 5432, protocol: tcp, access: full }"), "p.yaml:5:56: access is not allowed with protocol: tcp, which is not inspected"},
		{"tcp with tls", net("{ host: db.example, port: 5432, protocol: tcp, tls: skip }"), "p.yaml:5:56: tls is not allowed with protocol: tcp, which is not inspected"},
		{"bad tls", net("{ host: a.example, port: 443, tls: off }"), `p.yaml:5:44: unknown tls "off"; want skip, terminate, passthrough`},
		{"endpoint path relative", net("{ host: a.example, port: 443, path: graphql }"), `p.yaml:5:45: endpoint path "graphql" must start with /`},
		{"signing without rewrite exclusivity", net("{ host: a.example, port: 443, request_body_credential_rewrite: true, credential_signing: sigv4 }"), "p.yaml:5:78: credential_signing and request_body_credential_rewrite are exclusive"},
		{"signing region alone", net("{ host: a.example, port: 443, signing_region: us-east-1 }"), "p.yaml:5:39: signing_region needs credential_signing"},
		{"unknown endpoint key", net("{ host: a.example, port: 443, method: GET }"), `p.yaml:5:39: unknown key "method" in endpoint; want host, port, ports, path, protocol, tls, enforcement, access, rules, deny_rules, allowed_ips, allow_encoded_slash, websocket_credential_rewrite, request_body_credential_rewrite, allow_uninspected_credentials, credential_signing, signing_service, signing_region, credential_binding, persisted_queries, graphql_persisted_queries, graphql_max_body_bytes, mcp, json_rpc`},

		{"middleware order clash", "version: 1\nnetwork_middlewares:\n  a: {middleware: x}\n  b: {middleware: y}\n", "p.yaml:4:3: middleware b has order 0, as a does; orders must be unique"},
		{"middleware regex mode", "version: 1\nnetwork_middlewares:\n  a: {middleware: openshell/regex, config: {mode: block}}\n", `p.yaml:3:51: unknown openshell/regex mode "block"; want redact`},
		{"middleware on_error", "version: 1\nnetwork_middlewares:\n  a: {middleware: x, on_error: retry}\n", `p.yaml:3:32: unknown on_error "retry"; want fail_closed, fail_open`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := openshell.Parse("p.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse(%q) = nil error, want %q", tt.src, tt.want)
			}
			if p != nil {
				t.Errorf("Parse returned a policy with its error")
			}
			var pe *openshell.ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *ParseError", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Parse error\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	src := `version: 1
filesystem_policy:
  include_workdir: true
  read_only: [/usr]
process: { run_as_user: sandbox, run_as_group: "1000" }
network_policies:
  zeta:
    name: Zeta display
    endpoints:
      - { host: "**.z.example", ports: [443, 443, 80], allowed_ips: [10.0.0.0/8], enforcement: enforced, tls: terminate }
      - host: api.z.example
        port: 443
        protocol: rest
        access: read-only
        deny_rules: [{ path: /admin }]
    binaries: [{ path: /usr/bin/curl, harness: true }]
  alpha:
    endpoints: []
`
	p, err := openshell.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, np := range p.Network {
		keys = append(keys, np.Key+"="+np.Name)
	}
	if diff := cmp.Diff([]string{"alpha=alpha", "zeta=Zeta display"}, keys); diff != "" {
		t.Errorf("network policies (-want +got):\n%s", diff)
	}
	z := p.Network[1]
	if diff := cmp.Diff([]int{443, 80}, z.Endpoints[0].Ports); diff != "" {
		t.Errorf("ports (-want +got):\n%s", diff)
	}
	var methods []string
	for _, m := range z.Endpoints[1].Rules {
		methods = append(methods, m.Method+" "+m.Path+" "+m.Preset)
	}
	if diff := cmp.Diff([]string{"GET ** read-only", "HEAD ** read-only", "OPTIONS ** read-only"}, methods); diff != "" {
		t.Errorf("preset (-want +got):\n%s", diff)
	}
	if p.Process.RunAsUser != "sandbox" || p.Process.RunAsGroup != "1000" || p.Landlock != "best_effort" {
		t.Errorf("process %+v, landlock %q", p.Process, p.Landlock)
	}
	wantWarn := []string{
		"p.yaml:10:70: allowed_ips: 10.0.0.0/8 is wider than a /16",
		"p.yaml:10:96: enforcement \"enforced\" is not enforce: denied requests are only logged and forwarded (audit)",
		"p.yaml:10:111: tls: terminate is deprecated and has no effect",
		"p.yaml:16:39: binaries[].harness is deprecated and has no effect",
		"p.yaml:17:3: network policy alpha has no endpoints: it allows nothing",
		"p.yaml:17:3: network policy alpha has no binaries: it allows nothing",
	}
	if diff := cmp.Diff(wantWarn, p.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
