// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

// A run under an NVIDIA OpenShell policy (docs/openshell.md): every
// connection and request is decided by OpenShell's own model (package
// openshell: the endpoint and the calling binary in one rule, then, on an
// inspected endpoint, each request's method, path and query), with the
// caller the proxy found behind the connection (package callerid); a
// denial is answered with OpenShell's policy_denied body (and, for a
// request, X-OpenShell-Policy), which its clients read. What OpenShell
// allows is then held to Warden's floor, as for a Warden policy:
// the always-denied names, ports and addresses, and a private address
// only inside the admitting endpoint's allowed_ips. A caller that could
// not be found matches no binary. A request whose path OpenShell makes
// canonical is refused rather than forwarded as sent: what is forwarded
// must be what was judged.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/proxy"
)

// openShell decides with an OpenShell policy.
type openShell struct {
	p  *openshell.Policy
	ev *openshell.Evaluator

	mu sync.Mutex
	// floors are the floor's tiers by admitting endpoint: one allow rule
	// bounded by its allowed_ips.
	floors map[*openshell.Endpoint]*netpolicy.Tiers
}

func newOpenShell(p *openshell.Policy) *openShell {
	return &openShell{p: p, ev: openshell.NewEvaluator(p, openshell.Options{Symlinks: symlinks(p)}), floors: map[*openshell.Endpoint]*netpolicy.Tiers{}}
}

// symlinks resolves the policy's binary paths that are links (Debian's
// /usr/bin/python3 is python3.11), as OpenShell does: the kernel names a
// process's executable by its target. The sandbox sees the host's /usr,
// /bin and /lib as they are, so the host's links are the sandbox's.
func symlinks(p *openshell.Policy) map[string]string {
	out := map[string]string{}
	for _, np := range p.Network {
		for _, b := range np.Binaries {
			if strings.ContainsAny(b.Path, "*?[{\\") {
				continue
			}
			if real, err := filepath.EvalSymlinks(b.Path); err == nil && real != b.Path {
				out[b.Path] = real
			}
		}
	}
	return out
}

// decide is OpenShell's decision on t, and the endpoint that decided it
// (nil when none did), whose floor (o.floor) an allowed t is held to.
func (o *openShell) decide(t proxy.Target) (proxy.Decision, *openshell.Endpoint) {
	c := openshell.Conn{Host: t.Host, Port: t.Port}
	if t.Caller != nil {
		c.Binary, c.Ancestors = t.Caller.Exe, t.Caller.Ancestors
	}
	req := openshell.Request{Conn: c}
	if t.Method != "" && t.Method != "CONNECT" {
		// As sent, percent-encoding kept: OpenShell decodes and
		// refuses (an encoded slash, say) by its own rules.
		req.Method, req.Target = t.Method, t.RawPath
		if req.Target == "" {
			req.Target = "/"
		}
		if t.Query != "" {
			req.Target += "?" + t.Query
		}
	}
	od := o.ev.Connect(c)
	d := o.decision(od)
	if !d.Allow {
		if t.Caller != nil && t.Caller.Err != "" {
			d.Reason += " (the calling process is not known: " + t.Caller.Err + ")"
		}
		d.Body = openshell.DenialBody(req, od)
		return d, od.Endpoint
	}
	if od.Inspect {
		if t.Method == "" || t.Method == "CONNECT" {
			// Each request of the stream is judged with its own method,
			// path and query.
			d.Intercept = true
		} else {
			rd := o.ev.Request(req)
			if d = o.decision(rd); !d.Allow {
				// OpenShell's L7 denial: its body, and the policy in
				// X-OpenShell-Policy.
				d.Body = openshell.DenialBody(req, rd)
				if rd.Layer == openshell.L7 && rd.Policy != "" {
					d.Header = map[string]string{"X-OpenShell-Policy": rd.Policy}
				}
				return d, rd.Endpoint
			}
			if rd.Path != t.RawPath && t.RawPath != "" {
				return proxy.Decision{Rule: d.Rule, Reason: fmt.Sprintf("the path %q is %q once made canonical, as it was judged; Warden forwards only what it judged", t.RawPath, rd.Path),
					Hint: "request " + rd.Path}, rd.Endpoint
			}
		}
	}
	return d, od.Endpoint
}

// decision is an OpenShell decision in the proxy's terms; an audit (a
// denial OpenShell only logs) is an allow that says so.
func (o *openShell) decision(od openshell.Decision) proxy.Decision {
	return proxy.Decision{Rule: od.RuleName(), Reason: od.Reason, Hint: od.Hint, Allow: od.Verdict != openshell.Deny}
}

// policyOf is the key of the network policy endpoint e is in.
func (o *openShell) policyOf(e *openshell.Endpoint) string {
	for _, np := range o.p.Network {
		for _, x := range np.Endpoints {
			if x == e {
				return np.Key
			}
		}
	}
	return ""
}

// floor is the tiers Warden's floor is asked through for what endpoint e
// admits.
func (o *openShell) floor(e *openshell.Endpoint) *netpolicy.Tiers {
	o.mu.Lock()
	defer o.mu.Unlock()
	if t, ok := o.floors[e]; ok {
		return t
	}
	r := netpolicy.Rule{Name: "openshell", Verdict: action.Allow}
	if e != nil {
		for _, pr := range e.AllowedIPs {
			r.AllowedIPs = append(r.AllowedIPs, pr.String())
		}
	}
	p, err := netpolicy.Compile([]netpolicy.Rule{r})
	if err != nil {
		// allowed_ips that parsed as prefixes always compile.
		p, _ = netpolicy.Compile(nil)
	}
	t := netpolicy.NewTiers(p)
	o.floors[e] = t
	return t
}

// providerCredentials are the credentials of the providers composed into
// p, each known by every environment variable its profile lists: the
// sandbox holds openshell:resolve:env:VAR in each, and the proxy puts the
// value, read from warden's own environment (the first of the variables
// set), only into requests to the credential's endpoints. A required
// credential with no value stops the run; one a profile does not require
// is left out. A credential whose value Warden would have to mint
// (Options) is left out too: the run refuses it unless --lossy.
func providerCredentials(p *openshell.Policy, lookup func(string) (string, bool)) ([]credential.Credential, error) {
	var out []credential.Credential
	for _, bc := range p.Bound {
		c := bc.Credential
		if len(c.Options) > 0 {
			continue
		}
		var v, from string
		for _, name := range c.EnvVars {
			if s, ok := lookup(name); ok && s != "" {
				v, from = s, name
				break
			}
		}
		if v == "" {
			if c.Required {
				return nil, &UnavailableError{What: "network credentials",
					Err:  fmt.Errorf("provider %s's credential %s (%s) is required, and none of %s is set", bc.Provider, c.Name, c.Pos, strings.Join(c.EnvVars, ", ")),
					Hint: "set one of them in warden's environment; the sandbox sees only its placeholder"}
			}
			continue
		}
		if err := credential.CheckValue(v); err != nil {
			return nil, &UnavailableError{What: "network credentials", Err: fmt.Errorf("provider %s's credential %s from %s: %w", bc.Provider, c.Name, from, err)}
		}
		for _, name := range c.EnvVars {
			out = append(out, credential.Credential{
				Name: name, Value: credential.NewRedacted(v), Prefix: credential.OpenShellPrefix,
				Binding: binding{bc, name},
			})
		}
	}
	return out, nil
}

// binding binds a provider's credential, known by variable, to its
// endpoints.
type binding struct {
	bc       *openshell.BoundCredential
	variable string
}

func (b binding) Serves(host string, port int, path string) bool {
	for _, e := range b.bc.Endpoints {
		if e.Serves(host, port, path) {
			return true
		}
	}
	return false
}

func (b binding) String() string {
	var eps []string
	for _, e := range b.bc.Endpoints {
		s := e.Host + ":" + strconv.Itoa(e.Ports[0])
		if len(e.Ports) > 1 {
			s += fmt.Sprintf("(+%d ports)", len(e.Ports)-1)
		}
		eps = append(eps, s+e.Path)
	}
	if len(eps) == 0 {
		return "no endpoint: provider " + b.bc.Provider + " binds it to none"
	}
	return "the endpoints of provider " + b.bc.Provider + " (" + strings.Join(eps, ", ") + ")"
}

func (b binding) Denial(host string, port int, method, path string) []byte {
	return openshell.MismatchBody(b.bc.Provider, b.variable, host, port, method, path)
}
