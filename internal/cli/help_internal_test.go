// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHelp walks every command and subcommand: each answers --help with
// exit 0, its synopsis, an example and its exit statuses; every command
// is in the README's table; warden help TOPIC is TOPIC's --help.
func TestHelp(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	Stdout, Stderr = &out, &out
	t.Cleanup(func() { Stdout, Stderr = os.Stdout, os.Stderr })
	run := func(args ...string) (int, string) {
		out.Reset()
		code := Run(context.Background(), args)
		return code, out.String()
	}
	groups := map[string][][2]string{"policy": policyGroup.subs, "net": netSubcommands, "hook": hookGroup().subs, "audit": auditSubcommands, "approvals": approvalsGroup.subs}
	var leaves [][]string
	for _, c := range commands() {
		if !inTable(string(readme), c.name) {
			t.Errorf("README.md's table has no row for warden %s", c.name)
		}
		code, text := run(c.name, "--help")
		if code != 0 || !strings.Contains(text, "Usage: warden "+c.name) {
			t.Errorf("warden %s --help: exit %d, want 0 and its usage:\n%s", c.name, code, text)
		}
		subs, ok := groups[c.name]
		if !ok {
			leaves = append(leaves, []string{c.name})
			continue
		}
		for _, s := range subs {
			if !strings.Contains(text, s[0]) {
				t.Errorf("warden %s --help does not list %s", c.name, s[0])
			}
			if c.name == "hook" && (s[0] == "install" || s[0] == "uninstall") {
				leaves = append(leaves, []string{"hook", s[0], "claude-code"})
				continue
			}
			leaves = append(leaves, []string{c.name, s[0]})
		}
	}
	for _, l := range leaves {
		name := strings.Join(l, " ")
		code, text := run(append(l, "--help")...)
		// A hook never exits 0 without an answer, --help included:
		// the agent would run the tool.
		wantCode := 0
		if l[0] == "hook" && l[1] != "install" && l[1] != "uninstall" {
			wantCode = exitBadInput
		}
		for _, want := range []string{"Usage: warden " + name, "Example:\n  $ ", "Exit status: "} {
			if code != wantCode || !strings.Contains(text, want) {
				t.Errorf("warden %s --help: exit %d, want %d and %q:\n%s", name, code, wantCode, want, text)
			}
		}
		if _, help := run(append([]string{"help"}, l...)...); help != text {
			t.Errorf("warden help %s differs from warden %s --help", name, name)
		}
	}
	// A mistyped command or subcommand is answered with the closest.
	for args, want := range map[string]string{"polcy": "'warden policy'", "policy lnt": "'warden policy lint'", "net chek": "'warden net check'", "hook claud-code": "'warden hook claude-code'"} {
		code, text := run(strings.Fields(args)...)
		if code != exitBadInput || !strings.Contains(text, "did you mean "+want) {
			t.Errorf("warden %s: exit %d, want 2 and a suggestion of %s:\n%s", args, code, want, text)
		}
	}
}

// inTable reports whether a row of the README's tables names warden
// name.
func inTable(readme, name string) bool {
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "| ") && (strings.Contains(line, "`warden "+name+" ") || strings.Contains(line, "`warden "+name+"`")) {
			return true
		}
	}
	return false
}

// TestCompletionAndMan: the completions load in their shell and name
// every command, subcommand and flag --help shows; a manual page is the
// command's --help.
func TestCompletionAndMan(t *testing.T) {
	var out bytes.Buffer
	Stdout, Stderr = &out, &out
	t.Cleanup(func() { Stdout, Stderr = os.Stdout, os.Stderr })
	for _, shell := range []string{"bash", "zsh", "fish"} {
		out.Reset()
		if code := Run(context.Background(), []string{"completion", shell}); code != 0 {
			t.Fatalf("completion %s: exit %d\n%s", shell, code, out.String())
		}
		text := out.String()
		for _, want := range []string{"explain", "remember", "claude-code", "audit-json", "policy"} {
			if !strings.Contains(text, want) {
				t.Errorf("completion %s does not name %s", shell, want)
			}
		}
		if path, err := exec.LookPath(shell); err == nil && shell != "fish" {
			cmd := exec.Command(path, "-n")
			cmd.Stdin = strings.NewReader(text)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n rejects the completion: %v\n%s", shell, err, b)
			}
		}
	}
	out.Reset()
	Run(context.Background(), []string{"run", "--help"})
	help := out.String()
	out.Reset()
	if code := Run(context.Background(), []string{"man", "run"}); code != 0 {
		t.Fatalf("man run: exit %d", code)
	}
	page := out.String()
	if !strings.HasPrefix(page, ".TH WARDEN-RUN 1 ") || !strings.Contains(page, "Policy: before anything starts") {
		t.Errorf("man run is not warden run --help in roff:\n%.400s", page)
	}
	for _, line := range strings.Split(help, "\n") {
		if line != "" && !strings.HasPrefix(line, ".") && !strings.Contains(line, `\`) && !strings.Contains(page, line) {
			t.Errorf("man run lacks the help line %q", line)
			break
		}
	}
}

// TestInterruptible: the commands that start children, serve or wait
// take SIGINT and SIGTERM as a cancelled context; the short ones, and
// run (which asks for every signal itself), do not ask for them.
func TestInterruptible(t *testing.T) {
	want := map[string]bool{
		"run": false, "mcp": true, "serve": true, "approvals": true, "audit": true, "doctor": true,
		"init": true, "net": true, "hook": false, "explain": false, "policy": false, "version": false,
		"completion": false, "man": false,
	}
	got := map[string]bool{}
	for _, c := range commands() {
		got[c.name] = Interruptible([]string{c.name, "--flag"})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Interruptible (-want +got):\n%s", diff)
	}
	for _, args := range [][]string{nil, {"help", "mcp"}, {"nosuch"}} {
		if Interruptible(args) {
			t.Errorf("Interruptible(%q) = true", args)
		}
	}
}
