// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/yamldoc"
)

var (
	networkKeys    = []string{"rules", "credentials"}
	netRuleKeys    = []string{"allow", "deny", "until", "enabled", "provenance"}
	matcherKeys    = []string{"host", "allowed_ips", "port", "ports", "protocol", "methods"}
	credentialKeys = []string{"name", "from", "hosts"}

	// protocols a network rule can name: plain HTTP requests through the
	// proxy, HTTPS (CONNECT to a TLS server), or any CONNECT stream.
	protocols = []string{"http", "https", "tcp"}
)

// hostLabel is one DNS label; underscores appear in real names (SRV-like
// service hosts), so they are allowed.
var hostLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?$`) })

// httpMethod is an HTTP method token.
var httpMethod = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z]+$`) })

func (d *decoder) network(n *yaml.Node) (Network, error) {
	nw := Network{Set: true}
	fs, err := d.Fields(n, "network", networkKeys, true)
	if err != nil {
		return Network{}, err
	}
	for _, f := range fs {
		switch f.Key {
		case "rules":
			items, err := d.list(f.V, "network rules")
			if err != nil {
				return Network{}, err
			}
			for _, it := range items {
				r, err := d.netRule(it)
				if err != nil {
					return Network{}, err
				}
				nw.Rules = append(nw.Rules, r)
			}
		case "credentials":
			items, err := d.list(f.V, "credentials")
			if err != nil {
				return Network{}, err
			}
			for _, it := range items {
				c, err := d.credential(it)
				if err != nil {
					return Network{}, err
				}
				for _, prev := range nw.Credentials {
					if prev.Name == c.Name {
						return Network{}, d.Errorf(it, "duplicate credential %q (first at %d:%d)", c.Name, prev.Pos.Line, prev.Pos.Col)
					}
				}
				nw.Credentials = append(nw.Credentials, c)
			}
		}
	}
	return nw, nil
}

func (d *decoder) netRule(n *yaml.Node) (NetRule, error) {
	r := NetRule{Pos: d.pos(n)}
	fs, err := d.Fields(n, "network rule", netRuleKeys, false)
	if err != nil {
		return NetRule{}, err
	}
	var verb *yaml.Node
	for _, f := range fs {
		switch f.Key {
		case "allow", "deny":
			if verb != nil {
				return NetRule{}, d.Errorf(f.K, "network rule has both %s and %s; write two rules", verb.Value, f.Key)
			}
			verb = f.K
			r.Action = action.Deny
			if f.Key == "allow" {
				r.Action = action.Allow
			}
			if yamldoc.IsNull(f.V) {
				return NetRule{}, d.Errorf(f.V, "%s needs a matcher mapping; write %s: {} to match any destination", f.Key, f.Key)
			}
			if err := d.matcher(f.V, f.Key, &r); err != nil {
				return NetRule{}, err
			}
		case "until":
			if r.Until, err = d.timestamp(f.V, "until"); err != nil {
				return NetRule{}, err
			}
		case "enabled":
			b, err := d.boolean(f.V, "enabled")
			if err != nil {
				return NetRule{}, err
			}
			r.Enabled = &b
		case "provenance":
			if r.Provenance, err = d.oneOf(f.V, "provenance", provenanceNames...); err != nil {
				return NetRule{}, err
			}
		}
	}
	if verb == nil {
		return NetRule{}, d.Errorf(n, "network rule needs allow: or deny: with a matcher, such as allow: {host: example.com}")
	}
	return r, nil
}

func (d *decoder) matcher(n *yaml.Node, verb string, r *NetRule) error {
	fs, err := d.Fields(n, verb+" matcher", matcherKeys, false)
	if err != nil {
		return err
	}
	var portKey *yaml.Node
	for _, f := range fs {
		switch f.Key {
		case "host":
			s, err := d.str(f.V, "host")
			if err != nil {
				return err
			}
			if err := checkHost(s); err != nil {
				return d.Errorf(f.V, "%v", err)
			}
			r.Host = s
		case "allowed_ips":
			ips, err := d.strList(f.V, "allowed_ips", false)
			if err != nil {
				return err
			}
			for i, s := range ips {
				if _, err := netip.ParsePrefix(s); err == nil {
					continue
				}
				if _, err := netip.ParseAddr(s); err == nil {
					continue
				}
				return d.Errorf(f.V.Content[i], "allowed_ips: %q is not an IP address or CIDR prefix", s)
			}
			r.AllowedIPs = ips
		case "port", "ports":
			if portKey != nil {
				return d.Errorf(f.K, "matcher has both port and ports; use ports: [...] alone")
			}
			portKey = f.K
			if f.Key == "port" {
				p, err := d.integer(f.V, "port", 1, 65535)
				if err != nil {
					return err
				}
				r.Port = int(p)
				continue
			}
			if f.V.Kind != yaml.SequenceNode {
				return d.Errorf(f.V, "ports must be a list of port numbers, not %s", d.Describe(f.V))
			}
			if len(f.V.Content) == 0 {
				return d.Errorf(f.V, "ports must not be an empty list; leave it out to match any port")
			}
			for _, it := range f.V.Content {
				p, err := d.integer(it, "port", 1, 65535)
				if err != nil {
					return err
				}
				r.Ports = append(r.Ports, int(p))
			}
		case "protocol":
			if r.Protocol, err = d.oneOf(f.V, "protocol", protocols...); err != nil {
				return err
			}
		case "methods":
			ms, err := d.strList(f.V, "methods", false)
			if err != nil {
				return err
			}
			for i, m := range ms {
				if !httpMethod().MatchString(m) {
					return d.Errorf(f.V.Content[i], "%q is not an HTTP method", m)
				}
				ms[i] = strings.ToUpper(m)
			}
			r.Methods = ms
		}
	}
	return nil
}

// checkHost validates a host pattern: a DNS name, "*.domain" for any
// subdomain of domain, or an IP address. Ports, schemes and paths have
// their own fields and are refused here with a hint.
func checkHost(s string) error {
	if s == "" {
		return fmt.Errorf("host must not be empty; leave it out to match any host")
	}
	if _, err := netip.ParseAddr(s); err == nil {
		return nil
	}
	switch {
	case s == "*":
		return fmt.Errorf("host %q is not a pattern; leave host out to match any host", s)
	case strings.Contains(s, "://"):
		return fmt.Errorf("host %q: write the host name alone, without a scheme", s)
	case strings.ContainsAny(s, "/?#"):
		return fmt.Errorf("host %q: write the host name alone, without a path", s)
	case strings.Contains(s, ":"):
		return fmt.Errorf("host %q: write the host name alone; a port goes in port:", s)
	}
	name := strings.TrimPrefix(s, "*.")
	name = strings.TrimSuffix(name, ".")
	if len(name) > 253 {
		return fmt.Errorf("host %q is longer than 253 characters", s)
	}
	for _, label := range strings.Split(name, ".") {
		if len(label) > 63 || !hostLabel().MatchString(label) {
			return fmt.Errorf("host %q is not a host name, *.domain or IP address", s)
		}
	}
	return nil
}

func (d *decoder) credential(n *yaml.Node) (Credential, error) {
	c := Credential{Pos: d.pos(n)}
	fs, err := d.Fields(n, "credential", credentialKeys, false)
	if err != nil {
		return Credential{}, err
	}
	for _, f := range fs {
		switch f.Key {
		case "name":
			s, err := d.str(f.V, "credential name")
			if err != nil {
				return Credential{}, err
			}
			if !envName().MatchString(s) {
				return Credential{}, d.Errorf(f.V, "credential name %q must be letters, digits and _, not starting with a digit", s)
			}
			c.Name = s
		case "from":
			s, err := d.str(f.V, "from")
			if err != nil {
				return Credential{}, err
			}
			kind, arg, _ := strings.Cut(s, ":")
			switch {
			case kind == "env" && envName().MatchString(arg):
			case kind == "file" && arg != "":
			default:
				return Credential{}, d.Errorf(f.V, "from %q: want env:NAME or file:PATH", s)
			}
			c.From = s
		case "hosts":
			hosts, err := d.strList(f.V, "hosts", false)
			if err != nil {
				return Credential{}, err
			}
			for i, h := range hosts {
				if err := checkHost(h); err != nil {
					return Credential{}, d.Errorf(f.V.Content[i], "%v", err)
				}
			}
			c.Hosts = hosts
		}
	}
	switch {
	case c.Name == "":
		return Credential{}, d.Errorf(n, "credential needs a name")
	case c.From == "":
		return Credential{}, d.Errorf(n, "credential %s needs from: env:NAME or file:PATH", c.Name)
	case len(c.Hosts) == 0:
		// Without hosts the placeholder would never be replaced; that is
		// surely a mistake, and refusing it keeps the binding explicit.
		return Credential{}, d.Errorf(n, "credential %s needs hosts: the hosts it may be sent to", c.Name)
	}
	return c, nil
}
