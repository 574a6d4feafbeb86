// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

// Host patterns (research note §3, §5). The rules:
//
//   - A host is an IP address, an exact DNS name, or a glob; all are
//     compared in lower case, and one trailing dot of the name asked for
//     is ignored.
//   - In a glob, * may appear anywhere inside the first label
//     ("*.x.com", "*-aiplatform.googleapis.com", "api-*.x.com") and stays
//     inside it; ** may only be the whole first label ("**.x.com"), and
//     matches one or more leading labels, never the apex x.com; * may be a
//     whole middle label ("*.s3.*.amazonaws.com").
//   - Refused: bare * or **; a wildcard in either of the last two labels
//     (TLD wildcards such as *.com, and x.*.com); a partial middle label
//     (a.b*.x.com); ** anywhere but as the whole first label; any other
//     glob character (? [ ] { } \), which OpenShell's runtime would read
//     as a glob but its validation does not describe.

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// checkHostPattern validates an endpoint's host and compiles it when it
// is a glob (nil otherwise).
func checkHostPattern(h string) (*segGlob, error) {
	if _, err := netip.ParseAddr(h); err == nil {
		if strings.Contains(h, "%") {
			return nil, fmt.Errorf("host %q: an address with a zone cannot be reached", h)
		}
		return nil, nil
	}
	if strings.ContainsAny(h, "?[]{}\\") {
		return nil, fmt.Errorf("host %q: only * and a leading ** are wildcards in a host", h)
	}
	if strings.Contains(h, "://") || strings.ContainsAny(h, "/:@ ") {
		return nil, fmt.Errorf("host %q: write the host name alone, without a scheme, port or path", h)
	}
	if h == "*" || h == "**" {
		return nil, fmt.Errorf("host %q matches every host; leave host out and use allowed_ips instead", h)
	}
	labels := strings.Split(strings.ToLower(h), ".")
	for i, l := range labels {
		if l == "" {
			return nil, fmt.Errorf("host %q has an empty label", h)
		}
		if len(l) > 63 {
			return nil, fmt.Errorf("host %q has a label longer than 63 characters", h)
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '*') {
				return nil, fmt.Errorf("host %q: %q is not allowed in a host name", h, c)
			}
		}
		if !strings.Contains(l, "*") {
			continue
		}
		switch {
		case i >= len(labels)-2:
			return nil, fmt.Errorf("host %q: a wildcard may not be in the last two labels (TLD wildcards are refused)", h)
		case l == "**" && i == 0:
		case strings.Contains(l, "**"):
			return nil, fmt.Errorf("host %q: ** may only be the whole first label", h)
		case i > 0 && l != "*":
			return nil, fmt.Errorf("host %q: a wildcard in a middle label must be the whole label", h)
		}
	}
	if len(h) > 253 {
		return nil, fmt.Errorf("host %q is longer than 253 characters", h)
	}
	if !strings.Contains(h, "*") {
		return nil, nil
	}
	g, err := compileSeg(strings.ToLower(h), '.')
	if err != nil {
		return nil, fmt.Errorf("host %q: %v", h, err)
	}
	return g, nil
}

// errBadHost is a request host that is not a name or an address.
var errBadHost = errors.New("request host is not a host name or an IP address")

// normalHost returns the name asked for as endpoints compare it: lower
// case, without one trailing dot, an IP address in canonical form.
func normalHost(h string) (string, error) {
	h = strings.TrimPrefix(strings.TrimSuffix(h, "]"), "[")
	if a, err := netip.ParseAddr(h); err == nil {
		return a.String(), nil
	}
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "" || len(h) > 253 {
		return "", errBadHost
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return "", errBadHost
		}
	}
	return h, nil
}

// matchHost reports whether the normalised host h is e's host. A
// hostless endpoint matches any host.
func (e *Endpoint) matchHost(h string) bool {
	switch {
	case e.Host == "":
		return true
	case e.host != nil:
		return e.host.match(h)
	}
	if a, err := netip.ParseAddr(e.Host); err == nil {
		return a.String() == h
	}
	return strings.EqualFold(strings.TrimSuffix(e.Host, "."), h)
}
