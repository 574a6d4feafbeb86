// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file peels wrappers, the programs that run a command they are
// given: the wrappers of the table (nice, nohup, timeout, doas, chroot,
// time, command…), env, sudo, su and flock. It holds the option grammar
// every wrapper is read with, and registers the wrapper family, whose
// other members are in wrappers.go, sessions.go, runners.go and
// repeaters.go.
//
// Wrapper rules: an option the grammar does not know makes the command
// unresolved, because it might take a value that hides the real command.
// The wrapper and the command it runs are both reported.

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

// wrapper describes the option grammar of a command that runs another.
type wrapper struct {
	// flags take no value; vals take one; optional ones take a value only
	// attached (-tFILE, --timing=FILE). Short ones are single letters,
	// long ones start with "--". A long option may also be given as
	// --name=value.
	flags, vals, optional string
	// operands before the command: timeout's duration, flock's file.
	skip int
	// numeric: -N (nice -10) is an option.
	numeric bool
	// permute: options may follow operands (GNU getopt); "--" still
	// ends them.
	permute bool
}

var wrappers = sync.OnceValue(func() map[string]wrapper {
	return map[string]wrapper{
		"nice":       {flags: "", vals: "n --adjustment", numeric: true},
		"nohup":      {},
		"timeout":    {flags: "v --preserve-status --foreground --verbose", vals: "s k --signal --kill-after", skip: 1},
		"stdbuf":     {vals: "i o e --input --output --error"},
		"setsid":     {flags: "c f w --ctty --fork --wait"},
		"doas":       {flags: "n s L", vals: "u C"},
		"pkexec":     {flags: "--disable-internal-agent --keep-cwd", vals: "--user"},
		"time":       {flags: "p v a q --verbose --portability --append --quiet", vals: "f o --format --output"},
		"exec":       {flags: "c l", vals: "a"},
		"command":    {flags: "p v V"},
		"builtin":    {},
		"chroot":     {flags: "--skip-chdir", vals: "--userspec --groups"},
		"unbuffer":   {flags: "p"},
		"caffeinate": {flags: "d i m s u"},
		"ionice":     {flags: "t", vals: "c n p P u --class --classdata"},
		"chrt":       {flags: "b d f i o r a m v"},
		"taskset":    {flags: "a p c --all-tasks --cpu-list"},
	}
})

// hasWord reports whether w is one of the space-separated words of list.
func hasWord(list, w string) bool {
	if w == "" {
		return false
	}
	for off := 0; ; {
		i := strings.Index(list[off:], w)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(w)
		if (i == 0 || list[i-1] == ' ') && (end == len(list) || list[end] == ' ') {
			return true
		}
		off = i + 1
	}
}

// peelArgs applies a wrapper grammar and returns the options and the
// command it runs. ok is false for an unknown option.
func peelArgs(w wrapper, args []field) (opts []opt, cmd []field, bad string) {
	flags, vals, optional := w.flags, w.vals, w.optional
	isShort := hasWord
	var ops []field
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn || len(s) < 2 || s[0] != '-' {
			if w.permute {
				ops = append(ops, f)
				continue
			}
			break
		}
		if s == "--" {
			i++
			break
		}
		if w.numeric && len(s) > 1 && strings.Trim(s[1:], "0123456789") == "" {
			opts = append(opts, opt{name: "-n", val: field{s: s[1:]}, has: true})
			continue
		}
		if s[1] == '-' {
			name, val, has := strings.Cut(s, "=")
			switch {
			case isShort(flags, name) && !has:
				opts = append(opts, opt{name: name})
			case isShort(optional, name):
				opts = append(opts, opt{name: name, val: field{s: val}, has: has})
			case isShort(vals, name):
				o := opt{name: name, val: field{s: val}, has: has}
				if !has && i+1 < len(args) {
					i++
					o.val, o.has = args[i], true
				}
				opts = append(opts, o)
			default:
				return opts, nil, s
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			c := s[j : j+1]
			switch {
			case isShort(flags, c):
				opts = append(opts, opt{name: "-" + c})
			case isShort(optional, c):
				opts = append(opts, opt{name: "-" + c, val: field{s: s[j+1:]}, has: j+1 < len(s)})
				j = len(s)
			case isShort(vals, c):
				o := opt{name: "-" + c, val: field{s: s[j+1:]}, has: true}
				if j+1 == len(s) {
					o.has = false
					if i+1 < len(args) {
						i++
						o.val, o.has = args[i], true
					}
				}
				opts = append(opts, o)
				j = len(s)
			default:
				return opts, nil, s
			}
		}
	}
	rest := args[i:]
	if w.permute {
		rest = append(ops, rest...)
	}
	if len(rest) < w.skip {
		return opts, nil, ""
	}
	return opts, rest[w.skip:], ""
}

// peel handles the wrappers of the table; handled is false for others.
func (a *analyzer) peel(e *env, name string, args []field) (ro, known, handled bool) {
	w, ok := wrappers()[name]
	if !ok {
		return false, false, false
	}
	opts, cmd, bad := peelArgs(w, args)
	if bad != "" {
		a.unresolved(fmt.Sprintf("%s: unknown option %s", name, bad))
		return false, false, true
	}
	switch name {
	case "doas", "pkexec":
		a.flag(action.FlagPrivilegeEscalation)
		if hasOpt(opts, "-s") || len(cmd) == 0 {
			a.openShell() // an interactive root shell
		}
	case "nohup", "setsid":
		a.flag(action.FlagBackground)
	case "time":
		for _, f := range optVals(opts, "-o", "--output") {
			a.path(e, f, action.Write)
		}
	case "command":
		if hasOpt(opts, "-v", "-V") {
			return true, true, true // a lookup, nothing runs
		}
	case "chroot":
		a.flag(action.FlagPrivilegeEscalation)
		if len(cmd) > 0 {
			a.path(e, cmd[0], action.Read)
			cmd = cmd[1:]
			// The command runs in / of the new root: its relative paths
			// name no directory known here.
			e = e.fork()
			e.cwd, e.ok = nil, nil
		}
	case "taskset":
		if len(cmd) > 0 {
			cmd = cmd[1:] // the CPU mask
		}
	case "chrt":
		if len(cmd) > 0 {
			cmd = cmd[1:] // the priority
		}
	case "exec":
		if len(cmd) == 0 {
			return true, true, true // exec with redirections only
		}
	}
	if len(cmd) == 0 {
		return true, true, true
	}
	if name == "command" || name == "builtin" {
		return true, a.innerShell(e, cmd), true
	}
	return true, a.inner(e, cmd, nil, name == "exec"), true
}

// envCmd peels env: -i, -u NAME, -C DIR, -S STRING, NAME=VALUE.
func (a *analyzer) envCmd(e *env, args []field) (bool, bool) {
	envm := map[string]string{}
	c := e
	i := 0
	var split []field
loop:
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		switch {
		case f.dyn:
			break loop
		case s == "--":
			i++
			break loop
		case s == "-" || s == "-i" || s == "--ignore-environment" || s == "-0" || s == "--null" || s == "-v" || s == "--debug":
		case s == "-u" || s == "--unset" || s == "-C" || s == "--chdir" || s == "-S" || s == "--split-string" || s == "-P":
			if i+1 >= len(args) {
				a.unresolved("env: " + s + " needs a value")
				return false, false
			}
			i++
			switch s {
			case "-C", "--chdir":
				c = a.chdir(e, args[i])
			case "-S", "--split-string":
				split = append(split, a.splitS(args[i])...)
			case "-P":
				a.flag(action.FlagRunsCode) // a PATH of its own
			}
		case strings.HasPrefix(s, "--unset=") || strings.HasPrefix(s, "-u"):
		case strings.HasPrefix(s, "--chdir=") || strings.HasPrefix(s, "-C"):
			v := strings.TrimPrefix(strings.TrimPrefix(s, "--chdir="), "-C")
			c = a.chdir(e, field{s: v})
		case strings.HasPrefix(s, "--split-string=") || strings.HasPrefix(s, "-S"):
			v := strings.TrimPrefix(strings.TrimPrefix(s, "--split-string="), "-S")
			split = append(split, a.splitS(field{s: v})...)
		case strings.HasPrefix(s, "-"):
			a.unresolved("env: unknown option " + s)
			return false, false
		case strings.Contains(s, "=") && !strings.HasPrefix(s, "="):
			k, v, _ := strings.Cut(s, "=")
			envm[k] = v
			a.envVar(e, k, v, true)
			if codeText(v) && k == "PS4" {
				a.unresolved("env: PS4 holds command text")
			}
		default:
			break loop
		}
	}
	cmd := append(split, args[i:]...)
	if len(cmd) == 0 {
		// env alone prints the environment.
		a.class(action.SecretAccess)
		return false, true
	}
	if c == e {
		c = e.fork() // the command is a program of its own
	}
	known := a.invoke(c, cmd, envm, nil)
	return true, known
}

// splitS splits env -S's string the simple way; quotes, escapes and
// variables inside it are not modelled.
func (a *analyzer) splitS(f field) []field {
	if f.dyn || strings.ContainsAny(f.s, `"'\$`) {
		a.unresolved("env -S with quotes, escapes or variables is not analysed")
		return nil
	}
	var out []field
	for _, w := range strings.Fields(f.s) {
		out = append(out, field{s: w})
	}
	return out
}

// sudo peels sudo and sudoedit.
func (a *analyzer) sudo(e *env, name string, args []field) (bool, bool) {
	a.flag(action.FlagPrivilegeEscalation)
	vals := "ugCDhprtTU"
	longVals := []string{"user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "command-timeout", "other-user"}
	flags := "AbEeHiKklnPSsVvB"
	longFlags := []string{"askpass", "background", "preserve-env", "edit", "set-home", "login", "remove-timestamp",
		"reset-timestamp", "list", "non-interactive", "preserve-groups", "stdin", "shell", "version", "validate", "help", "bell"}
	var opts []opt
	i := 0
	envm := map[string]string{}
loop:
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		switch {
		case f.dyn:
			break loop
		case s == "--":
			i++
			break loop
		case strings.HasPrefix(s, "--"):
			n, _, has := strings.Cut(s[2:], "=")
			switch {
			case slices.Contains(longVals, n):
				if !has {
					i++
				}
				opts = append(opts, opt{name: "--" + n})
			case slices.Contains(longFlags, n):
				opts = append(opts, opt{name: "--" + n})
			default:
				a.unresolved("sudo: unknown option " + s)
				return false, false
			}
		case strings.HasPrefix(s, "-") && len(s) > 1:
			for j := 1; j < len(s); j++ {
				c := s[j]
				switch {
				case strings.IndexByte(vals, c) >= 0:
					if j+1 == len(s) {
						i++
					}
					opts = append(opts, opt{name: "-" + string(c)})
					j = len(s)
				case strings.IndexByte(flags, c) >= 0:
					opts = append(opts, opt{name: "-" + string(c)})
				default:
					a.unresolved("sudo: unknown option " + s)
					return false, false
				}
			}
		case strings.Contains(s, "=") && !strings.HasPrefix(s, "="):
			k, v, _ := strings.Cut(s, "=")
			envm[k] = v
			a.envVar(e, k, v, true)
		default:
			break loop
		}
	}
	if i > len(args) {
		i = len(args)
	}
	cmd := args[i:]
	if hasOpt(opts, "-b", "--background") {
		a.flag(action.FlagBackground)
	}
	if name == "sudoedit" || hasOpt(opts, "-e", "--edit") {
		for _, f := range cmd {
			a.path(e, f, action.Write)
		}
		return false, true
	}
	if hasOpt(opts, "-l", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp", "--remove-timestamp", "-V", "--version", "-h", "--help") && len(cmd) == 0 {
		return true, true
	}
	if hasOpt(opts, "-s", "--shell", "-i", "--login") {
		if len(cmd) == 0 {
			a.openShell()
			return false, true
		}
		// The command is given to a shell as one string.
		a.shellString(e, cmd)
		return false, true
	}
	if len(cmd) == 0 {
		a.openShell() // sudo alone, or with options only
		return false, true
	}
	return false, a.invoke(e.fork(), cmd, envm, nil)
}

// su runs a command string as another user.
func (a *analyzer) su(e *env, args []field) (bool, bool) {
	a.flag(action.FlagPrivilegeEscalation)
	opts, _ := scan(args, "cgGsw", []string{"command", "group", "supp-group", "shell", "whitelist-environment", "session-command"}, false)
	return a.suCommands(e, opts)
}

// suCommands runs su's -c, --command and --session-command strings, or
// opens a shell when there are none.
func (a *analyzer) suCommands(e *env, opts []opt) (bool, bool) {
	cmds := optVals(opts, "-c", "--command", "--session-command")
	if len(cmds) == 0 {
		a.openShell()
		return false, true
	}
	for _, c := range cmds {
		a.shellString(e, []field{c})
	}
	return false, true
}

// flock: flock [opts] file cmd args | flock [opts] file -c string | flock fd.
func (a *analyzer) flock(e *env, args []field) (bool, bool) {
	opts, cmd, bad := peelArgs(wrapper{flags: "s x e n u o F --shared --exclusive --nonblock --unlock --close --no-fork --verbose",
		vals: "w E c --timeout --wait --conflict-exit-code --command"}, args)
	if bad != "" {
		a.unresolved("flock: unknown option " + bad)
		return false, false
	}
	for _, c := range optVals(opts, "-c", "--command") {
		a.shellString(e, []field{c})
	}
	if len(cmd) == 0 {
		return false, true
	}
	lock := cmd[0]
	if !lock.dyn && strings.Trim(lock.s, "0123456789") == "" {
		return true, true // a file descriptor: nothing runs
	}
	a.path(e, lock, action.Write)
	cmd = cmd[1:]
	if len(cmd) > 0 && !cmd[0].dyn && (cmd[0].s == "-c" || cmd[0].s == "--command") {
		if len(cmd) < 2 {
			a.unresolved("flock -c without a command string")
			return false, false
		}
		a.shellString(e, cmd[1:2])
		return false, true
	}
	if len(cmd) == 0 {
		return false, true
	}
	return false, a.inner(e, cmd, nil, false)
}

func wrapperPrograms() map[string]handler {
	m := map[string]handler{}
	for n := range wrappers() {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) {
			ro, known, _ := a.peel(e, c.name, c.args)
			return ro, known
		}
	}
	m["env"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.envCmd(e, c.args) }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.sudo(e, c.name, c.args) }, "sudo", "sudoedit")
	m["su"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.su(e, c.args) }
	m["flock"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.flock(e, c.args) }
	for n := range simpleWrappers() {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) { return a.simpleWrapper(e, c.name, c.args) }
	}
	m["bwrap"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.bwrap(e, c.args) }
	m["valgrind"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.valgrind(e, c.args) }
	m["gdb"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.gdb(e, c.args) }
	m["lldb"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.lldb(e, c.args) }
	m["tmux"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.tmux(e, c.args) }
	m["screen"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.screen(e, c.args) }
	m["expect"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.expect(e, c.args) }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.runner(e, c.name, c.args) }, "pipenv", "bundle", "direnv")
	m["nix-shell"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.nixShell(e, c.args) }
	m["dotenv"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.dotenv(e, c.args) }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.sg(e, c.name, c.args) }, "sg", "newgrp")
	m["parallel"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.parallel(e, c.args) }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.editor(e, c.args) }, "vim", "vi", "nvim", "gvim", "vimdiff", "view", "ex", "rvim")
	return m
}
