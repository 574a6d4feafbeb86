// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package callerid

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Caller is the process that owns a connection's client socket.
type Caller struct {
	PID int
	// Exe is the kernel's path of its executable (/proc/PID/exe).
	Exe string
	// Ancestors are its parents' executables, parent first, up to and
	// not including the sandbox's init; AncestorPIDs their pids.
	Ancestors    []string
	AncestorPIDs []int
}

// ErrNotFound is returned when no process of the sandbox holds the
// socket (it exited or closed it), or the socket is gone.
var ErrNotFound = errors.New("no process of the sandbox holds the connection's socket")

// Finder finds callers in one sandbox. It is safe for concurrent use.
type Finder struct {
	// mu serialises the netlink exchange on diag.
	mu   sync.Mutex
	diag int
	root int
	proc string

	hiMu sync.Mutex
	// hi is each process's highest descriptor at its last full scan: a
	// process that holds many sockets gives a new one the lowest free
	// number, most often the one above its highest, which is tried
	// before a full scan (reading a /proc/PID/fd of a thousand entries
	// costs half a millisecond).
	hi map[int]int
	// last is the descriptor each process's last socket was found at,
	// below its highest.
	last map[int]int
}

// New returns a Finder for the sandbox whose init is the process root
// (its pid as this process sees it), asking the kernel through diag, a
// NETLINK_SOCK_DIAG socket made in the sandbox's network namespace
// ([NewDiag] there). The Finder takes diag; Close closes it.
func New(diag *os.File, root int) (*Finder, error) {
	fd, err := unix.Dup(int(diag.Fd()))
	if err != nil {
		return nil, fmt.Errorf("callerid: %w", err)
	}
	diag.Close()
	unix.CloseOnExec(fd)
	return &Finder{diag: fd, root: root, proc: "/proc", hi: map[int]int{}, last: map[int]int{}}, nil
}

// NewDiag makes a NETLINK_SOCK_DIAG socket in the calling thread's
// network namespace.
func NewDiag() (*os.File, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("callerid: sock_diag socket: %w", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("callerid: sock_diag socket: %w", err)
	}
	return os.NewFile(uintptr(fd), "sock_diag"), nil
}

// Close closes the Finder's netlink socket.
func (f *Finder) Close() error { return unix.Close(f.diag) }

// Find returns the process whose socket's address is client and whose
// peer is server: the two ends of a connection the proxy accepted, as
// the accepted socket's remote and local addresses.
func (f *Finder) Find(client, server netip.AddrPort) (Caller, error) {
	inode, err := f.Inode(client, server)
	if err != nil {
		return Caller{}, err
	}
	pid, err := f.holder(inode)
	if err != nil {
		return Caller{}, err
	}
	exe, err := f.exe(pid)
	if err != nil {
		return Caller{}, err
	}
	c := Caller{PID: pid, Exe: exe}
	for p := Parent(f.proc, pid); p > 0 && p != f.root; p = Parent(f.proc, p) {
		e, err := f.exe(p)
		if err != nil {
			break
		}
		c.Ancestors, c.AncestorPIDs = append(c.Ancestors, e), append(c.AncestorPIDs, p)
	}
	return c, nil
}

// Sizes of the kernel's structures (linux/inet_diag.h).
const (
	sockIDLen = 48 // inet_diag_sockid
	reqLen    = 8 + sockIDLen
	msgLen    = 4 + sockIDLen + 20 // inet_diag_msg
	noCookie  = ^uint32(0)
)

// Inode asks sock_diag for the inode of the TCP socket whose local end is
// client and remote end server: the connection's client socket.
func (f *Finder) Inode(client, server netip.AddrPort) (uint32, error) {
	family := uint8(unix.AF_INET6)
	if client.Addr().Unmap().Is4() && server.Addr().Unmap().Is4() {
		family = unix.AF_INET
		client = netip.AddrPortFrom(client.Addr().Unmap(), client.Port())
		server = netip.AddrPortFrom(server.Addr().Unmap(), server.Port())
	}
	msg := make([]byte, unix.NLMSG_HDRLEN+reqLen)
	binary.NativeEndian.PutUint32(msg[0:], uint32(len(msg)))
	binary.NativeEndian.PutUint16(msg[4:], unix.SOCK_DIAG_BY_FAMILY)
	binary.NativeEndian.PutUint16(msg[6:], unix.NLM_F_REQUEST)
	req := msg[unix.NLMSG_HDRLEN:]
	req[0], req[1] = family, unix.IPPROTO_TCP
	binary.NativeEndian.PutUint32(req[4:], ^uint32(0)) // every state
	id := req[8:]
	binary.BigEndian.PutUint16(id[0:], client.Port())
	binary.BigEndian.PutUint16(id[2:], server.Port())
	putAddr(id[4:20], client.Addr(), family)
	putAddr(id[20:36], server.Addr(), family)
	binary.NativeEndian.PutUint32(id[40:], noCookie)
	binary.NativeEndian.PutUint32(id[44:], noCookie)

	f.mu.Lock()
	defer f.mu.Unlock()
	if err := unix.Sendto(f.diag, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return 0, fmt.Errorf("callerid: sock_diag: %w", err)
	}
	buf := make([]byte, 8192)
	for {
		n, _, err := unix.Recvfrom(f.diag, buf, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("callerid: sock_diag: %w", err)
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return 0, fmt.Errorf("callerid: sock_diag: %w", err)
		}
		for _, m := range msgs {
			switch m.Header.Type {
			case unix.NLMSG_ERROR:
				if len(m.Data) >= 4 {
					if errno := int32(binary.NativeEndian.Uint32(m.Data)); errno != 0 {
						if unix.Errno(-errno) == unix.ENOENT {
							return 0, ErrNotFound
						}
						return 0, fmt.Errorf("callerid: sock_diag: %w", unix.Errno(-errno))
					}
				}
				return 0, ErrNotFound
			case unix.SOCK_DIAG_BY_FAMILY:
				if len(m.Data) < msgLen {
					return 0, errors.New("callerid: sock_diag: short answer")
				}
				if inode := binary.NativeEndian.Uint32(m.Data[msgLen-4:]); inode != 0 {
					return inode, nil
				}
				return 0, ErrNotFound
			case unix.NLMSG_DONE:
				return 0, ErrNotFound
			}
		}
	}
}

func putAddr(b []byte, a netip.Addr, family uint8) {
	if family == unix.AF_INET {
		a4 := a.As4()
		copy(b, a4[:])
		return
	}
	a16 := a.As16()
	copy(b, a16[:])
}

// probe is how many descriptors above a process's highest known one are
// tried before its descriptors are listed.
const probe = 8

// holder finds the process of the sandbox holding socket inode, the
// newest first.
func (f *Finder) holder(inode uint32) (int, error) {
	pids := f.descendants()
	slices.Reverse(pids)
	// Each process's descriptor directory is opened once, and each
	// descriptor read relative to it: a readlink of the whole path
	// walks /proc/PID again each time, which costs most of it.
	dirs := map[int]int{}
	defer func() {
		for _, d := range dirs {
			unix.Close(d)
		}
	}()
	is := func(pid, fd int) bool {
		d, ok := dirs[pid]
		if !ok {
			var err error
			if d, err = unix.Open(f.proc+"/"+strconv.Itoa(pid)+"/fd", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
				d = -1
			}
			dirs[pid] = d
		}
		if d < 0 {
			return false
		}
		// The descriptor's file, followed: a socket's inode number is
		// the one sock_diag gives.
		var st unix.Stat_t
		err := unix.Fstatat(d, strconv.Itoa(fd), &st, 0)
		return err == nil && st.Mode&unix.S_IFMT == unix.S_IFSOCK && st.Ino == uint64(inode)
	}
	f.hiMu.Lock()
	if len(f.hi) > 2*len(pids)+64 {
		// Forget the processes that are gone.
		for pid := range f.hi {
			if !slices.Contains(pids, pid) {
				delete(f.hi, pid)
				delete(f.last, pid)
			}
		}
	}
	known := maps.Clone(f.hi)
	f.hiMu.Unlock()
	for _, pid := range pids {
		if hi, ok := known[pid]; ok {
			for fd := hi + 1; fd <= hi+probe; fd++ {
				if is(pid, fd) {
					f.setHi(pid, fd)
					return pid, nil
				}
			}
		}
	}
	for _, pid := range pids {
		// Lowest first: a socket not above the highest descriptor took
		// the lowest free number, a gap left by one closed. Up to the
		// highest known, numbers are tried without listing the
		// directory; past it, or for a process not seen yet, the
		// directory is listed.
		hi, ok := known[pid]
		if ok {
			// From just after the number found last in this process,
			// then from 0: a pool that closes its oldest connection
			// first frees, each time, the number after the last one.
			last := min(f.lastFound(pid), hi)
			for k := range hi + 1 {
				fd := (last + 1 + k) % (hi + 1)
				if is(pid, fd) {
					f.setLast(pid, fd)
					return pid, nil
				}
			}
		}
		fds := readFDs(f.proc + "/" + strconv.Itoa(pid) + "/fd")
		if len(fds) > 0 {
			f.setHi(pid, fds[len(fds)-1])
		}
		for _, fd := range fds {
			if (!ok || fd > hi) && is(pid, fd) {
				return pid, nil
			}
		}
	}
	return 0, ErrNotFound
}

func (f *Finder) lastFound(pid int) int {
	f.hiMu.Lock()
	defer f.hiMu.Unlock()
	if l, ok := f.last[pid]; ok {
		return l
	}
	return -1
}

func (f *Finder) setLast(pid, fd int) {
	f.hiMu.Lock()
	f.last[pid] = fd
	f.hiMu.Unlock()
}

func (f *Finder) setHi(pid, fd int) {
	f.hiMu.Lock()
	f.hi[pid] = fd
	f.hiMu.Unlock()
}

// readFDs lists a /proc/PID/fd directory's descriptors, in order.
func readFDs(dir string) []int {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	fds := make([]int, 0, len(names))
	for _, n := range names {
		if fd, err := strconv.Atoi(n); err == nil {
			fds = append(fds, fd)
		}
	}
	slices.Sort(fds)
	return fds
}

// descendants lists the init's descendants, breadth first (parents
// before children), without the init.
func (f *Finder) descendants() []int {
	var out []int
	queue := []int{f.root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if pid != f.root {
			out = append(out, pid)
		}
		tasks, err := os.ReadDir(f.proc + "/" + strconv.Itoa(pid) + "/task")
		if err != nil {
			continue
		}
		for _, t := range tasks {
			b, err := os.ReadFile(f.proc + "/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, w := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(w); err == nil {
					queue = append(queue, c)
				}
			}
		}
	}
	return out
}

// exe is pid's executable as the kernel names it.
func (f *Finder) exe(pid int) (string, error) {
	s, err := os.Readlink(f.proc + "/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return "", fmt.Errorf("callerid: process %d: %w", pid, err)
	}
	if strings.HasSuffix(s, " (deleted)") {
		return "", fmt.Errorf("callerid: process %d runs a deleted executable (%s)", pid, s)
	}
	return s, nil
}

// Parent is pid's parent as proc (a /proc) shows it, 0 when unknown.
func Parent(proc string, pid int) int {
	b, err := os.ReadFile(proc + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name may hold spaces and parentheses: the fields
	// after it start after the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}
