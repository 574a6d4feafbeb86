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
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/audit"
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

// block is one thing the sandbox stopped, and the change to the spec that
// would allow it.
type block struct {
	what  string // shown to the person
	allow string // what the rerun allows, for the record
	apply func(*sandbox.Spec)
}

// onFailure lists what the sandbox blocked in a failed run, asks which one
// to allow, and returns the spec of the rerun. Without an approver it only
// says what was blocked.
func onFailure(a *approver, spec sandbox.Spec, res sandbox.Result, eg *egress.Boundary) (sandbox.Spec, string, bool) {
	bs := blocks(spec, res)
	if eg != nil {
		for i, d := range eg.Denied() {
			if i == maxNetBlocks {
				break
			}
			dest := d
			bs = append(bs, block{what: fmt.Sprintf("reaching %q (the egress proxy denied it)", dest), allow: "network access to " + dest,
				apply: func(*sandbox.Spec) {
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
		fmt.Fprintf(&list, "\n  %d. %s", i+1, b.what)
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
	b.apply(&next)
	fmt.Fprintf(Stderr, "warden: rerunning with %s, as approved at the terminal\n", b.allow)
	return next, b.allow + " (approved at the terminal, on-failure)", true
}

// blocks lists what the sandbox demonstrably stopped in res: refused
// system calls, limits reached, and writes refused on read-only paths (read
// from the command's own error messages, the only place they show).
func blocks(spec sandbox.Spec, res sandbox.Result) []block {
	var bs []block
	for _, c := range res.BlockedSyscalls {
		name := c.Syscall
		bs = append(bs, block{
			// The command's name is the command's to choose: quoted.
			what:  fmt.Sprintf("the %s system call (%d times, first by %q)", name, c.Count, c.Command),
			allow: "the " + name + " system call",
			apply: func(s *sandbox.Spec) { s.AllowSyscalls = append(s.AllowSyscalls, name) },
		})
	}
	if res.OOMKilled && res.Limits.Memory > 0 {
		m := res.Limits.Memory
		bs = append(bs, block{what: fmt.Sprintf("the memory limit (%d MiB)", m>>20), allow: fmt.Sprintf("memory %d MiB", 2*m>>20),
			apply: func(s *sandbox.Spec) { s.Limits.Memory = 2 * m }})
	}
	if res.PidsLimitHit && res.Limits.Pids > 0 {
		p := res.Limits.Pids
		bs = append(bs, block{what: fmt.Sprintf("the process limit (%d)", p), allow: fmt.Sprintf("pids %d", 2*p),
			apply: func(s *sandbox.Spec) { s.Limits.Pids = 2 * p }})
	}
	if res.Signal == int(syscall.SIGXFSZ) && res.Limits.Fsize > 0 {
		f := res.Limits.Fsize
		bs = append(bs, block{what: fmt.Sprintf("the file size limit (%d MiB)", f>>20), allow: fmt.Sprintf("fsize %d MiB", 2*f>>20),
			apply: func(s *sandbox.Spec) { s.Limits.Fsize = 2 * f }})
	}
	if res.TimedOut && spec.Timeout > 0 {
		d := spec.Timeout
		bs = append(bs, block{what: fmt.Sprintf("the timeout (%v)", d), allow: fmt.Sprintf("a timeout of %v", 2*d),
			apply: func(s *sandbox.Spec) { s.Timeout = 2 * d }})
	}
	for _, dir := range readOnlyWrites(spec, res.Stderr.String(), res.Refused) {
		d := dir
		bs = append(bs, block{what: fmt.Sprintf("writing %q (read-only in the sandbox)", d), allow: d + " writable",
			apply: func(s *sandbox.Spec) { s.ReadWrite = append(s.ReadWrite, d) }})
	}
	return bs
}

// roMessage finds a path in the ways tools report EROFS: "cannot create
// 'x': Read-only file system", "x: Read-only file system", Python's
// "[Errno 30] Read-only file system: 'x'".
var roMessage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:[‘'"]?([^\s‘’'":]+)[’'"]?: Read-only file system)|(?:Read-only file system: [‘'"]([^‘’'"\n]+)[’'"])`)
})

// maxWriteBlocks and maxNetBlocks bound the paths and destinations
// offered after one run.
const (
	maxWriteBlocks = 3
	maxNetBlocks   = 3
)

// readOnlyWrites returns the directories whose read-only mount refused a
// write the command reported, the ones it would take to allow it: the
// path itself when it is a protected path or a directory, else the
// nearest directory that exists. A masked path is not offered: no
// writable path lifts a mask.
func readOnlyWrites(spec sandbox.Spec, stderr string, refused []audit.Refusal) []string {
	var out []string
	for _, m := range roMessage().FindAllStringSubmatch(stderr, -1) {
		p := m[1]
		if p == "" {
			p = m[2]
		}
		if strings.IndexFunc(p, unicode.IsControl) >= 0 {
			continue // not a path a person should be shown as one
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(spec.Project, p)
		}
		p = filepath.Clean(p)
		if maskedRefusal(refused, p) {
			continue
		}
		dir := p
		if !isProtected(spec.Project, p) {
			for {
				if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
					break
				}
				parent := filepath.Dir(dir)
				if parent == dir {
					break
				}
				dir = parent
			}
		}
		if dir == "/" || slices.Contains(out, dir) {
			continue
		}
		out = append(out, dir)
		if len(out) == maxWriteBlocks {
			break
		}
	}
	return out
}

// isProtected reports whether p is one of the project's protected paths
// or below one, and returns it as the path to lift.
func isProtected(project, p string) bool {
	return sandbox.IsProtected(project, p)
}

// forwardedSignals are the signals warden passes on to the command.
var forwardedSignals = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGWINCH,
}
