// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

// The proxy never dials this machine. A rule may open a public address,
// a wildcard name or a catch-all may match a name that resolves to one,
// and allowed_ips may cover one — and if that address is assigned to one
// of the host's own interfaces, a service bound to 0.0.0.0 there (a
// database, a debugger, a dev server, an agent's own API) would answer
// the sandbox. So every dial is checked, at the moment it is made,
// against the addresses of the host's interfaces, the decider's verdict
// notwithstanding:
//
//   - an address assigned to an interface, read with one netlink dump
//     (net.InterfaceAddrs: RTM_GETADDR on Linux, about 10 µs) and cached
//     for hostAddrsTTL (100 ms): an address added to an interface is
//     refused at most that long after it was added;
//   - 0.0.0.0/8 and ::, which connect to this machine, and loopback, in
//     case the decider let them through;
//   - an IPv4-mapped address is its IPv4 address (the proxy dials it so).
//
// A refusal is the same as for the addresses no rule opens: 403, rule
// "always-denied: this machine", recorded like any other. When the
// interfaces cannot be read, nothing is dialed (fail closed).

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// hostAddrsTTL is how long a reading of the interfaces is used.
const hostAddrsTTL = 100 * time.Millisecond

// RuleThisMachine is the rule of a refusal to dial an address of this
// machine.
const RuleThisMachine = "always-denied: this machine"

// hintThisMachine is the hint of that refusal (as netpolicy's for
// loopback).
const hintThisMachine = "services on this machine are never reachable through the egress proxy, whatever the policy says"

// thisMachine are the ranges that reach this machine whatever its
// interfaces hold.
var thisMachine = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("::/128"),
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("::1/128"),
}

// HostAddrs knows the addresses of this machine's interfaces; see
// local.go. Its methods are safe for concurrent use.
type HostAddrs struct {
	read func() ([]netip.Addr, error)

	mu    sync.Mutex // mu guards the fields below
	at    time.Time
	addrs map[netip.Addr]struct{}
	err   error
}

// NewHostAddrs returns a HostAddrs reading the interfaces with read, or,
// when read is nil, with net.InterfaceAddrs.
func NewHostAddrs(read func() ([]netip.Addr, error)) *HostAddrs {
	if read == nil {
		read = interfaceAddrs
	}
	return &HostAddrs{read: read}
}

func interfaceAddrs() ([]netip.Addr, error) {
	ifas, err := net.InterfaceAddrs()
	if err != nil {
		return nil, err
	}
	out := make([]netip.Addr, 0, len(ifas))
	for _, ifa := range ifas {
		if n, ok := ifa.(*net.IPNet); ok {
			if a, ok := netip.AddrFromSlice(n.IP); ok {
				out = append(out, a.Unmap())
			}
		}
	}
	return out, nil
}

// owns reports whether a is an address of this machine; err is set when
// the interfaces could not be read (and then ok is true: fail closed).
func (h *HostAddrs) owns(a netip.Addr) (bool, error) {
	a = a.Unmap().WithZone("")
	for _, p := range thisMachine {
		if p.Contains(a) {
			return true, nil
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if now := time.Now(); h.addrs == nil && h.err == nil || now.Sub(h.at) >= hostAddrsTTL || now.Before(h.at) {
		got, err := h.read()
		h.at, h.err, h.addrs = now, err, make(map[netip.Addr]struct{}, len(got))
		for _, g := range got {
			h.addrs[g.Unmap().WithZone("")] = struct{}{}
		}
	}
	if h.err != nil {
		return true, h.err
	}
	_, ok := h.addrs[a]
	return ok, nil
}

// Check judges the addresses about to be dialed for host (a name, or the
// IP literal itself): a deny naming the first address of this machine,
// and false, when there is one; true otherwise.
func (h *HostAddrs) Check(host string, addrs []netip.Addr) (Decision, bool) {
	for _, a := range addrs {
		mine, err := h.owns(a)
		if !mine {
			continue
		}
		subject := fmt.Sprintf("%s resolves to %s, which is", host, describeLocal(a))
		if ip, perr := netip.ParseAddr(host); perr == nil && ip.Unmap() == a.Unmap() {
			subject = describeLocal(a) + " is"
		}
		d := Decision{
			Rule:   RuleThisMachine,
			Reason: fmt.Sprintf("%s an address of this machine%s: always denied, whatever the rules", subject, ifaceOf(a)),
			Hint:   hintThisMachine,
		}
		if err != nil {
			d.Reason = fmt.Sprintf("the addresses of this machine's interfaces cannot be read (%v), so no address is dialed", err)
			d.Hint = "this is a fault of the host, not of the request; retry"
		}
		return d, false
	}
	return Decision{}, true
}

// describeLocal is a for a reason, with its IPv4 form when mapped.
func describeLocal(a netip.Addr) string {
	if a.Is4In6() {
		return fmt.Sprintf("%s (IPv4-mapped %s)", a, a.Unmap())
	}
	return a.String()
}

// ifaceOf names the interface that holds a, " (eth0)", for a refusal
// only: it costs a dump per interface.
func ifaceOf(a netip.Addr) string {
	a = a.Unmap()
	ifs, err := net.Interfaces()
	if err != nil {
		return ""
	}
	var names []string
	for _, ifc := range ifs {
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, ifa := range addrs {
			if n, ok := ifa.(*net.IPNet); ok {
				if b, ok := netip.AddrFromSlice(n.IP); ok && b.Unmap() == a {
					names = append(names, ifc.Name)
				}
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (on " + strings.Join(names, ", ") + ")"
}
