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
	"make": true, "gmake": true, "cmake": true, "ninja": true, "bazel": true, "bazelisk": true, "gradle": true,
	"gradlew": true, "mvn": true, "mvnw": true, "ant": true, "rake": true, "just": true, "task": true,
	"meson": true, "scons": true, "tox": true, "nox": true, "pytest": true, "py.test": true, "jest": true,
	"vitest": true, "mocha": true, "phpunit": true, "rspec": true, "bundle": true, "configure": true,
	"sbt": true, "mix": true, "dotnet": true, "swift": true, "xcodebuild": true, "tsc": true, "webpack": true,
	"vite": true, "turbo": true, "nx": true, "lerna": true, "pre-commit": true, "direnv": true, "watch": true,
	"entr": true, "parallel": true, "strace": true, "ltrace": true, "gdb": true, "lldb": true, "valgrind": true,
	"vim": true, "vi": true, "nvim": true, "emacs": true,
	"nano": true, "code": true, "tmux": true, "screen": true, "script": true, "expect": true, "rustc": true,
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

func buildPrograms() map[string]handler {
	m := map[string]handler{}
	for n := range buildTools {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) {
			a.flag(action.FlagRunsCode)
			return false, true
		}
	}
	m["go"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.golang(e, c.args) }
	m["gofmt"] = func(a *analyzer, e *env, c call) (bool, bool) { return !hasAny(c.args, "-w"), true }
	return m
}
