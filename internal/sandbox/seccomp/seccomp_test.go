// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp_test

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/sandbox/seccomp"
)

// call is the input of a filter, struct seccomp_data.
type call struct {
	nr   uint32
	arch uint32
	args [6]uint64
}

func (c call) bytes() []byte {
	b := make([]byte, 64)
	binary.LittleEndian.PutUint32(b[0:], c.nr)
	binary.LittleEndian.PutUint32(b[4:], c.arch)
	binary.LittleEndian.PutUint64(b[8:], 0x401000) // instruction pointer
	for i, a := range c.args {
		binary.LittleEndian.PutUint64(b[16+8*i:], a)
	}
	return b
}

// validate applies the kernel's checks on a classic seccomp program
// (bpf_check_classic and seccomp_check_filter), restricted to the opcodes
// the builder uses: known opcodes, aligned loads inside seccomp_data,
// jumps inside the program, and a return at the end. It also refuses
// offsets the builder never sets: Jt and Jf on an instruction other than
// a conditional jump (the kernel ignores them).
func validate(prog []seccomp.Instruction) error {
	if len(prog) == 0 || len(prog) > seccomp.MaxInstructions {
		return fmt.Errorf("length %d", len(prog))
	}
	for pc, in := range prog {
		conditional := false
		switch in.Code {
		case seccomp.OpLoadAbs:
			if in.K%4 != 0 || in.K+4 > 64 {
				return fmt.Errorf("%d: load at %d outside seccomp_data", pc, in.K)
			}
		case seccomp.OpAnd, seccomp.OpRet:
		case seccomp.OpJeq, seccomp.OpJge, seccomp.OpJset:
			conditional = true
			if pc+1+int(in.Jt) >= len(prog) || pc+1+int(in.Jf) >= len(prog) {
				return fmt.Errorf("%d: jump out of the program", pc)
			}
		case seccomp.OpJa:
			if pc+1+int(in.K) >= len(prog) {
				return fmt.Errorf("%d: jump by %d out of the program", pc, in.K)
			}
		default:
			return fmt.Errorf("%d: opcode %#x", pc, in.Code)
		}
		if !conditional && (in.Jt != 0 || in.Jf != 0) {
			return fmt.Errorf("%d: jump offsets on %#x, not a conditional jump", pc, in.Code)
		}
	}
	if prog[len(prog)-1].Code != seccomp.OpRet {
		return fmt.Errorf("the last instruction is not a return")
	}
	return nil
}

// jumpBy returns how many instructions the jump in skips with acc in A.
func jumpBy(in seccomp.Instruction, acc uint32) int {
	var taken bool
	switch in.Code {
	case seccomp.OpJa:
		return int(in.K)
	case seccomp.OpJeq:
		taken = acc == in.K
	case seccomp.OpJge:
		taken = acc >= in.K
	case seccomp.OpJset:
		taken = acc&in.K != 0
	}
	if taken {
		return int(in.Jt)
	}
	return int(in.Jf)
}

// eval runs a validated program on c, as the kernel's interpreter would.
func eval(prog []seccomp.Instruction, c call) seccomp.Action {
	data := c.bytes()
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case seccomp.OpLoadAbs:
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case seccomp.OpAnd:
			acc &= in.K
		case seccomp.OpJeq, seccomp.OpJge, seccomp.OpJset, seccomp.OpJa:
			pc += jumpBy(in, acc)
		case seccomp.OpRet:
			return seccomp.Action(in.K)
		}
	}
	panic("fell off the end of a validated program")
}

func program(t *testing.T) []seccomp.Instruction {
	t.Helper()
	prog, err := seccomp.Program("amd64", seccomp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(prog); err != nil {
		t.Fatalf("the kernel would reject the program: %v", err)
	}
	return prog
}

const (
	auditX8664   = 0xc000003e
	auditI386    = 0x40000003
	auditAArch64 = 0xc00000b7

	cloneVM      = 0x100
	cloneFS      = 0x200
	cloneFiles   = 0x400
	cloneSighand = 0x800
	cloneThread  = 0x10000
	cloneVfork   = 0x4000
	clonePidfd   = 0x1000
	sigchld      = 17
	cloneNewNS   = 0x20000
	cloneNewUser = 0x10000000
	cloneNewNet  = 0x40000000

	sockStream   = 1
	sockDgram    = 2
	sockRaw      = 3
	sockPacket   = 10
	sockNonblock = 0x800
	sockCloexec  = 0x80000

	afUnix    = 1
	afInet    = 2
	afInet6   = 10
	afNetlink = 16
	afPacket  = 17
)

func nr(t *testing.T, name string) uint32 {
	t.Helper()
	n, ok := seccomp.AMD64.Numbers[name]
	if !ok {
		t.Fatalf("no number for %s", name)
	}
	return n
}

// verdicts are calls of the sandboxed command and what Warden's filter
// must answer.
var verdicts = []struct {
	name    string
	syscall string
	nr      uint32 // when syscall is ""
	args    [6]uint64
	want    seccomp.Action
}{
	{name: "read", nr: 0, want: seccomp.Allow},
	{name: "write", nr: 1, args: [6]uint64{1, 0x1000, 5}, want: seccomp.Allow},
	{name: "execve", nr: 59, want: seccomp.Allow},
	{name: "getpid", nr: 39, want: seccomp.Allow},
	{name: "seccomp itself (may only add filters)", nr: 317, want: seccomp.Allow},

	{name: "ptrace traceme", syscall: "ptrace", want: seccomp.Deny},
	{name: "ptrace attach", syscall: "ptrace", args: [6]uint64{16, 1}, want: seccomp.Deny},
	{name: "process_vm_readv", syscall: "process_vm_readv", want: seccomp.Deny},
	{name: "process_vm_writev", syscall: "process_vm_writev", want: seccomp.Deny},
	{name: "mount", syscall: "mount", want: seccomp.Deny},
	{name: "umount2", syscall: "umount2", want: seccomp.Deny},
	{name: "pivot_root", syscall: "pivot_root", want: seccomp.Deny},
	{name: "fsopen", syscall: "fsopen", want: seccomp.Deny},
	{name: "open_tree", syscall: "open_tree", want: seccomp.Deny},
	{name: "chroot", syscall: "chroot", want: seccomp.Deny},

	{name: "unshare newuser", syscall: "unshare", args: [6]uint64{cloneNewUser}, want: seccomp.Deny},
	{name: "unshare files", syscall: "unshare", args: [6]uint64{cloneFiles}, want: seccomp.Deny},
	{name: "setns", syscall: "setns", args: [6]uint64{3, 0}, want: seccomp.Deny},
	{name: "clone fork", syscall: "clone", args: [6]uint64{sigchld}, want: seccomp.Allow},
	{name: "clone vfork with pidfd (Go's os.StartProcess)", syscall: "clone",
		args: [6]uint64{cloneVM | cloneVfork | clonePidfd | sigchld}, want: seccomp.Allow},
	{name: "clone thread", syscall: "clone",
		args: [6]uint64{cloneVM | cloneFS | cloneFiles | cloneSighand | cloneThread}, want: seccomp.Allow},
	{name: "clone newuser", syscall: "clone", args: [6]uint64{cloneNewUser | sigchld}, want: seccomp.Deny},
	{name: "clone newns", syscall: "clone", args: [6]uint64{cloneNewNS}, want: seccomp.Deny},
	{name: "clone newnet with high garbage", syscall: "clone",
		args: [6]uint64{0xffffffff00000000 | cloneNewNet}, want: seccomp.Deny},
	// The kernel uses only the lower 32 bits of clone's flags.
	{name: "clone newuser in the high half only", syscall: "clone",
		args: [6]uint64{cloneNewUser<<32 | sigchld}, want: seccomp.Allow},
	{name: "clone newuser in another argument", syscall: "clone",
		args: [6]uint64{sigchld, cloneNewUser}, want: seccomp.Allow},
	{name: "clone3", syscall: "clone3", want: seccomp.NoSys},

	{name: "keyctl", syscall: "keyctl", want: seccomp.Deny},
	{name: "add_key", syscall: "add_key", want: seccomp.Deny},
	{name: "request_key", syscall: "request_key", want: seccomp.Deny},
	{name: "bpf", syscall: "bpf", want: seccomp.Deny},
	{name: "perf_event_open", syscall: "perf_event_open", want: seccomp.Deny},
	{name: "userfaultfd", syscall: "userfaultfd", want: seccomp.Deny},
	{name: "io_uring_setup", syscall: "io_uring_setup", args: [6]uint64{8}, want: seccomp.Deny},
	{name: "io_uring_enter", syscall: "io_uring_enter", want: seccomp.Deny},
	{name: "init_module", syscall: "init_module", want: seccomp.Deny},
	{name: "kexec_file_load", syscall: "kexec_file_load", want: seccomp.Deny},

	{name: "tcp socket", syscall: "socket", args: [6]uint64{afInet, sockStream}, want: seccomp.Allow},
	{name: "udp6 socket", syscall: "socket", args: [6]uint64{afInet6, sockDgram | sockNonblock | sockCloexec}, want: seccomp.Allow},
	{name: "unix stream socket", syscall: "socket", args: [6]uint64{afUnix, sockStream | sockCloexec}, want: seccomp.Deny},
	{name: "unix datagram socket", syscall: "socket", args: [6]uint64{afUnix, sockDgram}, want: seccomp.Deny},
	{name: "vsock", syscall: "socket", args: [6]uint64{40, sockStream}, want: seccomp.Deny},
	{name: "AF_ALG", syscall: "socket", args: [6]uint64{38, 5}, want: seccomp.Deny},
	{name: "inet with high garbage in the family", syscall: "socket", args: [6]uint64{0xdead000000000000 | afInet, sockStream}, want: seccomp.Allow},
	{name: "unix stream pair", syscall: "socketpair", args: [6]uint64{afUnix, sockStream | sockCloexec}, want: seccomp.Allow},
	{name: "unix seqpacket pair", syscall: "socketpair", args: [6]uint64{afUnix, 5}, want: seccomp.Allow},
	{name: "unix datagram pair", syscall: "socketpair", args: [6]uint64{afUnix, sockDgram | sockCloexec}, want: seccomp.Deny},
	{name: "inet pair", syscall: "socketpair", args: [6]uint64{afInet, sockStream}, want: seccomp.Deny},
	{name: "netlink raw socket (ip link)", syscall: "socket", args: [6]uint64{afNetlink, sockRaw | sockCloexec}, want: seccomp.Allow},
	{name: "icmp datagram socket (ping)", syscall: "socket", args: [6]uint64{afInet, sockDgram, 1}, want: seccomp.Allow},
	{name: "raw ipv4", syscall: "socket", args: [6]uint64{afInet, sockRaw, 1}, want: seccomp.Deny},
	{name: "raw ipv4 cloexec nonblock", syscall: "socket", args: [6]uint64{afInet, sockRaw | sockCloexec | sockNonblock, 255}, want: seccomp.Deny},
	{name: "raw ipv6", syscall: "socket", args: [6]uint64{afInet6, sockRaw | sockCloexec, 58}, want: seccomp.Deny},
	{name: "ipv4 SOCK_PACKET", syscall: "socket", args: [6]uint64{afInet, sockPacket, 0x300}, want: seccomp.Deny},
	{name: "packet dgram", syscall: "socket", args: [6]uint64{afPacket, sockDgram, 0x300}, want: seccomp.Deny},
	{name: "packet raw", syscall: "socket", args: [6]uint64{afPacket, sockRaw}, want: seccomp.Deny},
	{name: "packet with high garbage", syscall: "socket", args: [6]uint64{0xdead000000000000 | afPacket, sockRaw}, want: seccomp.Deny},

	{name: "personality default", syscall: "personality", args: [6]uint64{0}, want: seccomp.Allow},
	{name: "personality query", syscall: "personality", args: [6]uint64{0xffffffff}, want: seccomp.Allow},
	{name: "personality query, high bits set", syscall: "personality", args: [6]uint64{0xffffffffffffffff}, want: seccomp.Allow},
	{name: "personality ADDR_NO_RANDOMIZE", syscall: "personality", args: [6]uint64{0x0040000}, want: seccomp.Deny},
	{name: "personality READ_IMPLIES_EXEC", syscall: "personality", args: [6]uint64{0x0400000}, want: seccomp.Deny},
	{name: "personality PER_LINUX32", syscall: "personality", args: [6]uint64{8}, want: seccomp.Deny},

	{name: "ioctl TCGETS", syscall: "ioctl", args: [6]uint64{0, 0x5401}, want: seccomp.Allow},
	{name: "ioctl FIONREAD", syscall: "ioctl", args: [6]uint64{0, 0x541b}, want: seccomp.Allow},
	{name: "ioctl TIOCSTI", syscall: "ioctl", args: [6]uint64{0, 0x5412}, want: seccomp.Deny},
	{name: "ioctl TIOCSTI, high bits set", syscall: "ioctl", args: [6]uint64{0, 0x100000000 | 0x5412}, want: seccomp.Deny},
	{name: "ioctl TIOCLINUX", syscall: "ioctl", args: [6]uint64{0, 0x541c}, want: seccomp.Deny},
	{name: "ioctl fd TIOCSTI (wrong argument)", syscall: "ioctl", args: [6]uint64{0x5412, 0x5401}, want: seccomp.Allow},

	{name: "syslog", syscall: "syslog", want: seccomp.Deny},
	{name: "reboot", syscall: "reboot", want: seccomp.Deny},
	{name: "open_by_handle_at", syscall: "open_by_handle_at", want: seccomp.Deny},
	{name: "sethostname", syscall: "sethostname", want: seccomp.Deny},
	{name: "clock_settime", syscall: "clock_settime", want: seccomp.Deny},
	{name: "iopl", syscall: "iopl", want: seccomp.Deny},
}

func TestVerdicts(t *testing.T) {
	prog := program(t)
	t.Logf("program: %d instructions", len(prog))
	for _, tt := range verdicts {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.nr
			if tt.syscall != "" {
				n = nr(t, tt.syscall)
			}
			c := call{nr: n, arch: auditX8664, args: tt.args}
			if got := eval(prog, c); got != tt.want {
				t.Errorf("filter(%s %#x) = %v, want %v", tt.name, tt.args, got, tt.want)
			}
		})
	}
}

func TestForeignABIKilled(t *testing.T) {
	prog := program(t)
	for _, tt := range []struct {
		name     string
		arch, nr uint32
	}{
		// i386 numbers: 26 is ptrace there, 0 restart_syscall, 120 clone.
		{"i386 ptrace", auditI386, 26},
		{"i386 restart_syscall", auditI386, 0},
		{"i386 clone", auditI386, 120},
		{"aarch64 read", auditAArch64, 63},
		{"x32 read", auditX8664, 0x40000000},
		{"x32 ptrace", auditX8664, 0x40000000 | 521},
		{"x32 bit with a native number", auditX8664, 0x40000000 | 39}, // getpid
		{"unknown arch", 0, 0},
	} {
		if got := eval(prog, call{nr: tt.nr, arch: tt.arch}); got != seccomp.KillProcess {
			t.Errorf("%s: filter = %v, want %v", tt.name, got, seccomp.KillProcess)
		}
	}
}

// anyArgs are argument lists for a call of any number: none, every bit
// set, and values that some rule refuses.
var anyArgs = [][6]uint64{
	{}, {^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)},
	{afPacket, sockRaw, 0, 0, 0, 0}, {cloneNewUser, cloneNewUser, 0x5412, 0x5412, 0, 0},
}

// TestOnlyListedCallsAreFiltered checks the other direction: a call the
// table does not name is allowed, whatever its arguments.
func TestOnlyListedCallsAreFiltered(t *testing.T) {
	prog := program(t)
	listed := map[uint32]bool{}
	for _, r := range seccomp.Rules {
		if n, ok := seccomp.AMD64.Numbers[r.Syscall]; ok {
			listed[n] = true
		}
	}
	for n := uint32(0); n < 1024; n++ {
		if listed[n] {
			continue
		}
		for _, a := range anyArgs {
			if got := eval(prog, call{nr: n, arch: auditX8664, args: a}); got != seccomp.Allow {
				t.Errorf("filter(nr %d, %#x) = %v, want allow", n, a, got)
			}
		}
	}
}

// TestEveryRule runs each call of the table once with zero arguments and
// once with every bit set, and checks the verdict against the rule read
// as data.
func TestEveryRule(t *testing.T) {
	prog := program(t)
	for _, r := range seccomp.Rules {
		n, ok := seccomp.AMD64.Numbers[r.Syscall]
		if !ok {
			if _, absent := seccomp.AMD64.Absent[r.Syscall]; !absent {
				t.Errorf("%s has no amd64 number and is not listed as absent", r.Syscall)
			}
			continue
		}
		for _, a := range [][6]uint64{{}, {^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}} {
			want := expected(r, a)
			if got := eval(prog, call{nr: n, arch: auditX8664, args: a}); got != want {
				t.Errorf("filter(%s %#x) = %v, want %v", r.Syscall, a, got, want)
			}
		}
	}
}

// expected evaluates a rule directly, the reference for the program.
func expected(r seccomp.Rule, args [6]uint64) seccomp.Action {
	holds := func(cs []seccomp.Cond) bool {
		for _, c := range cs {
			all := true
			for _, a := range c {
				v := uint32(args[a.Index]) & a.Mask
				if a.AnySet && v == 0 || !a.AnySet && v != a.Value {
					all = false
				}
			}
			if all {
				return true
			}
		}
		return false
	}
	switch {
	case holds(r.If):
		return r.Action
	case len(r.Unless) > 0 && holds(r.Unless):
		return seccomp.Allow
	case len(r.Unless) > 0 || len(r.If) == 0:
		return r.Action
	}
	return seccomp.Allow
}

func TestBuildErrors(t *testing.T) {
	arch := &seccomp.Arch{Name: "test", Audit: 1, Numbers: map[string]uint32{"a": 1, "b": 2}}
	for _, tt := range []struct {
		name  string
		rules []seccomp.Rule
		want  string
	}{
		{"unknown call", []seccomp.Rule{{Syscall: "c", Action: seccomp.Deny}}, "c: no number on test"},
		{"twice", []seccomp.Rule{{Syscall: "a", Action: seccomp.Deny}, {Syscall: "a", Action: seccomp.NoSys}}, "a: listed twice"},
		{"empty condition", []seccomp.Rule{{Syscall: "a", Action: seccomp.Deny, If: []seccomp.Cond{{}}}}, "empty condition"},
		{"argument 6", []seccomp.Rule{{Syscall: "a", Action: seccomp.Deny, If: []seccomp.Cond{{seccomp.Eq(6, 1)}}}}, "out of range"},
		{"value outside mask", []seccomp.Rule{{Syscall: "a", Action: seccomp.Deny, If: []seccomp.Cond{{seccomp.MaskedEq(0, 0xf, 0x10)}}}}, "never equal"},
		{"allow rule", []seccomp.Rule{{Syscall: "b", Action: seccomp.Allow}}, "no-op"},
	} {
		_, err := seccomp.Build(arch, tt.rules)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Build error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	if _, err := seccomp.Program("mips", seccomp.Options{}); err == nil {
		t.Error("Program(mips) built a filter without a syscall table")
	}
}

// farTable is a table large enough that the search's jumps span more
// than classic BPF's 255-instruction reach: 400 rules, each with a body
// that reads two arguments.
func farTable() table {
	arch := &seccomp.Arch{Name: "test", Audit: 1, Numbers: map[string]uint32{}}
	var rules []seccomp.Rule
	for i := range 400 {
		name := fmt.Sprint("c", i)
		arch.Numbers[name] = uint32(i)
		rules = append(rules, seccomp.Rule{Syscall: name, Action: seccomp.Errno(uint16(i % 100)),
			If: []seccomp.Cond{{seccomp.Eq(0, 1), seccomp.AnySet(1, 2)}}})
	}
	return table{"far jumps", arch, rules}
}

// TestFarJumps checks that a jump beyond classic BPF's reach goes
// through a JA.
func TestFarJumps(t *testing.T) {
	far := farTable()
	prog := far.build(t)
	if !slices.ContainsFunc(prog, func(in seccomp.Instruction) bool { return in.Code == seccomp.OpJa }) {
		t.Error("no JA in the program: the table is too small to test far jumps")
	}
	for i := range 400 {
		if got, want := eval(prog, call{nr: uint32(i), arch: 1, args: [6]uint64{1, 2}}), seccomp.Errno(uint16(i%100)); got != want {
			t.Fatalf("c%d = %v, want %v", i, got, want)
		}
		if got := eval(prog, call{nr: uint32(i), arch: 1, args: [6]uint64{1, 1}}); got != seccomp.Allow {
			t.Fatalf("c%d with other arguments = %v, want allow", i, got)
		}
	}
	if got := eval(prog, call{nr: 5000, arch: 1}); got != seccomp.Allow {
		t.Errorf("unlisted = %v, want allow", got)
	}
}

// TestReach builds tables of every size up to 300 numbers, every other
// number refused outright with one of two actions, so that the jumps to
// the shared returns span every length around classic BPF's reach, and
// checks every verdict.
func TestReach(t *testing.T) {
	for size := range 300 {
		arch := &seccomp.Arch{Name: "test", Audit: 1, Numbers: map[string]uint32{}}
		var rules []seccomp.Rule
		for i := range size {
			name := fmt.Sprint("c", i)
			arch.Numbers[name] = uint32(2 * i)
			act := seccomp.Deny
			if i%3 == 1 {
				act = seccomp.NoSys
			}
			rules = append(rules, seccomp.Rule{Syscall: name, Action: act})
		}
		tt := table{fmt.Sprint(size, " numbers"), arch, rules}
		prog := tt.build(t)
		byNr := tt.numbers()
		for n := range uint32(2*size + 1) {
			c := call{nr: n, arch: 1}
			if got, want := eval(prog, c), reference(tt, byNr, c); got != want {
				t.Fatalf("%s: number %d = %v, want %v", tt.name, n, got, want)
			}
		}
	}
}

// table is a rule table for an architecture.
type table struct {
	name  string
	arch  *seccomp.Arch
	rules []seccomp.Rule
}

func (tt table) build(t *testing.T) []seccomp.Instruction {
	t.Helper()
	prog, err := seccomp.Build(tt.arch, tt.rules)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(prog); err != nil {
		t.Fatalf("the kernel would reject the program: %v", err)
	}
	return prog
}

// numbers returns the number of each call the table names, with the
// rule for it: the first listed.
func (tt table) numbers() map[uint32]seccomp.Rule {
	byNr := map[uint32]seccomp.Rule{}
	for _, r := range tt.rules {
		n, ok := tt.arch.Numbers[r.Syscall]
		if _, seen := byNr[n]; ok && !seen {
			byNr[n] = r
		}
	}
	return byNr
}

// verdict is the program's answer to one call.
type verdict struct {
	Arch, Nr uint32
	Args     [6]uint64
	Action   seccomp.Action
}

// tables are Warden's table with the options the sandbox uses, and
// made-up ones for the builder's edge cases.
func tables() []table {
	notified := slices.Clone(seccomp.Rules)
	for i, r := range notified {
		if r.Action == seccomp.Deny {
			notified[i].Action = seccomp.Notify
		}
	}
	notified = append(notified, seccomp.Watched...)
	approved := slices.DeleteFunc(slices.Clone(seccomp.Rules), func(r seccomp.Rule) bool {
		return r.Syscall == "ptrace" || r.Syscall == "socket" || r.Syscall == "mount"
	})

	// The edges: numbers at both ends of the range, runs of one action
	// next to other actions and to rules with conditions, two names for
	// one number, and a rule whose body is longer than a jump reaches.
	edges := &seccomp.Arch{Name: "edges", Audit: 1, Numbers: map[string]uint32{
		"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "also four": 4, "five": 5,
		"long": 1000, "mid": 0x7fffffff, "mid+1": 0x80000000, "top-1": 0xfffffffe, "top": 0xffffffff,
	}, Absent: map[string]string{"gone": "not on this arch"}}
	long := seccomp.Rule{Syscall: "long", Action: seccomp.Deny}
	var all7 seccomp.Cond
	for i := range 130 {
		all7 = append(all7, seccomp.Eq(i%6, 7))
	}
	long.If = []seccomp.Cond{all7}
	for i := range 150 {
		long.Unless = append(long.Unless, seccomp.Cond{seccomp.Eq(0, uint32(100+i))})
	}
	edgeRules := []seccomp.Rule{
		{Syscall: "one", Action: seccomp.Deny},
		{Syscall: "zero", Action: seccomp.Deny},
		{Syscall: "two", Action: seccomp.Deny},
		{Syscall: "three", Action: seccomp.NoSys},
		{Syscall: "four", Action: seccomp.Deny, If: []seccomp.Cond{{seccomp.Eq(0, 1)}}},
		{Syscall: "also four", Action: seccomp.NoSys},
		{Syscall: "five", Action: seccomp.Deny},
		{Syscall: "gone", Action: seccomp.Deny},
		long,
		{Syscall: "mid", Action: seccomp.NoSys},
		{Syscall: "mid+1", Action: seccomp.Deny},
		{Syscall: "top", Action: seccomp.Deny},
		{Syscall: "top-1", Action: seccomp.Deny},
	}
	// The largest number is the last but one: the last is allowed.
	belowTop := &seccomp.Arch{Name: "below top", Audit: 1, Numbers: map[string]uint32{"top-1": 0xfffffffe}}
	return []table{
		{"amd64", &seccomp.AMD64, seccomp.Rules},
		{"amd64 notify watch", &seccomp.AMD64, notified},
		{"amd64 approved ptrace socket mount", &seccomp.AMD64, approved},
		{"amd64 no rules", &seccomp.AMD64, nil},
		farTable(),
		{"edges", edges, edgeRules},
		{"below top", belowTop, []seccomp.Rule{{Syscall: "top-1", Action: seccomp.Deny}}},
	}
}

// TestSearchMatchesTable compares the program's verdicts with the rule
// table read directly: for every number from 0 to 1023, the numbers next
// to every listed one, numbers with the x32 bit and the largest ones,
// with every argument list the other tests use, on the native
// architecture and on i386.
func TestSearchMatchesTable(t *testing.T) {
	args := [][6]uint64{{1, 2}, {1, 1}, {7, 7, 7, 7, 7, 7}, {100}, {249}, {250}}
	args = append(args, anyArgs...)
	for _, v := range verdicts {
		args = append(args, v.args)
	}
	slices.SortFunc(args, func(a, b [6]uint64) int { return slices.Compare(a[:], b[:]) })
	args = slices.Compact(args)
	for _, tt := range tables() {
		t.Run(tt.name, func(t *testing.T) {
			prog := tt.build(t)
			byNr := tt.numbers()
			var nrs []uint32
			for n := range uint32(1024) {
				nrs = append(nrs, n)
			}
			for n := range byNr {
				nrs = append(nrs, n-1, n, n+1, 0x40000000|n)
			}
			nrs = append(nrs, 0x40000000, 0x7fffffff, 0x80000000, 0xbfffffff, 0xfffffffe, 0xffffffff)
			slices.Sort(nrs)
			nrs = slices.Compact(nrs)
			var got, want []verdict
			for _, arch := range []uint32{tt.arch.Audit, auditI386} {
				for _, n := range nrs {
					for _, a := range args {
						c := call{nr: n, arch: arch, args: a}
						got = append(got, verdict{arch, n, a, eval(prog, c)})
						want = append(want, verdict{arch, n, a, reference(tt, byNr, c)})
					}
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("verdicts (-table +program):\n%s", cmp.Diff(want, got))
			}
		})
	}
}

// reference is the filter read from the table, as [Rule] and the package
// documentation describe it.
func reference(tt table, byNr map[uint32]seccomp.Rule, c call) seccomp.Action {
	if c.arch != tt.arch.Audit || c.nr&tt.arch.ABIBit != 0 {
		return seccomp.KillProcess
	}
	if r, ok := byNr[c.nr]; ok {
		return expected(r, c.args)
	}
	return seccomp.Allow
}

// constAllow runs prog as the kernel's seccomp_is_const_allow does, on a
// call of which only the number and the architecture are known: it tells
// whether the program allows the call whatever its arguments, and gives
// up at a load of an argument. It returns the number of instructions it
// ran too.
func constAllow(prog []seccomp.Instruction, arch, nr uint32) (allowed bool, steps int) {
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		steps++
		switch in.Code {
		case seccomp.OpLoadAbs:
			switch in.K {
			case seccomp.OffNr:
				acc = nr
			case seccomp.OffArch:
				acc = arch
			default:
				return false, steps
			}
		case seccomp.OpAnd:
			acc &= in.K
		case seccomp.OpJeq, seccomp.OpJge, seccomp.OpJset, seccomp.OpJa:
			pc += jumpBy(in, acc)
		case seccomp.OpRet:
			return seccomp.Action(in.K) == seccomp.Allow, steps
		default:
			return false, steps
		}
	}
	panic("fell off the end of a validated program")
}

// TestActionCache checks the program against the kernel's action cache.
// When the filter is attached, the kernel runs constAllow on every
// syscall number of each of the architecture's tables
// (seccomp_cache_prepare_bitmap), and from then on a number found
// allowed skips the filter. So every number no rule names must be found
// allowed, or its every call runs the filter; no named number may be, or
// its rule never runs; and no path may be long, or every install pays
// for it once per number.
func TestActionCache(t *testing.T) {
	for _, tt := range tables() {
		t.Run(tt.name, func(t *testing.T) {
			prog := tt.build(t)
			byNr := tt.numbers()
			longest := 0
			for n := range uint32(1024) {
				allowed, steps := constAllow(prog, tt.arch.Audit, n)
				longest = max(longest, steps)
				if _, listed := byNr[n]; allowed == listed {
					t.Errorf("number %d: cached as allowed %v, listed %v", n, allowed, listed)
				}
				// i386, x86_64's other table: its calls are killed.
				if allowed, _ := constAllow(prog, auditI386, n); allowed {
					t.Errorf("i386 number %d cached as allowed", n)
				}
			}
			bound := 2*bits.Len(uint(len(byNr))) + 8
			t.Logf("%d instructions, %d numbers listed; the longest path runs %d instructions (at most %d)",
				len(prog), len(byNr), longest, bound)
			if longest > bound {
				t.Errorf("the longest path runs %d instructions, more than %d", longest, bound)
			}
		})
	}
}

// BenchmarkBuild measures building the program the sandbox installs.
func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		if _, err := seccomp.Program("amd64", seccomp.Options{Notify: true, Watch: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestProgramOptions(t *testing.T) {
	prog, err := seccomp.Program("amd64", seccomp.Options{Notify: true, Allow: []string{"ptrace"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(prog); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		syscall string
		want    seccomp.Action
	}{
		{"ptrace", seccomp.Allow},   // approved for this run
		{"unshare", seccomp.Notify}, // refused through the listener
		{"clone3", seccomp.NoSys},   // never notified: libc falls back
		{"keyctl", seccomp.Notify},
	} {
		if got := eval(prog, call{nr: nr(t, tt.syscall), arch: auditX8664}); got != tt.want {
			t.Errorf("filter(%s) = %v, want %v", tt.syscall, got, tt.want)
		}
	}
	if got := eval(prog, call{nr: 39 /* getpid */, arch: auditX8664}); got != seccomp.Allow {
		t.Errorf("filter(getpid) = %v, want allow", got)
	}
	if _, err := seccomp.Program("amd64", seccomp.Options{Allow: []string{"getpid"}}); err == nil {
		t.Error("Program allowed a call the table does not refuse")
	}
}
