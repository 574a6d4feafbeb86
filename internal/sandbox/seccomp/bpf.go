// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package seccomp

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
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
// program. They are all among those the kernel's action cache
// (seccomp_is_const_allow) can follow, so a call that no rule names is
// known to be allowed when the filter is attached and skips it from then
// on.
const (
	OpLoadAbs = 0x20 // BPF_LD|BPF_W|BPF_ABS: A = 32-bit word at offset K
	OpAnd     = 0x54 // BPF_ALU|BPF_AND|BPF_K: A &= K
	OpJeq     = 0x15 // BPF_JMP|BPF_JEQ|BPF_K: pc += A == K ? Jt : Jf
	OpJge     = 0x35 // BPF_JMP|BPF_JGE|BPF_K: pc += A >= K ? Jt : Jf
	OpJset    = 0x45 // BPF_JMP|BPF_JSET|BPF_K: pc += A&K != 0 ? Jt : Jf
	OpJa      = 0x05 // BPF_JMP|BPF_JA: pc += K, a 32-bit jump
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
//
// After the ABI check, the program finds the call's rule by a binary
// search over the syscall numbers rather than by testing each rule in
// turn, so that a call runs a few tests, as many as the logarithm of the
// table's size. That matters most when the filter is attached: the
// kernel then runs the program once for every syscall number of the
// architecture to find the calls it always allows, which skip the filter
// from then on (its action cache, seccomp_cache_prepare_bitmap), so the
// time an install takes grows with the sum of those paths.
func Build(arch *Arch, rules []Rule) ([]Instruction, error) {
	calls := make([]numbered, 0, len(rules))
	seen := make(map[string]bool, len(rules))
	for i, r := range rules {
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
		calls = append(calls, numbered{nr: nr, rule: i})
	}
	// Two names for one number: the rule listed first applies.
	slices.SortFunc(calls, func(a, b numbered) int {
		return cmp.Or(cmp.Compare(a.nr, b.nr), cmp.Compare(a.rule, b.rule))
	})
	calls = slices.CompactFunc(calls, func(a, b numbered) bool { return a.nr == b.nr })

	// The program is built backwards, from its end (see [builder]): an
	// instruction that does not jump goes on to the one emitted before
	// it.
	b := builder{rev: make([]Instruction, 0, 4*len(calls)+8)}
	// 3. Everything else, at the end of the program.
	b.ret(Allow)
	// 2. The rules: the search leaves the number in A, and every rule's
	// body ends in returns, so it may load arguments.
	search := b.search(spans(rules, calls))
	// 1. The ABI: anything but the native one is killed.
	if arch.ABIBit != 0 {
		b.jump(OpJset, arch.ABIBit, b.ret(KillProcess), search)
	}
	nr := b.load(OffNr)
	b.jump(OpJeq, arch.Audit, nr, b.ret(KillProcess))
	b.load(OffArch)
	return b.program()
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

// numbered is a rule, by its index in the table, with its call's number
// on the arch being built.
type numbered struct {
	nr   uint32
	rule int
}

// span is a run of syscall numbers that the program treats alike, from
// first up to the next span's first: all allowed (rule nil), or all given
// to rule.
type span struct {
	first uint32
	rule  *Rule
}

// spans cuts the whole range of syscall numbers, 0 to 2^32-1, into the
// runs calls (sorted by number, each number once) give: a span for each
// rule and one for each gap between them. Consecutive numbers whose rules
// both return one action outright share a span, so the search need not
// tell them apart (on x86_64, settimeofday to ioperm is such a run, and
// io_uring_setup to fspick another).
func spans(rules []Rule, calls []numbered) []span {
	var out []span
	next := uint64(0) // the first number no span holds yet
	for _, c := range calls {
		r := &rules[c.rule]
		switch {
		case uint64(c.nr) > next:
			out = append(out, span{first: uint32(next)}, span{first: c.nr, rule: r})
		case len(out) > 0 && sameOutright(out[len(out)-1].rule, r):
			// c.nr follows the last span's number: it joins the span.
		default:
			out = append(out, span{first: c.nr, rule: r})
		}
		next = uint64(c.nr) + 1
	}
	if next <= math.MaxUint32 {
		out = append(out, span{first: uint32(next)})
	}
	return out
}

// sameOutright tells whether rules a and b both return the same action
// whatever the arguments.
func sameOutright(a, b *Rule) bool {
	return a.Action == b.Action && len(a.If)+len(a.Unless)+len(b.If)+len(b.Unless) == 0
}

// search emits a balanced binary search for A among spans, which cover
// every number from spans[0].first up, and returns its entry: each
// comparison halves the spans left, and a span once found needs no
// further test.
func (b *builder) search(spans []span) pos {
	if len(spans) == 1 {
		if spans[0].rule == nil {
			return b.ret(Allow)
		}
		return b.rule(*spans[0].rule)
	}
	mid := len(spans) / 2
	above := b.search(spans[mid:])
	below := b.search(spans[:mid])
	return b.jump(OpJge, spans[mid].first, above, below)
}

// rule emits the body of one rule, entered when the number matched, and
// returns its entry; see [Rule] for the order in which If and Unless are
// read.
func (b *builder) rule(r Rule) pos {
	act := b.ret(r.Action)
	if len(r.If) == 0 && len(r.Unless) == 0 {
		return act
	}
	allow := b.ret(Allow)
	// What happens when no condition of If holds.
	otherwise := allow
	if len(r.Unless) > 0 {
		otherwise = act
		for _, c := range slices.Backward(r.Unless) {
			otherwise = b.cond(c, allow, otherwise)
		}
	}
	for _, c := range slices.Backward(r.If) {
		otherwise = b.cond(c, act, otherwise)
	}
	return otherwise
}

// cond emits the checks of c and returns their entry: they go on to
// onTrue when every check holds, to onFalse otherwise.
func (b *builder) cond(c Cond, onTrue, onFalse pos) pos {
	pass := onTrue
	for _, arg := range slices.Backward(c) {
		if arg.AnySet {
			b.jump(OpJset, arg.Mask, pass, onFalse)
		} else {
			b.jump(OpJeq, arg.Value, pass, onFalse)
			if arg.Mask != 0xffffffff {
				b.emit(Instruction{Code: OpAnd, K: arg.Mask})
			}
		}
		pass = b.load(OffArgs + 8*uint32(arg.Index))
	}
	return pass
}

// builder builds a program backwards, from its last instruction to its
// first. Classic BPF only jumps forward, so the targets of a jump are
// already in place when it is emitted and its offsets are known at once.
// A target beyond the 255 instructions a conditional jump reaches is
// reached through a copy of it placed right after the jump when it is a
// return, or else through a JA there, whose offset has 32 bits: no
// program is out of reach, whatever the size of the table or of a rule.
type builder struct {
	rev []Instruction // the program, last instruction first
	// rets holds, for each action, the return of it emitted last: the
	// nearest to what is emitted next. Every jump to an action that
	// reaches it shares it.
	rets map[Action]pos
}

// pos is the place of an instruction in a builder: its index in rev,
// counted from the end of the program.
type pos int

// emit places in before everything emitted so far, and returns its place.
func (b *builder) emit(in Instruction) pos {
	b.rev = append(b.rev, in)
	return pos(len(b.rev) - 1)
}

func (b *builder) load(off uint32) pos { return b.emit(Instruction{Code: OpLoadAbs, K: off}) }

// ret returns the place of a return of act, emitting one when there is
// none yet.
func (b *builder) ret(act Action) pos {
	if p, ok := b.rets[act]; ok {
		return p
	}
	return b.newRet(act)
}

func (b *builder) newRet(act Action) pos {
	p := b.emit(Instruction{Code: OpRet, K: uint32(act)})
	if b.rets == nil {
		b.rets = map[Action]pos{}
	}
	b.rets[act] = p
	return p
}

// jump emits a conditional jump on A and k to jt or jf, and returns its
// place.
func (b *builder) jump(code uint16, k uint32, jt, jf pos) pos {
	// What within places for jf goes between the jump and jt: jt is
	// brought within reach with one instruction to spare.
	jt = b.within(jt, 254)
	jf = b.within(jf, 255)
	return b.emit(Instruction{Code: code, K: k, Jt: uint8(b.skip(jt)), Jf: uint8(b.skip(jf))})
}

// skip is the offset from the next instruction emitted to t: how many
// instructions it skips to reach t.
func (b *builder) skip(t pos) int { return len(b.rev) - 1 - int(t) }

// within returns t when the next instruction emitted reaches it with an
// offset of at most limit, or else an instruction within reach that does
// what t does: a return of the same action, which costs the path no
// instruction, or a JA to t.
func (b *builder) within(t pos, limit int) pos {
	if b.skip(t) <= limit {
		return t
	}
	if in := b.rev[t]; in.Code == OpRet {
		if p := b.ret(Action(in.K)); b.skip(p) <= limit {
			return p
		}
		return b.newRet(Action(in.K))
	}
	return b.emit(Instruction{Code: OpJa, K: uint32(b.skip(t))})
}

// program returns the instructions in program order.
func (b *builder) program() ([]Instruction, error) {
	if len(b.rev) > MaxInstructions {
		return nil, fmt.Errorf("program of %d instructions exceeds the kernel's %d", len(b.rev), MaxInstructions)
	}
	out := slices.Clone(b.rev)
	slices.Reverse(out)
	return out, nil
}
