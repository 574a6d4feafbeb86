// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/config/openshell"
)

// githubProfile is a provider profile in the shape openshell provider
// profile export writes.
const githubProfile = `id: github
display_name: GitHub
category: source_control
credentials:
  - name: token
    env_vars: [GITHUB_TOKEN, GH_TOKEN]
    required: true
    auth_style: bearer
discovery:
  credentials: [token]
endpoints:
  - host: api.github.com
    port: 443
    path: /repos/**
    protocol: rest
    access: read-only
binaries:
  - /usr/bin/curl
  - /usr/bin/gh
`

func TestParseProfile(t *testing.T) {
	pr, err := openshell.ParseProfile("github.yaml", []byte(githubProfile))
	if err != nil {
		t.Fatal(err)
	}
	type cred struct {
		Name      string
		EnvVars   []string
		Required  bool
		AuthStyle string
		Options   []string
	}
	var got []cred
	for _, c := range pr.Credentials {
		got = append(got, cred{c.Name, c.EnvVars, c.Required, c.AuthStyle, c.Options})
	}
	want := []cred{{"token", []string{"GITHUB_TOKEN", "GH_TOKEN"}, true, "bearer", nil}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
	if pr.ID != "github" || pr.Category != "source_control" || len(pr.Endpoints) != 1 || len(pr.Binaries) != 2 {
		t.Errorf("profile %+v", pr)
	}

	minted, err := openshell.ParseProfile("m.yaml", []byte(`id: graph
credentials:
  - name: access
    env_vars: [MS_GRAPH_ACCESS_TOKEN]
    refresh: {strategy: oauth2_refresh_token, token_url: "https://login.example/token"}
  - name: grant
    token_grant: {token_endpoint: "https://login.example/token"}
  - name: pathy
    env_vars: [PATHY]
    auth_style: path
    path_template: /v1/{credential}/x
`))
	if err != nil {
		t.Fatal(err)
	}
	var opts [][]string
	for _, c := range minted.Credentials {
		opts = append(opts, c.Options)
	}
	if diff := cmp.Diff([][]string{{"refresh.strategy: oauth2_refresh_token"}, {"token_grant"}, {"auth_style: path"}}, opts); diff != "" {
		t.Errorf("what Warden does not do (-want +got):\n%s", diff)
	}
}

func TestParseProfileErrors(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"empty", "", "p.yaml:1:1: provider profile is empty; it needs at least an id"},
		{"no id", "category: data\n", "p.yaml:1:1: provider profile needs an id"},
		{"id case", "id: GitHub\n", `p.yaml:1:5: profile id "GitHub" must be lowercase kebab-case: a-z, 0-9 and -`},
		{"unknown key", "id: x\nsecrets: []\n", `p.yaml:2:1: unknown key "secrets" in provider profile; want id, resource_version, annotations, display_name, description, category, inference_capable, credentials, discovery, endpoints, binaries`},
		{"category", "id: x\ncategory: games\n", `p.yaml:2:11: unknown category "games"; want other, inference, agent, source_control, messaging, data, knowledge`},
		{"credential key", "id: x\ncredentials: [{name: t, env_vars: [T], value: s}]\n", `p.yaml:2:40: unknown key "value" in credential; want name, description, env_vars, required, auth_style, header_name, query_param, path_template, refresh, token_grant`},
		{"no env vars", "id: x\ncredentials: [{name: t}]\n", "p.yaml:2:15: credential t needs env_vars: the variables the sandbox holds its placeholder in"},
		{"env var name", "id: x\ncredentials: [{name: t, env_vars: [A-B]}]\n", `p.yaml:2:36: env_vars: "A-B" is not an environment variable name`},
		{"revision prefix", "id: x\ncredentials: [{name: t, env_vars: [v10_GITHUB_TOKEN]}]\n", `p.yaml:2:36: env_vars: "v10_GITHUB_TOKEN" uses the reserved v<digits>_ prefix`},
		{"twice", "id: x\ncredentials: [{name: t, env_vars: [A]}, {name: t, env_vars: [B]}]\n", `p.yaml:2:41: credential "t" is declared twice`},
		{"auth style", "id: x\ncredentials: [{name: t, env_vars: [A], auth_style: cookie}]\n", `p.yaml:2:52: unknown auth_style "cookie"; want basic, bearer, header, query, path`},
		{"path without template", "id: x\ncredentials: [{name: t, env_vars: [A], auth_style: path}]\n", "p.yaml:2:52: auth_style: path needs a path_template"},
		{"template twice", "id: x\ncredentials: [{name: t, env_vars: [A], auth_style: path, path_template: \"/{credential}/{credential}\"}]\n", `p.yaml:2:73: path_template "/{credential}/{credential}" must be a path holding {credential} exactly once`},
		{"refresh strategy", "id: x\ncredentials: [{name: t, env_vars: [A], refresh: {strategy: magic}}]\n", `p.yaml:2:60: unknown refresh strategy "magic"; want static, external, oauth2_refresh_token, oauth2_client_credentials, google_service_account_jwt, aws_sts_assume_role`},
		{"grant endpoint", "id: x\ncredentials: [{name: t, token_grant: {audience: a}}]\n", "p.yaml:2:38: token_grant needs a token_endpoint"},
		{"discovery", "id: x\ncredentials: [{name: t, env_vars: [A]}]\ndiscovery: {credentials: [u]}\n", `p.yaml:3:27: discovery names credential "u", which the profile does not declare`},
		{"endpoint binding", "id: x\nendpoints: [{host: a.example, port: 443, protocol: rest, access: full, credential_binding: {provider: y}}]\n", "p.yaml:2:13: a profile's endpoint cannot have credential_binding: the profile's credentials are bound to its endpoints"},
		{"endpoint host", "id: x\nendpoints: [{host: \"*.com\", port: 443}]\n", `p.yaml:2:20: host "*.com": a wildcard may not be in the last two labels (TLD wildcards are refused)`},
		{"binary", "id: x\nbinaries: [curl]\n", `p.yaml:2:12: binary path "curl" must be absolute (or a glob)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pr, err := openshell.ParseProfile("p.yaml", []byte(tt.src))
			var pe *openshell.ParseError
			if pr != nil || !errors.As(err, &pe) {
				t.Fatalf("ParseProfile = %v, %v; want a *ParseError", pr, err)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n%s\nwant\n%s", err, tt.want)
			}
		})
	}
}

func TestCompose(t *testing.T) {
	gh, err := openshell.ParseProfile("github.yaml", []byte(githubProfile))
	if err != nil {
		t.Fatal(err)
	}
	vault, err := openshell.ParseProfile("vault.yaml", []byte("id: vault\ncredentials: [{name: t, env_vars: [VAULT_TOKEN]}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := openshell.Parse("p.yaml", []byte(`version: 1
network_policies:
  vault:
    endpoints:
      - host: vault.example
        port: 8200
        protocol: rest
        access: full
        credential_binding: {provider: vault}
    binaries: [{path: /usr/bin/curl}]
`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := openshell.Compose(p, []*openshell.Profile{gh, vault})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, np := range c.Network {
		keys = append(keys, np.Key)
	}
	if diff := cmp.Diff([]string{"_provider_github", "vault"}, keys); diff != "" {
		t.Errorf("network policies (-want +got):\n%s", diff)
	}
	if len(p.Network) != 1 || p.Bound != nil {
		t.Errorf("Compose changed its policy")
	}
	type bound struct {
		Provider, Credential string
		Hosts                []string
	}
	var got []bound
	for _, b := range c.Bound {
		var hosts []string
		for _, e := range b.Endpoints {
			hosts = append(hosts, e.Host)
		}
		got = append(got, bound{b.Provider, b.Credential.Name, hosts})
	}
	want := []bound{{"github", "token", []string{"api.github.com"}}, {"vault", "t", []string{"vault.example"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bound credentials (-want +got):\n%s", diff)
	}
	// The provider's policy admits its binaries to its endpoints.
	ev := openshell.NewEvaluator(c, openshell.Options{})
	if d := ev.Connect(openshell.Conn{Host: "api.github.com", Port: 443, Binary: "/usr/bin/gh"}); d.Verdict != openshell.Allow || d.Policy != "_provider_github" {
		t.Errorf("gh to api.github.com: %+v", d)
	}
	if d := ev.Connect(openshell.Conn{Host: "api.github.com", Port: 443, Binary: "/usr/bin/python3"}); d.Verdict != openshell.Deny {
		t.Errorf("python3 to api.github.com: %+v", d)
	}

	for _, tt := range []struct {
		name, policy string
		profiles     []*openshell.Profile
		want         string
	}{
		{"binding names no provider", `version: 1
network_policies:
  v:
    endpoints: [{host: vault.example, port: 8200, protocol: rest, access: full, credential_binding: {provider: vault}}]
`, []*openshell.Profile{gh}, "p.yaml:4:17: credential_binding names provider vault, which is not given"},
		{"binding names a provider with endpoints", `version: 1
network_policies:
  v:
    endpoints: [{host: vault.example, port: 8200, protocol: rest, access: full, credential_binding: {provider: github}}]
`, []*openshell.Profile{gh}, "p.yaml:4:17: credential_binding names provider github, which has endpoints of its own: only an endpointless provider is bound this way"},
		{"bound endpoint not inspected", `version: 1
network_policies:
  v:
    endpoints: [{host: vault.example, port: 8200, credential_binding: {provider: vault}}]
`, []*openshell.Profile{vault}, "p.yaml:4:17: this endpoint carries provider vault's credentials, so its requests must be inspected: give it protocol: rest and no tls: skip"},
		{"bound endpoint tls skip", `version: 1
network_policies:
  v:
    endpoints: [{host: vault.example, port: 8200, protocol: rest, access: full, tls: skip, credential_binding: {provider: vault}}]
`, []*openshell.Profile{vault}, "p.yaml:4:17: this endpoint carries provider vault's credentials, so its requests must be inspected: give it protocol: rest and no tls: skip"},
		{"provider twice", "version: 1\n", []*openshell.Profile{gh, gh}, "github.yaml:1:1: provider github is given twice"},
		{"variable of two providers", "version: 1\n", []*openshell.Profile{gh, mustProfile(t, "id: gh2\ncredentials: [{name: t, env_vars: [GH_TOKEN]}]\n")}, "x.yaml:2:15: environment variable GH_TOKEN is a credential of both github and gh2: its placeholder would be ambiguous"},
		{"profile endpoint not inspected", "version: 1\n", []*openshell.Profile{mustProfile(t, "id: l4\ncredentials: [{name: t, env_vars: [L4]}]\nendpoints: [{host: a.example, port: 443}]\n")}, "x.yaml:3:13: this endpoint carries provider l4's credentials, so its requests must be inspected: give it protocol: rest and no tls: skip"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := openshell.Parse("p.yaml", []byte(tt.policy))
			if err != nil {
				t.Fatal(err)
			}
			_, err = openshell.Compose(p, tt.profiles)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Compose error\n%v\nwant\n%s", err, tt.want)
			}
		})
	}
}

func mustProfile(t *testing.T, src string) *openshell.Profile {
	t.Helper()
	pr, err := openshell.ParseProfile("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func TestServes(t *testing.T) {
	pr := mustProfile(t, `id: x
endpoints:
  - {host: "*.api.example", ports: [443, 8443], path: "/v1/**", protocol: rest, access: full}
  - {host: exact.example, port: 443, protocol: rest, access: full}
  - {port: 443, allowed_ips: [203.0.113.0/24], protocol: rest, access: full}
`)
	glob, exact, hostless := pr.Endpoints[0], pr.Endpoints[1], pr.Endpoints[2]
	for _, tt := range []struct {
		e    *openshell.Endpoint
		host string
		port int
		path string
		want bool
	}{
		{glob, "eu.api.example", 443, "/v1/repos", true},
		{glob, "EU.API.EXAMPLE.", 8443, "/v1/a/b", true},
		{glob, "api.example", 443, "/v1/repos", false},
		{glob, "eu.api.example", 80, "/v1/repos", false},
		{glob, "eu.api.example", 443, "/v2/repos", false},
		{glob, "eu.api.example", 443, "/v1/../admin", false},
		{glob, "eu.api.example", 443, "/v1%2Fx", false},
		{exact, "exact.example", 443, "/anything", true},
		{exact, "sub.exact.example", 443, "/", false},
		{hostless, "203.0.113.5", 443, "/", false},
		{hostless, "any.example", 443, "/", false},
	} {
		if got := tt.e.Serves(tt.host, tt.port, tt.path); got != tt.want {
			t.Errorf("%s serves %s:%d%s = %v, want %v", tt.e.Host, tt.host, tt.port, tt.path, got, tt.want)
		}
	}
}
