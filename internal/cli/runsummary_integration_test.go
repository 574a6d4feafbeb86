// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// A run that blocked something ends with one short summary on stderr, and
// what it suggests really allows what was blocked: the test runs the
// remember command the summary prints and writes the policy lines it
// prints, and asks warden net check about the result. A run that blocked
// nothing says nothing. Each runs as root and as uid 65534 (setpriv),
// from a copy of this test binary named warden, which TestMain serves as
// the CLI.
//
// No address outside this machine is used: the destinations are names
// under .invalid (RFC 6761), which the egress proxy denies by name before
// anything is resolved, and warden net check is given their address
// (--resolve, a TEST-NET-3 address it judges and never dials).
//
// Assumptions: Linux, run as root (CI does), setpriv, sh and curl on PATH
// (.ci/run installs them), /var/tmp writable. Run with
//
//	go test -tags integration -run RunSummary ./internal/cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

func TestRunSummary(t *testing.T) {
	sandboxtest.RequireRoot(t)
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	sandboxtest.RequireCommand(t, "curl")
	bin, dir := wardenCopy(t)
	for _, u := range []struct {
		name string
		uid  int
		as   []string
	}{
		{"root", 0, []string{bin}},
		{"uid 65534", 65534, []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", bin}},
	} {
		t.Run(u.name, func(t *testing.T) {
			base := filepath.Join(dir, strings.ReplaceAll(u.name, " ", "-"))
			home, project := filepath.Join(base, "home"), filepath.Join(base, "project")
			for _, d := range []string{base, home, project} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Chown(d, u.uid, u.uid); err != nil {
					t.Fatal(err)
				}
			}
			policy := filepath.Join(home, "policy.yaml")
			if err := os.WriteFile(policy, []byte("version: 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chown(policy, u.uid, u.uid)
			outside := filepath.Join(base, "outside.txt")
			// Through a script, which the policy cannot see into: the
			// sandbox is what refuses here.
			blocked := scriptIn(t, project, u.uid, strings.Join([]string{
				"curl -sS -o /dev/null https://blocked.invalid/",
				"curl -sS -o /dev/null https://blocked.invalid/again",
				"curl -sS -o /dev/null http://other.invalid:8080/",
				"echo x > /etc/warden-summary-test",
				"echo x > " + outside,
				"exit 0",
			}, "\n"))

			t.Run("blocked, with a policy", func(t *testing.T) {
				r := runWarden(t, u.as, home, append([]string{"run", "--policy", policy, "--project", project, "--"}, blocked...)...)
				if r.code != 0 {
					t.Errorf("the run exited %d, want the command's 0", r.code)
				}
				for _, p := range []string{"/etc/warden-summary-test", outside} {
					if _, err := os.Lstat(p); err == nil {
						t.Errorf("%s was written on the host", p)
					}
				}
				for _, want := range []string{
					"warden: the sandbox blocked, in this run:",
					"warden:   denied   blocked.invalid:443, 2 times: no network rule allows it (rule default: deny)",
					"warden:   denied   other.invalid:8080: no network rule allows it (rule default: deny)",
					"warden:   refused  /etc/warden-summary-test: read-only in the sandbox, nothing was written (the command got \"Read-only file system\")",
					"warden:   refused  " + outside + ": read-only in the sandbox, nothing was written (the command got \"Read-only file system\")",
					"warden: to allow them: warden policy remember --ttl 8h --net blocked.invalid:443 --net other.invalid:8080 " + policy,
					"warden:         - allow: {host: blocked.invalid, port: 443}",
					"warden:         - allow: {host: other.invalid, port: 8080}",
					"warden: why: warden net check --policy " + policy + " blocked.invalid:443 other.invalid:8080",
				} {
					if !hasLine(r.stderr, want) {
						t.Errorf("stderr lacks the line %q", want)
					}
				}
				if n := strings.Count(r.stderr, "warden: the sandbox blocked"); n != 1 {
					t.Errorf("the summary is printed %d times, want once", n)
				}
				// The remember command, as printed, allows both.
				line := lineWith(r.stderr, "warden: to allow them: ")
				argv := strings.Fields(strings.TrimPrefix(line, "warden: to allow them: "))
				if len(argv) < 2 || argv[0] != "warden" {
					t.Fatalf("no warden command in %q", line)
				}
				if rem := runWarden(t, u.as, home, argv[1:]...); rem.code != 0 {
					t.Fatalf("%s: status %d: %s", line, rem.code, rem.stderr)
				}
				for _, target := range []string{"blocked.invalid:443", "other.invalid:8080"} {
					wantNetAllow(t, u.as, home, policy, target)
				}
			})

			t.Run("blocked, without a policy", func(t *testing.T) {
				r := runWarden(t, u.as, home, append([]string{"run", "--project", project, "--"}, blocked...)...)
				if !hasLine(r.stderr, "warden: to allow them, run with --policy FILE, a policy file with:") {
					t.Fatalf("stderr lacks the policy lines")
				}
				// The policy lines, as printed, allow both.
				var file strings.Builder
				on := false
				for l := range strings.Lines(r.stderr) {
					switch {
					case strings.HasPrefix(l, "warden: to allow them"):
						on = true
					case on && strings.HasPrefix(l, "warden:     "):
						file.WriteString(strings.TrimPrefix(l, "warden:     "))
					default:
						on = false
					}
				}
				written := filepath.Join(home, "written.yaml")
				if err := os.WriteFile(written, []byte(file.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				for _, target := range []string{"blocked.invalid:443", "other.invalid:8080"} {
					wantNetAllow(t, u.as, home, written, target)
				}
			})

			t.Run("nothing blocked", func(t *testing.T) {
				r := runWarden(t, u.as, home, append([]string{"run", "--project", project, "--"},
					scriptIn(t, project, u.uid, "echo ok > inside.txt")...)...)
				if r.code != 0 {
					t.Errorf("the run exited %d", r.code)
				}
				var warnings int
				for l := range strings.Lines(r.stderr) {
					if strings.HasPrefix(l, "warden: warning: ") {
						warnings++
						// Without cgroups, one line, not a wall.
						if !strings.Contains(l, "warden doctor") {
							t.Errorf("a warning that does not point at warden doctor: %q", l)
						}
						continue
					}
					t.Errorf("a run that blocked nothing said %q", l)
				}
				if warnings > 1 {
					t.Errorf("%d warnings, want at most one:\n%s", warnings, r.stderr)
				}
			})
		})
	}
}

// wantNetAllow checks that warden net check allows target under policy.
func wantNetAllow(t *testing.T, as []string, home, policy, target string) {
	t.Helper()
	host, _, _ := strings.Cut(target, ":")
	// TEST-NET-3: judged, never dialed.
	r := runWarden(t, as, home, "net", "check", "--policy", policy, "--resolve", host+"=203.0.113.9", target)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "allow: ") {
		b, _ := os.ReadFile(policy)
		t.Errorf("warden net check %s with the suggestion: status %d: %s%s\npolicy:\n%s", target, r.code, r.stdout, r.stderr, b)
	}
}

func hasLine(text, line string) bool {
	for l := range strings.Lines(text) {
		if strings.TrimSuffix(l, "\n") == line {
			return true
		}
	}
	return false
}

func lineWith(text, prefix string) string {
	for l := range strings.Lines(text) {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimSuffix(l, "\n")
		}
	}
	return ""
}
