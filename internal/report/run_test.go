// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package report_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/report"
)

func TestRunSummary(t *testing.T) {
	deny := func(host string, port int) audit.NetworkAttempt {
		return audit.NetworkAttempt{Via: audit.ViaConnect, Host: host, Port: port, Verdict: audit.VerdictDeny,
			Rule: "default: deny", Reason: "no network rule allows it; the default is deny", Status: 403}
	}
	allow := audit.NetworkAttempt{Via: audit.ViaConnect, Host: "proxy.golang.org", Port: 443, Verdict: audit.VerdictAllow, Rule: "network.rules[0]"}
	for _, tt := range []struct {
		name   string
		run    audit.Run
		policy string
		want   string
	}{
		{name: "nothing blocked", run: audit.Run{
			NetworkAttempts: []audit.NetworkAttempt{allow},
			BlockedSyscalls: []audit.Syscall{}, RefusedPaths: []audit.Refusal{},
		}, want: ""},
		{name: "a destination denied by default, three times, no policy", run: audit.Run{
			NetworkAttempts: []audit.NetworkAttempt{allow, deny("pypi.org", 443), deny("pypi.org", 443), deny("pypi.org", 443)},
		}, want: `warden: the sandbox blocked, in this run:
warden:   denied   pypi.org:443, 3 times: no network rule allows it (rule default: deny)
warden: to allow it, run with --policy FILE, a policy file with:
warden:     version: 1
warden:     network:
warden:       rules:
warden:         - allow: {host: pypi.org, port: 443}
warden: why: warden net check pypi.org:443
`},
		{name: "with a policy: remember, and net check with it", policy: "my policy.yaml", run: audit.Run{
			NetworkAttempts: []audit.NetworkAttempt{
				{Via: audit.ViaDNS, Host: "pypi.org", Verdict: audit.VerdictDeny, Rule: "default: deny"},
				deny("pypi.org", 443), deny("files.pythonhosted.org", 443),
			},
		}, want: `warden: the sandbox blocked, in this run:
warden:   denied   pypi.org:443: no network rule allows it (rule default: deny)
warden:   denied   files.pythonhosted.org:443: no network rule allows it (rule default: deny)
warden: to allow them: warden policy remember --ttl 8h --net pypi.org:443 --net files.pythonhosted.org:443 'my policy.yaml'
warden:   (or add to network: rules: in 'my policy.yaml', for good)
warden:         - allow: {host: pypi.org, port: 443}
warden:         - allow: {host: files.pythonhosted.org, port: 443}
warden: why: warden net check --policy 'my policy.yaml' pypi.org:443 files.pythonhosted.org:443
`},
		{name: "what no rule opens, an upstream failure, a cap, a name", run: audit.Run{
			NetworkAttempts: []audit.NetworkAttempt{
				{Via: audit.ViaForward, Host: "169.254.169.254", Port: 80, Verdict: audit.VerdictDeny,
					Rule: "always-denied: cloud metadata", Reason: "169.254.169.254 is a cloud metadata endpoint", Status: 403},
				{Via: audit.ViaConnect, Host: "mirror.example", Port: 443, Verdict: audit.VerdictDeny,
					Rule: "network.rules[1]", Reason: "resolving mirror.example: no such host", Status: 502},
				{Via: audit.ViaConnect, Host: "a.example", Port: 443, Verdict: audit.VerdictDeny, Limit: "tunnels",
					Rule: "proxy", Reason: "64 streams are open", Status: 503},
				{Via: audit.ViaDNS, Host: "b.example", Verdict: audit.VerdictDeny, Rule: "network.rules[2]", Reason: "denied by rule"},
			},
		}, want: `warden: the sandbox blocked, in this run:
warden:   denied   169.254.169.254:80: 169.254.169.254 is a cloud metadata endpoint (rule always-denied: cloud metadata; no rule can open it)
warden:   failed   mirror.example:443: resolving mirror.example: no such host (allowed by network.rules[1], but not reached)
warden:   refused  a.example:443: 64 streams are open (the proxy's tunnels cap)
warden:   denied   name b.example (DNS): denied by rule (rule network.rules[2])
warden: why: warden net check 169.254.169.254:80 a.example:443 b.example:443
`},
		{name: "a name the DNS stub would not answer: port 443 suggested", run: audit.Run{
			NetworkAttempts: []audit.NetworkAttempt{
				{Via: audit.ViaDNS, Host: "registry.test", Verdict: audit.VerdictDeny, Rule: "default: deny", Reason: "no network rule allows registry.test"},
				{Via: audit.ViaDNS, Host: "registry.test", Verdict: audit.VerdictDeny, Rule: "default: deny", Reason: "no network rule allows registry.test"},
			},
		}, want: `warden: the sandbox blocked, in this run:
warden:   denied   name registry.test (DNS), 2 times: no network rule allows it (rule default: deny)
warden: to allow it, run with --policy FILE, a policy file with:
warden:     version: 1
warden:     network:
warden:       rules:
warden:         - allow: {host: registry.test, port: 443}
warden: why: warden net check registry.test:443
`},
		{name: "paths and system calls", run: audit.Run{
			Status: 1,
			RefusedPaths: []audit.Refusal{
				{Path: "/etc/hosts", Kind: audit.RefusedReadOnly, Error: "Read-only file system"},
				{Path: "/p/.env", Kind: audit.RefusedMasked, Error: "Permission denied"},
			},
			BlockedSyscalls: []audit.Syscall{
				{Syscall: "ptrace", Errno: "EPERM", Count: 2, Command: "strace\x1b[2J"},
				{Syscall: "socket", Errno: "EPERM", Count: 6, Command: "curl", Args: []uint64{1, 526338}},
				{Syscall: "socket", Errno: "EPERM", Count: 1, Command: "tcpdump", Args: []uint64{17, 3}},
			},
		}, want: `warden: the sandbox blocked, in this run:
warden:   refused  /etc/hosts: read-only in the sandbox, nothing was written (the command got "Read-only file system")
warden:   refused  /p/.env: masked in the sandbox, cannot be read or written (the command got "Permission denied")
warden:   refused  the ptrace system call, 2 times, first by "strace\x1b[2J" (EPERM)
warden:   refused  the socket system call (AF_UNIX datagram), 6 times, first by "curl" (EPERM)
warden:   refused  the socket system call (AF_PACKET raw), first by "tcpdump" (EPERM)
`},
		{name: "a Unix socket refused to a command that succeeded is not news", run: audit.Run{
			BlockedSyscalls: []audit.Syscall{{Syscall: "socket", Errno: "EPERM", Count: 2, Command: "bash", Args: []uint64{1, 526337}}},
		}, want: ""},
		{name: "a value the command chose is quoted, and never suggested", run: audit.Run{
			NetworkAttempts: []audit.NetworkAttempt{deny("evil\x1b]0;x\x07.example", 443)},
			RefusedPaths: []audit.Refusal{{Path: "/etc/a\nb", Kind: audit.RefusedReadOnly, Error: "Read-only file system"},
				{Path: "/p/sub\x9b2J/.env", Kind: audit.RefusedMasked, Error: "Permission denied"}},
		}, want: `warden: the sandbox blocked, in this run:
warden:   denied   "evil\x1b]0;x\a.example:443": no network rule allows it (rule default: deny)
warden:   refused  "/etc/a\nb": read-only in the sandbox, nothing was written (the command got "Read-only file system")
warden:   refused  "/p/sub\x9b2J/.env": masked in the sandbox, cannot be read or written (the command got "Permission denied")
`},
		{name: "a host YAML would read as a boolean is not suggested", run: audit.Run{
			NetworkAttempts: []audit.NetworkAttempt{deny("true", 443)},
		}, want: `warden: the sandbox blocked, in this run:
warden:   denied   true:443: no network rule allows it (rule default: deny)
`},
		{name: "at most six things, then how many more", run: audit.Run{
			NetworkAttempts: []audit.NetworkAttempt{deny("a.test", 443), deny("b.test", 443), deny("c.test", 443), deny("d.test", 443), deny("e.test", 443)},
			RefusedPaths:    []audit.Refusal{{Path: "/etc/x", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}, {Path: "/etc/y", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}},
			BlockedSyscalls: []audit.Syscall{{Syscall: "bpf", Errno: "EPERM", Count: 1, Command: "x"}},
		}, want: `warden: the sandbox blocked, in this run:
warden:   denied   a.test:443: no network rule allows it (rule default: deny)
warden:   denied   b.test:443: no network rule allows it (rule default: deny)
warden:   denied   c.test:443: no network rule allows it (rule default: deny)
warden:   denied   d.test:443: no network rule allows it (rule default: deny)
warden:   denied   e.test:443: no network rule allows it (rule default: deny)
warden:   refused  /etc/x: read-only in the sandbox, nothing was written (the command got "Read-only file system")
warden:   and 2 more (see the execution record: warden run --audit-json FILE)
warden: to allow them, run with --policy FILE, a policy file with:
warden:     version: 1
warden:     network:
warden:       rules:
warden:         - allow: {host: a.test, port: 443}
warden:         - allow: {host: b.test, port: 443}
warden:         - allow: {host: c.test, port: 443}
warden: why: warden net check a.test:443 b.test:443 c.test:443 d.test:443 e.test:443
`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			report.RunSummary(&b, &tt.run, report.SummaryOptions{Policy: tt.policy})
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("RunSummary (-want +got):\n%s", diff)
			}
		})
	}
	var b strings.Builder
	report.RunSummary(&b, nil, report.SummaryOptions{})
	if b.Len() != 0 {
		t.Errorf("RunSummary(nil) wrote %q", b.String())
	}
}
