// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// The approval policies of warden run (DESIGN.md §7), and the person they
// ask. The rules:
//
//   - The only approver warden run has is a person at the caller's
//     controlling terminal (/dev/tty), asked after the command has ended
//     or before it starts, never while it runs. Without a terminal, or
//     with --no-approver, every question is answered no: a prompt with no
//     approver is a deny.
//   - untrusted runs without asking only a command that shell analysis
//     finds read-only; anything else is asked first.
//   - on-failure asks only after a run that failed while the sandbox
//     blocked something it can name, and offers to run it once more with
//     that one thing allowed.
//   - on-request (the default) and never do not ask: warden run has
//     nothing more to offer than what the policy and --degraded say.

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/egress"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/shellparse"
)

// exitDenied is the status of a run the approval policy refused: like a
// shell's "found but cannot be executed".
const exitDenied = 126

// approver asks a person at the terminal; a nil *approver answers no.
type approver struct {
	tty *os.File
	in  *bufio.Reader
}

// openApprover opens the controlling terminal, or returns nil when there is
// none (or asking is off).
func openApprover(off bool) *approver {
	if off {
		return nil
	}
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	if !isTerminal(f.Fd()) {
		f.Close()
		return nil
	}
	return &approver{tty: f, in: bufio.NewReader(f)}
}

func (a *approver) close() {
	if a != nil {
		a.tty.Close()
	}
}

// ask writes the question on the terminal and reads one line of answer.
func (a *approver) ask(question string) string {
	if a == nil {
		return ""
	}
	fmt.Fprintf(a.tty, "warden: %s ", question)
	line, _ := a.in.ReadString('\n')
	return strings.TrimSpace(line)
}

// approvalOf is the approval policy in force: the policy's, else
// on-request.
func approvalOf(havePolicy bool, p policyfile.ApprovalPolicy) policyfile.ApprovalPolicy {
	if !havePolicy || p == "" {
		return policyfile.ApprovalOnRequest
	}
	return p
}

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

// approveUntrusted lets a read-only command through and asks for the rest.
func approveUntrusted(a *approver, spec sandbox.Spec) *exitError {
	line := shellQuote(spec.Argv)
	an := shellparse.Analyze(line, shellparse.Options{Cwd: spec.Project, Home: spec.Home})
	if an.ReadOnly {
		return nil
	}
	why := "it is not a known read-only command"
	if an.Unresolved != "" {
		why = "it cannot be analysed statically: " + an.Unresolved
	}
	if a == nil {
		return &exitError{code: exitDenied,
			msg:   fmt.Sprintf("not run: approval policy untrusted asks before running %s (%s), and there is no terminal to ask; a prompt with no approver is a deny", line, why),
			hints: []string{"run it from a terminal, or set sandbox.approval to on-request in the policy"}}
	}
	if ans := a.ask(fmt.Sprintf("approval untrusted: run %s in the sandbox (%s)? [y/N]", line, why)); !yes(ans) {
		return &exitError{code: exitDenied, msg: "not run: the command was not approved"}
	}
	return nil
}

func yes(s string) bool { return s == "y" || s == "Y" || strings.EqualFold(s, "yes") }

// maxNetBlocks bounds the destinations offered after one run.
const maxNetBlocks = 3

// onFailure lists what the sandbox blocked in a failed run, asks which one
// to allow, and returns the spec of the rerun. Without an approver it only
// says what was blocked.
func onFailure(a *approver, spec sandbox.Spec, res sandbox.Result, eg *egress.Boundary) (sandbox.Spec, string, bool) {
	bs := sandbox.Blocks(spec, res)
	if eg != nil {
		for i, d := range eg.Denied() {
			if i == maxNetBlocks {
				break
			}
			dest := d
			bs = append(bs, sandbox.Block{What: fmt.Sprintf("reaching %q (the egress proxy denied it)", dest), Allow: "network access to " + dest,
				Apply: func(*sandbox.Spec) {
					if err := eg.Allow(dest); err != nil {
						warningf("cannot allow %s: %v", dest, err)
					}
				}})
		}
	}
	if len(bs) == 0 {
		return spec, "", false
	}
	var list strings.Builder
	for i, b := range bs {
		fmt.Fprintf(&list, "\n  %d. %s", i+1, b.What)
	}
	if a == nil {
		fmt.Fprintf(Stderr, "warden: note: the run failed and the sandbox blocked:%s\nwarden: note: approval on-failure would offer to rerun with one of them allowed, but there is no terminal to ask (a prompt with no approver is a deny)\n", list.String())
		return spec, "", false
	}
	fmt.Fprintf(a.tty, "warden: the run failed and the sandbox blocked:%s\n", list.String())
	ans := a.ask(fmt.Sprintf("approval on-failure: rerun once with one of them allowed? [1-%d/N]", len(bs)))
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
	fmt.Fprintf(Stderr, "warden: rerunning with %s, as approved at the terminal\n", b.Allow)
	return next, b.Allow + " (approved at the terminal, on-failure)", true
}

// forwardedSignals are the signals warden passes on to the command.
var forwardedSignals = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGWINCH,
}
