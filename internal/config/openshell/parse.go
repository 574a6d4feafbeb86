// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

// This file reads a policy file. The rules it enforces, beside the
// schema's types (research note §3):
//
//   - unknown keys are refused everywhere, as OpenShell refuses them;
//   - every error is a *ParseError at the node that caused it, and the
//     first error ends the parse;
//   - YAML aliases are refused (OpenShell expands them; Warden does not
//     walk them, so that a small file cannot expand into a huge one);
//   - OpenShell's load-time validations: version 1; port and ports
//     exclusive; host globs by the label rules (hosts.go); allowed_ips
//     touching loopback, link-local or unspecified addresses; an empty
//     rules list; access with rules; deny_rules without a protocol or an
//     allow base; rule fields that the protocol does not have; tcp with a
//     glob or IP host, hostless or with L7 fields; access for mcp and
//     json-rpc; filesystem paths (absolute, no .., read-write / refused,
//     4096 characters each, 256 in all); process users (sandbox or 1 to
//     4294967294); reserved _provider_ keys; middleware orders unique.

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/yamldoc"
)

// ParseError is an error in a policy file, at the node that caused it; it
// prints as file:line:col: msg.
type ParseError = yamldoc.ParseError

var (
	topKeys      = []string{"version", "filesystem_policy", "landlock", "process", "network_policies", "network_middlewares"}
	fsKeys       = []string{"include_workdir", "read_only", "read_write"}
	landlockKeys = []string{"compatibility"}
	processKeys  = []string{"run_as_user", "run_as_group"}
	netKeys      = []string{"name", "endpoints", "binaries"}
	binaryKeys   = []string{"path", "harness"}
	endpointKeys = []string{
		"host", "port", "ports", "path", "protocol", "tls", "enforcement", "access", "rules", "deny_rules",
		"allowed_ips", "allow_encoded_slash", "websocket_credential_rewrite", "request_body_credential_rewrite",
		"allow_uninspected_credentials", "credential_signing", "signing_service", "signing_region",
		"credential_binding", "persisted_queries", "graphql_persisted_queries", "graphql_max_body_bytes",
		"mcp", "json_rpc",
	}
	mwKeys     = []string{"name", "middleware", "order", "config", "on_error", "endpoints"}
	mwEndKeys  = []string{"include", "exclude"}
	mcpKeys    = []string{"max_body_bytes", "strict_tool_names", "allow_all_known_mcp_methods"}
	jsonKeys   = []string{"max_body_bytes"}
	bindKeys   = []string{"provider"}
	protocols  = []string{ProtoREST, ProtoWebSocket, ProtoGraphQL, ProtoMCP, ProtoJSONRPC, ProtoTCP, ProtoSQL}
	presets    = []string{"read-only", "read-write", "full"}
	tlsModes   = []string{"skip", "terminate", "passthrough"}
	signings   = []string{"sigv4", "sigv4:body", "sigv4:no_body"}
	allowOnly  = []string{"allow"}
	ruleFields = map[string][]string{
		ProtoREST:      {"method", "path", "query"},
		ProtoWebSocket: {"method", "path", "query", "operation_type", "operation_name", "fields"},
		ProtoGraphQL:   {"operation_type", "operation_name", "fields"},
		ProtoMCP:       {"method", "tool"},
		ProtoJSONRPC:   {"method"},
		ProtoSQL:       {"command"},
	}
)

// Limits OpenShell puts on filesystem_policy and network_middlewares.
const (
	maxFSPath      = 4096
	maxFSPaths     = 256
	maxMiddlewares = 10
	maxMWPatterns  = 32
	maxUID         = 4294967294
)

type parser struct {
	yamldoc.Reader
	p *Policy
}

func (d *parser) pos(n *yaml.Node) Pos { return Pos{d.Name, n.Line, n.Column} }

func (d *parser) warnf(n *yaml.Node, format string, args ...any) {
	d.p.Warnings = append(d.p.Warnings, d.pos(n).String()+": "+fmt.Sprintf(format, args...))
}

// Parse reads the OpenShell policy file called name (the name is used in
// errors only). It returns a [*ParseError] for the first thing OpenShell
// would refuse to load, and for the few things Warden refuses on top
// (YAML aliases, glob features beyond OpenShell's runtime), and never
// panics. The Policy is nil on error.
func Parse(name string, data []byte) (*Policy, error) {
	d := &parser{Reader: yamldoc.Reader{Name: name, Kind: "policy file", StringKeys: true, Hint: hint}, p: &Policy{}}
	doc, err := d.Document(data)
	if err != nil {
		return nil, err
	}
	if doc == nil || len(doc.Content) == 0 {
		return nil, d.Errorf(nil, "policy file is empty; it needs at least version: 1")
	}
	if err := d.top(doc.Content[0]); err != nil {
		return nil, err
	}
	return d.p, nil
}

func hint(_ string, known []string) string {
	return "; want " + strings.Join(known, ", ")
}

// noAlias refuses an alias wherever a value is read.
func (d *parser) noAlias(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		return d.Errorf(n, "YAML aliases are not supported; write the value out")
	}
	return nil
}

func (d *parser) fields(n *yaml.Node, what string, known []string) ([]yamldoc.Field, error) {
	if err := d.noAlias(n); err != nil {
		return nil, err
	}
	return d.Fields(n, what, known, false)
}

func (d *parser) str(n *yaml.Node, what string) (string, error) {
	if err := d.noAlias(n); err != nil {
		return "", err
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", d.Errorf(n, "%s must be a string, not %s", what, d.Describe(n))
	}
	return n.Value, nil
}

func (d *parser) nonEmpty(n *yaml.Node, what string) (string, error) {
	s, err := d.str(n, what)
	if err == nil && s == "" {
		err = d.Errorf(n, "%s must not be empty", what)
	}
	return s, err
}

func (d *parser) oneOf(n *yaml.Node, what string, names []string) (string, error) {
	s, err := d.str(n, what)
	if err != nil {
		return "", err
	}
	if !slices.Contains(names, s) {
		return "", d.Errorf(n, "unknown %s %q; want %s", what, s, strings.Join(names, ", "))
	}
	return s, nil
}

func (d *parser) boolean(n *yaml.Node, what string) (bool, error) {
	if err := d.noAlias(n); err != nil {
		return false, err
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, d.Errorf(n, "%s must be true or false, not %s", what, d.Describe(n))
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, d.Errorf(n, "%s must be true or false", what)
	}
	return b, nil
}

func (d *parser) integer(n *yaml.Node, what string, lo, hi int64) (int64, error) {
	if err := d.noAlias(n); err != nil {
		return 0, err
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		return 0, d.Errorf(n, "%s must be an integer, not %s", what, d.Describe(n))
	}
	var v int64
	if err := n.Decode(&v); err != nil || v < lo || v > hi {
		return 0, d.Errorf(n, "%s must be between %d and %d, got %s", what, lo, hi, n.Value)
	}
	return v, nil
}

func (d *parser) list(n *yaml.Node, what string) ([]*yaml.Node, error) {
	if err := d.noAlias(n); err != nil {
		return nil, err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errorf(n, "%s must be a list, not %s", what, d.Describe(n))
	}
	return n.Content, nil
}

// listOf reads n, a list, with item for each of its items.
func listOf[T any](d *parser, n *yaml.Node, what string, item func(*yaml.Node) (T, error)) ([]T, error) {
	items, err := d.list(n, what)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, it := range items {
		v, err := item(it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (d *parser) strList(n *yaml.Node, what string) ([]string, error) {
	items, err := d.list(n, what)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, err := d.nonEmpty(it, what+" item")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *parser) top(n *yaml.Node) error {
	fs, err := d.fields(n, "policy", topKeys)
	if err != nil {
		return err
	}
	p := d.p
	p.Landlock = "best_effort"
	var version *yaml.Node
	for _, f := range fs {
		switch f.Key {
		case "version":
			version = f.V
			v, err := d.integer(f.V, "version", 0, 1<<31)
			if err != nil {
				return err
			}
			if v != 1 {
				return d.Errorf(f.V, "unsupported version %d; want 1", v)
			}
			p.Version = 1
		case "filesystem_policy":
			if p.Filesystem, err = d.filesystem(f.V); err != nil {
				return err
			}
		case "landlock":
			p.LandlockPos = d.pos(f.V)
			lf, err := d.fields(f.V, "landlock", landlockKeys)
			if err != nil {
				return err
			}
			for _, g := range lf {
				if p.Landlock, err = d.oneOf(g.V, "landlock compatibility", []string{"best_effort", "hard_requirement"}); err != nil {
					return err
				}
			}
		case "process":
			if p.Process, err = d.process(f.V); err != nil {
				return err
			}
		case "network_policies":
			if err := d.networkPolicies(f.V); err != nil {
				return err
			}
		case "network_middlewares":
			if err := d.middlewares(f.V); err != nil {
				return err
			}
		}
	}
	if version == nil {
		return d.Errorf(n, "policy needs version: 1")
	}
	return nil
}

func (d *parser) filesystem(n *yaml.Node) (*Filesystem, error) {
	fs, err := d.fields(n, "filesystem_policy", fsKeys)
	if err != nil {
		return nil, err
	}
	out := &Filesystem{Pos: d.pos(n)}
	total := 0
	for _, f := range fs {
		switch f.Key {
		case "include_workdir":
			if out.IncludeWorkdir, err = d.boolean(f.V, "include_workdir"); err != nil {
				return nil, err
			}
		case "read_only", "read_write":
			paths, err := d.strList(f.V, f.Key)
			if err != nil {
				return nil, err
			}
			for i, s := range paths {
				at := f.V.Content[i]
				switch {
				case !strings.HasPrefix(s, "/"):
					return nil, d.Errorf(at, "%s path %q must be absolute", f.Key, s)
				case slices.Contains(strings.Split(s, "/"), ".."):
					return nil, d.Errorf(at, "%s path %q must not contain ..", f.Key, s)
				case len(s) > maxFSPath:
					return nil, d.Errorf(at, "%s path is longer than %d characters", f.Key, maxFSPath)
				case f.Key == "read_write" && strings.Trim(s, "/") == "":
					return nil, d.Errorf(at, "read_write must not include /: that is the whole file system")
				}
			}
			total += len(paths)
			if total > maxFSPaths {
				return nil, d.Errorf(f.V, "filesystem_policy lists more than %d paths", maxFSPaths)
			}
			if f.Key == "read_only" {
				out.ReadOnly = paths
			} else {
				out.ReadWrite = paths
			}
		}
	}
	return out, nil
}

func (d *parser) process(n *yaml.Node) (*Process, error) {
	fs, err := d.fields(n, "process", processKeys)
	if err != nil {
		return nil, err
	}
	out := &Process{Pos: d.pos(n)}
	for _, f := range fs {
		if err := d.noAlias(f.V); err != nil {
			return nil, err
		}
		if f.V.Kind != yaml.ScalarNode || (f.V.ShortTag() != "!!str" && f.V.ShortTag() != "!!int") {
			return nil, d.Errorf(f.V, "%s must be sandbox or a number, not %s", f.Key, d.Describe(f.V))
		}
		s := f.V.Value
		if s != "sandbox" {
			id, err := strconv.ParseInt(s, 10, 64)
			switch {
			case err != nil:
				return nil, d.Errorf(f.V, "%s %q: want sandbox or a number from 1 to %d", f.Key, s, int64(maxUID))
			case id == 0:
				return nil, d.Errorf(f.V, "%s must not be root (0)", f.Key)
			case id < 1 || id > maxUID:
				return nil, d.Errorf(f.V, "%s %d is out of range; want 1 to %d", f.Key, id, int64(maxUID))
			}
			s = strconv.FormatInt(id, 10)
		}
		if f.Key == "run_as_user" {
			out.RunAsUser = s
		} else {
			out.RunAsGroup = s
		}
	}
	return out, nil
}

func (d *parser) networkPolicies(n *yaml.Node) error {
	fs, err := d.fields(n, "network_policies", nil)
	if err != nil {
		return err
	}
	for _, f := range fs {
		if f.Key == "" {
			return d.Errorf(f.K, "network policy key must not be empty")
		}
		if strings.HasPrefix(f.Key, "_provider_") {
			return d.Errorf(f.K, "network policy key %q: keys starting _provider_ are reserved for provider rules", f.Key)
		}
		np, err := d.networkPolicy(f)
		if err != nil {
			return err
		}
		d.p.Network = append(d.p.Network, np)
	}
	slices.SortFunc(d.p.Network, func(a, b *NetworkPolicy) int { return strings.Compare(a.Key, b.Key) })
	return nil
}

func (d *parser) networkPolicy(f yamldoc.Field) (*NetworkPolicy, error) {
	np := &NetworkPolicy{Pos: d.pos(f.K), Key: f.Key, Name: f.Key}
	fs, err := d.fields(f.V, "network policy "+f.Key, netKeys)
	if err != nil {
		return nil, err
	}
	for _, g := range fs {
		switch g.Key {
		case "name":
			if np.Name, err = d.nonEmpty(g.V, "name"); err != nil {
				return nil, err
			}
		case "endpoints":
			if np.Endpoints, err = listOf(d, g.V, "endpoints", d.endpoint); err != nil {
				return nil, err
			}
		case "binaries":
			if np.Binaries, err = listOf(d, g.V, "binaries", d.binary); err != nil {
				return nil, err
			}
		}
	}
	if len(np.Endpoints) == 0 {
		d.warnf(f.K, "network policy %s has no endpoints: it allows nothing", f.Key)
	}
	if len(np.Binaries) == 0 {
		d.warnf(f.K, "network policy %s has no binaries: it allows nothing", f.Key)
	}
	return np, nil
}

func (d *parser) binary(n *yaml.Node) (*Binary, error) {
	fs, err := d.fields(n, "binary", binaryKeys)
	if err != nil {
		return nil, err
	}
	b := &Binary{Pos: d.pos(n)}
	for _, f := range fs {
		switch f.Key {
		case "path":
			if err := d.binaryPath(b, f.V); err != nil {
				return nil, err
			}
		case "harness":
			if _, err := d.boolean(f.V, "harness"); err != nil {
				return nil, err
			}
			d.warnf(f.K, "binaries[].harness is deprecated and has no effect")
		}
	}
	if b.Path == "" {
		return nil, d.Errorf(n, "binary needs a path")
	}
	return b, nil
}

// binaryPath reads n, a binary's path: absolute, or a glob.
func (d *parser) binaryPath(b *Binary, n *yaml.Node) error {
	var err error
	if b.Path, err = d.nonEmpty(n, "binary path"); err != nil {
		return err
	}
	if !strings.HasPrefix(b.Path, "/") && !strings.HasPrefix(b.Path, "*") {
		return d.Errorf(n, "binary path %q must be absolute (or a glob)", b.Path)
	}
	if hasMeta(b.Path) {
		if b.glob, err = compileSeg(b.Path, '/'); err != nil {
			return d.Errorf(n, "binary path %q: %v", b.Path, err)
		}
	}
	return nil
}

func (d *parser) endpoint(n *yaml.Node) (*Endpoint, error) {
	fs, err := d.fields(n, "endpoint", endpointKeys)
	if err != nil {
		return nil, err
	}
	e := &Endpoint{Pos: d.pos(n)}
	at := map[string]*yaml.Node{}
	for _, f := range fs {
		at[f.Key] = f.K
	}
	// The protocol decides how rules read, so it is read first.
	if k := at["protocol"]; k != nil {
		if e.Protocol, err = d.oneOf(valueOf(n, k), "protocol", protocols); err != nil {
			return nil, err
		}
	}
	var rulesNode, denyNode *yaml.Node
	for _, f := range fs {
		switch f.Key {
		case "host":
			if e.Host, err = d.nonEmpty(f.V, "host"); err != nil {
				return nil, err
			}
			g, err := checkHostPattern(e.Host)
			if err != nil {
				return nil, d.Errorf(f.V, "%v", err)
			}
			e.host = g
		case "port":
			if at["ports"] != nil {
				return nil, d.Errorf(f.K, "endpoint has both port and ports; use one")
			}
			p, err := d.integer(f.V, "port", 1, 65535)
			if err != nil {
				return nil, err
			}
			e.Ports = []int{int(p)}
		case "ports":
			items, err := d.list(f.V, "ports")
			if err != nil {
				return nil, err
			}
			if len(items) == 0 {
				return nil, d.Errorf(f.V, "ports must not be empty")
			}
			for _, it := range items {
				p, err := d.integer(it, "port", 1, 65535)
				if err != nil {
					return nil, err
				}
				if !slices.Contains(e.Ports, int(p)) {
					e.Ports = append(e.Ports, int(p))
				}
			}
		case "path":
			if e.Path, err = d.nonEmpty(f.V, "endpoint path"); err != nil {
				return nil, err
			}
			if !strings.HasPrefix(e.Path, "/") {
				return nil, d.Errorf(f.V, "endpoint path %q must start with /", e.Path)
			}
			if e.path, err = compilePath(e.Path); err != nil {
				return nil, d.Errorf(f.V, "endpoint path %q: %v", e.Path, err)
			}
		case "tls":
			if e.TLS, err = d.oneOf(f.V, "tls", tlsModes); err != nil {
				return nil, err
			}
			if e.TLS != "skip" {
				d.warnf(f.V, "tls: %s is deprecated and has no effect", e.TLS)
			}
		case "enforcement":
			if e.Enforcement, err = d.str(f.V, "enforcement"); err != nil {
				return nil, err
			}
			if e.Enforcement != "enforce" && e.Enforcement != "audit" {
				d.warnf(f.V, "enforcement %q is not enforce: denied requests are only logged and forwarded (audit)", e.Enforcement)
			}
		case "access":
			if e.Access, err = d.oneOf(f.V, "access", presets); err != nil {
				return nil, err
			}
		case "rules":
			rulesNode = f.V
		case "deny_rules":
			denyNode = f.V
		case "allowed_ips":
			if e.AllowedIPs, err = d.allowedIPs(f.V); err != nil {
				return nil, err
			}
		case "allow_encoded_slash":
			if e.AllowEncodedSlash, err = d.boolean(f.V, f.Key); err != nil {
				return nil, err
			}
		case "websocket_credential_rewrite", "request_body_credential_rewrite", "allow_uninspected_credentials":
			if _, err := d.boolean(f.V, f.Key); err != nil {
				return nil, err
			}
			e.Options = append(e.Options, f.Key)
		case "credential_signing":
			if _, err := d.oneOf(f.V, f.Key, signings); err != nil {
				return nil, err
			}
			if at["request_body_credential_rewrite"] != nil {
				return nil, d.Errorf(f.K, "credential_signing and request_body_credential_rewrite are exclusive")
			}
			e.Options = append(e.Options, f.Key)
		case "signing_service", "signing_region":
			if _, err := d.nonEmpty(f.V, f.Key); err != nil {
				return nil, err
			}
			if at["credential_signing"] == nil {
				return nil, d.Errorf(f.K, "%s needs credential_signing", f.Key)
			}
			e.Options = append(e.Options, f.Key)
		case "credential_binding":
			bf, err := d.fields(f.V, f.Key, bindKeys)
			if err != nil {
				return nil, err
			}
			if len(bf) == 0 {
				return nil, d.Errorf(f.V, "credential_binding needs a provider")
			}
			if e.Binding, err = d.nonEmpty(bf[0].V, "provider"); err != nil {
				return nil, err
			}
			e.Options = append(e.Options, f.Key)
		case "persisted_queries":
			if _, err := d.oneOf(f.V, f.Key, []string{"deny", "allow_registered"}); err != nil {
				return nil, err
			}
			e.Options = append(e.Options, f.Key)
		case "graphql_persisted_queries":
			gf, err := d.fields(f.V, f.Key, nil)
			if err != nil {
				return nil, err
			}
			for _, g := range gf {
				if _, err := d.str(g.V, "persisted query"); err != nil {
					return nil, err
				}
			}
			e.Options = append(e.Options, f.Key)
		case "graphql_max_body_bytes":
			if _, err := d.integer(f.V, f.Key, 1, 1<<31); err != nil {
				return nil, err
			}
			e.Options = append(e.Options, f.Key)
		case "mcp", "json_rpc":
			keys := mcpKeys
			if f.Key == "json_rpc" {
				keys = jsonKeys
			}
			of, err := d.fields(f.V, f.Key, keys)
			if err != nil {
				return nil, err
			}
			for _, g := range of {
				if g.Key == "max_body_bytes" {
					_, err = d.integer(g.V, g.Key, 1, 1<<31)
				} else {
					_, err = d.boolean(g.V, g.Key)
				}
				if err != nil {
					return nil, err
				}
			}
			e.Options = append(e.Options, f.Key)
		}
	}
	if len(e.Ports) == 0 {
		return nil, d.Errorf(n, "endpoint needs port or ports")
	}
	if e.Host == "" && len(e.AllowedIPs) == 0 {
		return nil, d.Errorf(n, "endpoint needs a host, or allowed_ips for any host whose addresses lie in them")
	}
	if err := d.endpointRules(n, e, at, rulesNode, denyNode); err != nil {
		return nil, err
	}
	return e, nil
}

// valueOf returns the value of key node k in mapping m.
func valueOf(m, k *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i] == k {
			return m.Content[i+1]
		}
	}
	return k
}

// endpointRules checks what depends on the protocol and reads the rules.
func (d *parser) endpointRules(n *yaml.Node, e *Endpoint, at map[string]*yaml.Node, rulesNode, denyNode *yaml.Node) error {
	l7 := []string{"path", "access", "rules", "deny_rules", "tls", "enforcement"}
	switch e.Protocol {
	case "":
		for _, k := range []string{"access", "rules", "deny_rules"} {
			if at[k] != nil {
				return d.Errorf(at[k], "%s needs a protocol: (rest, websocket, graphql, mcp or json-rpc)", k)
			}
		}
	case ProtoTCP:
		for _, k := range l7 {
			if at[k] != nil {
				return d.Errorf(at[k], "%s is not allowed with protocol: tcp, which is not inspected", k)
			}
		}
		switch {
		case e.Host == "":
			return d.Errorf(n, "protocol: tcp needs an exact DNS host; a hostless endpoint cannot be resolved by policy DNS")
		case e.host != nil:
			return d.Errorf(at["host"], "protocol: tcp needs an exact DNS host, not a glob")
		}
		if _, err := netip.ParseAddr(e.Host); err == nil {
			return d.Errorf(at["host"], "protocol: tcp needs an exact DNS host, not an IP address")
		}
	case ProtoMCP, ProtoJSONRPC:
		if at["access"] != nil {
			return d.Errorf(at["access"], "access presets are not available for protocol: %s; write rules", e.Protocol)
		}
	case ProtoSQL:
		if at["access"] != nil {
			return d.Errorf(at["access"], "access presets are not available for protocol: sql")
		}
	}
	if at["access"] != nil && rulesNode != nil {
		return d.Errorf(at["rules"], "an endpoint has access or rules, not both")
	}
	if rulesNode != nil {
		items, err := d.list(rulesNode, "rules")
		if err != nil {
			return err
		}
		if len(items) == 0 {
			return d.Errorf(rulesNode, "rules must not be empty; leave them out, or use access:")
		}
		for _, it := range items {
			rf, err := d.fields(it, "rule", allowOnly)
			if err != nil {
				return err
			}
			if len(rf) == 0 {
				return d.Errorf(it, "a rule is {allow: {…}}")
			}
			m, err := d.matcher(rf[0].V, e.Protocol, false)
			if err != nil {
				return err
			}
			e.Rules = append(e.Rules, m)
		}
	}
	if e.Access != "" {
		e.Rules = expandPreset(e.Protocol, e.Access, d.pos(at["access"]))
	}
	if denyNode != nil {
		if len(e.Rules) == 0 {
			return d.Errorf(at["deny_rules"], "deny_rules need an allow base: rules or access")
		}
		items, err := d.list(denyNode, "deny_rules")
		if err != nil {
			return err
		}
		for _, it := range items {
			m, err := d.matcher(it, e.Protocol, true)
			if err != nil {
				return err
			}
			e.DenyRules = append(e.DenyRules, m)
		}
	}
	if e.Protocol != "" && e.Protocol != ProtoTCP && e.Protocol != ProtoSQL && len(e.Rules) == 0 {
		d.warnf(n, "protocol: %s endpoint has neither rules nor access: every request is denied", e.Protocol)
	}
	return nil
}

// expandPreset returns the rules an access preset stands for.
func expandPreset(proto, preset string, pos Pos) []*Matcher {
	var methods []string
	switch proto {
	case ProtoREST:
		methods = map[string][]string{
			"read-only":  {"GET", "HEAD", "OPTIONS"},
			"read-write": {"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"},
			"full":       {"*"},
		}[preset]
	case ProtoWebSocket:
		methods = map[string][]string{
			"read-only":  {"GET"},
			"read-write": {"GET", "WEBSOCKET_TEXT"},
			"full":       {"*"},
		}[preset]
	case ProtoGraphQL:
		var out []*Matcher
		for _, t := range map[string][]string{
			"read-only":  {"query"},
			"read-write": {"query", "mutation"},
			"full":       {"*"},
		}[preset] {
			out = append(out, &Matcher{Pos: pos, Preset: preset, OperationType: t})
		}
		return out
	}
	var out []*Matcher
	all, _ := compileSeg("**", '/')
	for _, m := range methods {
		out = append(out, &Matcher{Pos: pos, Preset: preset, Method: m, Path: "**", path: all})
	}
	return out
}

// matcher reads an allow rule's body or a deny rule.
func (d *parser) matcher(n *yaml.Node, proto string, deny bool) (*Matcher, error) {
	what := "allow rule"
	if deny {
		what = "deny rule"
	}
	fs, err := d.fields(n, what, ruleFields[proto])
	if err != nil {
		return nil, err
	}
	if len(fs) == 0 {
		return nil, d.Errorf(n, "%s must not be empty", what)
	}
	m := &Matcher{Pos: d.pos(n)}
	for _, f := range fs {
		switch f.Key {
		case "method":
			if m.Method, err = d.nonEmpty(f.V, "method"); err != nil {
				return nil, err
			}
			switch proto {
			case ProtoREST:
				if m.Method != "*" && strings.IndexFunc(m.Method, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') }) >= 0 {
					return nil, d.Errorf(f.V, "%q is not an HTTP method or *", m.Method)
				}
				m.Method = strings.ToUpper(m.Method)
			case ProtoWebSocket:
				up := strings.ToUpper(m.Method)
				if up != "GET" && up != "WEBSOCKET_TEXT" && up != "*" {
					return nil, d.Errorf(f.V, "websocket method %q: want GET, WEBSOCKET_TEXT or *", m.Method)
				}
				m.Method = up
			case ProtoMCP:
				if hasMeta(m.Method) && !strings.HasPrefix(m.Method, "tools/") {
					return nil, d.Errorf(f.V, "mcp method %q: globs are allowed only in the tools/ family", m.Method)
				}
			case ProtoJSONRPC:
				if m.Method != "*" && hasMeta(m.Method) {
					return nil, d.Errorf(f.V, "json-rpc method %q: want an exact method or *", m.Method)
				}
			}
		case "path":
			if m.Path, err = d.nonEmpty(f.V, "path"); err != nil {
				return nil, err
			}
			if m.Path != "**" && !strings.HasPrefix(m.Path, "/") {
				return nil, d.Errorf(f.V, "path %q must start with / (or be ** for any path)", m.Path)
			}
			if m.path, err = compileSeg(m.Path, '/'); err != nil {
				return nil, d.Errorf(f.V, "path %q: %v", m.Path, err)
			}
		case "query":
			qf, err := d.fields(f.V, "query", nil)
			if err != nil {
				return nil, err
			}
			if len(qf) == 0 {
				return nil, d.Errorf(f.V, "query must not be empty; leave it out")
			}
			for _, q := range qf {
				qm, err := d.queryMatcher(q)
				if err != nil {
					return nil, err
				}
				m.Query = append(m.Query, qm)
			}
		case "operation_type":
			if m.OperationType, err = d.oneOf(f.V, "operation_type", []string{"query", "mutation", "subscription", "*"}); err != nil {
				return nil, err
			}
		case "operation_name":
			if m.OperationName, err = d.nonEmpty(f.V, "operation_name"); err != nil {
				return nil, err
			}
			if _, err := compileSeg(m.OperationName, '.'); err != nil {
				return nil, d.Errorf(f.V, "operation_name: %v", err)
			}
		case "fields":
			if m.Fields, err = d.strList(f.V, "fields"); err != nil {
				return nil, err
			}
			for i, s := range m.Fields {
				if _, err := compileSeg(s, '.'); err != nil {
					return nil, d.Errorf(f.V.Content[i], "field %q: %v", s, err)
				}
			}
		case "tool":
			if m.Tool, err = d.globsOrAny(f.V, "tool"); err != nil {
				return nil, err
			}
		case "command":
			if m.Command, err = d.nonEmpty(f.V, "command"); err != nil {
				return nil, err
			}
		}
	}
	if proto == ProtoREST && !deny && (m.Method == "" || m.Path == "") {
		return nil, d.Errorf(n, "a rest allow rule needs method and path")
	}
	return m, nil
}

// globsOrAny reads a glob, or {any: [globs]}, and checks each compiles in
// the . dialect.
func (d *parser) globsOrAny(n *yaml.Node, what string) ([]string, error) {
	var out []string
	if err := d.noAlias(n); err != nil {
		return nil, err
	}
	if n.Kind == yaml.MappingNode {
		af, err := d.fields(n, what, []string{"any"})
		if err != nil {
			return nil, err
		}
		if len(af) == 0 {
			return nil, d.Errorf(n, "%s: {any: […]} needs globs", what)
		}
		if out, err = d.strList(af[0].V, "any"); err != nil {
			return nil, err
		}
		if len(out) == 0 {
			return nil, d.Errorf(af[0].V, "%s: any must not be empty", what)
		}
	} else {
		s, err := d.str(n, what)
		if err != nil {
			return nil, d.Errorf(n, "%s must be a glob or {any: [globs]}, not %s", what, d.Describe(n))
		}
		out = []string{s}
	}
	for _, s := range out {
		if _, err := compileSeg(s, '.'); err != nil {
			return nil, d.Errorf(n, "%s %q: %v", what, s, err)
		}
	}
	return out, nil
}

func (d *parser) queryMatcher(f yamldoc.Field) (QueryMatcher, error) {
	globs, err := d.globsOrAny(f.V, "query "+f.Key)
	if err != nil {
		return QueryMatcher{}, err
	}
	q := QueryMatcher{Name: f.Key, Globs: globs}
	for _, s := range globs {
		g, _ := compileSeg(s, '.')
		q.globs = append(q.globs, g)
	}
	return q, nil
}

// alwaysBlocked are the addresses OpenShell never lets a connection reach,
// which allowed_ips may not touch (research note §7).
var alwaysBlocked = []struct {
	p    netip.Prefix
	what string
}{
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("0.0.0.0/32"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
}

func (d *parser) allowedIPs(n *yaml.Node) ([]netip.Prefix, error) {
	items, err := d.strList(n, "allowed_ips")
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, d.Errorf(n, "allowed_ips must not be empty")
	}
	var out []netip.Prefix
	for i, s := range items {
		at := n.Content[i]
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil || a.Zone() != "" {
				return nil, d.Errorf(at, "allowed_ips: %q is not an IP address or CIDR", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		p = p.Masked()
		// An IPv4-mapped IPv6 prefix is judged as the IPv4 one it holds.
		check := p
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			check = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		for _, b := range alwaysBlocked {
			if check.Overlaps(b.p) {
				return nil, d.Errorf(at, "allowed_ips: %s touches %s addresses (%s), which are always blocked", s, b.what, b.p)
			}
		}
		if check.Addr().Is4() && check.Bits() < 16 {
			d.warnf(at, "allowed_ips: %s is wider than a /16", s)
		}
		out = append(out, p)
	}
	return out, nil
}

func (d *parser) middlewares(n *yaml.Node) error {
	fs, err := d.fields(n, "network_middlewares", nil)
	if err != nil {
		return err
	}
	if len(fs) > maxMiddlewares {
		return d.Errorf(n, "network_middlewares has more than %d entries", maxMiddlewares)
	}
	orders := map[int]string{}
	for _, f := range fs {
		mw := &Middleware{Pos: d.pos(f.K), Key: f.Key, Name: f.Key, OnError: "fail_closed"}
		mf, err := d.fields(f.V, "middleware "+f.Key, mwKeys)
		if err != nil {
			return err
		}
		var config *yaml.Node
		for _, g := range mf {
			switch g.Key {
			case "name":
				if mw.Name, err = d.nonEmpty(g.V, "name"); err != nil {
					return err
				}
			case "middleware":
				if mw.Middleware, err = d.nonEmpty(g.V, "middleware"); err != nil {
					return err
				}
			case "order":
				o, err := d.integer(g.V, "order", -1<<31, 1<<31-1)
				if err != nil {
					return err
				}
				mw.Order = int(o)
			case "config":
				if err := d.noAlias(g.V); err != nil {
					return err
				}
				config = g.V
			case "on_error":
				if mw.OnError, err = d.oneOf(g.V, "on_error", []string{"fail_closed", "fail_open"}); err != nil {
					return err
				}
			case "endpoints":
				ef, err := d.fields(g.V, "middleware endpoints", mwEndKeys)
				if err != nil {
					return err
				}
				for _, h := range ef {
					globs, err := d.strList(h.V, h.Key)
					if err != nil {
						return err
					}
					if h.Key == "include" {
						mw.Include = globs
					} else {
						mw.Exclude = globs
					}
				}
				if len(mw.Include)+len(mw.Exclude) > maxMWPatterns {
					return d.Errorf(g.V, "middleware endpoints have more than %d patterns", maxMWPatterns)
				}
			}
		}
		if mw.Middleware == "" {
			return d.Errorf(f.K, "middleware %s needs middleware: (the implementation's name)", f.Key)
		}
		if prev, ok := orders[mw.Order]; ok {
			return d.Errorf(f.K, "middleware %s has order %d, as %s does; orders must be unique", f.Key, mw.Order, prev)
		}
		orders[mw.Order] = f.Key
		if mw.Middleware == "openshell/regex" {
			if err := d.regexConfig(f.K, config); err != nil {
				return err
			}
		}
		d.p.Middlewares = append(d.p.Middlewares, mw)
	}
	slices.SortFunc(d.p.Middlewares, func(a, b *Middleware) int { return strings.Compare(a.Key, b.Key) })
	return nil
}

// regexConfig checks the one thing Warden knows of openshell/regex's
// config: its mode must be redact.
func (d *parser) regexConfig(k, config *yaml.Node) error {
	if config == nil || config.Kind != yaml.MappingNode {
		return d.Errorf(k, "openshell/regex needs config: {mode: redact, …}")
	}
	for i := 0; i+1 < len(config.Content); i += 2 {
		if config.Content[i].Value == "mode" {
			if _, err := d.oneOf(config.Content[i+1], "openshell/regex mode", []string{"redact"}); err != nil {
				return err
			}
			return nil
		}
	}
	return d.Errorf(config, "openshell/regex config needs mode: redact")
}

// Detect reports whether data looks like an OpenShell policy file rather
// than a Warden one: a YAML mapping with one of the top-level keys only
// OpenShell's files have. It says nothing of the file's validity: Parse
// does.
func Detect(data []byte) bool {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	top := doc.Content[0].Content
	for i := 0; i+1 < len(top); i += 2 {
		if OwnKey(top[i].Value) {
			return true
		}
	}
	return false
}

// OwnKey reports whether k is a top-level key only an OpenShell policy
// file has: a Warden policy file never does.
func OwnKey(k string) bool {
	switch k {
	case "network_policies", "filesystem_policy", "landlock", "network_middlewares":
		return true
	}
	return false
}
