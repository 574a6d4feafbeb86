// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the wrappers that run a command in a setting they
// prepare: user switches (runuser, sg, newgrp), which are
// privilege_escalation, and project runners (pipenv run, bundle exec,
// direnv exec, nix-shell --run, dotenv), whose other subcommands install
// packages or run the project's code.

import (
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
)

// runuser -u USER [--] CMD runs a command; runuser [-] USER [-c STRING]
// is su.
func (a *analyzer) runuser(e *env, opts []opt, ops, args []field) (bool, bool) {
	a.flag(action.FlagPrivilegeEscalation)
	if !hasOpt(opts, "-u", "--user") {
		// su style: options may follow the user name.
		w := simpleWrappers()["runuser"]
		w.permute = true
		var ok bool
		if opts, ops, ok = a.grammar("runuser", w, args); !ok {
			return false, false
		}
	}
	if hasOpt(opts, "-u", "--user") {
		if len(ops) == 0 {
			a.openShell()
			return false, true
		}
		return false, a.inner(e, ops, nil, true)
	}
	return a.suCommands(e, opts)
}

// sg GROUP [-c] COMMAND runs COMMAND with /bin/sh -c; newgrp opens a
// shell.
func (a *analyzer) sg(e *env, name string, args []field) (bool, bool) {
	a.flag(action.FlagPrivilegeEscalation)
	if len(args) > 0 && !args[0].dyn && args[0].s == "-" {
		args = args[1:]
	}
	if name == "newgrp" || len(args) < 2 {
		a.openShell()
		return false, true
	}
	rest := args[1:]
	if !rest[0].dyn && rest[0].s == "-c" {
		rest = rest[1:]
	}
	a.shellString(e, rest)
	return false, true
}

// runner handles project runners with a subcommand that runs a command:
// pipenv run CMD, bundle exec CMD, direnv exec DIR CMD. Their other
// subcommands install packages or run the project's code.
func (a *analyzer) runner(e *env, name string, args []field) (bool, bool) {
	i := 0
	for i < len(args) && !args[i].dyn && strings.HasPrefix(args[i].s, "-") {
		i++
	}
	if i >= len(args) {
		if name == "bundle" {
			a.class(action.PackageInstall) // bundle alone is bundle install
			a.flag(action.FlagRunsCode)
			return false, true
		}
		a.flag(action.FlagRunsCode)
		return false, true
	}
	if args[i].dyn {
		a.unresolved(name + " with a subcommand that is not static")
		return false, false
	}
	verb, rest := args[i].s, args[i+1:]
	switch {
	case name == "pipenv" && verb == "run", name == "bundle" && (verb == "exec" || verb == "ex"):
		if name == "bundle" {
			a.flag(action.FlagRunsCode) // Bundler loads the project's Gemfile
		}
		if len(rest) > 0 && !rest[0].dyn && rest[0].s == "--" {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return false, true
		}
		return false, a.inner(e, rest, nil, true)
	case name == "direnv" && verb == "exec":
		a.flag(action.FlagRunsCode) // the .envrc it loads is a bash script
		if len(rest) < 2 {
			return false, true
		}
		return false, a.inner(e, rest[1:], nil, true)
	case name == "pipenv" && verb == "shell":
		a.openShell()
		return false, true
	case slices.Contains([]string{"install", "i", "add", "update", "upgrade", "sync", "lock", "uninstall"}, verb):
		a.class(action.PackageInstall)
		a.flag(action.FlagRunsCode)
		return false, true
	case slices.Contains([]string{"status", "version", "--version", "help", "graph", "check", "list", "show", "outdated", "--venv", "--where", "--py"}, verb):
		return false, true
	}
	a.flag(action.FlagRunsCode)
	return false, true
}

// nixShell: --run and --command give a shell string; -p installs the
// packages named; a shell.nix runs its shellHook.
func (a *analyzer) nixShell(e *env, args []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	two := []string{"--arg", "--argstr", "--option"}
	one := []string{"-A", "--attr", "-I", "--include", "-E", "--expr", "--keep", "-i", "-j", "--max-jobs", "--cores", "--run", "--command", "--log-format"}
	flags := []string{"--pure", "--impure", "--show-trace", "--quiet", "--verbose", "-v", "--no-build-output", "-Q", "--keep-going", "-k", "--dry-run", "--help", "--version", "-K", "--keep-failed", "--fallback", "--repair", "--offline", "-L", "--print-build-logs"}
	ran, pkgs := false, false
	for i := 0; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn || !strings.HasPrefix(s, "-") {
			if pkgs {
				continue
			}
			a.path(e, f, action.Read) // shell.nix or default.nix
			continue
		}
		pkgs = false
		switch {
		case s == "-p" || s == "--packages":
			a.class(action.PackageInstall)
			pkgs = true
		case slices.Contains(two, s):
			i += 2
		case slices.Contains(one, s):
			if i+1 >= len(args) {
				return false, true
			}
			i++
			if s == "--run" || s == "--command" {
				ran = true
				a.shellString(e, args[i:i+1])
			}
		case slices.Contains(flags, s):
		default:
			a.unresolved("nix-shell: unknown option " + s)
			return false, false
		}
	}
	if !ran {
		a.openShell()
	}
	return false, true
}

// dotenv runs a command with variables from .env files: dotenv [-e FILE]
// [-v VAR=VALUE] [-c [ENV]] -- CMD (dotenv-cli), or dotenv [-f FILE] run
// CMD (python-dotenv).
func (a *analyzer) dotenv(e *env, args []field) (bool, bool) {
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn {
			break
		}
		if s == "--" {
			i++
			break
		}
		switch s {
		case "-e", "-f", "--file", "-v", "-p":
			if i+1 >= len(args) {
				return false, true
			}
			i++
			v := args[i]
			switch s {
			case "-v":
				if v.dyn {
					a.unresolved("cannot be analysed statically: dotenv -v " + v.s)
				} else {
					k, val, _ := strings.Cut(v.s, "=")
					a.envVar(e, k, val, true)
				}
			case "-p":
				return false, true // prints a variable
			default:
				a.path(e, v, action.Read)
			}
			continue
		case "-c":
			if i+1 < len(args) && !args[i+1].dyn && !strings.HasPrefix(args[i+1].s, "-") && slices.ContainsFunc(args[i+1:], func(f field) bool { return f.s == "--" }) {
				i++ // the environment name
			}
			continue
		case "--no-expand", "--debug", "-o", "--override", "-q", "--quiet", "--export":
			continue
		case "run":
			// python-dotenv: run [--override|--no-override] CMD
			i++
			for i < len(args) && !args[i].dyn && (args[i].s == "--override" || args[i].s == "--no-override") {
				i++
			}
		case "list", "get", "set", "unset":
			a.flag(action.FlagRunsCode)
			return false, true
		default:
			if strings.HasPrefix(s, "-") {
				a.unresolved("dotenv: unknown option " + s)
				return false, false
			}
		}
		break
	}
	if i >= len(args) {
		return false, true
	}
	return false, a.inner(e, args[i:], nil, true)
}
