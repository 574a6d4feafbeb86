// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/report"
	"warden.dev/warden/internal/safefile"
)

func runPolicy(ctx context.Context, args []string) error {
	subs := map[string]func([]string) error{
		"fmt":       policyFmt,
		"lint":      policyLint,
		"enumerate": policyEnumerate,
		"test":      policyTest,
		"remember":  policyRemember,
		"show":      policyShow,
		"trust":     policyTrust,
		"import":    policyImport,
		"export":    policyExport,
	}
	if done, err := policyGroup.help(args); done {
		return err
	}
	if subs[args[0]] == nil {
		return policyGroup.unknown(args[0])
	}
	return subs[args[0]](args[1:])
}

var policyGroup = group{name: "policy", subs: [][2]string{
	{"show", "say which policy is in force here without --policy, and why"},
	{"trust", "trust the present content of the project's .warden/policy.yaml"},
	{"fmt", "normalise policy files' layout, keeping comments and order, or rewrite them (-w)"},
	{"lint", "report errors, unreachable rules, Rule-of-Two findings and network rules that disagree"},
	{"enumerate", "list what an agent may do, rule by rule, in sentences, and the floor"},
	{"test", "check the examples a policy file keeps against its verdicts"},
	{"remember", "write an approved action as a rule with an expiry (guardrail and network)"},
	{"import", "translate an OpenShell policy into Warden's network rules, with a report of what does not translate"},
	{"export", "write a Warden policy's network rules as an OpenShell policy, refusing what OpenShell would allow less of"},
}}

// policyFmt prints files with their layout normalised, keeping their
// comments and order, or rewrites them with -w. A file that cannot be
// laid out again safely is kept as written, with a warning.
func policyFmt(args []string) error {
	fs := newFlags("policy fmt", "policy fmt [-w] [-l] FILE...")
	write := fs.Bool("w", false, "rewrite the files in place")
	list := fs.Bool("l", false, "list the files whose formatting differs")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return badInput("policy fmt needs at least one file")
	}
	// Parse everything first, so a bad file leaves every file untouched.
	type out struct {
		name      string
		old, text []byte
	}
	var outs []out
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return badInput(err.Error())
		}
		text, err := policyfile.Reformat(name, src)
		switch {
		case errors.Is(err, policyfile.ErrNotReformatted):
			warningf("%s: %v", name, err)
		case err != nil:
			return badInput(err.Error())
		}
		outs = append(outs, out{name, src, text})
	}
	for _, o := range outs {
		switch {
		case *list:
			if !bytes.Equal(o.old, o.text) {
				fmt.Fprintln(Stdout, o.name)
			}
		case *write:
			if bytes.Equal(o.old, o.text) {
				continue
			}
			if err := writeFileAtomic(o.name, o.text); err != nil {
				return badInput(err.Error())
			}
		default:
			Stdout.Write(o.text)
		}
	}
	return nil
}

// writeFileAtomic replaces name with data through a temporary file in the
// same directory, so a crash never leaves a half-written policy.
func writeFileAtomic(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	return safefile.WriteFile(name, data, info.Mode().Perm())
}

// policyLint reports syntax errors and network rules that do not compile
// (exit 2), and rules that cannot decide, have expired, or name hosts the
// egress proxy does not treat alike (exit 1).
func policyLint(args []string) error {
	fs := newFlags("policy lint", "policy lint [FILE...]\n\nWithout FILE, the policy file discovery finds (warden policy show).")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		_, src, err := findPolicy("")
		if err != nil {
			return err
		}
		if src.Path == "" {
			fmt.Fprintln(Stderr, "warden: the embedded default policy is in force: no file to lint")
			return nil
		}
		files = []string{src.Path}
	}
	found := 0
	for _, name := range files {
		f, err := policyfile.Load(name)
		if err != nil {
			return badInput(err.Error())
		}
		if _, err := policy.Compile(f.Policy, policy.Options{}); err != nil {
			return badInput(fmt.Sprintf("%s: %v", name, err))
		}
		fds, err := policyfile.Lint(f, now())
		if err != nil {
			return badInput(err.Error())
		}
		for _, fd := range fds {
			fmt.Fprintf(Stdout, "%s\n", fd)
			found++
		}
	}
	if found > 0 {
		return errFindings
	}
	return nil
}

// policyEnumerate lists, scope by scope, what an agent can do before it
// runs: every rule as a sentence, the built-in defaults and the floor.
func policyEnumerate(args []string) error {
	fs := newFlags("policy enumerate", "policy enumerate [--agent ID] [--space ID] [--mode MODE] [--contained] [FILE]\n\nWithout FILE, the policy discovery finds (warden policy show).")
	agent := fs.String("agent", "", "show only the scopes that apply to this `agent`")
	space := fs.String("space", "", "show only the scopes that apply in this `space`")
	mode := fs.String("mode", "", "autonomy `mode` in force (default: the policy's)")
	contained := fs.Bool("contained", false, "show the built-in defaults for actions under warden run")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) > 1 {
		return badInput("policy enumerate takes one file")
	}
	path := ""
	if len(files) == 1 {
		path = files[0]
	}
	lp, err := loadPolicy(path)
	if err != nil {
		return err
	}
	var m action.Mode
	if *mode != "" {
		pm, ok := action.ParseMode(*mode)
		if !ok {
			return badInput(fmt.Sprintf("unknown mode %q (want proposeOnly, actWithApproval or actFreely)", *mode))
		}
		m = pm
	}
	report.Enumerate(Stdout, lp, report.EnumerateOptions{Agent: *agent, Space: *space, Mode: m, Contained: *contained})
	return nil
}

// policyTest runs the examples kept in a policy file's tests: section.
func policyTest(args []string) error {
	fs := newFlags("policy test", "policy test [-v] FILE")
	verbose := fs.Bool("v", false, "print every example, not only failures")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return badInput("policy test takes one file")
	}
	lp, err := loadPolicy(files[0])
	if err != nil {
		return err
	}
	if len(lp.File.Tests) == 0 {
		return badInput(fmt.Sprintf("%s has no tests: section", files[0]),
			`add examples such as: tests: [{name: push-main, action: {tool: git_push, refs: [main]}, expect: deny}]`)
	}
	passed, failed := 0, 0
	for _, t := range lp.File.Tests {
		d, err := decideTest(lp, t)
		if err != nil {
			return badInput(fmt.Sprintf("%s: test %q: %v", t.Pos, t.Name, err))
		}
		if d.Verdict != t.Expect {
			failed++
			fmt.Fprintf(Stdout, "FAIL %s (%s): got %s by %s (%s), want %s\n", t.Name, t.Pos, d.Verdict, orNone(d.Rule), d.Reason, t.Expect)
			continue
		}
		passed++
		if *verbose {
			fmt.Fprintf(Stdout, "ok   %s: %s by %s\n", t.Name, d.Verdict, orNone(d.Rule))
		}
	}
	fmt.Fprintf(Stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return errFindings
	}
	return nil
}

func decideTest(lp *config.Policy, t policyfile.Test) (policy.Decision, error) {
	a, _, err := lp.Action(t.Action, cwd())
	if err != nil {
		return policy.Decision{}, err
	}
	d, _ := lp.Engine.Evaluate(a, policy.Env{Now: now()})
	return d, nil
}

func orNone(s string) string {
	if s == "" {
		return "no rule"
	}
	return s
}
