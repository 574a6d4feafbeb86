// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file maps a normalised argv to classes, facets and flags
// (docs/spec.md §6) through one table: every program name is claimed by
// exactly one family, in its own file (interp.go, text.go, files.go,
// findxargs.go, network.go, remote.go, packages.go, secrets.go, build.go,
// git.go, builtins.go, and the wrappers in peel.go), and
// TestProgramsClaimedOnce keeps it so; a family's handlers may fill more
// files, each named for what it holds. The rules:
//
//   - Every invocation is processSpawn.
//   - rm, rmdir, unlink, shred, find -delete, git clean, git rm are
//     fileDelete; git push gitPush; git commit gitCommit; gh pr create
//     prCreate; gh pr merge|review|ready|comment prPublish; fetchers, remote
//     shells and git fetch|clone|pull|ls-remote networkEgress; package
//     managers' install verbs and npx-style runners packageInstall; env,
//     printenv, secret stores, reads of obvious secrets and the expansion
//     of secret-looking variables secretAccess.
//   - After the handler, every static operand that names a sensitive
//     file (secretPath) is a read of it, whatever the program, unless
//     the program's family reports its path operands itself (secrets.go).
//   - Interpreters and build tools run code whose effect is not
//     classified: runs_code. An interpreter reading its program from a
//     pipe, heredoc, here-string or process substitution is
//     pipe_to_interpreter; when that program came from a fetch it is
//     download_exec, from a decoder decode_exec.
//   - Only the commands listed as read-only, used without a writing
//     option, keep the analysis read-only; an unknown program is an
//     ordinary invocation that is not read-only.

import (
	"strings"
	"sync"
)

// call is one invocation being classified: its index in the analysis,
// its program name (normalised, then canonical) and its arguments.
type call struct {
	i    int
	name string
	args []field
}

// handler classifies one call. ro reports that it only reads; known that
// its effect is classified.
type handler func(a *analyzer, e *env, c call) (ro, known bool)

// family is a set of programs classified in one file.
type family struct {
	name     string
	programs map[string]handler
}

// families lists every family. A program name appears in exactly one.
func families() []family {
	return []family{
		{"wrappers", wrapperPrograms()},
		{"builtins", builtinPrograms()},
		{"interpreters", interpreterPrograms()},
		{"find and xargs", findPrograms()},
		{"text tools", textPrograms()},
		{"file tools", filePrograms()},
		{"network clients", networkPrograms()},
		{"remote state", remotePrograms()},
		{"package managers", packagePrograms()},
		{"build tools", buildPrograms()},
		{"git", gitPrograms()},
		{"secrets", secretPrograms()},
		{"consoles", consolePrograms()},
	}
}

// table returns the families, built on first use, not at package init:
// every warden process would pay for them at start-up, the sandbox's
// init too, which never classifies a command. Set in init, not in its
// declaration, because the handlers reach it again.
var table func() []family

func init() { table = sync.OnceValue(families) }

// lookup returns the handler of the program name and the name of the
// family that claims it; nil and "" when none does. Each family's own map
// is asked in turn (a name is in one: TestProgramsClaimedOnce): merging
// them into one map made a hook call's judgement of a shell command
// 0.39 ms slower, in a process that judges one command.
func lookup(name string) (handler, string) {
	for _, f := range table() {
		if h, ok := f.programs[name]; ok {
			return h, f.name
		}
	}
	return nil, ""
}

// claimed reports whether a family claims the program name.
func claimed(name string) bool {
	h, _ := lookup(name)
	return h != nil
}

// claim gives every name the handler h.
func claim(m map[string]handler, h handler, names ...string) {
	for _, n := range names {
		m[n] = h
	}
}

// versioned are the programs also installed under a versioned name
// (python3.12, php8.2, gcc-13, pip3): such a name is the program.
// python and pypy take any suffix (pythonw, python3-dbg).
var versioned = []string{"python", "pypy", "php", "ruby", "perl", "lua", "luajit", "node", "pip", "gcc", "g++",
	"clang", "clang++", "tclsh", "wish", "java", "javac", "jshell", "pwsh", "erl", "cc"}

// canonical returns the table name of a program: the name itself, or
// the program a versioned name stands for.
func canonical(name string) string {
	if claimed(name) {
		return name
	}
	best := ""
	for _, v := range versioned {
		rest, ok := strings.CutPrefix(name, v)
		if !ok || rest == "" || len(v) <= len(best) {
			continue
		}
		if v == "python" || v == "pypy" || strings.IndexByte("0123456789.-_", rest[0]) >= 0 {
			best = v
		}
	}
	if best != "" {
		return best
	}
	return name
}

// command classifies one normalised invocation.
func (a *analyzer) command(e *env, i int, name string, argv []field) (ro, known bool) {
	// The sensitive floor applies to every operand of every program,
	// known or not, whatever its handler made of it (secrets.go).
	defer a.operands(e, i, name, argv[1:])
	args := argv[1:]
	if strings.Contains(argv[0].s, "/") {
		// ./x: a script written earlier in the command line.
		a.runScript(e, argv[0].s, "", name, false)
	}
	a.nameCmd(e, name, args)
	name = canonical(name)
	h, _ := lookup(name)
	if h == nil {
		// An unknown program: an ordinary invocation, not read-only,
		// which may run a command given as its operands.
		a.unknownProgram(e, args)
		return false, false
	}
	return h(a, e, call{i: i, name: name, args: args})
}

// hasAny reports whether one of the static args is exactly one of want.
func hasAny(args []field, want ...string) bool {
	for _, f := range args {
		if f.dyn {
			continue
		}
		for _, w := range want {
			if f.s == w {
				return true
			}
		}
	}
	return false
}
