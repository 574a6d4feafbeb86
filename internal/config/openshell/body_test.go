// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/config/openshell"
)

const bodyPolicy = `version: 1
network_policies:
  github_api:
    endpoints:
      - host: api.github.com
        port: 443
        protocol: rest
        enforcement: enforce
        rules: [{ allow: { method: GET, path: "/repos/**" } }]
        deny_rules: [{ method: "*", path: "/repos/*/*/branches/*/protection" }]
      - { host: audit.github.com, port: 443, protocol: rest, access: read-only }
    binaries: [{ path: /usr/bin/gh }]
`

func TestDenialBody(t *testing.T) {
	p, err := openshell.Parse("p.yaml", []byte(bodyPolicy))
	if err != nil {
		t.Fatal(err)
	}
	ev := openshell.NewEvaluator(p, openshell.Options{})
	gh := openshell.Conn{Host: "api.github.com", Port: 443, Binary: "/usr/bin/gh"}
	for _, tt := range []struct {
		name string
		r    openshell.Request
		want string // JSON; empty for no body
	}{
		{
			name: "L4 CONNECT",
			r:    openshell.Request{Conn: openshell.Conn{Host: "evil.example", Port: 443, Binary: "/usr/bin/gh"}},
			want: `{"error":"policy_denied","detail":"CONNECT evil.example:443 not permitted by policy","reason":"endpoint evil.example:443 not allowed by any policy"}`,
		},
		{
			name: "L4 binary",
			r:    openshell.Request{Conn: openshell.Conn{Host: "api.github.com", Port: 443, Binary: "/usr/bin/curl", Ancestors: []string{"/bin/sh"}}},
			want: `{"error":"policy_denied","detail":"CONNECT api.github.com:443 not permitted by policy","reason":"binary /usr/bin/curl (ancestors: /bin/sh) not allowed in policy github_api for api.github.com:443"}`,
		},
		{
			name: "forward proxy",
			r:    openshell.Request{Conn: openshell.Conn{Host: "example.com", Port: 80, Binary: "/usr/bin/gh"}, Method: "GET", Target: "/x?token=secret"},
			want: `{"error":"policy_denied","detail":"GET example.com:80/x not permitted by policy"}`,
		},
		{
			name: "L7 not permitted",
			r:    openshell.Request{Conn: gh, Method: "POST", Target: "/repos/a/b/issues?token=secret"},
			want: `{"error":"policy_denied","policy":"github_api","rule":"POST /repos/a/b/issues","detail":"POST /repos/a/b/issues not permitted by policy github_api (endpoints[0])","layer":"l7","protocol":"rest","method":"POST","path":"/repos/a/b/issues","host":"api.github.com","port":443,"binary":"/usr/bin/gh","rule_missing":{"type":"rest_allow","layer":"l7","method":"POST","path":"/repos/a/b/issues","host":"api.github.com","port":443,"binary":"/usr/bin/gh"},"next_steps":[]}`,
		},
		{
			name: "L7 deny rule, canonical path",
			r:    openshell.Request{Conn: gh, Method: "GET", Target: "/repos/a/b/x/../branches/main/protection"},
			want: `{"error":"policy_denied","policy":"github_api","rule":"GET /repos/a/b/branches/main/protection","detail":"GET /repos/a/b/branches/main/protection blocked by deny rule endpoints[0].deny_rules[0] of policy github_api","layer":"l7","protocol":"rest","method":"GET","path":"/repos/a/b/branches/main/protection","host":"api.github.com","port":443,"binary":"/usr/bin/gh","rule_missing":{"type":"rest_allow","layer":"l7","method":"GET","path":"/repos/a/b/branches/main/protection","host":"api.github.com","port":443,"binary":"/usr/bin/gh"},"next_steps":[]}`,
		},
		{
			name: "allowed has no body",
			r:    openshell.Request{Conn: gh, Method: "GET", Target: "/repos/a/b"},
		},
		{
			name: "audit has no body",
			r:    openshell.Request{Conn: openshell.Conn{Host: "audit.github.com", Port: 443, Binary: "/usr/bin/gh"}, Method: "DELETE", Target: "/x"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var d openshell.Decision
			if tt.r.Method == "" {
				d = ev.Connect(tt.r.Conn)
			} else {
				d = ev.Request(tt.r)
			}
			got := openshell.DenialBody(tt.r, d)
			if tt.want == "" {
				if got != nil {
					t.Errorf("DenialBody = %s for a %v, want none", got, d.Verdict)
				}
				return
			}
			if !json.Valid(got) {
				t.Fatalf("DenialBody = %q, not JSON", got)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("DenialBody mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
