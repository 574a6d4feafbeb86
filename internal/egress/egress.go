// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package egress is a run's way out of the sandbox (docs/spec.md §9): the
// egress proxy and the DNS stub, in the warden process, outside the
// sandbox, serving the listeners the sandbox's init made inside its
// network namespace, with the CA of intercepted streams and the record of
// every attempt. It takes its policy compiled ([netpolicy.Tiers]) and its
// paths from the caller, and reads no policy file.
//
// # Rules
//
//   - Every destination is judged by the policy file's network rules and,
//     when it has a network section, the managed tier's: both must allow
//     ([netpolicy.Tiers]). No network section means default deny.
//   - A stream is judged before its protocol and method are known
//     (CONNECT) as allowed when some protocol, or some method (one the
//     allow rules name, or a common one), could be; the proxy asks again
//     once it knows, and a stream whose verdict depends on the method is
//     intercepted (with the CA) so that each request in it is judged with
//     its own.
//   - With a credential bound, TLS streams are intercepted too, so that
//     its placeholder can be replaced (and one heading elsewhere caught).
//   - The CA is made (once per installation, in Config.CADir) only when a
//     rule names methods or a credential is bound: nothing else needs
//     interception.
//   - The DNS stub answers a name only when some request to it could be
//     allowed; the answer is a capture address, never a real one.
//   - Every attempt, allowed or denied, proxy or DNS, is recorded as an
//     [audit.NetworkAttempt] for the execution record's network_attempts
//     (at most [MaxAttempts]; the rest are counted).
//   - What the sandbox can make this process hold is capped per run (the
//     proxy's Limits, the stub's DefaultMaxNames); every refusal by a cap
//     is counted in the record's network_limits, and the first few of
//     each are listed among the attempts.
//   - The proxy never dials an address of this machine (Config.HostAddrs,
//     which `warden net check` asks too).
//
// # Errors
//
// [New] fails with an [*UnavailableError] when the way out cannot be
// built: without it the sandbox cannot be set up, and the run must not
// start.
package egress

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/dnsstub"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/sandbox"
)

// Config is what a run's way out is built from.
type Config struct {
	// RunID names the run in every attempt recorded.
	RunID string
	// Tiers judge every destination: the policy file's network rules,
	// compiled from FileRules, then the managed tier's when it has a
	// network section.
	Tiers *netpolicy.Tiers
	// FileRules are the policy file's network rules, the first tier of
	// Tiers: an approved rerun ([Boundary.Allow]) puts a rule ahead of
	// them.
	FileRules []netpolicy.Rule
	// Credentials are the secrets the proxy puts in place of their
	// placeholders, read when the way out is built.
	Credentials []credential.Spec
	// CADir is where the installation's CA is kept (made on first use):
	// a directory no sandbox may see.
	CADir string
	// TrustBundle says where to write the trust bundle the sandbox is
	// pointed at (the system roots and the CA). It is asked only when a
	// CA is needed, and its error is then New's.
	TrustBundle func() (string, error)
	// HostAddrs are this machine's addresses, which the proxy never
	// dials; nil means the interfaces' (proxy.NewHostAddrs(nil)).
	HostAddrs *proxy.HostAddrs
	// OpenShell, when set, decides every destination in place of Tiers,
	// with OpenShell's semantics and the binary behind each connection
	// (openshell.go); Warden's floor still holds.
	OpenShell *openshell.Policy
}

// Boundary is one run's proxy and DNS stub, and the record of what went
// through them. Its methods are safe for concurrent use.
type Boundary struct {
	runID string
	// tiers judge every destination; an approved rerun replaces them.
	tiers atomic.Pointer[netpolicy.Tiers]
	creds []credential.Credential
	proxy *proxy.Proxy
	stub  *dnsstub.Stub
	// caBundle is the trust bundle the sandbox is pointed at, "" without
	// a CA.
	caBundle string
	// now is the clock rules are judged at (Until); tests replace it.
	now func() time.Time
	// os decides instead of tiers under an OpenShell policy; callers
	// finds the process behind a connection, once the sandbox's
	// listeners are served.
	os      *openShell
	callers callers

	mu sync.Mutex
	// mu guards the fields below.
	fileRules []netpolicy.Rule
	attempts  []audit.NetworkAttempt
	dropped   int
	limits    audit.NetworkLimits
}

// New builds the proxy and the stub for a run. It fails with an
// [*UnavailableError] when a credential cannot be read, the CA or its
// trust bundle cannot be made, or the proxy refuses its configuration.
func New(cfg Config) (*Boundary, error) {
	b := &Boundary{runID: cfg.RunID, fileRules: cfg.FileRules, now: time.Now}
	tiers := cfg.Tiers
	if tiers == nil {
		tiers = netpolicy.NewTiers()
	}
	b.tiers.Store(tiers)
	var err error
	if len(cfg.Credentials) > 0 {
		if b.creds, err = credential.Load(cfg.Credentials); err != nil {
			return nil, &UnavailableError{What: "network credentials", Err: err,
				Hint: "set the variables or files the policy's network.credentials read, or remove the credential"}
		}
	}
	if cfg.OpenShell != nil {
		b.os = newOpenShell(cfg.OpenShell)
		oc, err := providerCredentials(cfg.OpenShell, os.LookupEnv)
		if err != nil {
			return nil, err
		}
		b.creds = append(b.creds, oc...)
	}
	var ca *proxy.CA
	if tiers.NamesMethods() || len(b.creds) > 0 || (b.os != nil && cfg.OpenShell.Inspects()) {
		if ca, b.caBundle, err = loadCA(cfg.CADir, cfg.TrustBundle); err != nil {
			return nil, &UnavailableError{What: "egress CA", Err: err,
				Hint: "the policy names HTTP methods or credentials, which need TLS interception; make " + cfg.CADir + " writable"}
		}
	}
	pc := proxy.Config{
		CheckName:   b.checkName,
		CheckAddrs:  b.checkAddrs,
		Credentials: b.creds,
		CA:          ca,
		Record:      b.recordProxy,
		HostAddrs:   cfg.HostAddrs,
	}
	if b.os != nil {
		pc.Identify = b.callers.identify
	}
	b.proxy, err = proxy.New(pc)
	if err != nil {
		return nil, &UnavailableError{What: "egress proxy", Err: err}
	}
	b.stub = dnsstub.New(dnsstub.Config{Allow: b.allowName, Record: b.recordDNS})
	lim := b.proxy.Limits()
	b.limits = audit.NetworkLimits{DNSNames: dnsstub.DefaultMaxNames, Connections: lim.MaxConns, Pending: lim.MaxPending, Tunnels: lim.MaxTunnels}
	return b, nil
}

// Network is what the sandbox needs to reach b.
func (b *Boundary) Network() *sandbox.Network {
	n := &sandbox.Network{Serve: b.serve}
	if b.os != nil {
		// Who makes each connection, seen at the call.
		n.Connected = b.callers.connected
	}
	return n
}

func (b *Boundary) serve(l sandbox.Listeners) {
	if b.os != nil {
		b.callers.start(l)
	}
	nameFor := func(a netip.AddrPort) (string, bool) { return b.stub.NameFor(a.Addr()) }
	go b.proxy.Serve(l.Proxy)
	go b.proxy.ServeTransparent(l.HTTP, "http", nameFor)
	go b.proxy.ServeTransparent(l.HTTPS, "https", nameFor)
	go b.stub.ServeUDP(l.DNS)
	go b.stub.ServeTCP(l.DNSTCP)
}

// Close closes the proxy, its listeners and every connection.
func (b *Boundary) Close() {
	b.proxy.Close()
	b.callers.close()
}

// TrustBundle is the trust bundle the sandbox is pointed at (the system
// roots and the CA), "" when no stream is intercepted.
func (b *Boundary) TrustBundle() string { return b.caBundle }

// Env is what the command needs to trust the CA of intercepted streams,
// and the placeholders of the credentials.
func (b *Boundary) Env() []string {
	if b.caBundle == "" {
		return nil
	}
	var env []string
	for _, k := range []string{"SSL_CERT_FILE", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO"} {
		env = append(env, k+"="+b.caBundle)
	}
	for _, c := range b.creds {
		env = append(env, c.Name+"="+c.Placeholder())
	}
	return env
}

// flow is the proxy's target in the policy's terms: a stream's method
// ("CONNECT") is not known, and the proxy's protocols are the policy's
// (ProtoUnknown, "", for a stream not started yet).
func flow(t proxy.Target) netpolicy.Flow {
	f := netpolicy.Flow{Host: t.Host, Port: t.Port, Protocol: netpolicy.Protocol(t.Protocol), Method: t.Method, Path: t.Path}
	if f.Method == "CONNECT" {
		f.Method = ""
	}
	return f
}

// decision is the proxy's form of d; intercept asks for each request of
// the stream to be judged with its own method.
func decision(d netpolicy.Decision, intercept bool) proxy.Decision {
	return proxy.Decision{Allow: d.Verdict == action.Allow, Rule: d.Rule, Reason: d.Reason, Hint: d.Hint,
		Addrs: d.Addrs, Intercept: intercept}
}

func (b *Boundary) checkName(_ context.Context, t proxy.Target) proxy.Decision {
	if b.os != nil {
		d, e := b.os.decide(t)
		if !d.Allow {
			return d
		}
		if fd, _ := b.os.floor(e).CheckFlowName(flow(t), b.now()); fd.Verdict != action.Allow {
			return decision(fd, false)
		}
		return d
	}
	d := decision(b.tiers.Load().CheckFlowName(flow(t), b.now()))
	// With a credential bound, TLS is intercepted, so that its
	// placeholder can be replaced (and one heading elsewhere caught).
	// Only TLS: a plain HTTP stream is read anyway, and any other stream
	// can carry no request the proxy could replace a placeholder in, so
	// it is spliced as without credentials (asking here, before the
	// stream showed its protocol, would refuse it as one that must be
	// intercepted and cannot).
	if d.Allow && !d.Intercept && len(b.creds) > 0 && t.Protocol == proxy.ProtoHTTPS {
		d.Intercept = true
	}
	return d
}

func (b *Boundary) checkAddrs(_ context.Context, t proxy.Target, addrs []netip.Addr) proxy.Decision {
	if b.os != nil {
		d, e := b.os.decide(t)
		if !d.Allow {
			return d
		}
		fd, _ := b.os.floor(e).CheckFlowAddrs(flow(t), addrs, b.now())
		if fd.Verdict != action.Allow {
			return decision(fd, false)
		}
		d.Addrs = fd.Addrs
		return d
	}
	return decision(b.tiers.Load().CheckFlowAddrs(flow(t), addrs, b.now()))
}

// allowName is the DNS stub's question: could any request to name be
// allowed, by every tier?
func (b *Boundary) allowName(name string) (bool, string, string) {
	if b.os != nil && !b.os.p.MayReach(name) {
		return false, "openshell: default deny", "no endpoint of the OpenShell policy names " + name
	}
	if b.os != nil {
		// The floor: an OpenShell endpoint never opens an always-denied
		// name.
		d := b.os.floor(nil).CheckHost(name, b.now())
		return d.Verdict == action.Allow, d.Rule, d.Reason
	}
	d := b.tiers.Load().CheckHost(name, b.now())
	return d.Verdict == action.Allow, d.Rule, d.Reason
}

// Allow adds, ahead of the policy file's network rules, an allow rule for
// exactly dest ("host:port", or a host, then on ports 80 and 443), as a
// person approved for a rerun. The managed tier still has its say. It
// fails only when the rules no longer compile.
func (b *Boundary) Allow(dest string) error {
	if b.os != nil {
		return errors.New("an OpenShell policy is not widened at the terminal: change the policy file")
	}
	host, port, err := net.SplitHostPort(dest)
	ports := []int{80, 443}
	if err == nil {
		p, _ := strconv.Atoi(port)
		ports = []int{p}
	} else {
		host = dest
	}
	r := netpolicy.Rule{Name: "approved at the terminal", Verdict: action.Allow, Host: host, Ports: ports}
	b.mu.Lock()
	defer b.mu.Unlock()
	rules := append([]netpolicy.Rule{r}, b.fileRules...)
	p, err := netpolicy.Compile(rules)
	if err != nil {
		return err
	}
	b.fileRules = rules
	b.tiers.Store(b.tiers.Load().WithFirst(p))
	return nil
}
