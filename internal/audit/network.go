// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit

import "time"

// Verdicts of a [NetworkAttempt].
const (
	VerdictAllow = "allow"
	VerdictDeny  = "deny"
)

// Ways an attempt reached Warden ([NetworkAttempt.Via]).
const (
	ViaForward     = "forward"     // a plain-HTTP request to the proxy
	ViaConnect     = "connect"     // an HTTP CONNECT tunnel
	ViaSOCKS5      = "socks5"      // a SOCKS5 CONNECT
	ViaTransparent = "transparent" // a connection captured on :80 or :443
	ViaDNS         = "dns"         // a question to the DNS stub
)

// NetworkAttempt is one destination a sandboxed command tried, through
// the egress proxy or the DNS stub, allowed or denied. The proxy and the
// stub record it as it happened; a run's record lists them; a post-call
// note tells the agent about the denied ones.
type NetworkAttempt struct {
	RunID string    `json:"run_id"`
	Time  time.Time `json:"time"`
	// DurationMS is how long the attempt took, from accepting it to its
	// end (0 for a DNS question).
	DurationMS int64 `json:"duration_ms,omitempty"`
	// Via is one of the Via constants.
	Via string `json:"via"`
	// Host is the destination as the sandbox named it, normalised; Port
	// its port (none for a DNS question).
	Host string `json:"host"`
	Port int    `json:"port,omitempty"`
	// Method is the HTTP method of a request, "CONNECT" for a whole
	// stream, the record type of a DNS question.
	Method string `json:"method,omitempty"`
	// Protocol is http, https, tcp or dns.
	Protocol string `json:"protocol,omitempty"`
	// Path is the path of a request read in plain text, without its
	// query.
	Path string `json:"path,omitempty"`
	// Binary is the executable of the process that made the connection,
	// as the kernel names it, when the run's policy scopes grants to
	// binaries (an OpenShell policy); "" otherwise, or when it was not
	// found.
	Binary string `json:"binary,omitempty"`
	// Verdict is VerdictAllow or VerdictDeny; Rule and Reason say who
	// decided and why ("proxy" for one of the proxy's own checks).
	Verdict string `json:"verdict"`
	Rule    string `json:"rule"`
	Reason  string `json:"reason,omitempty"`
	// Addr is the address dialed, if any.
	Addr string `json:"addr,omitempty"`
	// Status is the HTTP status returned to the sandbox for a request,
	// or the CONNECT answer for a stream refused or opened with one.
	Status int `json:"status,omitempty"`
	// BytesUp and BytesDown count what was carried.
	BytesUp   int64 `json:"bytes_up"`
	BytesDown int64 `json:"bytes_down"`
	// Intercepted is set on a stream whose TLS the proxy terminated.
	Intercepted bool `json:"intercepted,omitempty"`
	// Injected names the credentials put into the request; Flagged the
	// placeholders found where their credential may not go (the request
	// was denied).
	Injected []string `json:"credentials_injected,omitempty"`
	Flagged  []string `json:"placeholders_flagged,omitempty"`
	// Limit names the cap that refused the attempt (connections,
	// pending, tunnels, dns); empty for any other verdict.
	Limit string `json:"limit,omitempty"`
}

// Allowed reports whether the attempt was let through.
func (a *NetworkAttempt) Allowed() bool { return a.Verdict == VerdictAllow }

// VerdictOf is the verdict of an attempt allowed or not.
func VerdictOf(allow bool) string {
	if allow {
		return VerdictAllow
	}
	return VerdictDeny
}

// NetworkLimits is a run's record of what it could make Warden hold (the
// caps in force) and how often a cap refused it. Only the first few
// refusals of each cap are listed among the attempts; the counts here
// are all of them.
type NetworkLimits struct {
	DNSNames           int `json:"dns_names"`
	DNSNamesGiven      int `json:"dns_names_given"`
	DNSRefused         int `json:"dns_refused"`
	Connections        int `json:"connections"`
	ConnectionsRefused int `json:"connections_refused"`
	Pending            int `json:"pending"`
	PendingRefused     int `json:"pending_refused"`
	Tunnels            int `json:"tunnels"`
	TunnelsRefused     int `json:"tunnels_refused"`
}
