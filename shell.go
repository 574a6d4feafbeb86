// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package warden

import (
	"warden.dev/warden/internal/shellparse"
)

// ShellOptions say where a command line runs.
type ShellOptions struct {
	// Dir is the absolute directory the command starts in; empty leaves
	// relative paths relative.
	Dir string
	// Home expands "~" and $HOME; empty leaves them unresolved.
	Home string
}

// ShellAnalysis is what a bash command line does, found statically: every
// command bash could start, through pipes, substitutions, wrappers
// (sudo, env, xargs, timeout, …) and nested sh -c strings, and what they
// touch.
type ShellAnalysis struct {
	// Commands are the simple commands, in source order; a wrapper is
	// followed by the command it runs.
	Commands []ShellCommand
	// Classes are the effect classes (processSpawn always).
	Classes []string
	// Paths are the paths read, written or deleted, in order.
	Paths []ShellPath
	// Hosts are the hosts contacted, lower case; Refs the git refs
	// pushed; Packages the packages installed or fetched and run.
	Hosts    []string
	Refs     []string
	Packages []string
	// Flags mark what the policy's floor never allows without asking:
	// download_exec (curl … | sh), pipe_to_interpreter, decode_exec,
	// runs_code, unresolvable, privilege_escalation, background.
	Flags []string
	// ReadOnly is true when every command is a known read-only one and
	// nothing writes, deletes, fetches, installs, reads a secret or runs
	// unanalysed code.
	ReadOnly bool
	// Unresolved says why the line cannot be analysed statically (a
	// parse error gives "line:col: msg"); empty when it can.
	Unresolved string
}

// ShellCommand is one simple command.
type ShellCommand struct {
	// Argv is the argument vector with a normalised program name; a
	// dynamic word is given as its source text.
	Argv []string
	// RunsCode says the command runs code whose effect is not
	// classified (python -c, make, a script fed on stdin).
	RunsCode bool
}

// ShellPath is one path a command line touches.
type ShellPath struct {
	Path string
	// Access is "read", "write" or "delete".
	Access string
	// Recursive says a directory is read, or written into, with
	// everything below it.
	Recursive bool
}

// AnalyzeShell analyses a bash command line without running it and
// without I/O: the same analysis [Policy.Decide] gives the bash tool's
// command. It never fails; what it cannot analyse it says in
// [ShellAnalysis.Unresolved] and the unresolvable flag, which the policy
// never allows without asking.
func AnalyzeShell(command string, o ShellOptions) *ShellAnalysis {
	an := shellparse.Analyze(command, shellparse.Options{Cwd: o.Dir, Home: o.Home})
	out := &ShellAnalysis{
		Classes:    classNames(an.Classes),
		Hosts:      an.Hosts,
		Refs:       an.Refs,
		Packages:   an.Packages,
		ReadOnly:   an.ReadOnly,
		Unresolved: an.Unresolved,
	}
	for _, inv := range an.Invocations {
		out.Commands = append(out.Commands, ShellCommand{Argv: inv.Argv, RunsCode: inv.RunsCode})
	}
	for _, p := range an.Paths {
		out.Paths = append(out.Paths, ShellPath{Path: p.Path, Access: p.Access.String(), Recursive: p.Recursive})
	}
	for _, f := range an.Flags {
		out.Flags = append(out.Flags, string(f))
	}
	return out
}
