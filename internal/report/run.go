// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package report

// The end of a warden run that blocked something: one short summary on
// stderr, so that a bare "Forbidden" or "Tunnel connection failed: 403"
// in the command's output, or a write that did not happen, is not left to
// guesswork. The rules:
//
//   - Nothing at all when the run blocked nothing.
//   - Each thing blocked once, with how often: a destination (host, port,
//     the rule that denied it, why), a refused write or read (the path,
//     why), a refused system call (its name, who made it first).
//   - What would allow a destination no rule allowed (the default deny)
//     is written out exactly: the network rule to add and the warden
//     policy remember command that adds it; for every denied destination,
//     the warden net check command that says why. Nothing is offered for
//     what no rule can open (loopback, cloud metadata, private ranges).
//   - The suggestions are the person's to take: the floor refuses an
//     agent that runs warden policy remember (docs/security-model.md).
//   - Short: at most maxSummaryItems things, then how many more, and where
//     to see them all (the execution record).
//   - Every value the command chose (a host, a path, a command name) is
//     printed quoted when it holds anything but plain printable text, and
//     goes into a suggested command or rule only when it is a plain host
//     name or address.

import (
	"fmt"
	"io"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"warden.dev/warden/internal/audit"
)

// maxSummaryItems bounds the things a run's summary lists; maxSummaryRules
// the destinations it writes a rule for.
const (
	maxSummaryItems = 6
	maxSummaryRules = 3
)

// Rule names of network decisions taken by no written rule (package
// netpolicy's): only the first can be lifted by adding an allow rule.
const (
	ruleDefaultDeny = "default: deny"
	ruleAlways      = "always-denied: "
)

// SummaryOptions say how the run was started, for the suggestions.
type SummaryOptions struct {
	// Policy is the policy file the run was given (--policy), empty for
	// none.
	Policy string
}

// RunSummary writes what the sandbox blocked in run r, each line starting
// "warden: ": the destinations the egress boundary denied, the paths it
// refused, the system calls it refused, and what would allow the
// destinations no rule allowed. It writes nothing when nothing was
// blocked.
func RunSummary(w io.Writer, r *audit.Run, o SummaryOptions) {
	if r == nil {
		return
	}
	dests := deniedDests(r.NetworkAttempts)
	var items []string
	for _, d := range dests {
		items = append(items, d.line())
	}
	for _, f := range r.RefusedPaths {
		items = append(items, refusalLine(f))
	}
	for _, c := range r.BlockedSyscalls {
		if r.Status == 0 && unixSocket(c) {
			// The C library's name-service lookups try nscd over a
			// Unix socket in almost every command and go on without
			// it: of a command that succeeded, that is noise (the
			// record keeps it). Of one that failed, it may be why.
			continue
		}
		items = append(items, syscallLine(c))
	}
	if len(items) == 0 {
		return
	}
	fmt.Fprintln(w, "warden: the sandbox blocked, in this run:")
	shown := min(len(items), maxSummaryItems)
	for _, it := range items[:shown] {
		fmt.Fprintf(w, "warden:   %s\n", it)
	}
	if more := len(items) - shown; more > 0 {
		fmt.Fprintf(w, "warden:   and %d more (see the execution record: warden run --audit-json FILE)\n", more)
	}
	// Suggestions only for the destinations shown.
	if shown < len(dests) {
		dests = dests[:shown]
	}
	writeAllow(w, dests, o)
}

// dest is one destination denied, however often.
type dest struct {
	host string
	port int // 0: a name the DNS stub would not answer
	// rule and reason are the first denial's.
	rule, reason string
	status       int
	limit        string
	count        int
}

func (d *dest) target() string {
	if d.port == 0 {
		return d.host
	}
	return net.JoinHostPort(d.host, strconv.Itoa(d.port))
}

// suggested is the destination the suggestions name: for a name the DNS
// stub would not answer, port 443, since a program that asks the stub
// rather than the proxy is captured only on :80 and :443, and most ask
// for https.
func (d *dest) suggested() string {
	if d.port == 0 {
		return net.JoinHostPort(d.host, "443")
	}
	return d.target()
}

// byDefault: no rule allowed it, and an allow rule would.
func (d *dest) byDefault() bool { return d.rule == ruleDefaultDeny && d.limit == "" }

// failed: a rule allowed it, and it could not be reached (the proxy
// answered 502 or 504), or the proxy's own check refused it.
func (d *dest) failed() bool {
	return d.status >= 500 && d.limit == "" && d.rule != ruleDefaultDeny && !strings.HasPrefix(d.rule, ruleAlways)
}

func (d *dest) line() string {
	t := audit.QuoteIfOdd(d.target())
	if d.port == 0 {
		t = "name " + t + " (DNS)"
	}
	if d.count > 1 {
		t += fmt.Sprintf(", %d times", d.count)
	}
	reason := audit.QuoteIfOdd(d.reason)
	switch {
	case d.limit != "":
		return fmt.Sprintf("refused  %s: %s (the proxy's %s cap)", t, reason, d.limit)
	case d.failed():
		return fmt.Sprintf("failed   %s: %s (allowed by %s, but not reached)", t, reason, audit.QuoteIfOdd(d.rule))
	case d.byDefault():
		return fmt.Sprintf("denied   %s: no network rule allows it (rule %s)", t, d.rule)
	case strings.HasPrefix(d.rule, ruleAlways):
		return fmt.Sprintf("denied   %s: %s (rule %s; no rule can open it)", t, reason, audit.QuoteIfOdd(d.rule))
	}
	return fmt.Sprintf("denied   %s: %s (rule %s)", t, reason, audit.QuoteIfOdd(d.rule))
}

// deniedDests groups the refused attempts by destination, in the order
// first seen. A name the DNS stub refused is left out when the proxy
// refused a port of it too: that line says it all.
func deniedDests(as []audit.NetworkAttempt) []*dest {
	var out []*dest
	seen := map[string]*dest{}
	ported := map[string]bool{}
	for _, a := range as {
		if a.Verdict == audit.VerdictAllow {
			continue
		}
		port := a.Port
		if a.Via == audit.ViaDNS {
			port = 0
		} else {
			ported[a.Host] = true
		}
		key := net.JoinHostPort(a.Host, strconv.Itoa(port))
		if d := seen[key]; d != nil {
			d.count++
			continue
		}
		d := &dest{host: a.Host, port: port, rule: a.Rule, reason: a.Reason, status: a.Status, limit: a.Limit, count: 1}
		seen[key] = d
		out = append(out, d)
	}
	kept := out[:0]
	for _, d := range out {
		if d.port == 0 && ported[d.host] {
			continue
		}
		kept = append(kept, d)
	}
	return kept
}

func refusalLine(f audit.Refusal) string {
	p := audit.QuoteIfOdd(f.Path)
	if f.Kind == audit.RefusedMasked {
		return fmt.Sprintf("refused  %s: masked in the sandbox, cannot be read or written (the command got %q)", p, f.Error)
	}
	return fmt.Sprintf("refused  %s: read-only in the sandbox, nothing was written (the command got %q)", p, f.Error)
}

func syscallLine(c audit.Syscall) string {
	n := socketKind(c)
	if c.Count > 1 {
		n += fmt.Sprintf(", %d times", c.Count)
	}
	// The command's name is the command's to choose: quoted.
	return fmt.Sprintf("refused  the %s system call%s, first by %q (%s)", audit.QuoteIfOdd(c.Syscall), n, c.Command, c.Errno)
}

// unixSocket reports whether c is a refused socket of the Unix family.
func unixSocket(c audit.Syscall) bool {
	return c.Syscall == "socket" && len(c.Args) > 0 && c.Args[0] == 1
}

// socketKind names the family and type of a refused socket or socketpair
// call, " (AF_UNIX datagram)", from its first caller's arguments: the
// seccomp filter refuses sockets by family and type (a Unix datagram
// socket, a raw or packet one, a VM socket), and "socket refused" alone
// reads as the network being cut. Empty for another call, or a family
// not named here.
func socketKind(c audit.Syscall) string {
	if (c.Syscall != "socket" && c.Syscall != "socketpair") || len(c.Args) < 2 {
		return ""
	}
	fam, ok := socketFamilies[c.Args[0]]
	if !ok {
		return ""
	}
	if typ, ok := socketTypes[c.Args[1]&0xf]; ok {
		return " (" + fam + " " + typ + ")"
	}
	return " (" + fam + ")"
}

// socketFamilies and socketTypes are Linux's numbers (socket(2)) of the
// families and types a run is most often refused.
var (
	socketFamilies = map[uint64]string{
		1: "AF_UNIX", 2: "AF_INET", 10: "AF_INET6", 16: "AF_NETLINK",
		17: "AF_PACKET", 38: "AF_ALG", 40: "AF_VSOCK",
	}
	socketTypes = map[uint64]string{
		1: "stream", 2: "datagram", 3: "raw", 5: "seqpacket", 10: "packet",
	}
)

// writeAllow writes what would allow the destinations no rule allowed,
// and how to see why each one was denied.
func writeAllow(w io.Writer, ds []*dest, o SummaryOptions) {
	var open, check []string
	for _, d := range ds {
		if !suggestable(d.host) {
			continue
		}
		if d.byDefault() && len(open) < maxSummaryRules && !slices.Contains(open, d.suggested()) {
			open = append(open, d.suggested())
		}
		if !d.failed() && !slices.Contains(check, d.suggested()) {
			check = append(check, d.suggested())
		}
	}
	policy := ""
	if o.Policy != "" {
		policy = shellWord(o.Policy)
	}
	if len(open) > 0 {
		if policy != "" {
			cmd := "warden policy remember --ttl 8h"
			for _, t := range open {
				cmd += " --net " + t
			}
			fmt.Fprintf(w, "warden: to allow %s: %s %s\n", plural(len(open), "it", "them"), cmd, policy)
			fmt.Fprintf(w, "warden:   (or add to network: rules: in %s, for good)\n", policy)
		} else {
			fmt.Fprintf(w, "warden: to allow %s, run with --policy FILE, a policy file with:\n", plural(len(open), "it", "them"))
			fmt.Fprintln(w, "warden:     version: 1")
			fmt.Fprintln(w, "warden:     network:")
			fmt.Fprintln(w, "warden:       rules:")
		}
		for _, t := range open {
			host, port, _ := net.SplitHostPort(t)
			fmt.Fprintf(w, "warden:         - allow: {host: %s, port: %s}\n", host, port)
		}
	}
	if len(check) > 0 {
		cmd := "warden net check"
		if policy != "" {
			cmd += " --policy " + policy
		}
		fmt.Fprintf(w, "warden: why: %s %s\n", cmd, strings.Join(check, " "))
	}
}

// plainHost is a host name or IPv4 address that can go into a suggested
// command or rule as it is, with no quoting for the shell or YAML:
// letters, digits, dots and hyphens. (An IPv6 literal gets no
// suggestion: its brackets are the shell's, and no rule but allowed_ips
// opens most addresses anyway.)
var plainHost = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]+$`) })

// suggestable reports whether host can be written as it is in a suggested
// command and rule: plain, and not a word YAML reads as something else.
func suggestable(host string) bool {
	switch strings.ToLower(host) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return false
	}
	return plainHost().MatchString(host)
}

// shellWord is s as one shell word: quoted unless it is plain.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_./+=:,@%", r)))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
