// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package proxy is Warden's egress proxy (docs/spec.md §9): the only way out
// of a sandbox's network namespace. It runs in the warden parent, outside
// the sandbox, and serves a listener that lives inside the sandbox's
// namespace. It decides nothing by itself: every destination is put to an
// injected decider (package netpolicy, wired by the CLI), in two phases
// so that a name is judged before it is resolved and the addresses before
// they are dialed.
//
//	p, err := proxy.New(proxy.Config{
//		CheckName:  policy.CheckName,  // before any DNS query
//		CheckAddrs: policy.CheckAddrs, // the resolved answer
//		CA:         ca,                // proxy.LoadCA(dir), for interception
//		Credentials: creds,            // credential.Load(specs)
//		Record:     record,            // func(audit.NetworkAttempt)
//	})
//	go p.Serve(ln)                                    // HTTP_PROXY, HTTPS_PROXY, ALL_PROXY
//	go p.ServeTransparent(ln80, "http", stub.NameFor)  // :80 of the DNS stub's addresses
//	go p.ServeTransparent(ln443, "https", stub.NameFor)
//	defer p.Close()
//
// # What it serves
//
// [Proxy.Serve] serves HTTP forward requests (GET http://host/path), CONNECT
// and SOCKS5 CONNECT on one listener; [Proxy.ServeTransparent] serves
// connections captured on :80 and :443 for tools that ignore the proxy
// variables. Every host is parsed strictly first (a numeric, encoded or
// non-ASCII form is refused, not interpreted; see host.go).
//
// # How each attempt is judged
//
// A forward request (and a transparent :80 one) is judged once, as
// [Target]{Method: its method, Protocol: "http", Path: its path}:
//
//  1. CheckName; a deny answers 403 and no DNS query is made.
//  2. The name is resolved once, with Resolve (an IP address is not).
//  3. CheckAddrs judges the answer and returns the addresses that may be
//     dialed; a deny answers 403 and nothing is dialed.
//  4. Only an address both resolved and returned is dialed, so no second
//     resolution can swap in another (no rebinding window).
//
// A stream (CONNECT, SOCKS5) is judged twice. On its request line, with
// Method "CONNECT" and Protocol "" (not known yet): CheckName, then
// resolution, CheckAddrs and the dial as above; a deny answers 403 (SOCKS5
// reply 2) and the tunnel is never opened. At this phase a decider should
// allow when any protocol could be allowed to the host and port, since the
// proxy asks again. Once opened, the stream's first bytes are peeked
// (never consumed) to learn its Protocol: "https" for a TLS ClientHello,
// whose server name must then equal the CONNECT target (else the stream
// is closed: domain fronting); "http" for an HTTP request line; "tcp" for
// anything else, and for a stream that sends nothing for
// Limits.PeekTimeout (a server that speaks first, such as SMTP, waits that
// long once). CheckName is asked again with the protocol; a deny closes
// the stream, or, for TLS when the proxy has a CA and for plain HTTP,
// answers each request in it with the 403. A transparent :443 connection
// has no request line: its server name is peeked first and it is judged
// once, with Protocol "https".
//
// An allowed stream is spliced to its upstream (copied both ways as it
// is, two descriptors and about 4 KiB a waiting stream, a 256 KiB pooled
// buffer while bytes flow) unless it must be read: TLS is intercepted when the
// decision says Intercept (a rule names methods) or a credential is bound
// to the host, and a plain HTTP stream is always read. A stream that must
// be intercepted and cannot be (no CA, or not TLS) is denied. In a read
// stream each request is judged by CheckName (Method, Path, the stream's
// Protocol), its Host header must name the stream's target, and it is
// sent over the stream's own upstream connection; if the upstream closes
// that connection, the next dial resolves and judges the addresses again.
//
// Redirects are never followed: a 3xx goes back to the sandbox, and the
// next hop is a new request, judged again. A panic in the decider is a
// deny.
//
// # Interception
//
// A [CA] (per installation, [LoadCA], key mode 0600 in a directory outside
// every sandbox) mints a leaf certificate for the stream's target; the
// sandbox trusts it through [CA.TrustBundle], written to a file the
// sandbox can read ([CA.WriteTrustBundle]) and named by SSL_CERT_FILE,
// NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE and GIT_SSL_CAINFO (the caller
// sets them). Upstream, the proxy speaks TLS to the same name and verifies
// the certificate against Config.RootCAs or the system roots; a failure
// answers 502. Both sides speak HTTP/1.1 only (ALPN http/1.1); upgrades
// (WebSocket) are carried.
//
// # Credentials
//
// Placeholders (package credential) are replaced by their values only in
// requests to the credential's hosts over intercepted TLS; never over plain
// HTTP. A placeholder on its way anywhere else is not replaced, the request
// is denied and the credential is flagged. inject.go states where
// placeholders are looked for. Values never appear in a record, a denial
// or a log line.
//
// # Denials and records
//
// A refused request gets a JSON body:
//
//	{"error":"policy_denied","host":"evil.example","port":443,"method":"CONNECT",
//	 "reason":"…","rule":"…","hint":"…"}
//
// with status 403 for a policy denial (error "policy_denied"), 400 for a
// request that cannot be parsed ("bad_request"), 431 for a header over
// Limits.MaxHeaderBytes, 502 when the upstream cannot be resolved, dialed
// or verified ("upstream_failed", "upstream_tls_failed") and 503 past
// Limits.MaxTunnels ("too_many_tunnels"), with the rule and reason of an
// always-denied address for an address of this machine (rule
// "always-denied: this machine"). A denial by one of the proxy's
// own checks rather than the decider (a request it cannot read, a Host
// header or TLS server name for another host, a limit) names the rule
// "proxy". Every stream and every request read in a stream is reported
// to Config.Record as an [audit.NetworkAttempt] (host, port, method,
// protocol, verdict, rule, reason, bytes each way, how long it took,
// whether a credential was injected or a placeholder flagged): a stream
// when it ends, a request when it is answered.
//
// # Limits
//
// [Limits] bound header sizes, connections, concurrent streams, idle
// time, handshakes and buffered bodies, so that what a sandbox makes the
// proxy (warden's own memory) hold is bounded per run: at most MaxConns
// (512) connections from the sandbox, of which MaxPending (128) not yet
// judged, each given HandshakeTimeout (10 s) to send its request; at most
// MaxTunnels (512) streams, each with its upstream; at most
// MaxLargeBuffers (64) 256 KiB copy buffers lent at once. Past a cap a
// new connection is closed at once, a CONNECT gets 503, and the refusal
// is recorded with the attempt's Limit. With the defaults, warden holds at
// most about 1,100 descriptors for the proxy, and its memory for it is
// about MaxConns × 100 KiB (a connection's goroutines, buffers and, while
// it arrives, a header up to MaxHeaderBytes) plus 16 MiB of copy buffers:
// about 70 MiB. The kernel's buffers of its sockets are bounded by the
// sandbox's namespace (tcp_rmem, tcp_wmem, set by init: 512 KiB a
// connection) on the sandbox's side and by the host's on the upstream
// side. An address of this machine is never dialed (local.go).
// [Proxy.Close] closes every listener, connection and stream and waits
// for the proxy's goroutines.
package proxy
