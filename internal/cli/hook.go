// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden hook AGENT answers one hook call of an agent CLI (package hook
// runs the pipeline); warden hook install AGENT writes the agent's
// settings entry and warden hook uninstall AGENT removes it. The hook exits 0 with a JSON answer, or 2 with
// "warden: error: …" on stderr — never any other status: agent CLIs run
// the tool when a hook fails any other way.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/hook"
	"warden.dev/warden/internal/store"
)

// hookDeadline bounds one hook call that does not wait for a person.
// Claude Code's default hook timeout is 60 s, and `warden hook install`
// writes 60 s: a hook the client kills for its timeout is a non-blocking
// error, and the call runs, so the hook must always answer first.
var hookDeadline = 10 * time.Second

// waitMargin is what a hook that waited for a person keeps for the rest.
const waitMargin = 5 * time.Second

func agentNames() string {
	var names []string
	for _, a := range adapter.Agents() {
		names = append(names, a.Name())
	}
	return strings.Join(names, ", ")
}

func runHook(ctx context.Context, args []string) error {
	if done, err := hookGroup().help(args); done {
		return err
	}
	name, verb := args[0], ""
	if name == "install" || name == "uninstall" {
		verb = name
		if len(args) >= 2 && (args[1] == "-h" || args[1] == "--help") {
			fmt.Fprintf(Stderr, "Usage: warden hook %s ADAPTER [--user|--project] ...\nAdapters: %s\n", verb, agentNames())
			return nil
		}
		if len(args) < 2 || strings.HasPrefix(args[1], "-") {
			return badInput("warden hook "+verb+" needs an adapter", "adapters: "+agentNames())
		}
		name, args = args[1], args[1:]
	}
	ag, ok := adapter.Lookup(name)
	if !ok {
		var names []string
		for _, a := range adapter.Agents() {
			names = append(names, a.Name())
		}
		return badInput(fmt.Sprintf("unknown hook adapter %q", name), suggest("warden hook ", name, names), "adapters: "+agentNames())
	}
	switch verb {
	case "install":
		return hookInstall(ag, args[1:])
	case "uninstall":
		return hookUninstall(ag, args[1:])
	}
	return hookAnswer(ag, args[1:], hook.Decide)
}

// hookGroup lists warden hook's subcommands: one per agent, and install.
func hookGroup() group {
	g := group{name: "hook"}
	for _, a := range adapter.Agents() {
		g.subs = append(g.subs, [2]string{a.Name(), "answer " + a.Title() + "'s hook payload (stdin) in its format"})
	}
	g.subs = append(g.subs, [2]string{"install", "write Warden's hook into an agent's settings: install AGENT [--user|--project] [--wrap]"},
		[2]string{"uninstall", "remove exactly what install wrote: uninstall AGENT [--user|--project]"})
	return g
}

// hookAnswer answers one hook call with decide, failing closed: every way
// out is an answer (exit 0) or an error (exit 2).
func hookAnswer(ag adapter.Agent, args []string, decide func(adapter.Agent, []byte, hook.Options) ([]byte, error)) error {
	name := ag.Name()
	fs := newFlags("hook "+name, "hook "+name+" [--policy FILE] [--wrap] [--headless] [--wait D] < payload")
	policyPath := fs.String("policy", "", "policy `file` (default: the one discovery finds, see warden policy show)")
	wrap := fs.Bool("wrap", false, "run allowed shell commands under warden run (decided as contained)")
	headless := fs.Bool("headless", os.Getenv(envHookHeadless) == "1", "nobody can answer a prompt: a prompt is a deny (also "+envHookHeadless+"=1)")
	wait := fs.Duration("wait", 50*time.Second, "how long a question nobody in the agent can answer waits for a person through warden serve (then a deny); the hook's timeout in the agent's settings (60 s as installed) must be longer by a few seconds")
	pos, err := parseFlags(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			// Never exit 0 without an answer: the agent would run the tool.
			return &exitError{code: exitBadInput}
		}
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("warden hook %s reads its payload on stdin, not %q", name, pos[0]))
	}
	o := hook.Options{Wrap: *wrap, Headless: *headless, Now: now(), Home: homeDir(), StateDir: hook.StateDir(name), Grants: hook.GrantDir()}
	if *policyPath != "" {
		abs, err := filepath.Abs(*policyPath)
		if err != nil {
			return badInput(fmt.Sprintf("--policy: %v", err))
		}
		o.PolicyPath = abs
	}
	o.Policy = func() (*config.Policy, error) { return loadPolicy(o.PolicyPath) }
	// Every decision is recorded before it is answered, in the store's
	// spool, which the next open of the store, or warden serve, takes
	// in (a hook opening the store itself, or asking serve, would cost
	// every tool call milliseconds).
	state := contain.StateDir()
	rec := &store.Recorder{Dir: state, Spool: true}
	defer rec.Close()
	o.Sink, o.Warn = rec, func(msg string) { fmt.Fprintln(Stderr, "warden: warning: "+msg) }
	// A question nobody in the agent can answer waits for a person when
	// a warden serve runs: the call's bound grows by the wait.
	deadline := hookDeadline
	if *wait > 0 && serveRunning(state) {
		o.Ask = askThroughServe(rec, *wait)
		// The decision before the question and the answer after it take
		// milliseconds: 5 s past the wait, the call is refused, still
		// within the client's timeout.
		deadline = max(hookDeadline, *wait+waitMargin)
	}
	// The reader is taken here: the goroutine of a decision that timed
	// out must not touch the package's streams.
	in := Stdin
	out, err := hook.Bounded(deadline, func() ([]byte, error) {
		payload, err := hook.ReadPayload(in)
		if err != nil {
			return nil, err
		}
		return decide(ag, payload, o)
	})
	if err != nil {
		return badInput(err.Error())
	}
	if _, err := Stdout.Write(out); err != nil {
		return badInput(fmt.Sprintf("writing the hook answer: %v", err))
	}
	return nil
}

// hookInstall runs warden hook install for one agent.
func hookInstall(ag adapter.Agent, args []string) error {
	name := "hook install " + ag.Name()
	fs := newFlags(name, name+" [--user|--project] [--policy FILE] [--wrap] [--headless]")
	user := fs.Bool("user", false, "write the user's settings (the default)")
	proj := fs.Bool("project", false, "write ./"+ag.Hooks().ProjectFile)
	policyPath := fs.String("policy", "", "policy `file` the hook decides with (default: the one discovery finds at each call)")
	wrap := fs.Bool("wrap", false, "run allowed shell commands under warden run")
	headless := fs.Bool("headless", false, "nobody answers prompts: a prompt is a deny")
	dryRun := fs.Bool("dry-run", false, "print the changes; write nothing")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("unexpected argument %q", pos[0]))
	}
	if *user && *proj {
		return badInput("give --user or --project, not both")
	}
	o := hook.InstallOptions{Project: *proj, Dir: cwd(), Home: homeDir(), Getenv: os.Getenv, Wrap: *wrap, Headless: *headless, DryRun: *dryRun}
	if _, _, err := hook.SettingsPath(ag, o); err != nil {
		return err
	}
	if o.Exe, err = os.Executable(); err != nil {
		return badInput(fmt.Sprintf("cannot find the warden binary: %v", err))
	}
	if *policyPath != "" {
		if o.Policy, err = filepath.Abs(*policyPath); err != nil {
			return badInput(fmt.Sprintf("--policy: %v", err))
		}
		if _, err := loadPolicy(o.Policy); err != nil {
			return err
		}
	}
	done, err := hook.Install(ag, o)
	if err != nil {
		return err
	}
	if done.Unchanged {
		fmt.Fprintf(Stdout, "%s: already up to date, nothing changed\n", done.Shown)
		return nil
	}
	printChanges(done, o.DryRun)
	if !o.DryRun {
		for _, h := range done.Hints {
			fmt.Fprintf(Stdout, "warden: hint: %s\n", h)
		}
	}
	return nil
}

// printChanges prints a settings file's changes, diff-like.
func printChanges(done *hook.Installed, dryRun bool) {
	fmt.Fprintf(Stdout, "%s:\n", done.Shown)
	for _, c := range done.Changes {
		fmt.Fprintln(Stdout, c)
	}
	if done.Kept > 0 {
		fmt.Fprintf(Stdout, "  (%d other top-level key(s) kept as they were)\n", done.Kept)
	}
	if dryRun {
		fmt.Fprintln(Stdout, "(dry run: nothing was written)")
	}
}

// hookUninstall runs warden hook uninstall for one agent: it removes the
// agent's Warden entries from the settings file install writes.
func hookUninstall(ag adapter.Agent, args []string) error {
	name := "hook uninstall " + ag.Name()
	fs := newFlags(name, name+" [--user|--project] [--dry-run]")
	user := fs.Bool("user", false, "edit the user's settings (the default)")
	proj := fs.Bool("project", false, "edit ./"+ag.Hooks().ProjectFile)
	dryRun := fs.Bool("dry-run", false, "print the changes; write nothing")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("unexpected argument %q", pos[0]))
	}
	if *user && *proj {
		return badInput("give --user or --project, not both")
	}
	o := hook.InstallOptions{Project: *proj, Dir: cwd(), Home: homeDir(), Getenv: os.Getenv, DryRun: *dryRun}
	done, err := hook.Uninstall(ag, o)
	if err != nil {
		return err
	}
	if done.Unchanged {
		fmt.Fprintf(Stdout, "%s: no Warden hook of %s, nothing changed\n", done.Shown, ag.Name())
		return nil
	}
	printChanges(done, o.DryRun)
	return nil
}
