// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the build tools and test runners family: they run the
// project's own code, runs_code.

import (
	"strings"

	"warden.dev/warden/internal/action"
)

// buildTools run code from the project: runs_code.
var buildTools = map[string]bool{
	"cmake": true, "ninja": true, "bazel": true, "bazelisk": true, "gradle": true,
	"gradlew": true, "mvn": true, "mvnw": true, "ant": true, "rake": true, "just": true, "task": true,
	"meson": true, "scons": true, "tox": true, "nox": true, "pytest": true, "py.test": true, "jest": true,
	"vitest": true, "mocha": true, "phpunit": true, "rspec": true, "configure": true,
	"sbt": true, "mix": true, "dotnet": true, "swift": true, "xcodebuild": true, "tsc": true, "webpack": true,
	"vite": true, "turbo": true, "nx": true, "lerna": true, "pre-commit": true,
	"docker": true, "podman": true, "kubectl": true, "emacs": true,
	"nano": true, "code": true, "rustc": true,
	"gcc": true, "cc": true, "clang": true, "clang++": true, "c++": true, "g++": true, "javac": true, "java": true, "ld": true,
}

// golang handles the go command.
func (a *analyzer) golang(e *env, args []field) (bool, bool) {
	sub := ""
	for _, f := range args {
		if f.dyn {
			a.unresolved("go with a subcommand that is not static")
			return false, false
		}
		if !strings.HasPrefix(f.s, "-") {
			sub = f.s
			break
		}
	}
	switch sub {
	case "test", "vet", "list", "version", "env", "doc", "help", "":
		for _, f := range args {
			if strings.HasPrefix(f.s, "-exec") || strings.HasPrefix(f.s, "-toolexec") || strings.HasPrefix(f.s, "-vettool") {
				a.flag(action.FlagRunsCode)
			}
			if f.s == "-w" && sub == "env" {
				return false, true
			}
		}
		return true, true
	case "build", "fmt", "mod", "work", "clean", "fix":
		if sub == "mod" && hasAny(args, "download") {
			a.class(action.PackageInstall)
		}
		return false, true
	case "get", "install":
		a.class(action.PackageInstall)
		return false, true
	case "run", "generate", "tool":
		a.flag(action.FlagRunsCode)
		return false, true
	}
	return false, true
}

// makeCmd: make runs the recipes of a makefile: runs_code. A makefile
// read from standard input (-f -) is a program piped into an interpreter;
// --eval adds makefile text.
func (a *analyzer) makeCmd(e *env, args []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	// -j and -l take an optional value, attached only here.
	opts, _ := scan(args, "fCIWoE", []string{"file", "makefile", "directory", "include-dir",
		"what-if", "new-file", "assume-new", "old-file", "assume-old", "eval"}, false)
	c := e
	for _, d := range optVals(opts, "-C", "--directory") {
		c = a.chdir(c, d)
	}
	for _, f := range optVals(opts, "-f", "--file", "--makefile") {
		if !f.dyn && (f.s == "-" || f.s == "/dev/stdin") {
			a.stdinCode(c, false)
			a.flag(action.FlagPipeToInterpreter)
			continue
		}
		a.path(c, f, action.Read)
	}
	for _, f := range optVals(opts, "-E", "--eval") {
		if f.dyn {
			a.unresolved("cannot be analysed statically: make --eval " + f.s)
		}
	}
	return false, true
}

func buildPrograms() map[string]handler {
	m := map[string]handler{}
	for n := range buildTools {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) {
			a.flag(action.FlagRunsCode)
			return false, true
		}
	}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.makeCmd(e, c.args) }, "make", "gmake")
	m["go"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.golang(e, c.args) }
	m["gofmt"] = func(a *analyzer, e *env, c call) (bool, bool) { return !hasAny(c.args, "-w"), true }
	return m
}
