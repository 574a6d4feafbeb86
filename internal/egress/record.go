// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"net"
	"slices"
	"strconv"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/dnsstub"
)

// MaxAttempts bounds the network attempts a run's record lists; the rest
// are counted ([Boundary.Attempts]).
const MaxAttempts = 10_000

// maxLimitAttempts is how many refusals of one cap the attempts list.
const maxLimitAttempts = 10

// limitDNS is the Limit of a name the stub refused past its
// Config.MaxNames.
const limitDNS = "dns"

func (b *Boundary) add(a audit.NetworkAttempt) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.attempts) >= MaxAttempts {
		b.dropped++
		return
	}
	b.attempts = append(b.attempts, a)
}

// refusedBy counts a refusal by a cap and reports whether it is still
// among the first maxLimitAttempts of its cap.
func (b *Boundary) refusedBy(limit string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	var n *int
	switch limit {
	case limitDNS:
		n = &b.limits.DNSRefused
	case "connections":
		n = &b.limits.ConnectionsRefused
	case "pending":
		n = &b.limits.PendingRefused
	case "tunnels":
		n = &b.limits.TunnelsRefused
	default:
		return true
	}
	*n++
	return *n <= maxLimitAttempts
}

func (b *Boundary) recordProxy(a audit.NetworkAttempt) {
	if a.Limit != "" && !b.refusedBy(a.Limit) {
		return
	}
	a.RunID, a.Time = b.runID, a.Time.UTC()
	b.add(a)
}

func (b *Boundary) recordDNS(q dnsstub.Query) {
	if q.Limit && !b.refusedBy(limitDNS) {
		return
	}
	a := audit.NetworkAttempt{
		RunID: b.runID, Time: time.Now().UTC(), Via: audit.ViaDNS, Host: q.Name, Protocol: "dns", Method: q.Type,
		Verdict: audit.VerdictOf(q.Allowed), Rule: q.Rule, Reason: q.Reason,
	}
	if q.Limit {
		a.Limit = limitDNS
	}
	b.add(a)
}

// Attempts returns the attempts recorded so far, and how many more were
// not kept (past [MaxAttempts]).
func (b *Boundary) Attempts() ([]audit.NetworkAttempt, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]audit.NetworkAttempt{}, b.attempts...), b.dropped
}

// Limits returns the record's network_limits: the caps in force and how
// often each refused.
func (b *Boundary) Limits() *audit.NetworkLimits {
	b.mu.Lock()
	l := b.limits
	b.mu.Unlock()
	l.DNSNamesGiven = b.stub.Names()
	return &l
}

// Denied lists the destinations the proxy or the DNS stub refused, each
// once, in order: "host:port" for the proxy, "host" for a name the stub
// would not answer.
func (b *Boundary) Denied() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, a := range b.attempts {
		if a.Verdict != audit.VerdictDeny {
			continue
		}
		d := a.Host
		if a.Via != audit.ViaDNS {
			d = net.JoinHostPort(a.Host, strconv.Itoa(a.Port))
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}
