// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// A remembered destination end to end: warden policy remember writes the
// network rule, and the real warden run's egress proxy honours exactly
// it. Run inside TestEgress's lab (its assumptions and how to run it are
// in egress_integration_test.go), as each of its users.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rememberedBase is the policy before the approval: no destination is
// reachable.
const rememberedBase = `version: 1
network:
  rules:
    - deny: {host: blocked.example}
`

// testRemembered remembers files.test.example:443 with warden policy
// remember --net, then runs tools that try it, its other port, a sibling
// and a subdomain: only the remembered host and port is reached, as the
// servers themselves count.
func testRemembered(t *testing.T, r *runner) {
	path := filepath.Join(r.dir, "remembered-base.yaml")
	if err := os.WriteFile(path, []byte(rememberedBase), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(r.lab.warden, "policy", "remember", "--ttl", "1h", "--net", "files.test.example:443", path).CombinedOutput()
	if err != nil {
		t.Fatalf("warden policy remember: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "remembered: network allow files.test.example, port 443 [network.rules[1], until ") {
		t.Fatalf("warden policy remember said:\n%s", out)
	}
	policy, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the remembered policy:\n%s", policy)
	steps := []step{
		{"remembered", curl + "https://files.test.example/echo?via=remembered"},
		{"other-port", curl + "http://files.test.example/echo?via=other-port"},
		{"sibling", curlTun + "https://api.test.example/echo?via=sibling"},
		{"subdomain", curlTun + "https://x.files.test.example/echo?via=subdomain"},
	}
	o := r.run(t, "remembered", string(policy), expand(r.lab.dir, steps))
	files, api := o.traffic["files.test.example"], o.traffic["api.test.example"]

	if s := o.step(t, "remembered"); !strings.Contains(s.out, "hello from files.test.example: GET /echo?via=remembered") {
		t.Errorf("the remembered destination was not reached:\n%s", s.out)
	}
	if got := reqsWith(files, "remembered"); len(got) != 1 || got[0].Scheme != "https" {
		t.Errorf("files.test.example got %v, want one https request", got)
	}
	for _, a := range o.wantAttempt(t, "connect", "files.test.example", 443, "allow") {
		if !strings.HasPrefix(a.Rule, "network.rules[1]") {
			t.Errorf("attempt %v: want it allowed by the remembered rule, network.rules[1]", a)
		}
	}

	wantDenial(t, o.step(t, "other-port").out, "files.test.example", 80, "GET", "default: deny")
	if got := reqsWith(files, "other-port"); len(got) != 0 {
		t.Errorf("port 80 of the remembered host got %v", got)
	}
	for _, name := range []string{"sibling", "subdomain"} {
		if s := o.step(t, name); !strings.Contains(s.out, "connect=403") {
			t.Errorf("%s: want the CONNECT refused with 403:\n%s", name, s.out)
		}
	}
	if got := reqsWith(api, "sibling"); len(got) != 0 || api.conns != 0 {
		t.Errorf("a sibling of the remembered host was reached: %d connections, %v", api.conns, got)
	}
}
