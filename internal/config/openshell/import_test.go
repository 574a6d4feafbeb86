// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/netpolicy"
)

const importPolicy = `version: 1
filesystem_policy: { read_only: [/usr] }
process: { run_as_user: sandbox }
network_policies:
  open:
    endpoints:
      - { host: Registry.example, ports: [443, 6443] }
      - { host: "**.cdn.example", port: 443 }
      - { host: "*.one.example", port: 443 }
      - { ports: [443], allowed_ips: [203.0.113.0/24] }
      - { host: 10.1.2.3, port: 8080 }
      - host: api.example
        port: 443
        protocol: rest
        enforcement: enforce
        rules: [{ allow: { method: GET, path: "**" } }, { allow: { method: POST, path: "**" } }]
        deny_rules: [{ method: POST, path: "**" }]
      - { host: audit.example, port: 443, protocol: rest, access: read-only }
      - { host: paths.example, port: 443, protocol: rest, enforcement: enforce, rules: [{ allow: { method: GET, path: /v1/** } }] }
      - { host: paths.example, port: 443 }
      - { host: ws.example, port: 443, protocol: websocket, access: full, websocket_credential_rewrite: true }
      - { host: mtls.example, port: 443, protocol: rest, tls: skip, access: read-only }
      - { host: db.example, port: 5432, protocol: tcp }
    binaries: [{ path: "/**" }]
  scoped:
    endpoints:
      - { host: gh.example, port: 443 }
    binaries: [{ path: /usr/bin/gh }]
  network_middlewares_are_below: { endpoints: [], binaries: [{ path: "**" }] }
network_middlewares:
  scrub: { middleware: openshell/regex, config: { mode: redact } }
`

func TestImport(t *testing.T) {
	p, err := openshell.Parse("p.yaml", []byte(importPolicy))
	if err != nil {
		t.Fatal(err)
	}
	r := openshell.Import(p, openshell.Options{})
	var items []string
	for _, it := range r.Items {
		items = append(items, fmt.Sprintf("%d %s: %s | %s | %s", it.Pos.Line, it.Construct, it.Status, it.Warden, it.Note))
	}
	want := []string{
		"2 filesystem_policy: not applied |  | not a network rule; Warden's sandbox section holds its own read_only and read_write lists",
		"3 process: not applied |  | Warden runs the agent as the calling user",
		"7 network_policies.open.endpoints[0]: narrowed | allow: {host: registry.example, ports: [443]} | port 6443 dropped: Warden denies Kubernetes control-plane ports on every host",
		"8 network_policies.open.endpoints[1]: mapped | allow: {host: \"*.cdn.example\", ports: [443]} | ",
		"9 network_policies.open.endpoints[2]: unmapped |  | host glob \"*.one.example\" has no Warden equivalent (Warden's *.domain is any depth); left out",
		"10 network_policies.open.endpoints[3]: unmapped |  | shares host and port with network_policies.open.endpoints[5], which OpenShell inspects and Warden's rules cannot: left out (would be allow: {allowed_ips: [203.0.113.0/24], ports: [443]})",
		"11 network_policies.open.endpoints[4]: narrowed | allow: {host: 10.1.2.3, ports: [8080]} | a private IP literal: Warden's rules open private ranges only to exact names and allowed_ips",
		"12 network_policies.open.endpoints[5]: mapped | allow: {host: api.example, ports: [443], methods: [GET, HEAD, POST]}; deny: {host: api.example, ports: [443], methods: [POST]} | ",
		"18 network_policies.open.endpoints[6]: narrowed | allow: {host: audit.example, ports: [443], methods: [GET, HEAD, OPTIONS]} | enforcement is audit in OpenShell (denied requests forwarded); Warden blocks them",
		"19 network_policies.open.endpoints[7]: unmapped |  | rules match paths or queries, which Warden's network rules do not see; left out, so they are denied",
		"20 network_policies.open.endpoints[8]: unmapped |  | shares host and port with network_policies.open.endpoints[7], which OpenShell inspects and Warden's rules cannot: left out (would be allow: {host: paths.example, ports: [443]})",
		"21 network_policies.open.endpoints[9]: unmapped |  | websocket inspection has no Warden network rule; left out, so it is denied",
		"21 network_policies.open.endpoints[9].websocket_credential_rewrite: not applied |  | credential and protocol options are not carried by Warden's network rules",
		"22 network_policies.open.endpoints[10]: mapped | allow: {host: mtls.example, ports: [443]} | tls: skip is never inspected: mapped as an uninspected connection",
		"23 network_policies.open.endpoints[11]: mapped | allow: {host: db.example, ports: [5432], protocol: tcp} | OpenShell's transparent TCP with policy DNS becomes a CONNECT tunnel through Warden's proxy",
		"27 network_policies.scoped.endpoints[0]: unmapped |  | scoped to binaries /usr/bin/gh; Warden's network rules do not see the calling binary, so it is left out (would be allow: {host: gh.example, ports: [443]})",
		"31 network_middlewares.scrub: not applied |  | Warden does not run OpenShell middlewares: openshell/regex is not applied",
	}
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("Import items (-want +got):\n%s", diff)
	}
	if _, err := netpolicy.Compile(r.Rules); err != nil {
		t.Fatalf("the imported rules do not compile: %v", err)
	}
	var rules []string
	for _, rl := range r.Rules {
		rules = append(rules, fmt.Sprintf("%s %s %s", rl.Verdict, rl.Name, rl.Host))
	}
	wantRules := []string{
		"deny network_policies.open.endpoints[5].deny_rules[0] api.example",
		"allow network_policies.open.endpoints[0] registry.example",
		"allow network_policies.open.endpoints[1] *.cdn.example",
		"allow network_policies.open.endpoints[4] 10.1.2.3",
		"allow network_policies.open.endpoints[5] api.example",
		"allow network_policies.open.endpoints[6] audit.example",
		"allow network_policies.open.endpoints[10] mtls.example",
		"allow network_policies.open.endpoints[11] db.example",
	}
	if diff := cmp.Diff(wantRules, rules); diff != "" {
		t.Errorf("Import rules (-want +got):\n%s", diff)
	}
}
