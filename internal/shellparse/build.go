// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the build tools and test runners family: they run the
// project's own code, runs_code.

import (
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

// buildTools run code from the project: runs_code.
var buildTools = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"cmake": true, "ninja": true, "bazel": true, "bazelisk": true, "gradle": true,
		"gradlew": true, "mvn": true, "mvnw": true, "ant": true, "rake": true, "just": true, "task": true,
		"meson": true, "scons": true, "tox": true, "nox": true, "pytest": true, "py.test": true, "jest": true,
		"vitest": true, "mocha": true, "phpunit": true, "rspec": true, "configure": true,
		"sbt": true, "mix": true, "dotnet": true, "swift": true, "xcodebuild": true, "tsc": true, "webpack": true,
		"vite": true, "turbo": true, "nx": true, "lerna": true, "pre-commit": true,
		"emacs": true, "nano": true, "code": true, "rustc": true,
		"gcc": true, "cc": true, "clang": true, "clang++": true, "c++": true, "g++": true, "javac": true, "java": true, "ld": true,
	}
})

// goValFlags are the go command's flags that take a value when it is not
// given with =.
var goValFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"C": true, "o": true, "p": true, "exec": true, "toolexec": true, "vettool": true,
		"tags": true, "ldflags": true, "gcflags": true, "asmflags": true, "gccgoflags": true, "mod": true, "modfile": true,
		"overlay": true, "pgo": true, "pkgdir": true, "buildmode": true, "compiler": true, "installsuffix": true,
		"covermode": true, "coverpkg": true, "run": true, "skip": true, "bench": true, "benchtime": true, "count": true,
		"cpu": true, "parallel": true, "timeout": true, "coverprofile": true, "cpuprofile": true, "memprofile": true,
		"blockprofile": true, "mutexprofile": true, "trace": true, "outputdir": true, "fuzz": true, "fuzztime": true,
		"fuzzminimizetime": true, "shuffle": true, "list": true, "f": true, "json": false, "debug-actiongraph": true,
		"debug-runtime-trace": true, "debug-trace": true, "benchmem": false, "failfast": false, "fullpath": false,
		"reuse": true, "u": false, "t": false, "x": false, "n": false, "v": false, "race": false, "msan": false,
		"asan": false, "cover": false, "trimpath": false, "work": false, "a": false, "buildvcs": true, "go": true,
		"printf": false, "vet": true, "args": false, "tool": true, "c": false, "i": false, "m": false, "e": false,
		"file": true, "r": true, "w": false, "l": false, "d": false, "s": false}
})

// goArgs splits the go command's arguments into flags (name → values) and
// operands.
func goArgs(args []field) (flags map[string][]field, ops []field) {
	flags = map[string][]field{}
	for j := 0; j < len(args); j++ {
		f := args[j]
		if f.dyn || !strings.HasPrefix(f.s, "-") || f.s == "-" {
			ops = append(ops, f)
			continue
		}
		if f.s == "--" {
			ops = append(ops, args[j+1:]...)
			break
		}
		n, v, has := strings.Cut(strings.TrimLeft(f.s, "-"), "=")
		if !has && goValFlags()[n] && j+1 < len(args) {
			j++
			flags[n] = append(flags[n], args[j])
			continue
		}
		flags[n] = append(flags[n], field{s: v})
	}
	return flags, ops
}

// golang handles the go command. go test runs the package's tests and go
// generate, go run and go tool run programs: runs_code; go vet is
// read-only unless -vettool names a program; go build runs no code of the
// project but cgo's compilers, unless -toolexec or -exec wraps them;
// go get, go install, go mod download and tidy fetch modules
// (packageInstall, the modules named); go run PKG@VERSION fetches a
// module and runs it.
func (a *analyzer) golang(e *env, args []field) (bool, bool) {
	flags, ops := goArgs(args)
	if len(ops) > 0 && ops[0].dyn {
		a.unresolved("go with a subcommand that is not static")
		return false, false
	}
	sub := ""
	var rest []field
	if len(ops) > 0 {
		sub, rest = ops[0].s, ops[1:]
	}
	if _, ok := flags["exec"]; ok {
		a.flag(action.FlagRunsCode)
	}
	if _, ok := flags["toolexec"]; ok {
		a.flag(action.FlagRunsCode)
	}
	if _, ok := flags["vettool"]; ok {
		a.flag(action.FlagRunsCode)
	}
	for _, f := range flags["o"] {
		if sub == "build" || sub == "test" || sub == "install" || sub == "run" {
			a.path(e, f, action.Write)
		}
	}
	for _, k := range []string{"coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir"} {
		for _, f := range flags[k] {
			a.path(e, f, action.Write)
		}
	}
	switch sub {
	case "test":
		a.flag(action.FlagRunsCode)
		return false, true
	case "vet", "list", "version", "doc", "help", "":
		_, vt := flags["vettool"]
		_, te := flags["toolexec"]
		_, ex := flags["exec"]
		return !vt && !te && !ex, true
	case "env":
		_, w := flags["w"]
		_, u := flags["u"]
		if w || u {
			if a.home() != "" {
				a.pathStr(e, a.home()+"/.config/go/env", action.Write, false)
			} else {
				a.unresolved("go env -w writes the go env file and the home is not known")
			}
			return false, true
		}
		return true, true
	case "build", "fmt", "work", "clean", "fix", "bug", "telemetry":
		if sub == "work" && hasAny(rest, "sync", "vendor") {
			a.class(action.PackageInstall)
		}
		return false, true
	case "mod":
		if hasAny(rest, "download", "tidy", "vendor", "graph", "why") {
			if hasAny(rest, "download", "tidy", "vendor") {
				a.class(action.PackageInstall)
			}
			a.pkgName(after(rest, "download")...)
		}
		return false, true
	case "get", "install":
		a.class(action.PackageInstall)
		a.pkgName(rest...)
		return false, true
	case "run":
		a.flag(action.FlagRunsCode)
		if len(rest) > 0 && !rest[0].dyn && strings.Contains(rest[0].s, "@") && !strings.HasSuffix(rest[0].s, ".go") {
			a.class(action.PackageInstall) // go run example.com/cmd@v1: fetched, built and run
			a.pkgName(rest[0])
		}
		return false, true
	case "generate", "tool":
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
			a.stdinCode(c, "make", "make")
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
	for n := range buildTools() {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) {
			a.flag(action.FlagRunsCode)
			return false, true
		}
	}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.makeCmd(e, c.args) }, "make", "gmake")
	m["go"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.golang(e, c.args) }
	m["gofmt"] = func(a *analyzer, e *env, c call) (bool, bool) {
		for _, f := range c.args {
			if !f.dyn && strings.HasPrefix(f.s, "-") && !strings.HasPrefix(f.s, "--") && strings.Contains(f.s, "w") {
				return false, true // -w rewrites the files
			}
		}
		return true, true
	}
	return m
}
