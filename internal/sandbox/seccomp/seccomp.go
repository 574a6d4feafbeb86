// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package seccomp holds the system call filter of Warden's sandbox
// (docs/spec.md §7, boundary 3) as data, [Rules], and turns it into a classic
// BPF program for the kernel's seccomp filter mode with [Build]. Building
// and checking the program needs no kernel, so its verdicts are tested on
// any OS; only [Install] is Linux-specific.
//
// # What the program does
//
// In order, for every system call of the sandboxed command:
//
//  1. A call made through another ABI than the native one (on x86_64: the
//     i386 entry points, int 0x80, and the x32 ABI) kills the process.
//     Without this check a 32-bit call would reach the kernel under other
//     syscall numbers and walk around every rule below.
//  2. A call named in [Rules] gets the rule's action when its arguments
//     match: EPERM for a denial, so tools fail cleanly with "Operation not
//     permitted" instead of dying; ENOSYS for clone3, so libc falls back
//     to clone, whose flags the filter can read.
//  3. Anything else is allowed. The table is a deny list: the command is
//     an ordinary toolchain (shells, compilers, interpreters) and the other
//     layers (namespaces, no capabilities, read-only mounts) carry most of
//     the weight; the filter closes the kernel interfaces that those layers
//     leave open or that are large attack surface.
//
// Only the low 32 bits of an argument are compared. Every rule with an
// argument condition is on an argument the kernel itself truncates to 32
// bits (int, unsigned int, or clone's flags, of which it uses only the
// lower half), so the high half cannot smuggle a value past the filter.
package seccomp

import "fmt"

// Action is what the filter returns for a system call: the kernel's
// SECCOMP_RET_* value, with the errno in the low 16 bits for [Errno].
type Action uint32

const (
	// KillProcess kills the whole process, as if by SIGSYS (uncatchable).
	KillProcess Action = 0x80000000
	// Allow lets the call through.
	Allow Action = 0x7fff0000
	// Notify hands the call to the filter's listener, which answers for
	// it (SECCOMP_RET_USER_NOTIF). [Program] with notify set uses it in
	// place of [Deny], so that Warden can record what was refused; the
	// listener ([Listener]) always answers with EPERM, never lets the
	// call run.
	Notify Action = 0x7fc00000

	retErrno = 0x00050000
)

// Errno returns the action that fails the call with errno e without
// running it.
func Errno(e uint16) Action { return Action(retErrno | uint32(e)) }

// The errno actions the table uses. The numbers are those of every
// architecture with the generic errno table (x86, arm, riscv), which
// includes every [Arch] described here.
var (
	// Deny fails the call with EPERM.
	Deny = Errno(1)
	// NoSys fails the call with ENOSYS, as if the kernel lacked it.
	NoSys = Errno(38)
)

func (a Action) String() string {
	switch {
	case a == KillProcess:
		return "kill-process"
	case a == Allow:
		return "allow"
	case a == Notify:
		return "notify"
	case a == Deny:
		return "errno(EPERM)"
	case a == NoSys:
		return "errno(ENOSYS)"
	case a&0xffff0000 == retErrno:
		return fmt.Sprintf("errno(%d)", uint32(a)&0xffff)
	}
	return fmt.Sprintf("action(%#x)", uint32(a))
}

// Rule says what the filter does with one system call.
//
// When If holds, Action is returned. Otherwise, when Unless is set, the
// call is allowed if Unless holds and gets Action if not; when Unless is
// empty, the call gets Action if If is empty too, and is allowed if not.
// A list of conditions holds when any one of them does. So a rule with
// only If denies what it lists, a rule with only Unless allows only what
// it lists, and a rule with both denies what If lists among what Unless
// allows.
type Rule struct {
	// Syscall is the call's name in the kernel's syscall table.
	Syscall string
	Action  Action
	If      []Cond
	Unless  []Cond
}

// Cond holds when every one of its argument checks holds.
type Cond []Arg

// Arg checks the low 32 bits of one argument of the call: it holds when
// (arg & Mask) == Value, or, with AnySet, when (arg & Mask) != 0.
type Arg struct {
	Index  int // 0 to 5
	Mask   uint32
	Value  uint32
	AnySet bool
}

// Eq checks that argument i equals v.
func Eq(i int, v uint32) Arg { return Arg{Index: i, Mask: 0xffffffff, Value: v} }

// MaskedEq checks that argument i, masked with mask, equals v.
func MaskedEq(i int, mask, v uint32) Arg { return Arg{Index: i, Mask: mask, Value: v} }

// AnySet checks that argument i has at least one of the bits of mask set.
func AnySet(i int, mask uint32) Arg { return Arg{Index: i, Mask: mask, AnySet: true} }

// Arch describes one architecture's system call ABI. Only little-endian
// architectures are described: the filter reads an argument's low half
// at the argument's own offset.
type Arch struct {
	// Name is the GOARCH value.
	Name string
	// Audit is the AUDIT_ARCH_* value the kernel reports for the native
	// ABI; any other value kills the process.
	Audit uint32
	// ABIBit, when non-zero, is a bit of the syscall number that selects
	// another ABI sharing Audit (x86_64's x32); a call with it set kills
	// the process.
	ABIBit uint32
	// Numbers maps syscall names to numbers.
	Numbers map[string]uint32
	// Absent lists calls of [Rules] that do not exist on this
	// architecture, so nothing needs filtering.
	Absent map[string]string
}

// ArchFor returns the description of goarch, or nil when Warden has no
// syscall table for it.
func ArchFor(goarch string) *Arch {
	for _, a := range archs {
		if a.Name == goarch {
			return a
		}
	}
	return nil
}

// Options change the filter [Program] builds from [Rules].
type Options struct {
	// Notify turns every [Deny] into [Notify]: the call is refused by
	// the listener instead of the kernel, with the same EPERM, and is
	// seen.
	Notify bool
	// Allow names calls of [Rules] to leave out of the filter, as a user
	// approved for one run; a name not in the table is an error.
	Allow []string
	// Watch hands every call that starts a TCP connection ([Watched]:
	// connect, and a send with MSG_FASTOPEN) to the listener too, which
	// lets it run once it has seen who makes it ([Serve]'s watch). It
	// needs Notify.
	Watch bool
}

// msgFastOpen is MSG_FASTOPEN: a send that connects a TCP socket.
const msgFastOpen = 0x20000000

// Watched are the calls [Options.Watch] hands to the listener: each
// connects a TCP socket, with the socket's descriptor as argument 0.
var Watched = []Rule{
	{Syscall: "connect", Action: Notify},
	{Syscall: "sendto", Action: Notify, If: []Cond{{AnySet(3, msgFastOpen)}}},
	{Syscall: "sendmsg", Action: Notify, If: []Cond{{AnySet(2, msgFastOpen)}}},
	{Syscall: "sendmmsg", Action: Notify, If: []Cond{{AnySet(3, msgFastOpen)}}},
}

// Program returns Warden's filter, [Rules] built with [Build] and changed
// by opts, for goarch.
func Program(goarch string, opts Options) ([]Instruction, error) {
	a := ArchFor(goarch)
	if a == nil {
		return nil, fmt.Errorf("no syscall table for %s", goarch)
	}
	allow := map[string]bool{}
	for _, name := range opts.Allow {
		allow[name] = true
	}
	rules := make([]Rule, 0, len(Rules))
	for _, r := range Rules {
		if allow[r.Syscall] {
			delete(allow, r.Syscall)
			continue
		}
		if opts.Notify && r.Action == Deny {
			r.Action = Notify
		}
		rules = append(rules, r)
	}
	for name := range allow {
		return nil, fmt.Errorf("%s is not a call the filter refuses", name)
	}
	if opts.Watch {
		if !opts.Notify {
			return nil, fmt.Errorf("watching the calls that connect needs a listener (Notify)")
		}
		rules = append(rules, Watched...)
	}
	return Build(a, rules)
}
