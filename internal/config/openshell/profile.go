// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

// Provider profiles (research note §11): what a provider's credentials
// are called, and where they may go. OpenShell keeps profiles in its
// gateway and composes each attached provider's endpoints into the
// effective policy as a _provider_ network policy; Warden reads the same
// profile file (openshell provider profile export ID -o yaml) and
// composes it the same way, with the values read from warden's own
// environment when the run starts.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/yamldoc"
)

var (
	profileKeys = []string{
		"id", "resource_version", "annotations", "display_name", "description", "category",
		"inference_capable", "credentials", "discovery", "endpoints", "binaries",
	}
	profileCredKeys = []string{
		"name", "description", "env_vars", "required", "auth_style", "header_name", "query_param",
		"path_template", "refresh", "token_grant",
	}
	refreshKeys = []string{
		"strategy", "token_url", "scopes", "refresh_before_seconds", "max_lifetime_seconds", "material",
		"additional_outputs",
	}
	grantKeys = []string{
		"token_endpoint", "audience", "jwt_svid_audience", "client_assertion_type", "scopes",
		"cache_ttl_seconds", "audience_overrides",
	}
	discoveryKeys = []string{"credentials"}
	categories    = []string{"other", "inference", "agent", "source_control", "messaging", "data", "knowledge"}
	authStyles    = []string{"basic", "bearer", "header", "query", "path"}
	strategies    = []string{
		"static", "external", "oauth2_refresh_token", "oauth2_client_credentials", "google_service_account_jwt",
		"aws_sts_assume_role",
	}
)

// Profile is an OpenShell provider profile: a provider type's
// credentials, the endpoints they are for, and the binaries that may
// reach them.
type Profile struct {
	Pos Pos
	// ID is the profile's id, lowercase kebab-case.
	ID          string
	DisplayName string
	Category    string
	Credentials []*ProfileCredential
	// Endpoints and Binaries make the profile's network policy,
	// _provider_ID once composed; a profile without endpoints binds its
	// credentials through endpoints that name it (credential_binding).
	Endpoints []*Endpoint
	Binaries  []*Binary
}

// ProfileCredential is one credential a profile declares.
type ProfileCredential struct {
	Pos  Pos
	Name string
	// EnvVars are the environment variables the credential is known
	// by: the sandbox holds, in each, the placeholder
	// openshell:resolve:env:VAR.
	EnvVars  []string
	Required bool
	// AuthStyle is where the credential goes in a request (basic,
	// bearer, header, query, path), "" when not said.
	AuthStyle string
	// Options are what the credential asks that Warden does not do,
	// by key: token minting (a refresh strategy other than static or
	// external, a token_grant).
	Options []string
}

// BoundCredential is a credential of a composed provider with the
// endpoints its value may be sent to.
type BoundCredential struct {
	Provider   string
	Credential *ProfileCredential
	Endpoints  []*Endpoint
}

// ParseProfile reads the OpenShell provider profile file called name (the
// name is used in errors only), with the parser's rules: unknown keys
// refused, the first error a [*ParseError] at its node, no aliases.
func ParseProfile(name string, data []byte) (*Profile, error) {
	d := &parser{Reader: yamldoc.Reader{Name: name, Kind: "provider profile", StringKeys: true, Hint: hint}, p: &Policy{}}
	doc, err := d.Document(data)
	if err != nil {
		return nil, err
	}
	if doc == nil || len(doc.Content) == 0 {
		return nil, d.Errorf(nil, "provider profile is empty; it needs at least an id")
	}
	return d.profile(doc.Content[0])
}

func (d *parser) profile(n *yaml.Node) (*Profile, error) {
	fs, err := d.fields(n, "provider profile", profileKeys)
	if err != nil {
		return nil, err
	}
	pr := &Profile{Pos: d.pos(n), Category: "other"}
	var discovery *yaml.Node
	for _, f := range fs {
		switch f.Key {
		case "id":
			if pr.ID, err = d.nonEmpty(f.V, "id"); err != nil {
				return nil, err
			}
			if !kebab(pr.ID) {
				return nil, d.Errorf(f.V, "profile id %q must be lowercase kebab-case: a-z, 0-9 and -", pr.ID)
			}
		case "resource_version":
			if _, err := d.integer(f.V, f.Key, 0, 1<<62); err != nil {
				return nil, err
			}
		case "annotations":
			af, err := d.fields(f.V, f.Key, nil)
			if err != nil {
				return nil, err
			}
			for _, a := range af {
				if _, err := d.str(a.V, "annotation"); err != nil {
					return nil, err
				}
			}
		case "display_name":
			if pr.DisplayName, err = d.str(f.V, f.Key); err != nil {
				return nil, err
			}
		case "description":
			if _, err := d.str(f.V, f.Key); err != nil {
				return nil, err
			}
		case "category":
			if pr.Category, err = d.oneOf(f.V, f.Key, categories); err != nil {
				return nil, err
			}
		case "inference_capable":
			if _, err := d.boolean(f.V, f.Key); err != nil {
				return nil, err
			}
		case "credentials":
			seen := map[string]bool{}
			if pr.Credentials, err = listOf(d, f.V, f.Key, func(n *yaml.Node) (*ProfileCredential, error) {
				c, err := d.profileCredential(n)
				if err == nil && seen[c.Name] {
					err = d.Errorf(n, "credential %q is declared twice", c.Name)
				} else if err == nil {
					seen[c.Name] = true
				}
				return c, err
			}); err != nil {
				return nil, err
			}
		case "discovery":
			discovery = f.V
		case "endpoints":
			if pr.Endpoints, err = listOf(d, f.V, f.Key, func(n *yaml.Node) (*Endpoint, error) {
				e, err := d.endpoint(n)
				if err == nil && e.Binding != "" {
					err = d.Errorf(n, "a profile's endpoint cannot have credential_binding: the profile's credentials are bound to its endpoints")
				}
				return e, err
			}); err != nil {
				return nil, err
			}
		case "binaries":
			// A profile lists binaries as paths, not {path: …}.
			if pr.Binaries, err = listOf(d, f.V, f.Key, func(n *yaml.Node) (*Binary, error) {
				b := &Binary{Pos: d.pos(n)}
				return b, d.binaryPath(b, n)
			}); err != nil {
				return nil, err
			}
		}
	}
	if pr.ID == "" {
		return nil, d.Errorf(n, "provider profile needs an id")
	}
	if discovery != nil {
		df, err := d.fields(discovery, "discovery", discoveryKeys)
		if err != nil {
			return nil, err
		}
		for _, f := range df {
			names, err := d.strList(f.V, "discovery credentials")
			if err != nil {
				return nil, err
			}
			for i, nm := range names {
				if !slices.ContainsFunc(pr.Credentials, func(c *ProfileCredential) bool { return c.Name == nm }) {
					return nil, d.Errorf(f.V.Content[i], "discovery names credential %q, which the profile does not declare", nm)
				}
			}
		}
	}
	return pr, nil
}

func (d *parser) profileCredential(n *yaml.Node) (*ProfileCredential, error) {
	fs, err := d.fields(n, "credential", profileCredKeys)
	if err != nil {
		return nil, err
	}
	c := &ProfileCredential{Pos: d.pos(n)}
	at := map[string]*yaml.Node{}
	for _, f := range fs {
		at[f.Key] = f.V
	}
	for _, f := range fs {
		switch f.Key {
		case "name":
			if c.Name, err = d.nonEmpty(f.V, "credential name"); err != nil {
				return nil, err
			}
		case "description", "header_name", "query_param":
			if _, err := d.str(f.V, f.Key); err != nil {
				return nil, err
			}
		case "env_vars":
			if c.EnvVars, err = d.strList(f.V, f.Key); err != nil {
				return nil, err
			}
			for i, v := range c.EnvVars {
				if err := envVarName(v); err != nil {
					return nil, d.Errorf(f.V.Content[i], "env_vars: %v", err)
				}
			}
		case "required":
			if c.Required, err = d.boolean(f.V, f.Key); err != nil {
				return nil, err
			}
		case "auth_style":
			if c.AuthStyle, err = d.oneOf(f.V, f.Key, authStyles); err != nil {
				return nil, err
			}
			if c.AuthStyle == "path" {
				pt := at["path_template"]
				if pt == nil {
					return nil, d.Errorf(f.V, "auth_style: path needs a path_template")
				}
				s, err := d.str(pt, "path_template")
				if err != nil {
					return nil, err
				}
				if strings.Count(s, "{credential}") != 1 || !strings.HasPrefix(s, "/") {
					return nil, d.Errorf(pt, "path_template %q must be a path holding {credential} exactly once", s)
				}
				c.Options = append(c.Options, "auth_style: path")
			}
		case "path_template":
			if _, err := d.str(f.V, f.Key); err != nil {
				return nil, err
			}
		case "refresh":
			rf, err := d.fields(f.V, f.Key, refreshKeys)
			if err != nil {
				return nil, err
			}
			strategy := ""
			for _, g := range rf {
				if g.Key == "strategy" {
					if strategy, err = d.oneOf(g.V, "refresh strategy", strategies); err != nil {
						return nil, err
					}
				}
			}
			if strategy == "" {
				return nil, d.Errorf(f.V, "refresh needs a strategy; want %s", strings.Join(strategies, ", "))
			}
			if strategy != "static" && strategy != "external" {
				c.Options = append(c.Options, "refresh.strategy: "+strategy)
			}
		case "token_grant":
			gf, err := d.fields(f.V, f.Key, grantKeys)
			if err != nil {
				return nil, err
			}
			if !slices.ContainsFunc(gf, func(g yamldoc.Field) bool { return g.Key == "token_endpoint" }) {
				return nil, d.Errorf(f.V, "token_grant needs a token_endpoint")
			}
			c.Options = append(c.Options, "token_grant")
		}
	}
	if c.Name == "" {
		return nil, d.Errorf(n, "credential needs a name")
	}
	if len(c.EnvVars) == 0 && !slices.Contains(c.Options, "token_grant") {
		return nil, d.Errorf(n, "credential %s needs env_vars: the variables the sandbox holds its placeholder in", c.Name)
	}
	return c, nil
}

// kebab reports whether s is lowercase kebab-case.
func kebab(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return s != "" && s[0] != '-' && s[len(s)-1] != '-'
}

// envVarName checks an environment variable a credential is known by:
// letters, digits and underscores, not starting with a digit, and not in
// OpenShell's revision-scoped v<digits>_ namespace.
func envVarName(v string) error {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return fmt.Errorf("%q is not an environment variable name", v)
		}
	}
	if len(v) > 1 && v[0] == 'v' {
		i := 1
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		if i > 1 && i < len(v) && v[i] == '_' {
			return fmt.Errorf("%q uses the reserved v<digits>_ prefix", v)
		}
	}
	return nil
}

// ProviderKey is the network policy key a composed profile's endpoints
// are under.
func ProviderKey(id string) string { return "_provider_" + strings.ReplaceAll(id, "-", "_") }

// Compose returns p with the profiles composed in, as OpenShell composes
// attached providers: each profile with endpoints adds the network
// policy _provider_ID (its endpoints for its binaries); an endpoint of p
// with credential_binding names a profile given here, which then has no
// endpoints of its own. Every endpoint a credential is bound to must be
// inspected (an inspected protocol, not tls: skip): a placeholder is
// replaced only in a request the proxy reads. p is not changed.
func Compose(p *Policy, profiles []*Profile) (*Policy, error) {
	out := *p
	out.Network = slices.Clone(p.Network)
	out.Bound = nil
	byID := map[string]*Profile{}
	vars := map[string]string{}
	for _, pr := range profiles {
		if byID[pr.ID] != nil {
			return nil, posErr(pr.Pos, "provider %s is given twice", pr.ID)
		}
		byID[pr.ID] = pr
		for _, c := range pr.Credentials {
			for _, v := range c.EnvVars {
				if o, ok := vars[v]; ok {
					return nil, posErr(c.Pos, "environment variable %s is a credential of both %s and %s: its placeholder would be ambiguous", v, o, pr.ID)
				}
				vars[v] = pr.ID
			}
		}
		if len(pr.Endpoints) > 0 {
			out.Network = append(out.Network, &NetworkPolicy{
				Pos: pr.Pos, Key: ProviderKey(pr.ID), Name: cmp.Or(pr.DisplayName, pr.ID),
				Endpoints: pr.Endpoints, Binaries: pr.Binaries,
			})
		}
	}
	slices.SortFunc(out.Network, func(a, b *NetworkPolicy) int { return strings.Compare(a.Key, b.Key) })
	bound := map[string][]*Endpoint{}
	for _, np := range p.Network {
		for _, e := range np.Endpoints {
			if e.Binding == "" {
				continue
			}
			pr := byID[e.Binding]
			switch {
			case pr == nil:
				return nil, posErr(e.Pos, "credential_binding names provider %s, which is not given", e.Binding)
			case len(pr.Endpoints) > 0:
				return nil, posErr(e.Pos, "credential_binding names provider %s, which has endpoints of its own: only an endpointless provider is bound this way", e.Binding)
			}
			bound[pr.ID] = append(bound[pr.ID], e)
		}
	}
	for _, pr := range profiles {
		eps := pr.Endpoints
		if len(eps) == 0 {
			eps = bound[pr.ID]
		}
		if len(pr.Credentials) == 0 {
			continue
		}
		for _, e := range eps {
			if !inspected(e) || e.TLS == "skip" {
				return nil, posErr(e.Pos, "this endpoint carries provider %s's credentials, so its requests must be inspected: give it protocol: rest and no tls: skip", pr.ID)
			}
		}
		for _, c := range pr.Credentials {
			out.Bound = append(out.Bound, &BoundCredential{Provider: pr.ID, Credential: c, Endpoints: eps})
		}
	}
	return &out, nil
}

func posErr(p Pos, format string, args ...any) error {
	return &ParseError{File: p.File, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}

// Serves reports whether a request to host:port with path rawPath (as
// sent) is one e serves: its host (a hostless endpoint serves none: a
// credential is never bound by address alone), one of its ports, and its
// endpoint path, matched against the canonical path.
func (e *Endpoint) Serves(host string, port int, rawPath string) bool {
	h, err := normalHost(host)
	if err != nil || e.Host == "" || !e.matchHost(h) || !containsPort(e.Ports, port) {
		return false
	}
	if e.path == nil {
		return true
	}
	cp, err := canonicalPath(rawPath, e.AllowEncodedSlash)
	return err == nil && e.path.match(cp)
}
