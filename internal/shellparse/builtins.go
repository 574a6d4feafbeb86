// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the shell builtins family that neither runs code nor
// touches files: echo, test, set, cd, pushd, popd…

import (
	"fmt"
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

// pathless read-only programs: operands are not paths.
var pathless = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"echo": true, "printf": true, "pwd": true, "true": true, "false": true, ":": true, "test": true, "[": true,
		"which": true, "type": true, "whoami": true, "id": true, "date": true, "uname": true, "basename": true,
		"dirname": true, "tr": true, "seq": true, "sleep": true, "yes": true, "whereis": true, "locate": true,
		"expr": true, "dirs": true, "jobs": true, "wait": true, "shift": true, "return": true, "exit": true,
		"break": true, "continue": true, "read": true, "getopts": true, "hash": true, "umask": true,
		"ulimit": true, "shopt": true, "unset": true, "local": true, "set": true, "alias": true, "unalias": true,
		"let": true, "groups": true, "tty": true, "nproc": true, "arch": true, "uptime": true, "cal": true,
		"printf_": true, "lsb_release": true, "hostname": true, "history": true, "help": true, "man": true,
		"logname": true, "users": true, "who": true, "w": true, "free": true, "ps": true, "top": true,
		"fg": true, "bg": true, "kill": false,
	}
})

// cd, pushd and popd change the working directory and $OLDPWD. cd alone
// goes to $HOME (unknown: the caller may have changed it), cd - to $OLDPWD, which is known once the command has
// changed directory itself; popd returns to what this command pushed.
// A dynamic operand, an unknown home, $OLDPWD or stack entry, and the
// stack rotations (+N, -N) make the directory unknown. Where the change
// may fail, both directories remain candidates.
func (a *analyzer) cd(e *env, name string, args []field) {
	opts, ops := scan(args, "", nil, false)
	stackOnly := name != "cd" && hasOpt(opts, "-n")
	var target []string // nil: unknown
	switch {
	case name == "popd":
		if len(ops) > 0 || len(e.dirs) == 0 {
			e.dirs = nil
			break
		}
		target = e.dirs[len(e.dirs)-1]
		e.dirs = e.dirs[: len(e.dirs)-1 : len(e.dirs)-1]
	case len(ops) == 0 && name == "cd":
		// $HOME, which the caller or the script may have changed.
	case len(ops) == 0: // pushd alone swaps the top two entries
		if len(e.dirs) > 0 {
			target = e.dirs[len(e.dirs)-1]
			e.dirs = append(e.dirs[:len(e.dirs)-1:len(e.dirs)-1], e.cwd)
		}
	case ops[0].dyn:
	case ops[0].s == "-" && name == "cd":
		target = e.prev
	case ops[0].s == "-" || strings.HasPrefix(ops[0].s, "+") || name == "pushd" && strings.HasPrefix(ops[0].s, "-"):
		e.dirs = nil // a rotation of a stack this command did not build
	default:
		if ps, ok := a.abs(e, ops[0].s); ok {
			target = ps
		}
		if name == "pushd" {
			push := e.cwd
			if stackOnly {
				push = target
			}
			e.dirs = append(e.dirs[:len(e.dirs):len(e.dirs)], push)
		}
	}
	if stackOnly {
		return
	}
	old := e.cwd
	e.ok, e.prevOk = target, old
	e.cwd, e.prev = union(old, target), union(e.prev, old)
	if target == nil {
		e.cwd = nil
	}
}

func builtinPrograms() map[string]handler {
	m := map[string]handler{}
	for n, ok := range pathless() {
		if ok {
			m[n] = (*analyzer).pathlessCmd
		}
	}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { a.cd(e, c.name, c.args); return true, true }, "cd", "pushd", "popd")
	m["printenv"] = func(a *analyzer, e *env, c call) (bool, bool) {
		a.class(action.SecretAccess)
		return false, true
	}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return false, true }, "kill", "pkill", "killall")
	m["disown"] = func(a *analyzer, e *env, c call) (bool, bool) {
		a.flag(action.FlagBackground) // the job outlives the shell
		return false, true
	}
	return m
}

// pathlessCmd handles the read-only programs whose operands are not
// paths.
func (a *analyzer) pathlessCmd(e *env, c call) (bool, bool) {
	name, args := c.name, c.args
	if name == "set" && len(args) == 0 {
		a.class(action.SecretAccess) // prints every variable
		return false, true
	}
	if name == "set" {
		// set -- a b sets the positional parameters.
		for j, f := range args {
			if f.dyn {
				break
			}
			if f.s == "--" {
				e.params, e.paramsKnown = statics(args[j+1:])
				break
			}
		}
	}
	if name == "printf" || name == "read" || name == "test" || name == "[" || name == "unset" || name == "local" || name == "let" || name == "getopts" {
		for _, f := range args {
			if !f.dyn {
				a.textCode(e, f.s, fmt.Sprintf("%s may evaluate %q as code", name, f.s))
			}
		}
	}
	return true, true
}
