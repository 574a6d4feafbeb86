// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden run's way out (DESIGN.md §9): the egress proxy and the DNS stub,
// in this process, outside the sandbox, serving the listeners the sandbox's
// init made inside its network namespace. The rules:
//
//   - Every destination is judged by the policy file's network rules and,
//     when it has a network section, the managed tier's: both must allow.
//     No network section means default deny.
//   - A stream is judged before its protocol and method are known (CONNECT)
//     as allowed when some protocol, or some method (one the allow rules
//     name, or a common one), could be;
//     the proxy asks again once it knows, and a stream whose verdict
//     depends on the method is intercepted (with the CA) so that each
//     request in it is judged with its own.
//   - The DNS stub answers a name only when some request to it could be
//     allowed; the answer is a capture address, never a real one.
//   - Every attempt, allowed or denied, proxy or DNS, is recorded for the
//     execution record's network_attempts.
//   - What the sandbox can make this process hold is capped per run (the
//     proxy's Limits, the stub's DefaultMaxNames); every refusal by a cap
//     is counted in the record's network_limits, and the first few of
//     each are listed in network_attempts.
//   - The proxy never dials an address of this machine (proxy.HostAddrs,
//     shared with warden net check).

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/dnsstub"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/sandbox"
)

// maxAttempts bounds the network attempts a record lists; the rest are
// counted.
const maxAttempts = 10_000

// egress is one run's proxy and DNS stub.
type egress struct {
	runID string
	// tiers judge every destination: the policy file's rules (which
	// fileRules compiled) and the managed tier's, when it has network
	// rules. An approved rerun prepends a rule to fileRules.
	tiers     *netpolicy.Tiers
	fileRules []netpolicy.Rule
	creds     []credential.Credential
	proxy     *proxy.Proxy
	stub      *dnsstub.Stub
	// caBundle is the trust bundle the sandbox is pointed at (system
	// roots and Warden's CA), "" without a CA.
	caBundle string

	mu sync.Mutex
	// mu guards the fields below.
	attempts []audit.NetworkAttempt
	dropped  int
	limits   audit.NetworkLimits
}

// maxLimitAttempts is how many refusals of one cap network_attempts
// lists.
const maxLimitAttempts = 10

// newEgress builds the proxy and the stub for a run of lp's policy. The
// CA is made (once per installation) only when a rule names methods or a
// credential is bound: nothing else needs interception.
func newEgress(runID string, lp *loadedPolicy) (*egress, error) {
	tiers, err := netTiers(lp)
	if err != nil {
		return nil, err
	}
	e := &egress{runID: runID, tiers: tiers, fileRules: lp.file.Network.EgressRules()}
	intercept := tiers.NamesMethods()
	var specs []credential.Spec
	for _, c := range lp.file.Network.Credentials {
		specs = append(specs, credentialSpec(c))
	}
	if len(specs) > 0 {
		if e.creds, err = credential.Load(specs); err != nil {
			return nil, &exitError{code: exitSandbox, msg: "sandbox unavailable: network credentials: " + err.Error(),
				hints: []string{"set the variables or files the policy's network.credentials read, or remove the credential"}}
		}
	}
	var ca *proxy.CA
	if intercept || len(e.creds) > 0 {
		if ca, e.caBundle, err = loadCA(); err != nil {
			return nil, &exitError{code: exitSandbox, msg: "sandbox unavailable: egress CA: " + err.Error(),
				hints: []string{"the policy names HTTP methods or credentials, which need TLS interception; make " + caDir() + " writable"}}
		}
	}
	e.proxy, err = proxy.New(proxy.Config{
		CheckName:   e.checkName,
		CheckAddrs:  e.checkAddrs,
		Credentials: e.creds,
		CA:          ca,
		Record:      e.recordProxy,
		HostAddrs:   hostAddrs,
	})
	if err != nil {
		return nil, &exitError{code: exitSandbox, msg: "sandbox unavailable: egress proxy: " + err.Error()}
	}
	e.stub = dnsstub.New(dnsstub.Config{Allow: e.allowName, Record: e.recordDNS})
	lim := e.proxy.Limits()
	e.limits = audit.NetworkLimits{DNSNames: dnsstub.DefaultMaxNames, Connections: lim.MaxConns, Pending: lim.MaxPending, Tunnels: lim.MaxTunnels}
	return e, nil
}

func credentialSpec(c policyfile.Credential) credential.Spec {
	return credential.Spec{Name: c.Name, From: c.From, Hosts: c.Hosts}
}

// network is what the sandbox needs to reach e.
func (e *egress) network() *sandbox.Network {
	return &sandbox.Network{Serve: e.serve}
}

func (e *egress) serve(l sandbox.Listeners) {
	nameFor := func(a netip.AddrPort) (string, bool) { return e.stub.NameFor(a.Addr()) }
	go e.proxy.Serve(l.Proxy)
	go e.proxy.ServeTransparent(l.HTTP, "http", nameFor)
	go e.proxy.ServeTransparent(l.HTTPS, "https", nameFor)
	go e.stub.ServeUDP(l.DNS)
	go e.stub.ServeTCP(l.DNSTCP)
}

func (e *egress) close() { e.proxy.Close() }

// env is what the command needs to trust the CA of intercepted streams.
func (e *egress) env() []string {
	if e.caBundle == "" {
		return nil
	}
	var env []string
	for _, k := range []string{"SSL_CERT_FILE", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO"} {
		env = append(env, k+"="+e.caBundle)
	}
	for _, c := range e.creds {
		env = append(env, c.Name+"="+c.Placeholder())
	}
	return env
}

// decision is the proxy's form of d; intercept asks for each request of
// the stream to be judged with its own method.
func decision(d netpolicy.Decision, intercept bool) proxy.Decision {
	return proxy.Decision{Allow: d.Verdict == action.Allow, Rule: d.Rule, Reason: d.Reason, Hint: d.Hint,
		Addrs: d.Addrs, Intercept: intercept}
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

func (e *egress) checkName(_ context.Context, t proxy.Target) proxy.Decision {
	d := decision(e.tiers.CheckFlowName(flow(t), time.Now()))
	// With a credential bound, TLS is intercepted, so that its
	// placeholder can be replaced (and one heading elsewhere caught).
	// Only TLS: a plain HTTP stream is read anyway, and any other stream
	// can carry no request the proxy could replace a placeholder in, so
	// it is spliced as without credentials (asking here, before the
	// stream showed its protocol, would refuse it as one that must be
	// intercepted and cannot).
	if d.Allow && !d.Intercept && len(e.creds) > 0 && t.Protocol == proxy.ProtoHTTPS {
		d.Intercept = true
	}
	return d
}

func (e *egress) checkAddrs(_ context.Context, t proxy.Target, addrs []netip.Addr) proxy.Decision {
	return decision(e.tiers.CheckFlowAddrs(flow(t), addrs, time.Now()))
}

// allowName is the DNS stub's question: could any request to name be
// allowed, by every tier?
func (e *egress) allowName(name string) (bool, string, string) {
	d := e.tiers.CheckHost(name, time.Now())
	return d.Verdict == action.Allow, d.Rule, d.Reason
}

func (e *egress) add(a audit.NetworkAttempt) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.attempts) >= maxAttempts {
		e.dropped++
		return
	}
	e.attempts = append(e.attempts, a)
}

// refusedBy counts a refusal by a cap and reports whether it is still
// among the first maxLimitAttempts of its cap.
func (e *egress) refusedBy(limit string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	var n *int
	switch limit {
	case limitDNS:
		n = &e.limits.DNSRefused
	case "connections":
		n = &e.limits.ConnectionsRefused
	case "pending":
		n = &e.limits.PendingRefused
	case "tunnels":
		n = &e.limits.TunnelsRefused
	default:
		return true
	}
	*n++
	return *n <= maxLimitAttempts
}

// networkLimits returns the record's network_limits.
func (e *egress) networkLimits() *audit.NetworkLimits {
	e.mu.Lock()
	l := e.limits
	e.mu.Unlock()
	l.DNSNamesGiven = e.stub.Names()
	return &l
}

func (e *egress) recordProxy(a audit.NetworkAttempt) {
	if a.Limit != "" && !e.refusedBy(a.Limit) {
		return
	}
	a.RunID, a.Time = e.runID, a.Time.UTC()
	e.add(a)
}

// limitDNS is the Limit of a name the stub refused past its
// Config.MaxNames.
const limitDNS = "dns"

func (e *egress) recordDNS(q dnsstub.Query) {
	if q.Limit && !e.refusedBy(limitDNS) {
		return
	}
	a := audit.NetworkAttempt{
		RunID: e.runID, Time: time.Now().UTC(), Via: audit.ViaDNS, Host: q.Name, Protocol: "dns", Method: q.Type,
		Verdict: audit.VerdictOf(q.Allowed), Rule: q.Rule, Reason: q.Reason,
	}
	if q.Limit {
		a.Limit = limitDNS
	}
	e.add(a)
}

// recorded returns the attempts so far and how many more were not kept.
func (e *egress) recorded() ([]audit.NetworkAttempt, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]audit.NetworkAttempt{}, e.attempts...), e.dropped
}

// caDir is where this installation's CA lives: the user's config
// directory, which every run masks (wardenMasks): the key is 0600 to the
// user, and the command runs as the user outside its namespace, so the
// mode alone would not keep it out.
func caDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = filepath.Join(os.TempDir(), "warden-"+strconv.Itoa(os.Getuid()))
	}
	return filepath.Join(dir, "warden", "ca")
}

// loadCA loads (or makes) the CA, writes the trust bundle the sandbox
// reads, and returns both.
func loadCA() (*proxy.CA, string, error) {
	ca, err := proxy.LoadCA(caDir())
	if err != nil {
		return nil, "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil, "", fmt.Errorf("no cache directory for the trust bundle: %v", err)
	}
	bundle := filepath.Join(cache, "warden", "ca-bundle.pem")
	if err := os.MkdirAll(filepath.Dir(bundle), 0o755); err != nil {
		return nil, "", err
	}
	if err := ca.WriteTrustBundle(bundle); err != nil {
		return nil, "", err
	}
	return ca, bundle, nil
}

// denied lists the destinations the proxy or the DNS stub refused, each
// once, in order: "host:port" for the proxy, "host" for a name the stub
// would not answer.
func (e *egress) denied() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, a := range e.attempts {
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

// allow adds, ahead of the policy file's network rules, an allow rule for
// exactly dest ("host:port", or a host, then on ports 80 and 443), as a
// person approved for a rerun. The managed tier still has its say.
func (e *egress) allow(dest string) error {
	host, port, err := net.SplitHostPort(dest)
	ports := []int{80, 443}
	if err == nil {
		p, _ := strconv.Atoi(port)
		ports = []int{p}
	} else {
		host = dest
	}
	r := netpolicy.Rule{Name: "approved at the terminal", Verdict: action.Allow, Host: host, Ports: ports}
	rules := append([]netpolicy.Rule{r}, e.fileRules...)
	p, err := netpolicy.Compile(rules)
	if err != nil {
		return err
	}
	e.fileRules, e.tiers = rules, e.tiers.WithFirst(p)
	return nil
}
