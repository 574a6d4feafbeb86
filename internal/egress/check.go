// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"context"
	"net/netip"
	"time"

	"warden.dev/warden/internal/action"
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
