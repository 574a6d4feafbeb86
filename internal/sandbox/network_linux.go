// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// The sandbox's way out. Init binds, inside the sandbox's network
// namespace and before it drops its capabilities, the sockets the caller
// serves from outside (the egress proxy on ProxyAddr, the :80 and :443
// capture, the DNS stub on DNSAddr), sends their descriptors to the parent
// over the control socket and closes its own: the command never holds
// them, and cannot bind their ports (below 1024 without the capability it
// does not have, or taken). The sandbox's /etc/resolv.conf names the stub,
// so no DNS query goes anywhere else (there is no route anywhere else).

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// listenerKinds are the listeners of a run with a network, in the order
// init sends them.
var listenerKinds = []struct {
	kind  string
	typ   int // unix.SOCK_STREAM or SOCK_DGRAM
	addr  netip.AddrPort
	field func(*Listeners, *os.File) error
}{
	{"proxy", unix.SOCK_STREAM, netip.MustParseAddrPort(ProxyAddr), func(l *Listeners, f *os.File) (err error) {
		l.Proxy, err = net.FileListener(f)
		return err
	}},
	{"http", unix.SOCK_STREAM, netip.MustParseAddrPort("0.0.0.0:80"), func(l *Listeners, f *os.File) (err error) {
		l.HTTP, err = net.FileListener(f)
		return err
	}},
	{"https", unix.SOCK_STREAM, netip.MustParseAddrPort("0.0.0.0:443"), func(l *Listeners, f *os.File) (err error) {
		l.HTTPS, err = net.FileListener(f)
		return err
	}},
	{"dns", unix.SOCK_DGRAM, netip.MustParseAddrPort(DNSAddr), func(l *Listeners, f *os.File) (err error) {
		l.DNS, err = net.FilePacketConn(f)
		return err
	}},
	{"dnstcp", unix.SOCK_STREAM, netip.MustParseAddrPort(DNSAddr), func(l *Listeners, f *os.File) (err error) {
		l.DNSTCP, err = net.FileListener(f)
		return err
	}},
	// Not a listener: the sock_diag socket, which only asks in the
	// namespace it was made in.
	{"diag", unix.SOCK_RAW, netip.AddrPort{}, func(l *Listeners, f *os.File) error {
		fd, err := unix.Dup(int(f.Fd()))
		if err != nil {
			return err
		}
		unix.CloseOnExec(fd)
		l.Diag = os.NewFile(uintptr(fd), "sock_diag")
		return nil
	}},
}

// makeListeners sends every listener to the parent: those a warm init
// bound ahead (prework), or bound now.
func (i *initProc) makeListeners() error {
	fds := i.ahead.listeners
	i.ahead.listeners = nil
	defer func() { closeFDs(fds) }()
	if fds == nil {
		var err error
		if fds, err = bindListeners(); err != nil {
			return err
		}
	}
	var kinds []string
	for _, k := range listenerKinds {
		kinds = append(kinds, k.kind)
	}
	b, err := jsonReport(report{Listeners: kinds})
	if err != nil {
		return err
	}
	return unix.Sendmsg(int(i.ctl.Fd()), b, unix.UnixRights(fds...), nil, 0)
}

// bindListeners binds every listener of listenerKinds, in its order.
func bindListeners() ([]int, error) {
	var fds []int
	for _, k := range listenerKinds {
		fd, err := bindSocket(k.typ, k.addr)
		if err != nil {
			closeFDs(fds)
			return nil, fmt.Errorf("%s listener on %s: %w", k.kind, k.addr, err)
		}
		fds = append(fds, fd)
	}
	return fds, nil
}

func bindSocket(typ int, ap netip.AddrPort) (int, error) {
	if typ == unix.SOCK_RAW {
		return diagSocket()
	}
	fd, err := unix.Socket(unix.AF_INET, typ|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
	sa := &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}
	if err := unix.Bind(fd, sa); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if typ == unix.SOCK_STREAM {
		if err := unix.Listen(fd, 4096); err != nil {
			unix.Close(fd)
			return -1, err
		}
	}
	return fd, nil
}

// socketBuffers cap the buffers the kernel grows a TCP socket of the
// sandbox's network namespace to (per namespace): the sandbox's own
// sockets and warden's ends of its connections to the proxy and the DNS
// stub, which live in the namespace too and on which warden never asks
// for more. 256 KiB a way keeps loopback transfers fast. The net.core
// [rw]mem_{max,default} are per namespace on Linux 6.18 too, but a child
// namespace only reads them (mode 0444, the initial namespace's values),
// so a socket of the command that asks with SO_RCVBUF or SO_SNDBUF may
// still get up to twice the host's net.core.rmem_max or wmem_max: those
// are the command's own memory, charged to its cgroup (cgroup_linux.go).
// SO_RCVBUFFORCE needs a capability the command does not have.
var socketBuffers = [][2]string{
	{"net/ipv4/tcp_rmem", "4096 131072 262144"},
	{"net/ipv4/tcp_wmem", "4096 16384 262144"},
}

// limitSocketBuffers writes socketBuffers under sys, the namespace's
// /proc/sys.
func limitSocketBuffers(sys string) error {
	for _, s := range socketBuffers {
		if err := os.WriteFile(sys+"/"+s[0], []byte(s[1]), 0); err != nil {
			return fmt.Errorf("socket buffers: %w", err)
		}
	}
	return nil
}

// resolvConf is the sandbox's resolver configuration: the stub only.
var resolvConf = "# Warden's sandbox: names are resolved by its DNS stub, which answers\n" +
	"# only what the policy allows and never asks the host's resolver.\n" +
	"nameserver " + strings.TrimSuffix(DNSAddr, ":53") + "\noptions edns0\n"

// pointResolver makes the sandbox's /etc/resolv.conf name the stub. The
// file is written in the sandbox's private /run and bound over the host's
// (resolved) one; one that already lives in a private tmpfs (a link into
// /run, as systemd-resolved's) is written in place.
func (i *initProc) pointResolver() error {
	target := i.cfg.ResolvConf
	if target == "" {
		// No resolv.conf on the host: resolvers then ask 127.0.0.1,
		// where nothing listens.
		return nil
	}
	for _, private := range []string{"/run/", "/tmp/"} {
		if strings.HasPrefix(target, private) {
			p := newRoot + target
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			return os.WriteFile(p, []byte(resolvConf), 0o644)
		}
	}
	src := newRoot + "/run/warden/resolv.conf"
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(src, []byte(resolvConf), 0o644); err != nil {
		return err
	}
	if err := unix.Mount(src, newRoot+target, "", unix.MS_BIND, ""); err != nil {
		return err
	}
	return setattr(newRoot+target, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV)
}

// diagSocket makes a NETLINK_SOCK_DIAG socket in the namespace.
func diagSocket() (int, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return -1, err
	}
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// checkListeners checks that a Listeners report carries one descriptor
// of each of listenerKinds, in its order.
func checkListeners(kinds []string, fds []int) error {
	if len(kinds) != len(fds) || len(kinds) != len(listenerKinds) {
		return fmt.Errorf("init sent %d listeners for %d kinds", len(fds), len(kinds))
	}
	for j, k := range listenerKinds {
		if kinds[j] != k.kind {
			return fmt.Errorf("init sent a %q listener where a %q one was due", kinds[j], k.kind)
		}
	}
	return nil
}

// idleListeners are the descriptors of a Listeners report, checked,
// not served yet.
type idleListeners struct {
	kinds []string
	fds   []int
}

// wait waits until one of the listeners has something to take (ready)
// or init has a report on ctl (reports); both may come at once.
func (il *idleListeners) wait(ctl int) (ready, reports bool) {
	pfds := make([]unix.PollFd, 0, len(il.fds)+1)
	pfds = append(pfds, unix.PollFd{Fd: int32(ctl), Events: unix.POLLIN})
	for j, k := range listenerKinds {
		if k.typ != unix.SOCK_RAW {
			pfds = append(pfds, unix.PollFd{Fd: int32(il.fds[j]), Events: unix.POLLIN})
		}
	}
	for {
		if _, err := unix.Poll(pfds, -1); err == nil {
			break
		} else if err != unix.EINTR {
			// Served now, rather than never.
			return true, true
		}
	}
	for _, p := range pfds[1:] {
		ready = ready || p.Revents != 0
	}
	return ready, pfds[0].Revents != 0
}

// receiveListeners turns the descriptors of a Listeners report into
// Listeners, closing them all.
func receiveListeners(kinds []string, fds []int) (Listeners, error) {
	var l Listeners
	files := make([]*os.File, len(fds))
	for j, fd := range fds {
		files[j] = os.NewFile(uintptr(fd), "sandbox-listener")
	}
	defer func() {
		// net.FileListener and FilePacketConn dup the descriptor.
		for _, f := range files {
			f.Close()
		}
	}()
	if err := checkListeners(kinds, fds); err != nil {
		return l, err
	}
	for j, k := range listenerKinds {
		if err := k.field(&l, files[j]); err != nil {
			l.Close()
			return Listeners{}, fmt.Errorf("%s listener: %w", k.kind, err)
		}
	}
	return l, nil
}

// hostResolvConf is the host's /etc/resolv.conf with its links followed,
// or "" when there is none.
func hostResolvConf() (string, error) {
	real, err := filepath.EvalSymlinks("/etc/resolv.conf")
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil
		}
		return "", err
	}
	return real, nil
}
