// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the package managers whose command line the table of
// packages.go cannot describe, each read by a parser of its own under the
// rules stated there: uv (uv pip, uv tool run, uv run), pacman and the
// AUR helpers that share its options, nix-env and nix, deno, and cargo.

import (
	"strings"

	"warden.dev/warden/internal/action"
)

// uv handles uv: uv pip is pip, uv tool run is uvx, uv run runs the
// project (after syncing its environment) and the command it is given.
func (a *analyzer) uv(e *env, args []field) (bool, bool) {
	opts, ops := scan(args, "pwr", uvLong, false)
	a.registry(opts, "--index", "--index-url", "--extra-index-url", "--default-index", "--find-links", "--publish-url")
	if len(ops) == 0 {
		return false, true
	}
	if ops[0].dyn {
		a.unresolved("uv with a subcommand that is not static")
		return false, false
	}
	sub, rest := ops[0].s, ops[1:]
	return a.uvSub(e, args, opts, sub, rest)
}

// uvLong are uv's long options that take a value.
var uvLong = []string{"directory", "project", "python", "cache-dir", "config-file", "color",
	"index", "index-url", "extra-index-url", "default-index", "find-links", "with", "with-requirements", "with-editable",
	"package", "group", "extra", "env-file", "from", "script", "only-group", "no-group", "refresh-package",
	"reinstall-package", "upgrade-package", "python-platform", "exclude-newer", "prerelease", "resolution",
	"index-strategy", "keyring-provider", "link-mode", "output-file", "optional", "rev",
	"tag", "branch", "publish-url", "username", "password", "token", "trusted-publishing", "build-constraint",
	"constraint", "override", "requirement", "allow-insecure-host"}

func (a *analyzer) uvSub(e *env, args []field, opts []opt, sub string, rest []field) (bool, bool) {
	word := func(i int) string {
		if i < len(rest) && !rest[i].dyn {
			return rest[i].s
		}
		return ""
	}
	switch sub {
	case "pip":
		switch word(0) {
		case "install", "sync", "uninstall":
			a.class(action.PackageInstall)
			a.pkgName(rest[1:]...)
			for _, f := range optVals(opts, "-r", "--requirement") {
				a.path(e, f, action.Read)
			}
		case "compile":
			a.class(action.NetworkEgress)
		case "list", "show", "freeze", "tree", "check", "":
		default:
			a.class(action.PackageInstall)
		}
	case "tool":
		switch word(0) {
		case "run":
			return a.fetchRun(e, after(after(args, "tool"), "run"), "pw", "--from")
		case "list", "dir", "":
		default:
			a.class(action.PackageInstall)
			if len(rest) > 1 {
				a.pkgName(rest[1:]...)
			}
		}
	case "add", "remove", "sync", "lock", "venv", "self", "python", "export":
		if sub != "export" && !(sub == "python" && (word(0) == "list" || word(0) == "find" || word(0) == "dir")) {
			a.class(action.PackageInstall)
		}
		if sub == "add" {
			a.pkgName(rest...)
		}
	case "run":
		a.class(action.PackageInstall) // syncs the environment first
		a.flag(action.FlagRunsCode)
		a.pkgName(optVals(opts, "--with", "--with-editable")...)
		_, cmd := scan(after(args, "run"), "pw", uvLong, true)
		if len(cmd) > 0 && !cmd[0].dyn && !strings.HasSuffix(cmd[0].s, ".py") {
			return false, a.inner(e, cmd, nil, false)
		}
	case "publish":
		a.class(action.NetworkEgress)
	case "build":
		a.flag(action.FlagRunsCode)
	case "tree", "version", "help", "cache", "init", "--version", "-V", "generate-shell-completion", "format":
		if sub == "cache" && word(0) == "clean" || sub == "init" || sub == "format" {
			return false, true
		}
	default:
		a.class(action.PackageInstall)
	}
	return false, true
}

// pacman handles pacman and the AUR helpers that share its options
// (yay, paru): -S, -U, -R and -D change the system, except the -S queries
// (-Ss, -Si, -Sl, -Sg, -Sp without -y or -u); -Q and -F only read, except
// -Fy.
func (a *analyzer) pacman(e *env, name string, args []field) (bool, bool) {
	op := ""
	var pkgs []field
	for _, f := range args {
		switch {
		case f.dyn:
			pkgs = append(pkgs, f)
		case strings.HasPrefix(f.s, "--"):
			switch f.s {
			case "--sync":
				op += "S"
			case "--upgrade":
				op += "U"
			case "--remove":
				op += "R"
			case "--database":
				op += "D"
			case "--query":
				op += "Q"
			case "--files":
				op += "F"
			case "--refresh":
				op += "y"
			case "--sysupgrade":
				op += "u"
			case "--search":
				op += "s"
			case "--info":
				op += "i"
			case "--list":
				op += "l"
			}
		case strings.HasPrefix(f.s, "-"):
			op += f.s[1:]
		default:
			pkgs = append(pkgs, f)
		}
	}
	if op == "" && (name == "yay" || name == "paru") {
		op = "Syu" // yay alone updates the system
		if len(pkgs) > 0 {
			op = "S" // yay NAME: search and install
		}
	}
	install := false
	switch {
	case strings.ContainsAny(op, "URD"):
		install = true
	case strings.Contains(op, "S"):
		install = strings.ContainsAny(op, "yu") || !strings.ContainsAny(op, "silgpc")
	case strings.Contains(op, "F"):
		install = strings.Contains(op, "y")
	case strings.Contains(op, "Q"), strings.Contains(op, "V"), strings.Contains(op, "h"), strings.Contains(op, "T"):
	default:
		install = true
	}
	if install {
		a.class(action.PackageInstall)
		a.pkgName(pkgs...)
	}
	return false, true
}

// nixEnv handles nix-env: -i, -u, -e, --set and the generation commands
// change the profile; -q queries it.
func (a *analyzer) nixEnv(e *env, args []field) (bool, bool) {
	opts, ops := scan(args, "fpAI", []string{"file", "profile", "attr", "include", "arg", "argstr", "option"}, false)
	if hasOpt(opts, "-q", "--query", "--list-generations", "--version", "--help", "-h") &&
		!hasOpt(opts, "-i", "--install", "-u", "--upgrade", "-e", "--uninstall", "--set") {
		return false, true
	}
	a.class(action.PackageInstall)
	a.pkgName(ops...)
	a.pkgName(optVals(opts, "-A", "--attr")...)
	return false, true
}

// nix handles the nix command: nix profile install changes the profile,
// nix run and nix shell fetch a package and run it, nix develop runs the
// project's shell.
func (a *analyzer) nix(e *env, args []field) (bool, bool) {
	opts, ops := scan(args, "cfI", []string{"command", "file", "include", "option", "extra-experimental-features",
		"experimental-features", "override-input", "profile", "store", "eval-store", "arg", "argstr", "expr"}, false)
	if len(ops) == 0 {
		return false, true
	}
	if ops[0].dyn {
		a.unresolved("nix with a subcommand that is not static")
		return false, false
	}
	sub, rest := ops[0].s, ops[1:]
	switch sub {
	case "profile":
		if len(rest) > 0 && !rest[0].dyn && (rest[0].s == "list" || rest[0].s == "history" || rest[0].s == "diff-closures") {
			return false, true
		}
		a.class(action.PackageInstall)
		if len(rest) > 1 {
			a.pkgName(rest[1:]...)
		}
	case "run", "shell", "develop", "bundle":
		a.class(action.PackageInstall)
		a.flag(action.FlagRunsCode)
		// nix shell PKGS -c CMD, nix run PKG -- ARGS.
		var pkgs []field
		for _, f := range after(args, sub) {
			if !f.dyn && (f.s == "--" || f.s == "-c" || f.s == "--command") {
				break
			}
			if f.dyn || !strings.HasPrefix(f.s, "-") {
				pkgs = append(pkgs, f)
			}
		}
		if sub == "run" && len(pkgs) > 0 {
			pkgs = pkgs[:1] // nix run PKG ARGS…
		}
		a.pkgName(pkgs...)
		if cmd := optVals(opts, "-c", "--command"); len(cmd) > 0 && sub != "run" {
			for j, f := range args {
				if !f.dyn && (f.s == "-c" || f.s == "--command") && j+1 < len(args) {
					return false, a.inner(e, args[j+1:], nil, false)
				}
			}
		}
	case "build", "copy", "upgrade-nix", "flake", "registry", "store", "daemon":
		if sub == "flake" && len(rest) > 0 && !rest[0].dyn && (rest[0].s == "show" || rest[0].s == "metadata" || rest[0].s == "info") {
			return false, true
		}
		a.class(action.PackageInstall)
	case "repl", "eval", "fmt", "edit":
		a.flag(action.FlagRunsCode)
	case "search", "show-config", "config", "path-info", "log", "why-depends", "hash", "--version", "help", "show-derivation", "derivation", "print-dev-env":
	default:
		a.flag(action.FlagRunsCode)
	}
	return false, true
}

// deno handles deno: its package verbs, deno run of a URL or a registry
// package (npm:, jsr:), which fetches a package and runs it, and
// everything else as the runtime.
func (a *analyzer) deno(e *env, args []field) (bool, bool) {
	_, ops := scan(args, "cL", []string{"config", "import-map", "lock", "cert", "location", "seed", "log-level",
		"v8-flags", "inspect", "inspect-brk", "inspect-wait", "env-file", "ext", "preload", "conditions", "node-modules-dir"}, true)
	if len(ops) == 0 {
		return a.interp(e, "deno", "deno", args)
	}
	if ops[0].dyn {
		a.unresolved("deno with a subcommand that is not static")
		return false, false
	}
	sub, rest := ops[0].s, ops[1:]
	switch sub {
	case "install", "i", "add", "remove", "rm", "uninstall", "outdated", "upgrade", "update":
		if sub == "outdated" && !hasAny(rest, "--update", "-u") {
			return false, true
		}
		a.class(action.PackageInstall)
		a.pkgName(rest...)
		return false, true
	case "publish":
		a.class(action.NetworkEgress)
		return false, true
	case "x":
		return a.fetchRun(e, after(args, "x"), "", "--package")
	case "run", "serve", "compile":
		_, rops := scan(rest, "cL", []string{"config", "import-map", "lock", "cert", "location", "seed", "log-level",
			"v8-flags", "inspect", "inspect-brk", "inspect-wait", "env-file", "ext", "preload", "conditions", "output",
			"target", "include", "node-modules-dir", "port", "host"}, true)
		if len(rops) > 0 {
			a.denoTarget(rops[0])
		}
	default:
		a.denoTarget(ops[0])
	}
	return a.interp(e, "deno", "deno", args)
}

// denoTarget records a script deno fetches: a URL or npm:/jsr:.
func (a *analyzer) denoTarget(f field) {
	s := f.s
	if f.dyn {
		return
	}
	if strings.Contains(s, "://") || strings.HasPrefix(s, "npm:") || strings.HasPrefix(s, "jsr:") {
		a.class(action.PackageInstall)
		a.flag(action.FlagRunsCode)
		a.pkgName(f)
		a.host(hostOf(s, false))
	}
}

// cargoVerbs are what cargo's subcommands do. Building, testing, running
// and checking run the build scripts (build.rs) and procedural macros of
// the project and of every dependency: runs_code. A subcommand cargo does
// not know runs the plugin cargo-NAME: runs_code.
var cargoVerbs = vt(vInstall, "add install remove rm uninstall update up fetch generate-lockfile vendor",
	vRun, "build b run r test t bench check c clippy doc d fix rustc rustdoc miri nextest llvm-cov tarpaulin "+
		"expand watch package",
	vPublish, "publish login logout owner yank",
	vKnown, "search tree metadata version help locate-project pkgid verify-project read-manifest report info "+
		"-V --version -h --help --list",
	vWrite, "fmt init new")

// cargo handles cargo: cargo add and install name their crates (and
// --git their repository), --config may set a runner or a wrapper that
// runs a program, and +TOOLCHAIN is not a subcommand.
func (a *analyzer) cargo(e *env, args []field) (bool, bool) {
	opts, ops := scan(args, "pjFZCm", []string{"manifest-path", "package", "jobs", "features", "target", "target-dir",
		"bin", "example", "test", "bench", "profile", "config", "color", "message-format", "git", "branch", "tag", "rev",
		"path", "registry", "index", "version", "vers", "root", "lockfile-path", "rename", "exclude", "artifact-dir"}, false)
	for len(ops) > 0 && !ops[0].dyn && strings.HasPrefix(ops[0].s, "+") {
		ops = ops[1:]
	}
	if hasOpt(opts, "--config", "-Z") {
		a.flag(action.FlagRunsCode) // target.*.runner, build.rustc-wrapper
	}
	if len(ops) == 0 {
		for _, o := range opts {
			if k, ok := cargoVerbs[o.name]; ok && k == vKnown {
				return true, true
			}
		}
		return false, true
	}
	if ops[0].dyn {
		a.unresolved("cargo with a subcommand that is not static")
		return false, false
	}
	sub := ops[0].s
	kind, ok := cargoVerbs[sub]
	if !ok {
		kind = vRun
	}
	switch kind {
	case vInstall:
		a.class(action.PackageInstall)
		if sub == "add" || sub == "install" {
			a.pkgName(ops[1:]...)
			for _, f := range optVals(opts, "--git") {
				a.pkgName(f)
				if !f.dyn {
					a.host(hostOf(f.s, false))
				}
			}
			a.registry(opts, "--index")
		}
		if sub == "install" {
			a.flag(action.FlagRunsCode) // builds the crate: its build script runs
		}
	case vRun:
		a.flag(action.FlagRunsCode)
	case vPublish:
		a.class(action.NetworkEgress)
		if sub == "publish" {
			a.flag(action.FlagRunsCode) // verifies by building
		}
	case vKnown:
		return sub != "search" && sub != "info" && sub != "report", true
	}
	return false, true
}
