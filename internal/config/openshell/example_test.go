// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"fmt"

	"warden.dev/warden/internal/config/openshell"
)

func Example() {
	p, err := openshell.Parse("policy.yaml", []byte(`version: 1
network_policies:
  github_api:
    endpoints:
      - host: api.github.com
        port: 443
        protocol: rest
        enforcement: enforce
        rules:
          - allow: { method: GET, path: "/repos/acme/**" }
    binaries: [{ path: /usr/bin/gh }]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	ev := openshell.NewEvaluator(p, openshell.Options{})
	conn := openshell.Conn{Host: "api.github.com", Port: 443, Binary: "/usr/bin/gh", Ancestors: []string{"/bin/bash"}}
	fmt.Println(ev.Connect(conn).Verdict)
	for _, target := range []string{"/repos/acme/widgets", "/repos/acme/../other/x"} {
		d := ev.Request(openshell.Request{Conn: conn, Method: "GET", Target: target})
		fmt.Println(d.Verdict, d.Reason)
	}
	// Output:
	// allow
	// allow GET /repos/acme/widgets allowed by policy github_api (endpoints[0].rules[0]: GET /repos/acme/**)
	// deny GET /repos/other/x not permitted by policy github_api (endpoints[0])
}
