// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file finds what changes the meaning of a command name, a path or a
// directory for the rest of the script: assignments to PATH, CDPATH and the
// like as shell variables, hash -p, alias, enable -f/-n, shopt -s
// expand_aliases, namerefs. The analysis models none of these: the first
// one seen makes it unresolved. Assignments to HOME, PWD and IFS anywhere
// in the script make ~, $HOME, $PWD and word splitting dynamic for the
// whole analysis, since a loop or a function may run the assignment before
// an expansion that the walk sees first.

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// rebindVars are variables whose value changes which program a name runs,
// where cd goes, what a glob matches or what code a shell runs first.
var rebindVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"PATH": true, "BASH_ENV": true, "ENV": true, "CDPATH": true, "GLOBIGNORE": true, "BASHOPTS": true,
		"SHELLOPTS": true, "PROMPT_COMMAND": true, "BASH_CMDS": true, "BASH_ALIASES": true, "EXECIGNORE": true,
		"POSIXLY_CORRECT": true, "BASH_LOADABLES_PATH": true,
	}
})

// rebindAssign matches text that, evaluated as arithmetic (a variable's
// value used in $((x)), a declare -i variable), assigns one of
// rebindVars: PATH=1, PATH+=1, PATH++.
var rebindAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9_])(PATH|BASH_ENV|ENV|CDPATH|GLOBIGNORE|BASHOPTS|SHELLOPTS|PROMPT_COMMAND|BASH_CMDS|BASH_ALIASES|EXECIGNORE|POSIXLY_CORRECT|BASH_LOADABLES_PATH|HOME|PWD|IFS)\s*(\[[^]]*\])?\s*([-+*/%&|^]|<<|>>|\*\*)?=([^=]|$)|(\+\+|--)\s*(PATH|HOME|PWD)|(PATH|HOME|PWD)\s*(\+\+|--)`)
})

// rebindWhy is the reason given for a rebinding.
func rebindWhy(name string) string {
	return "the script sets " + name + ", which changes what later command names, paths or directories mean"
}

// rebindVar reacts to a shell variable being set (not as the environment
// of one command).
func (a *analyzer) rebindVar(name string) {
	base, _, _ := strings.Cut(name, "[")
	switch base {
	case "HOME":
		a.homeDyn = true
	case "PWD", "OLDPWD":
		a.pwdDyn = true
	case "IFS":
		a.ifs = true
	}
	if rebindVars()[base] {
		a.unresolved(rebindWhy(base))
	}
}

// prescan walks a parsed script before it is analysed, for the
// assignments that change the meaning of later words.
func (a *analyzer) prescan(f *syntax.File) {
	arithTarget := func(x syntax.ArithmExpr) {
		if w, ok := x.(*syntax.Word); ok {
			if lit := w.Lit(); lit != "" {
				a.rebindVar(lit)
			} else if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && len(w.Parts) == 1 && pe.Param != nil && pe.Exp == nil && pe.Repl == nil && !pe.Excl && pe.NestedParam == nil {
				a.rebindVar(pe.Param.Value)
			} else {
				// A target built from an expansion: (( $n = 1 )).
				a.unresolved("an arithmetic assignment to a variable whose name is not static")
			}
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			for _, as := range n.Assigns {
				if as.Name == nil {
					continue
				}
				if len(n.Args) == 0 {
					a.rebindVar(as.Name.Value)
					continue
				}
				// The environment of one command: only the variables a
				// builtin such as cd reads, and HOME, PWD.
				switch as.Name.Value {
				case "CDPATH", "HOME", "PWD", "OLDPWD":
					a.rebindVar(as.Name.Value)
				}
			}
		case *syntax.DeclClause:
			nameref := n.Variant.Value == "nameref"
			for _, as := range n.Args {
				if as.Name == nil && as.Value != nil {
					if lit := as.Value.Lit(); strings.HasPrefix(lit, "-") && strings.Contains(lit, "n") {
						nameref = true
					}
					continue
				}
				if as.Name == nil {
					continue
				}
				switch {
				case !as.Naked:
					a.rebindVar(as.Name.Value)
				case n.Variant.Value != "export" && n.Variant.Value != "readonly":
					// local PATH (declare in a function) unsets it.
					a.rebindVar(as.Name.Value)
				}
			}
			if nameref {
				a.unresolved("a nameref may set any variable, PATH included")
			}
		case *syntax.WordIter:
			if n.Name != nil {
				a.rebindVar(n.Name.Value)
			}
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil {
				a.rebindVar(n.Param.Value)
			}
		case *syntax.BinaryArithm:
			if n.Op == syntax.Assgn || (n.Op >= syntax.AddAssgn && n.Op <= syntax.PowAssgn) {
				arithTarget(n.X)
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				arithTarget(n.X)
			}
		}
		return true
	})
}

// rebindText reacts to static text that bash may evaluate as arithmetic
// (a variable's value, a quoted subscript).
func (a *analyzer) rebindText(s string) {
	if m := rebindAssign().FindStringSubmatch(s); m != nil {
		name := m[2] + m[7] + m[8]
		a.rebindVar(name)
	}
}

// nameCmd handles the builtins that change what a name runs or set
// variables by name: hash, alias, enable, shopt, read, printf -v,
// getopts, mapfile, unset, and the declaration builtins reached through
// command or builtin.
func (a *analyzer) nameCmd(e *env, name string, args []field) {
	varArg := func(f field) {
		if f.dyn {
			a.unresolved(name + " sets a variable whose name is not static: " + f.s)
			return
		}
		n, _, _ := strings.Cut(f.s, "=")
		a.rebindVar(n)
	}
	switch name {
	case "hash":
		for _, f := range args {
			if f.dyn || (strings.HasPrefix(f.s, "-") && strings.Contains(f.s, "p")) {
				a.unresolved("hash -p binds a command name to another program")
				return
			}
		}
	case "alias":
		for _, f := range args {
			if f.dyn || strings.Contains(f.s, "=") {
				a.unresolved("alias defines code that the walk does not follow")
				return
			}
		}
	case "enable":
		for _, f := range args {
			if f.dyn || (strings.HasPrefix(f.s, "-") && strings.ContainsAny(f.s, "fn")) {
				a.unresolved("enable -f/-n changes what a builtin name runs")
				return
			}
		}
	case "shopt":
		set := false
		for _, f := range args {
			switch {
			case f.dyn:
				a.unresolved("shopt with an option that is not static")
				return
			case strings.HasPrefix(f.s, "-"):
				set = set || strings.Contains(f.s, "s")
			case set && f.s == "expand_aliases":
				a.unresolved("shopt -s expand_aliases makes aliases change what names run")
				return
			}
		}
	case "set":
		for j, f := range args {
			if f.dyn {
				break
			}
			if f.s == "posix" && j > 0 && args[j-1].s == "-o" {
				a.unresolved("set -o posix makes aliases change what names run")
			}
		}
	case "read":
		opts, ops := scan(args, "adinNptu", nil, false)
		for _, f := range optVals(opts, "-a") {
			varArg(f)
		}
		for _, f := range ops {
			varArg(f)
		}
	case "printf":
		opts, _ := scan(args, "v", nil, true)
		for _, f := range optVals(opts, "-v") {
			varArg(f)
		}
	case "getopts":
		if len(args) >= 2 {
			varArg(args[1])
		}
	case "mapfile", "readarray":
		opts, ops := scan(args, "dnOsuCc", nil, false)
		if hasOpt(opts, "-C") {
			a.unresolved("mapfile -C runs a callback as code")
		}
		for _, f := range ops {
			varArg(f)
		}
	case "unset":
		fn, v := false, false
		for _, f := range args {
			if !f.dyn && strings.HasPrefix(f.s, "-") {
				fn = fn || strings.Contains(f.s, "f")
				v = v || strings.Contains(f.s, "v")
				continue
			}
			if !fn {
				varArg(f)
			}
			if !v {
				// unset -f f, or unset f with no variable f: the program
				// named f runs again.
				a.unsetFunc(f)
			}
		}
	case "export", "declare", "typeset", "local", "readonly":
		for _, f := range args {
			if !f.dyn && strings.HasPrefix(f.s, "-") {
				if strings.Contains(f.s, "n") && name != "export" {
					a.unresolved("a nameref may set any variable, PATH included")
				}
				continue
			}
			if !f.dyn && !strings.Contains(f.s, "=") && (name == "export" || name == "readonly") {
				continue
			}
			varArg(f)
		}
	}
}

// unsetFunc removes a function the command line defined; its body, if
// never called, is analysed at the end.
func (a *analyzer) unsetFunc(f field) {
	if f.dyn {
		if len(a.funcs) > 0 {
			a.unresolved("unset of a function name that is not static: " + f.s)
		}
		return
	}
	name := strings.ToLower(f.s)
	body, ok := a.funcs[name]
	if !ok {
		return
	}
	if !a.called[name] && !slices.Contains(a.orphans, body) {
		a.orphans = append(a.orphans, body)
	}
	delete(a.funcs, name)
	a.funcGen++
}
