// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden init: the policy written, the hooks installed, the host's
// containment shown (package setup does the work).

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/hook"
	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/setup"
)

//go:embed help/init.txt
var initSynopsis string

func runInit(ctx context.Context, args []string) error {
	fs := newFlags("init", initSynopsis)
	agents := fs.String("agents", "", "comma-separated `agents` to install (default: those whose CLI is on PATH): "+agentNames())
	noWrap := fs.Bool("no-wrap", false, "install the hooks without --wrap: allowed shell commands run on the host, uncontained")
	force := fs.Bool("force", false, "replace an existing policy with the template, keeping it as policy.yaml.bak")
	dryRun := fs.Bool("dry-run", false, "print what init would do; write nothing")
	noDoctor := fs.Bool("no-doctor", false, "skip doctor's probe of this host (and wrap, unless --no-wrap)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return badInput(fmt.Sprintf("init takes no arguments, got %q", rest[0]), "choose agents with --agents "+strings.ReplaceAll(agentNames(), ", ", ","))
	}
	o := setup.Options{
		LookPath:    exec.LookPath,
		Force:       *force,
		DryRun:      *dryRun,
		CheckPolicy: func(p string) error { _, err := loadPolicy(p); return err },
		Install:     hook.InstallOptions{Home: homeDir(), Getenv: os.Getenv},
	}
	if *agents != "" {
		for _, a := range strings.Split(*agents, ",") {
			if a = strings.TrimSpace(a); a != "" {
				o.Agents = append(o.Agents, a)
			}
		}
	}
	o.ConfigDir = contain.UserConfigDir()
	if o.Install.Exe, err = os.Executable(); err != nil {
		return badInput(fmt.Sprintf("cannot find the warden binary: %v", err))
	}

	// doctor's probe says what a run contains here, and whether to wrap.
	var host *sandbox.HostReport
	if !*noDoctor {
		po := sandbox.ProbeOptions{Home: homeDir()}
		if cache := ownDirs().Cache; cache != "" {
			po.CacheRoot = contain.RunCacheRoot(cache)
		}
		r := sandbox.Probe(ctx, po)
		host = &r
	}
	var why string
	switch {
	case *noWrap:
		why = "--no-wrap"
	case host == nil:
		// Not probed: wrapping fails closed where a run cannot be
		// contained, not wrapping would fail open.
		o.Install.Wrap = true
		why = "--no-doctor: this host was not probed, and where it cannot contain a run a wrapped shell command fails with status 125; warden doctor checks"
	default:
		o.Install.Wrap, why = setup.CanContain(*host)
	}

	res, err := setup.Init(o)
	if err != nil {
		return err
	}
	printInit(res, o, host, why, *noWrap)
	return nil
}

// printInit says what init did (or would do), what is contained, and
// what to try next.
func printInit(res *setup.Result, o setup.Options, r *sandbox.HostReport, why string, noWrap bool) {
	would := func(did, will string) string {
		if o.DryRun {
			return will
		}
		return did
	}
	w := Stdout
	if len(o.Agents) == 0 {
		if len(res.Agents) == 0 {
			fmt.Fprintf(w, "Agents: none of claude, codex, gemini is on PATH; choose with --agents %s\n", strings.ReplaceAll(agentNames(), ", ", ","))
		} else {
			var found []string
			for _, f := range res.Agents {
				found = append(found, fmt.Sprintf("%s (%s)", f.Agent.Name(), f.Path))
			}
			fmt.Fprintf(w, "Agents found on PATH: %s\n", strings.Join(found, ", "))
		}
	} else {
		var chosen []string
		for _, f := range res.Agents {
			where := f.Path
			if f.Path == "" {
				where = "not on PATH"
				if f.Program != "" {
					warningf("%s is not on PATH; installing %s's hook anyway", f.Program, f.Agent.Name())
				}
			}
			chosen = append(chosen, fmt.Sprintf("%s (%s)", f.Agent.Name(), where))
		}
		fmt.Fprintf(w, "Agents chosen with --agents: %s\n", strings.Join(chosen, ", "))
	}

	p := res.Policy
	switch p.Action {
	case setup.PolicyWritten:
		fmt.Fprintf(w, "Policy: %s %s from the template\n", would("wrote", "would write"), p.Path)
	case setup.PolicySame:
		fmt.Fprintf(w, "Policy: %s is the template already, nothing changed\n", p.Path)
	case setup.PolicyKept:
		fmt.Fprintf(w, "Policy: %s exists and is kept (--force replaces it, keeping a .bak)\n", p.Path)
	case setup.PolicyReplaced:
		fmt.Fprintf(w, "Policy: %s %s with the template, the old one %s %s\n", would("replaced", "would replace"), p.Path, "kept as", p.Backup)
	}

	if o.Install.Wrap {
		fmt.Fprintf(w, "Wrap: yes, allowed shell commands run under warden run (%s)\n", why)
	} else if noWrap {
		fmt.Fprintln(w, "Wrap: no (--no-wrap): a shell command the policy allows runs on the host, uncontained: no read-only root, no egress proxy, no limits; the hook decides it as uncontained (unanalysed code asks), and that decision is all the protection there is")
	} else {
		fmt.Fprintf(w, "Wrap: no, %s; shell commands the policy allows run on the host, uncontained (warden doctor says what is missing)\n", why)
	}

	for _, h := range res.Hooks {
		if h.Unchanged {
			fmt.Fprintf(w, "%s: %s already up to date, nothing changed\n", h.Agent, h.Shown)
			continue
		}
		fmt.Fprintf(w, "%s: %s %s:\n", h.Agent, would("wrote", "would write"), h.Shown)
		if h.Headless {
			fmt.Fprintln(w, "  (--headless kept from the entry it replaces: a prompt is a deny)")
		}
		for _, c := range h.Changes {
			fmt.Fprintf(w, "  %s\n", c)
		}
		if h.Kept > 0 {
			fmt.Fprintf(w, "  (%d other top-level key(s) kept as they were)\n", h.Kept)
		}
		if !o.DryRun {
			for _, hint := range h.Hints {
				fmt.Fprintf(w, "warden: hint: %s\n", hint)
			}
		}
	}
	switch {
	case o.DryRun:
		fmt.Fprintln(w, "Dry run: nothing was written.")
	case !res.Changed():
		fmt.Fprintln(w, "Nothing changed: Warden was set up already.")
	}

	fmt.Fprintln(w)
	writeContainment(w, r, res, o.Install.Wrap)

	fmt.Fprintln(w)
	fmt.Fprintln(w, "Next, try:")
	fmt.Fprintln(w, "  # what an agent may do, rule by rule")
	fmt.Fprintf(w, "  warden policy enumerate %s\n", p.Path)
	fmt.Fprintln(w, "  # one decision, and the rule that made it")
	fmt.Fprintf(w, "  echo '{\"tool\":\"bash\",\"command\":\"git push origin main\"}' | warden explain --policy %s\n", p.Path)
	fmt.Fprintln(w, "  # whether a run may reach pip's index (the policy's network rules)")
	fmt.Fprintf(w, "  warden net check --policy %s pypi.org:443\n", p.Path)
}

// writeContainment says what a run contains on this host (from doctor's
// probe) and, for each agent installed, what its hook leaves uncontained.
func writeContainment(w io.Writer, r *sandbox.HostReport, res *setup.Result, wrap bool) {
	if r == nil {
		fmt.Fprintln(w, "Containment on this host: not probed; warden doctor says what a run contains here.")
	} else {
		var yes, no []string
		for _, c := range r.Matrix {
			name := c.Layer
			if c.When != "every run" {
				name += " (" + c.When + ")"
			}
			if c.Status == sandbox.Enforced {
				yes = append(yes, name)
			} else {
				no = append(no, name+": "+strings.ReplaceAll(string(c.Status), "-", " "))
			}
		}
		fmt.Fprintf(w, "Contained by a run on this host: %s\n", listOr(yes, "nothing"))
		fmt.Fprintf(w, "Not contained by a run on this host: %s\n", listOr(no, "nothing"))
		fmt.Fprintln(w, "  (warden doctor gives each layer's mechanism and what to do)")
	}
	for _, f := range res.Agents {
		s := f.Agent.Honesty().Sandboxes
		note := s.Note
		if !wrap {
			note = "not wrapped: nothing the agent does is contained; its calls are decided only"
		}
		fmt.Fprintf(w, "%s: sandboxes %s: %s\n", f.Agent.Name(), s.Level, note)
	}
}

func listOr(l []string, none string) string {
	if len(l) == 0 {
		return none
	}
	return strings.Join(l, ", ")
}
