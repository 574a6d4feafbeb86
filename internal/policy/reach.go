// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"path"
	"strings"
	"sync"
)

// This file holds the one table of programs that run code they are given,
// and the predicate that reads it (docs/spec.md §3, §4). A command prefix
// reaches:
//
//   - any code ([InterpreterWide]) when it is empty; when it is headed by
//     a wrapper (env, sudo, xargs…: the program it runs is named later);
//     when it names an interpreter (python, bash, node…) alone, or with
//     nothing after an option that takes what runs (python -c, node -e,
//     python -m, deno eval); when it names a runner of project targets
//     (make, just, gradle, npm run, go run, npx…) without the target;
//     when it names a multi-purpose tool (git, npm, go, cargo…) alone; and
//     when the word after an interpreter, a runner or a tool is any other
//     option: an option may take a value that is code or names a program
//     (python -W x -c …, git -c core.pager=…, make -f -), and without each
//     program's whole grammar the prefix is taken as reaching anything;
//   - named code when it says which code runs: a script (python
//     tools/gen.py, ./build.sh), the inline program itself (python -c
//     'print(1)'), a module (python -m pytest), a target (make test, npm
//     run build), or a command that runs the project's own code (npm test,
//     go test, cargo build, pytest);
//   - nothing more than it says otherwise (git status, ls).
//
// A command rule that allows an interpreter-wide prefix cannot allow code
// that runs unanalysed outside the sandbox (builtin:runs-code in
// runscode.go), and `warden policy lint` says so; a remembered approval is
// never written for a prefix that reaches any code or names the project's
// code (remember.go): the agent can edit that code, so approving one run
// says nothing about the next.

// reach is how much code a command prefix lets run.
type reach uint8

const (
	// reachSaid: the prefix runs what it says (git status).
	reachSaid reach = iota
	// reachNamed: the prefix runs code, and names which (make test).
	reachNamed
	// reachAny: the prefix runs any code (python, bash -c, make).
	reachAny
)

// kind is what a program of the table does with its arguments.
type kind uint8

const (
	// wrapper runs the program named in its arguments.
	wrapper kind = iota + 1
	// interpreter runs a script, or code given inline.
	interpreter
	// runner runs a target the project defines (make test).
	runner
	// testRunner runs the project's code and needs no target (pytest).
	testRunner
	// tool is a multi-purpose program whose subcommand says what it does.
	tool
)

// program is one entry of the table.
type program struct {
	kind kind
	// takes are the words after the program name, options or
	// subcommands, whose next word says what runs: python -c CODE, python
	// -m MODULE, deno eval CODE, npm run SCRIPT, go run PACKAGE. Without
	// that next word the prefix runs any code.
	takes []string
	// code are the subcommands of a tool that run the project's code
	// without naming more (npm test, go test, cargo build).
	code []string
}

// programs is the table, by [programName]. An entry needs a reason to be
// here: each one runs code that its arguments choose or that the project
// defines. Built on first use: every Warden process, a sandbox's init
// too, would pay for it at start-up.
var programs = sync.OnceValue(func() map[string]program {
	m := make(map[string]program, 128)
	set := func(p program, names ...string) {
		for _, n := range names {
			if _, dup := m[n]; dup {
				panic("internal error: program " + n + " listed twice")
			}
			m[n] = p
		}
	}
	// Wrappers: a prefix headed by one covers every program it can run.
	set(program{kind: wrapper},
		"env", "sudo", "doas", "su", "pkexec", "runuser", "xargs", "eval", "exec", "command", "builtin",
		"nohup", "nice", "ionice", "timeout", "time", "stdbuf", "setsid", "flock", "chroot",
		"unshare", "nsenter", "strace", "ltrace", "watch", "script", "busybox", "parallel",
		"valgrind", "faketime", "torsocks", "proxychains", "sshpass", "direnv", "nix-shell")
	// Shells: -c takes the code (bash -ec is an option first: any code).
	set(program{kind: interpreter, takes: []string{"-c"}},
		"bash", "sh", "zsh", "dash", "fish", "ksh", "mksh", "csh", "tcsh", "ash")
	set(program{kind: interpreter, takes: []string{"-c", "-m"}}, "python", "pypy")
	set(program{kind: interpreter, takes: []string{"-e", "--eval", "-p", "--print", "-pe"}}, "node", "nodejs")
	set(program{kind: interpreter, takes: []string{"-e", "-E"}}, "perl")
	set(program{kind: interpreter, takes: []string{"-e"}},
		"ruby", "lua", "luajit", "osascript", "rscript", "julia", "elixir", "groovy", "ts-node", "tsx", "expect")
	set(program{kind: interpreter, takes: []string{"-r"}}, "php")
	set(program{kind: interpreter, takes: []string{"-c", "-command", "-Command"}}, "pwsh", "powershell")
	set(program{kind: interpreter, takes: []string{"-f"}}, "awk", "gawk", "mawk", "nawk")
	set(program{kind: interpreter}, "tclsh", "wish", "irb", "jshell")
	// Interpreters with subcommands: deno eval CODE, bun run SCRIPT.
	set(program{kind: interpreter, takes: []string{"eval", "run", "x", "-e", "--eval"}}, "deno", "bun")
	// Package runners: npx PACKAGE names what runs; npx alone anything.
	set(program{kind: runner}, "npx", "bunx", "pnpx", "uvx")
	// Runners of project targets: make alone runs any target, of any
	// makefile an option names.
	set(program{kind: runner},
		"make", "gmake", "bmake", "just", "rake", "task", "ninja", "gradle", "gradlew", "mvn", "mvnw",
		"ant", "scons", "invoke", "nox", "tox")
	// Test runners: they run the project's code, and name it by running it.
	set(program{kind: testRunner},
		"pytest", "py.test", "jest", "vitest", "mocha", "phpunit", "rspec", "ctest", "karma", "ava")
	// Multi-purpose tools: alone they are every subcommand.
	set(program{kind: tool}, "git", "gh", "docker", "podman", "kubectl", "hub")
	set(program{kind: tool, takes: []string{"run", "run-script", "exec", "x"},
		code: []string{"test", "t", "tst", "start", "stop", "restart"}}, "npm")
	set(program{kind: tool, takes: []string{"run", "exec", "dlx"}, code: []string{"test", "start"}}, "yarn", "pnpm")
	set(program{kind: tool, takes: []string{"run"}, code: []string{"test", "generate"}}, "go")
	set(program{kind: tool, code: []string{"run", "test", "build", "bench", "check"}}, "cargo")
	set(program{kind: tool, takes: []string{"run"}}, "uv", "poetry", "pipenv", "pdm", "hatch")
	set(program{kind: tool, takes: []string{"exec"}}, "bundle")
	set(program{kind: tool, code: []string{"run", "test", "build"}}, "dotnet", "swift")
	return m
})

// programName is the bare name of a program: no directory, lower case, and
// no version suffix (python3.12 → python, php8 → php).
func programName(s string) string {
	s = strings.ToLower(path.Base(s))
	if t := strings.TrimRight(s, "0123456789.-"); t != "" {
		return t
	}
	return s
}

// InterpreterWide reports whether a command prefix would allow arbitrary
// code: an interpreter or a runner with nothing naming what it runs
// (python, python -c, node -e, bash -c, sh, make, npx), a wrapper (env,
// sudo, xargs), a multi-purpose tool alone (git, npm, go), or any of
// those followed by an option the table does not know to take what runs.
// Names are compared normalised: /usr/bin/Python3.12 is python. A rule
// with such a prefix cannot allow code uncontained, and no approval is
// remembered as one.
func InterpreterWide(prefix []string) bool { return commandReach(prefix) == reachAny }

// commandReach reads the table for a prefix (see the file comment).
func commandReach(prefix []string) reach {
	if len(prefix) == 0 {
		return reachAny
	}
	r := tableReach(prefix)
	if r == reachSaid && strings.Contains(prefix[0], "/") && !systemProgram(prefix[0]) {
		// ./build.sh, scripts/deploy, ./git: a file the agent can edit,
		// whatever its name says.
		r = reachNamed
	}
	return r
}

// tableReach is commandReach for the program's name alone.
func tableReach(prefix []string) reach {
	p, known := programs()[programName(prefix[0])]
	if !known {
		return reachSaid
	}
	rest := prefix[1:]
	switch p.kind {
	case wrapper:
		return reachAny
	case testRunner:
		if len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			return reachAny
		}
		return reachNamed
	}
	if len(rest) == 0 {
		return reachAny
	}
	w := rest[0]
	if contains(p.takes, w) {
		if len(rest) < 2 || p.kind == tool && strings.HasPrefix(rest[1], "-") {
			return reachAny
		}
		return reachNamed
	}
	if strings.HasPrefix(w, "-") {
		return reachAny
	}
	if p.kind == tool && !contains(p.code, w) {
		return reachSaid
	}
	return reachNamed
}

func contains(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// systemProgram reports whether a program path lies in a system directory.
func systemProgram(p string) bool {
	for _, d := range []string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/"} {
		if strings.HasPrefix(p, d) && !strings.Contains(p[len(d):], "/") {
			return true
		}
	}
	return false
}
