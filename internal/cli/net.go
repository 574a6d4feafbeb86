// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/egress"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/report"
)

const netCheckSynopsis = "net check [--policy FILE] [--json] [--resolve HOST=IP[,IP]]... [--method M] [--binary PATH] [--ancestor PATH]... [--provider FILE]... TARGET"

// netSubcommands are warden net's subcommands, for its usage.
var netSubcommands = [][2]string{
	{"check", "decide one network destination (a URL or a CONNECT host:port) as the egress proxy would"},
}

func runNet(ctx context.Context, args []string) error {
	g := group{name: "net", subs: netSubcommands}
	if done, err := g.help(args); done {
		return err
	}
	if args[0] != "check" {
		return g.unknown(args[0])
	}
	return netCheck(ctx, args[1:])
}

// lookupNetIP is the resolver for names without --resolve; tests replace
// it.
var lookupNetIP = net.DefaultResolver.LookupNetIP

// hostAddrs are this machine's addresses, which the proxy never dials
// whatever the policy says: warden net check and every run's proxy ask
// the same; tests replace it.
var hostAddrs = proxy.NewHostAddrs(nil)

// answers holds --resolve: the first answer given for each host, and
// whether a host was named at all (an empty answer is an answer).
type answers map[string][]netip.Addr

func (a answers) String() string { return "" }

// Set reads HOST=IP[,IP] or HOST= (no answer). Repeated for one host,
// the flags are successive answers; the proxy resolves once, so only the
// first counts.
func (a answers) Set(v string) error {
	host, list, ok := strings.Cut(v, "=")
	if !ok || host == "" {
		return fmt.Errorf("want HOST=IP[,IP] or HOST= (no answer), got %q", v)
	}
	addrs := []netip.Addr{}
	if list != "" {
		for _, s := range strings.Split(list, ",") {
			ip, err := netip.ParseAddr(strings.TrimSpace(s))
			if err != nil {
				return fmt.Errorf("%s: %q is not an IP address", host, s)
			}
			addrs = append(addrs, ip)
		}
	}
	key := resolveKey(host)
	if _, seen := a[key]; !seen {
		a[key] = addrs
	}
	return nil
}

// resolveKey is the form of a --resolve host compared with a target's.
func resolveKey(host string) string {
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

func netCheck(ctx context.Context, args []string) error {
	fs := newFlags("net check", netCheckSynopsis)
	policyPath := fs.String("policy", "", "policy `file` (default: the one discovery finds, see warden policy show; the embedded default has no network rules: everything is denied)")
	asJSON := fs.Bool("json", false, "print the decision as JSON")
	method := fs.String("method", "", "the request's HTTP `method` (default: not known, as for a CONNECT tunnel)")
	resolved := answers{}
	fs.Var(resolved, "resolve", "answer for `HOST=IP[,IP]` instead of asking the resolver (HOST= for no answer); repeated for one host, only the first counts, as the proxy resolves once")
	binary := fs.String("binary", "", "the connecting process's executable `PATH`, for a policy whose rules name binaries (OpenShell's)")
	var ancestors paths
	fs.Var(&ancestors, "ancestor", "an ancestor's executable `PATH`, parent first; repeat for each")
	var providers paths
	fs.Var(&providers, "provider", "an OpenShell provider profile `FILE` composed into an OpenShell policy, as warden run --provider does; repeat for each")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInput("net check takes one target: a URL or a CONNECT host:port", "warden net check --json https://api.github.com/ or warden net check --json api.github.com:443")
	}
	m := strings.ToUpper(*method)
	if *method != "" && strings.IndexFunc(m, func(c rune) bool { return c < 'A' || c > 'Z' }) >= 0 {
		return badInput(fmt.Sprintf("--method %q is not an HTTP method", *method), "--method GET")
	}
	var t netpolicy.Target
	var d netpolicy.Decision
	if p, err := openShellPolicy(*policyPath); err != nil {
		return err
	} else if p != nil {
		if p, err = contain.ComposeProviders(p, providers); err != nil {
			return err
		}
		t, d = egress.CheckOpenShell(ctx, p, pos[0], m, *binary, ancestors, resolved.resolver(), hostAddrs, now())
	} else if len(providers) > 0 {
		return badInput("--provider applies to an OpenShell policy", "give the OpenShell policy with --policy")
	} else {
		lp, err := loadPolicyNoting(*policyPath)
		if err != nil {
			return err
		}
		tiers, err := lp.NetTiers()
		if err != nil {
			return err
		}
		t, d = decideNet(ctx, tiers, pos[0], m, resolved, now())
	}
	out := report.NetCheck(t, d)
	if *asJSON {
		return printJSON(out)
	}
	out.WriteText(Stdout)
	return nil
}

// decideNet judges raw as a run's proxy does (egress.Check), resolving
// names from --resolve, else with the system resolver.
func decideNet(ctx context.Context, tiers *netpolicy.Tiers, raw, method string, resolved answers, now time.Time) (netpolicy.Target, netpolicy.Decision) {
	return egress.Check(ctx, tiers, raw, method, resolved.resolver(), hostAddrs, now)
}

// resolver answers from --resolve, else with the system resolver.
func (a answers) resolver() func(ctx context.Context, host string) ([]netip.Addr, error) {
	return func(ctx context.Context, host string) ([]netip.Addr, error) {
		if addrs, ok := a[resolveKey(host)]; ok {
			return addrs, nil
		}
		return lookupNetIP(ctx, "ip", host)
	}
}
