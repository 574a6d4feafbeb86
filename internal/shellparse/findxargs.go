// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the find and xargs family: programs that run a command
// on the files or lines they are given.

import (
	"strings"

	"warden.dev/warden/internal/action"
)

// xargs runs a command with arguments read from standard input.
func (a *analyzer) xargs(e *env, args []field) (bool, bool) {
	opts, cmd, bad := peelArgs(wrapper{
		flags: "0 p r t x o e i l --null --interactive --no-run-if-empty --verbose --exit --open-tty --show-limits --replace --eof --max-lines",
		vals:  "a d E I L n P s --arg-file --delimiter --max-args --max-procs --max-chars --process-slot-var"}, args)
	if bad != "" && !strings.HasPrefix(bad, "--replace=") && !strings.HasPrefix(bad, "--eof=") && !strings.HasPrefix(bad, "--max-lines=") &&
		!(strings.HasPrefix(bad, "-i") || strings.HasPrefix(bad, "-e") || strings.HasPrefix(bad, "-l")) {
		a.unresolved("xargs: unknown option " + bad)
		return false, false
	}
	if bad != "" {
		a.unresolved("xargs: option " + bad + " is not analysed")
		return false, false
	}
	for _, f := range optVals(opts, "-a", "--arg-file") {
		a.path(e, f, action.Read)
	}
	repl := ""
	for _, o := range opts {
		switch o.name {
		case "-I":
			repl = o.val.s
		case "-i", "--replace":
			repl = "{}"
		}
	}
	if len(cmd) == 0 {
		cmd = []field{{s: "echo"}}
	}
	inner := make([]field, 0, len(cmd)+1)
	for _, f := range cmd {
		if repl != "" && strings.Contains(f.s, repl) {
			f = field{s: f.s, dyn: true}
		}
		inner = append(inner, f)
	}
	if repl == "" {
		inner = append(inner, field{s: "{xargs input}", dyn: true})
	}
	if !a.inner(e, inner, nil, true) {
		a.flag(action.FlagRunsCode)
	}
	return false, true
}

// find lists files and may run commands or delete them.
func (a *analyzer) find(e *env, args []field) (bool, bool) {
	i := 0
	for i < len(args) && !args[i].dyn {
		s := args[i].s
		if s == "-H" || s == "-L" || s == "-P" || strings.HasPrefix(s, "-O") {
			i++
			continue
		}
		if s == "-D" {
			i += 2
			continue
		}
		break
	}
	var roots []field
	for ; i < len(args); i++ {
		s := args[i].s
		if !args[i].dyn && (strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == ")" || s == ",") {
			break
		}
		roots = append(roots, args[i])
	}
	if len(roots) == 0 {
		roots = []field{{s: "."}}
	}
	// Running a command on what find lists, or printing it to a file,
	// reads the trees under the roots.
	rec := false
	for _, f := range args[i:] {
		switch f.s {
		case "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fls", "-fprintf":
			rec = true
		}
	}
	for _, r := range roots {
		a.pathRec(e, r, action.Read, rec)
	}
	under := ""
	if len(roots) == 1 && !roots[0].dyn {
		if ps, ok := a.abs(e, roots[0].s); ok && len(ps) == 1 {
			under = ps[0]
		}
	}
	ro := true
	for ; i < len(args); i++ {
		f := args[i]
		if f.dyn {
			continue
		}
		switch f.s {
		case "-delete":
			a.class(action.FileDelete)
			for _, r := range roots {
				a.path(e, r, action.Delete)
			}
			ro = false
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			ro = false
			if i+1 < len(args) {
				a.path(e, args[i+1], action.Write)
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			var cmd []field
			for ; j < len(args); j++ {
				g := args[j]
				if !g.dyn && (g.s == ";" || g.s == "+") {
					break
				}
				if !g.dyn && strings.Contains(g.s, "{}") {
					g = field{s: g.s, dyn: true}
					if g.s == "{}" {
						g.under = under
					}
				}
				cmd = append(cmd, g)
			}
			i = j
			if len(cmd) == 0 {
				continue
			}
			// Whether the command run is read-only: a.notRO is cleared
			// for it and merged back.
			before := a.notRO
			a.notRO = false
			if !a.inner(e.fork(), cmd, nil, true) {
				a.flag(action.FlagRunsCode)
			}
			if a.notRO {
				ro = false
			}
			a.notRO = a.notRO || before
		}
	}
	return ro, true
}

func findPrograms() map[string]handler {
	return map[string]handler{
		"xargs": func(a *analyzer, e *env, c call) (bool, bool) { return a.xargs(e, c.args) },
		"find":  func(a *analyzer, e *env, c call) (bool, bool) { return a.find(e, c.args) },
	}
}
