// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

// The approval policies of warden run (docs/spec.md §7). The rules:
//
//   - The only approver a run has is a person at the caller's controlling
//     terminal ([Approver]), asked after the command has ended or before
//     it starts, never while it runs. Without one every question is
//     answered no: a prompt with no approver is a deny.
//   - untrusted runs without asking only a command that shell analysis
//     finds read-only; anything else is asked first.
//   - on-failure asks only after a run that failed while the sandbox
//     blocked something it can name (sandbox.Blocks, and the
//     destinations the egress proxy denied), and offers to run it once
//     more with that one thing allowed.
//   - on-request (the default) and never do not ask: warden run has
//     nothing more to offer than what the policy and --degraded say.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/shellparse"
)

// shellQuote writes argv as one shell command line.
func shellQuote(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = strconv.Quote(a)
		}
		parts[i] = q
	}
	return strings.Join(parts, " ")
}

// approveUntrusted lets a read-only command through and asks for the
// rest; it returns the refusal of a command not approved.
func (p *plan) approveUntrusted() *Exit {
	line := shellQuote(p.spec.Argv)
	an := shellparse.Analyze(line, shellparse.Options{Cwd: p.spec.Dir, Home: p.spec.Home})
	if an.ReadOnly {
		return nil
	}
	why := "it is not a known read-only command"
	if an.Unresolved != "" {
		why = "it cannot be analysed statically: " + an.Unresolved
	}
	ask := p.approver()
	if ask == nil {
		return &Exit{Status: StatusRefused,
			Msg:   fmt.Sprintf("not run: approval policy untrusted asks before running %s (%s), and there is no terminal to ask; a prompt with no approver is a deny", line, why),
			Hints: []string{"run it from a terminal, or set sandbox.approval to on-request in the policy"}}
	}
	if ans := ask.Ask(fmt.Sprintf("approval untrusted: run %s in the sandbox (%s)? [y/N]", line, why)); !yes(ans) {
		return &Exit{Status: StatusRefused, Msg: "not run: the command was not approved"}
	}
	return nil
}

// approver is the run's approver, or nil when it has none: one that may
// be absent ([Absentable]) is asked whether it is there at the run's
// first question, not before.
func (p *plan) approver() Approver {
	if a, ok := p.o.Ask.(Absentable); ok && !a.Present() {
		return nil
	}
	return p.o.Ask
}

// approvedWhere says where an approver's person answered: at the
// terminal, unless the approver says otherwise (warden serve's).
func approvedWhere(a Approver) string {
	if w, ok := a.(interface{ Where() string }); ok {
		return w.Where()
	}
	return "at the terminal"
}

func yes(s string) bool { return s == "y" || s == "Y" || strings.EqualFold(s, "yes") }

// maxNetBlocks bounds the destinations offered after one run.
const maxNetBlocks = 3

// onFailure lists what the sandbox blocked in a failed run, asks which one
// to allow, and returns the spec of the rerun and what was approved.
// Without an approver it only says what was blocked.
func (p *plan) onFailure(res sandbox.Result) (sandbox.Spec, string, bool) {
	spec := p.spec
	bs := sandbox.Blocks(spec, res)
	for i, d := range p.eg.Denied() {
		if i == maxNetBlocks {
			break
		}
		dest := d
		bs = append(bs, sandbox.Block{What: fmt.Sprintf("reaching %q (the egress proxy denied it)", dest), Allow: "network access to " + dest,
			Apply: func(*sandbox.Spec) {
				if err := p.eg.Allow(dest); err != nil {
					p.o.Report.Warn(fmt.Sprintf("cannot allow %s: %v", audit.QuoteIfOdd(dest), err))
				}
			}})
	}
	if len(bs) == 0 {
		return spec, "", false
	}
	var list strings.Builder
	for i, b := range bs {
		fmt.Fprintf(&list, "\n  %d. %s", i+1, b.What)
	}
	ask := p.approver()
	if ask == nil {
		p.o.Report.Say("note: the run failed and the sandbox blocked:" + list.String())
		p.o.Report.Say("note: approval on-failure would offer to rerun with one of them allowed, but there is no terminal to ask (a prompt with no approver is a deny)")
		return spec, "", false
	}
	ask.Tell("the run failed and the sandbox blocked:" + list.String())
	ans := ask.Ask(fmt.Sprintf("approval on-failure: rerun once with one of them allowed? [1-%d/N]", len(bs)))
	n, err := strconv.Atoi(ans)
	if err != nil || n < 1 || n > len(bs) {
		return spec, "", false
	}
	b := bs[n-1]
	next := spec
	// Copy the slices the change may append to.
	next.AllowSyscalls = slices.Clone(spec.AllowSyscalls)
	next.ReadWrite = slices.Clone(spec.ReadWrite)
	b.Apply(&next)
	where := approvedWhere(ask)
	p.o.Report.Say(fmt.Sprintf("rerunning with %s, as approved %s", audit.QuoteIfOdd(b.Allow), where))
	return next, b.Allow + " (approved " + where + ", on-failure)", true
}
