// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package cli is Warden's command line: flag parsing, output and exit
// codes, one file per subcommand. It is the only package that wires the
// others together and the only one that prints errors.
//
// # Output rules
//
//   - Results go to [Stdout]; errors, warnings and hints to [Stderr].
//   - An error is printed once, as "warden: error: …", optionally followed
//     by "warden: hint: …" lines, and the command exits 2 (bad input or a
//     failure to act). A completed decision of any verdict exits 0.
//   - Nothing is half-applied: a command that fails leaves files as they
//     were.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"warden.dev/warden/internal/approval"
)

// Stdin, Stdout and Stderr are the streams commands use; tests replace
// them.
var (
	Stdin  io.Reader = os.Stdin
	Stdout io.Writer = os.Stdout
	Stderr io.Writer = os.Stderr
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1 // lint findings, failing policy tests
	exitBadInput = 2
)

// command is one subcommand.
type command struct {
	name  string
	usage string
	run   func(ctx context.Context, args []string) error
	// interruptible: SIGINT and SIGTERM cancel the context the command
	// runs with (it then ends its children and connections, or passes
	// them on), rather than end the process at once as they do a short
	// command (see [Interruptible]).
	interruptible bool
}

func commands() []command {
	return []command{
		{"explain", "decide one action (JSON on stdin) and show which rule decided and why", runExplain, false},
		{"run", "run a command in the sandbox: filesystem, network, process, credentials, time", runRun, false},
		{"net", "decide network destinations as the egress proxy would: check", runNet, true},
		{"policy", "work on policy files: fmt, lint, enumerate, test, remember", runPolicy, false},
		{"init", "set Warden up: write ~/.config/warden/policy.yaml, install the hooks of the agents on PATH", runInit, true},
		{"hook", "answer an agent CLI's hook (claude-code, codex, gemini); install and uninstall it", runHook, false},
		{"mcp", "MCP gateway: gate a server's tools/call and filter its tools/list: mcp -- SERVER CMD...", runMCP, true},
		{"doctor", "report what containment this host offers and what a run enforces", runDoctor, true},
		{"audit", "show what Warden decided and observed; export it as OCSF; verify its hash chain", runAudit, true},
		{"serve", "the control plane: answer approvals, follow the audit, over an API on a Unix socket", runServe, true},
		{"approvals", "list, show and answer the questions agents wait on: list, show, allow, deny, remember, watch", runApprovals, true},
		{"version", "print the version", runVersion, false},
		{"completion", "print shell completions: completion bash|zsh|fish", runCompletion, false},
		{"man", "print a manual page in roff: man [COMMAND [SUBCOMMAND]]", runMan, false},
	}
}

// Interruptible reports whether the command line args (without the
// program name) names a command that SIGINT and SIGTERM should reach as
// a cancelled context: one that runs children, serves or waits. The
// others are short, or write files only by rename, so the two signals
// end them as they end any program, and they do not pay for a signal
// handler: asking the Go runtime for the first one starts its signal
// thread and waits for it, about 0.4 ms of every hook call an agent
// makes. warden run asks for every signal itself, to pass it on to the
// command (its context is never cancelled once the sandbox is built).
func Interruptible(args []string) bool {
	if len(args) == 0 {
		return false
	}
	c, ok := lookup(args[0])
	return ok && c.interruptible
}

// lookup finds the command called name.
func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// Run runs the command line args (without the program name) and returns
// the exit status.
func Run(ctx context.Context, args []string) (code int) {
	defer func() {
		// A panic is a bug; it still exits 2 with a message, never with
		// a Go trace that a hook caller could mistake for success.
		if r := recover(); r != nil {
			errorf("internal error: %v", r)
			code = exitBadInput
		}
	}()
	switch {
	case len(args) == 0:
		usage(Stderr)
		return exitBadInput
	case args[0] == "-h" || args[0] == "--help":
		usage(Stdout)
		return exitOK
	case args[0] == "help":
		return runHelp(ctx, args[1:])
	}
	if c, ok := lookup(args[0]); ok {
		return exitCode(c.run(ctx, args[1:]))
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	errorWithHint(fmt.Sprintf("unknown command %q", args[0]), suggest("warden ", args[0], names), "run 'warden help' for the list of commands")
	return exitBadInput
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: warden <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.usage)
	}
	fmt.Fprintln(w, "\nwarden help COMMAND (or warden COMMAND --help) describes each.")
}

// exitError carries an exit code and, optionally, hints.
type exitError struct {
	code  int
	msg   string
	hints []string
}

func (e *exitError) Error() string { return e.msg }

// findings is returned by commands that completed but found problems.
var errFindings = &exitError{code: exitFindings}

func badInput(msg string, hints ...string) error {
	return &exitError{code: exitBadInput, msg: msg, hints: hints}
}

func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			errorWithHint(ee.msg, ee.hints...)
		}
		return ee.code
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	// An error of another package that says what to do about it is bad
	// input, with its hints.
	var hinted interface{ Hints() []string }
	if errors.As(err, &hinted) {
		errorWithHint(err.Error(), hinted.Hints()...)
		return exitBadInput
	}
	errorf("%v", err)
	return exitBadInput
}

func errorf(format string, args ...any) {
	fmt.Fprintf(Stderr, "warden: error: %s\n", approval.Printable(fmt.Sprintf(format, args...)))
}

func warningf(format string, args ...any) {
	fmt.Fprintf(Stderr, "warden: warning: %s\n", approval.Printable(fmt.Sprintf(format, args...)))
}

func errorWithHint(msg string, hints ...string) {
	errorf("%s", msg)
	for _, h := range hints {
		if h != "" {
			fmt.Fprintf(Stderr, "warden: hint: %s\n", approval.Printable(h))
		}
	}
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(Stderr)
	fs.Usage = func() {
		fmt.Fprintf(Stderr, "Usage: warden %s\n", synopsis)
		fs.PrintDefaults()
		writeExtra(Stderr, name)
	}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments
// ("warden policy lint FILE --json"). "-" is a positional argument.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &exitError{code: exitBadInput, msg: err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// printJSON prints v as indented JSON, without HTML escaping.
func printJSON(v any) error {
	enc := json.NewEncoder(Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
