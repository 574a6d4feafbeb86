// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/proxy"
)

// ResolveTimeout bounds the resolver's answer to one name.
const ResolveTimeout = 10 * time.Second

// Check judges raw (a URL, or a CONNECT host:port) as a run's proxy
// would, for warden net check: parse it, judge the name by every tier,
// resolve it once (resolve is given ResolveTimeout), judge the
// addresses, then refuse an address of this machine (host) as the proxy
// does when it dials. A malformed target is judged, and denied.
func Check(ctx context.Context, tiers *netpolicy.Tiers, raw, method string, resolve func(ctx context.Context, name string) ([]netip.Addr, error), host *proxy.HostAddrs, now time.Time) (netpolicy.Target, netpolicy.Decision) {
	t, err := netpolicy.ParseTarget(raw)
	if err != nil {
		return t, netpolicy.Refused(err)
	}
	d := tiers.Check(t, method, func(name string) ([]netip.Addr, error) {
		ctx, cancel := context.WithTimeout(ctx, ResolveTimeout)
		defer cancel()
		return resolve(ctx, name)
	}, now)
	if d.Verdict != action.Allow {
		return t, d
	}
	// The proxy's own check when it dials (proxy/local.go).
	if pd, ok := host.Check(t.Host(), d.Addrs); !ok {
		return t, netpolicy.Decision{Rule: pd.Rule, Reason: pd.Reason, Hint: pd.Hint, MethodDependent: d.MethodDependent}
	}
	return t, d
}

// CheckOpenShell judges raw under the OpenShell policy p as a run's proxy
// would (openshell.go), for warden net check: the connection by its
// endpoint and its caller (binary, and its ancestors' executables, parent
// first); on an inspected endpoint, when method is given and raw is a
// URL, the request with raw's path and query as written, else the
// connection is allowed and its requests said to be judged one by one
// (MethodDependent); then Warden's floor on the name and the addresses,
// as [Check] does. The rule names where the deciding endpoint is
// written.
func CheckOpenShell(ctx context.Context, p *openshell.Policy, raw, method, binary string, ancestors []string, resolve func(ctx context.Context, name string) ([]netip.Addr, error), host *proxy.HostAddrs, now time.Time) (netpolicy.Target, netpolicy.Decision) {
	t, err := netpolicy.ParseTarget(raw)
	if err != nil {
		return t, netpolicy.Refused(err)
	}
	o := newOpenShell(p)
	pt := proxy.Target{Host: t.Host(), Port: int(t.Port()), Caller: &proxy.Caller{Exe: binary, Ancestors: ancestors}}
	if method != "" && t.IsURL() {
		target, _, _ := strings.Cut(t.Path(), "#")
		pt.Method = method
		pt.RawPath, pt.Query, _ = strings.Cut(target, "?")
	}
	d, e := o.decide(pt)
	nd := netpolicy.Decision{Rule: d.Rule, Reason: d.Reason, Hint: d.Hint}
	if e != nil {
		nd.Rule += " (" + e.Pos.String() + ")"
	}
	if !d.Allow {
		return t, nd
	}
	nd.Verdict = action.Allow
	if d.Intercept {
		nd.MethodDependent = true
		nd.Reason += "; its requests are judged one by one (give --method and a URL to judge one)"
	}
	_, fd := Check(ctx, o.floor(e), raw, "", resolve, host, now)
	if rng, ok := strings.CutPrefix(fd.Rule, "private-range: "); ok && fd.Verdict != action.Allow {
		// Said in OpenShell's terms: only allowed_ips opens a private
		// address, whatever names the host.
		fd.Reason = fmt.Sprintf("%s resolves to an address in the private range %s, and the endpoint of policy %s that allows it lists no allowed_ips covering it", t.Host(), rng, o.policyOf(e))
		fd.Hint = fmt.Sprintf("list the address, or a part of %s, in that endpoint's allowed_ips", rng)
	}
	if fd.Verdict != action.Allow {
		return t, fd
	}
	nd.Addrs = fd.Addrs
	return t, nd
}
