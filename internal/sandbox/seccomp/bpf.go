// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp

import (
	"errors"
	"fmt"
)

// Instruction is one classic BPF instruction, laid out like the kernel's
// struct sock_filter (unix.SockFilter on Linux).
type Instruction struct {
	Code uint16
	Jt   uint8
	Jf   uint8
	K    uint32
}

// The classic BPF opcodes the builder emits; nothing else appears in a
// program.
const (
	OpLoadAbs = 0x20 // BPF_LD|BPF_W|BPF_ABS: A = 32-bit word at offset K
	OpAnd     = 0x54 // BPF_ALU|BPF_AND|BPF_K: A &= K
	OpJeq     = 0x15 // BPF_JMP|BPF_JEQ|BPF_K: pc += A == K ? Jt : Jf
	OpJset    = 0x45 // BPF_JMP|BPF_JSET|BPF_K: pc += A&K != 0 ? Jt : Jf
	OpRet     = 0x06 // BPF_RET|BPF_K: return K
)

// Offsets in struct seccomp_data, the input of a filter.
const (
	OffNr   = 0  // int nr
	OffArch = 4  // __u32 arch
	OffArgs = 16 // __u64 args[6]; the low half first on little-endian
)

// MaxInstructions is the kernel's limit on one filter (BPF_MAXINSNS).
const MaxInstructions = 4096

// Build compiles rules into a seccomp program for arch. It fails when a
// rule names a call arch does not know (and does not list as absent),
// names a call twice, or has a malformed condition.
func Build(arch *Arch, rules []Rule) ([]Instruction, error) {
	var a assembler
	// 1. The ABI: anything but the native one is killed.
	archOK := a.newLabel()
	a.load(OffArch)
	a.jeq(arch.Audit, archOK, next)
	a.ret(KillProcess)
	a.bind(archOK)
	a.load(OffNr)
	if arch.ABIBit != 0 {
		abiOK := a.newLabel()
		a.jset(arch.ABIBit, next, abiOK)
		a.ret(KillProcess)
		a.bind(abiOK)
	}
	// 2. The rules: A holds the number on entry to each test, and every
	// rule's body ends in returns, so it may load arguments.
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.Syscall] {
			return nil, fmt.Errorf("%s: listed twice", r.Syscall)
		}
		seen[r.Syscall] = true
		nr, ok := arch.Numbers[r.Syscall]
		if !ok {
			if _, absent := arch.Absent[r.Syscall]; absent {
				continue
			}
			return nil, fmt.Errorf("%s: no number on %s", r.Syscall, arch.Name)
		}
		if err := checkRule(r); err != nil {
			return nil, fmt.Errorf("%s: %v", r.Syscall, err)
		}
		skip := a.newLabel()
		a.jeq(nr, next, skip)
		a.rule(r)
		a.bind(skip)
	}
	// 3. Everything else.
	a.ret(Allow)
	return a.assemble()
}

func checkRule(r Rule) error {
	if r.Action == Allow {
		return errors.New("a rule that allows is a no-op in a deny table")
	}
	for _, c := range append(append([]Cond(nil), r.If...), r.Unless...) {
		if len(c) == 0 {
			return errors.New("empty condition")
		}
		for _, arg := range c {
			if arg.Index < 0 || arg.Index > 5 {
				return fmt.Errorf("argument index %d out of range", arg.Index)
			}
			if arg.Mask == 0 {
				return errors.New("argument check with an empty mask")
			}
			if !arg.AnySet && arg.Value&^arg.Mask != 0 {
				return fmt.Errorf("value %#x has bits outside mask %#x: never equal", arg.Value, arg.Mask)
			}
		}
	}
	return nil
}

// rule emits the body of one rule, entered when the number matched; see
// [Rule] for the order in which If and Unless are read.
func (a *assembler) rule(r Rule) {
	if len(r.If) == 0 && len(r.Unless) == 0 {
		a.ret(r.Action)
		return
	}
	allow, act := a.newLabel(), a.newLabel()
	for _, c := range r.If {
		a.cond(c, act)
	}
	if len(r.Unless) > 0 {
		for _, c := range r.Unless {
			a.cond(c, allow)
		}
		a.ret(r.Action)
	}
	a.bind(allow)
	a.ret(Allow)
	a.bind(act)
	a.ret(r.Action)
}

// cond jumps to onTrue when every check of c holds and falls through
// otherwise.
func (a *assembler) cond(c Cond, onTrue label) {
	fail := a.newLabel()
	for i, arg := range c {
		pass := next
		if i == len(c)-1 {
			pass = onTrue
		}
		a.load(OffArgs + 8*uint32(arg.Index))
		if arg.AnySet {
			a.jset(arg.Mask, pass, fail)
			continue
		}
		if arg.Mask != 0xffffffff {
			a.emit(Instruction{Code: OpAnd, K: arg.Mask}, next, next)
		}
		a.jeq(arg.Value, pass, fail)
	}
	a.bind(fail)
}

// label names a position in the program; jumps to it are resolved by
// assemble. next is the instruction that follows.
type label int

const next label = -1

type pending struct {
	Instruction
	jt, jf label
}

// assembler builds a program with forward jumps to labels. Classic BPF
// only jumps forward, by at most 255 instructions; assemble checks both.
type assembler struct {
	prog   []pending
	labels []int // label → instruction index, -1 until bound
}

func (a *assembler) newLabel() label {
	a.labels = append(a.labels, -1)
	return label(len(a.labels) - 1)
}

func (a *assembler) bind(l label) { a.labels[l] = len(a.prog) }

func (a *assembler) emit(in Instruction, jt, jf label) {
	a.prog = append(a.prog, pending{in, jt, jf})
}

func (a *assembler) load(off uint32) { a.emit(Instruction{Code: OpLoadAbs, K: off}, next, next) }

func (a *assembler) jeq(k uint32, jt, jf label) { a.emit(Instruction{Code: OpJeq, K: k}, jt, jf) }

func (a *assembler) jset(k uint32, jt, jf label) { a.emit(Instruction{Code: OpJset, K: k}, jt, jf) }

func (a *assembler) ret(act Action) { a.emit(Instruction{Code: OpRet, K: uint32(act)}, next, next) }

func (a *assembler) assemble() ([]Instruction, error) {
	if len(a.prog) > MaxInstructions {
		return nil, fmt.Errorf("program of %d instructions exceeds the kernel's %d", len(a.prog), MaxInstructions)
	}
	out := make([]Instruction, len(a.prog))
	for i, p := range a.prog {
		in := p.Instruction
		var err error
		if in.Jt, err = a.offset(i, p.jt); err != nil {
			return nil, err
		}
		if in.Jf, err = a.offset(i, p.jf); err != nil {
			return nil, err
		}
		out[i] = in
	}
	return out, nil
}

func (a *assembler) offset(from int, l label) (uint8, error) {
	if l == next {
		return 0, nil
	}
	to := a.labels[l]
	if to < 0 {
		panic("internal error: seccomp: jump to an unbound label")
	}
	d := to - from - 1
	if d < 0 || d > 255 {
		return 0, fmt.Errorf("jump from %d to %d out of reach", from, to)
	}
	return uint8(d), nil
}
