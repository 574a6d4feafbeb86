// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the package managers family: installing a package is
// packageInstall, running a fetched one also runs_code.

import (
	"strings"

	"warden.dev/warden/internal/action"
)

// pkg handles package managers.
func (a *analyzer) pkg(e *env, name string, args []field) (bool, bool) {
	var words []string
	for j := 0; j < len(args); j++ {
		f := args[j]
		if f.dyn {
			if len(words) == 0 {
				a.unresolved(name + " with a subcommand that is not static")
				return false, false
			}
			continue
		}
		if strings.HasPrefix(f.s, "-") {
			if name == "pacman" && (strings.HasPrefix(f.s, "-S") || strings.HasPrefix(f.s, "-U")) {
				words = append(words, "install")
			}
			if name == "npm" && (f.s == "--prefix" || f.s == "-C") || name == "yarn" && f.s == "--cwd" {
				j++
			}
			continue
		}
		words = append(words, f.s)
	}
	verb := ""
	if len(words) > 0 {
		verb = words[0]
	}
	install := map[string]bool{"install": true, "i": true, "in": true, "add": true, "ci": true, "isntall": true,
		"reinstall": true, "upgrade": true, "update": true, "up": true, "sync": true, "require": true, "get": true, "dlx": true, "x": true, "exec": true}
	switch name {
	case "yarn", "pnpm", "bun":
		if verb == "" && name == "yarn" {
			verb = "install"
		}
	case "uv":
		if verb == "pip" && len(words) > 1 {
			verb = words[1]
		}
		if verb == "run" || verb == "tool" {
			a.flag(action.FlagRunsCode)
			a.class(action.PackageInstall)
			return false, true
		}
	case "pipx":
		if verb == "run" {
			a.flag(action.FlagRunsCode)
			a.class(action.PackageInstall)
			return false, true
		}
	case "cargo":
		switch verb {
		case "install", "add":
			a.class(action.PackageInstall)
		case "build", "run", "test", "bench", "check", "clippy", "doc":
			a.flag(action.FlagRunsCode)
		}
		return false, true
	case "npm":
		if verb == "exec" || verb == "x" {
			a.class(action.PackageInstall)
			a.flag(action.FlagRunsCode)
			return false, true
		}
	}
	if install[verb] {
		a.class(action.PackageInstall)
		if verb == "dlx" || verb == "x" || verb == "exec" {
			a.flag(action.FlagRunsCode)
		}
		return false, true
	}
	switch verb {
	case "run", "run-script", "test", "t", "start", "exec", "build", "rebuild", "restart", "stop":
		a.flag(action.FlagRunsCode)
		return false, true
	case "list", "ls", "show", "info", "view", "outdated", "search", "help", "--version", "version", "freeze", "why", "config", "audit", "doctor":
		return false, true
	}
	if (name == "yarn" || name == "pnpm" || name == "bun") && verb != "" {
		a.flag(action.FlagRunsCode) // yarn <script>
	}
	return false, true
}

func packagePrograms() map[string]handler {
	m := map[string]handler{}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.pkg(e, c.name, c.args) },
		"npm", "yarn", "pnpm", "pip", "pip3", "pipx", "uv", "poetry", "cargo", "apt", "apt-get", "aptitude",
		"brew", "gem", "composer", "conda", "mamba", "dnf", "yum", "apk", "pacman", "snap", "zypper", "port", "nix-env")
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		a.class(action.PackageInstall)
		a.flag(action.FlagRunsCode)
		return false, true
	}, "npx", "pnpx", "bunx", "uvx")
	return m
}
