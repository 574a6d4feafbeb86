// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the interpreters family: shells, python, perl, node and
// the others that run a program given inline, as a script or on standard
// input, and the shell builtins that run code (eval, source, trap).

import (
	"path"
	"strings"

	"warden.dev/warden/internal/action"
)

// interp handles interpreters: shells re-parse -c strings; the others run
// code, from a string, a script, or standard input.
func (a *analyzer) interp(e *env, fam, name string, args []field) (bool, bool) {
	if fam == "shell" {
		if name == "busybox" {
			if len(args) > 0 && !args[0].dyn && interpFamily(args[0].s) == "shell" {
				return a.interp(e, fam, args[0].s, args[1:])
			}
			if len(args) > 0 {
				return a.inner(e, args, nil, false), true
			}
			return true, true
		}
		return a.shell(e, args)
	}
	// -c/-e style code options, per family; options taking a value.
	codeOpts, vals := "c", "WXmQ"
	switch fam {
	case "perl":
		codeOpts, vals = "eE", "IMmdDx"
	case "ruby", "irb":
		codeOpts, vals = "e", "IrCEFK"
	case "node", "nodejs", "bun":
		codeOpts, vals = "ep", "r"
	case "deno":
		codeOpts, vals = "", ""
	case "php":
		codeOpts, vals = "rBRFE", "cdz"
	case "lua", "luajit":
		codeOpts, vals = "e", "l"
	case "rscript":
		codeOpts, vals = "e", ""
	case "osascript":
		codeOpts, vals = "e", "l"
	case "pwsh", "powershell":
		codeOpts, vals = "cC", "f"
	}
	i := 0
	var code []field
	script := -1
	module := false
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn || !strings.HasPrefix(s, "-") || s == "-" {
			script = i
			break
		}
		if s == "--" {
			if i+1 < len(args) {
				script = i + 1
			}
			break
		}
		if strings.HasPrefix(s, "--") {
			n, _, has := strings.Cut(s[2:], "=")
			switch n {
			case "eval", "print", "command", "execute":
				if !has && i+1 < len(args) {
					i++
					code = append(code, args[i])
				} else {
					code = append(code, field{s: s})
				}
			case "version", "help":
				return true, true
			case "require", "import", "loader", "experimental-loader", "input-type":
				a.flag(action.FlagRunsCode)
				if !has {
					i++
				}
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			c := s[j]
			if strings.IndexByte(codeOpts, c) >= 0 {
				if j+1 < len(s) {
					code = append(code, field{s: s[j+1:]})
				} else if i+1 < len(args) {
					i++
					code = append(code, args[i])
				}
				j = len(s)
				continue
			}
			if strings.IndexByte(vals, c) >= 0 {
				if c == 'm' && fam == "python" {
					module = true
				}
				if j+1 == len(s) {
					i++
					if module && i < len(args) {
						return a.pyModule(e, args[i], args[i+1:])
					}
				} else if module {
					return a.pyModule(e, field{s: s[j+1:]}, args[i+1:])
				}
				j = len(s)
				continue
			}
			if c == 'V' && len(args) == 1 {
				return true, true
			}
		}
		if len(code) > 0 {
			break
		}
	}
	if fam == "deno" {
		// deno run|eval|task…: all run code.
		a.flag(action.FlagRunsCode)
		return false, true
	}
	a.flag(action.FlagRunsCode)
	if len(code) > 0 {
		for _, c := range code {
			if c.dyn {
				a.flagSub(c.sub)
				if !c.sub.fetch && !c.sub.decode {
					a.unresolved(name + " runs code that is not static: " + c.s)
				}
			}
			if fam == "python" && !c.dyn && (strings.Contains(c.s, "urllib") || strings.Contains(c.s, "requests") || strings.Contains(c.s, "http.client")) {
				a.class(action.NetworkEgress)
			}
		}
		return false, true
	}
	if script >= 0 && args[script].s != "-" {
		a.scriptArg(e, args[script])
		return false, true
	}
	a.stdinCode(e, false)
	return false, true
}

// pyModule handles python -m.
func (a *analyzer) pyModule(e *env, mod field, rest []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	if mod.dyn {
		a.unresolved("python -m with a dynamic module")
		return false, false
	}
	switch mod.s {
	case "pip", "pip3":
		return a.pkg(e, "pip", rest)
	case "venv", "json.tool", "py_compile", "compileall":
		return false, true
	case "http.server":
		return false, true
	}
	return false, true
}

// scriptArg handles a script operand of an interpreter or source.
func (a *analyzer) scriptArg(e *env, f field) {
	switch {
	case f.procIn:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(f.sub)
	case f.dyn:
		a.flagSub(f.sub)
		a.unresolved("the script " + f.s + " is not static")
	case f.s == "/dev/stdin" || f.s == "/proc/self/fd/0" || f.s == "/dev/fd/0":
		a.stdinCode(e, false)
	default:
		a.flag(action.FlagRunsCode)
		a.path(e, f, action.Read)
		if ps, ok := a.abs(e, f.s); ok {
			for _, p := range ps {
				if a.fetched[path.Clean(p)] {
					a.flag(action.FlagDownloadExec)
				}
			}
		}
	}
}

// stdinCode handles an interpreter reading its program from standard
// input. shell says whether a static heredoc can be parsed as bash.
func (a *analyzer) stdinCode(e *env, shell bool) {
	switch e.stdin.kind {
	case stdinPipe:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(e.stdin.sub)
		if shell && e.stdin.bodyStatic {
			a.code(e.fork(), e.stdin.body, true)
		}
	case stdinDoc:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(e.stdin.sub)
		if shell && e.stdin.bodyStatic {
			a.code(e.fork(), e.stdin.body, true)
		} else {
			a.flag(action.FlagRunsCode)
		}
	case stdinFile:
		a.flag(action.FlagRunsCode)
		if e.stdin.sub.fetch || e.stdin.sub.decode {
			a.flag(action.FlagPipeToInterpreter)
			a.flagSub(e.stdin.sub)
		}
	default:
		// The program comes from the caller's standard input, which the
		// analysis cannot see.
		if shell {
			a.openShell()
			return
		}
		a.flag(action.FlagRunsCode)
		a.flag(action.FlagPipeToInterpreter)
	}
}

// openShell reports a shell whose commands are read from the caller's
// standard input (sudo -s, su, bash alone): nothing about them is known.
func (a *analyzer) openShell() {
	a.flag(action.FlagRunsCode)
	a.flag(action.FlagPipeToInterpreter)
	a.unresolved("opens a shell whose commands are not known")
}

// shell handles sh, bash, zsh, dash… with -c STRING, a script, or stdin.
func (a *analyzer) shell(e *env, args []field) (bool, bool) {
	hasC, hasS := false, false
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn {
			break
		}
		if s == "--" || s == "-" {
			i++
			break
		}
		if len(s) < 2 || (s[0] != '-' && s[0] != '+') {
			break
		}
		if strings.HasPrefix(s, "--") {
			switch s {
			case "--rcfile", "--init-file":
				a.flag(action.FlagRunsCode)
				i++
			case "--login", "--norc", "--noprofile", "--posix", "--restricted", "--verbose", "--noediting",
				"--debugger", "--dump-strings", "--dump-po-strings", "--pretty-print", "--protected":
			case "--version", "--help":
				return true, true
			default:
				a.unresolved("shell: unknown option " + s)
				return false, false
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'c':
				hasC = true
			case 's':
				hasS = true
			case 'o', 'O':
				i++
				j = len(s)
			case 'i', 'l', 'e', 'x', 'u', 'v', 'n', 'f', 'h', 'a', 'b', 'm', 'p', 'r', 't', 'k', 'B', 'C', 'E', 'H', 'P', 'T':
			default:
				a.unresolved("shell: unknown option " + s)
				return false, false
			}
		}
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	if hasC {
		if len(rest) == 0 {
			a.unresolved("sh -c without a command string")
			return false, false
		}
		script := rest[0]
		if script.dyn {
			a.flagSub(script.sub)
			a.unresolved("the shell runs a command string that is not static: " + script.s)
			return false, false
		}
		c := e.fork()
		c.stdin = e.stdin
		if len(rest) > 1 {
			c.params, c.paramsKnown = statics(rest[2:])
		} else {
			c.params, c.paramsKnown = nil, true
		}
		a.code(c, script.s, true)
		return true, true
	}
	if len(rest) > 0 && !hasS {
		a.scriptArg(e, rest[0])
		return false, true
	}
	a.stdinCode(e, true)
	return false, true
}

// eval runs its arguments, joined, as shell code in the current shell.
func (a *analyzer) eval(e *env, args []field) {
	ss, ok := statics(args)
	if !ok {
		for _, f := range args {
			a.flagSub(f.sub)
		}
		a.unresolved("eval of a non-literal")
		return
	}
	a.code(e, strings.Join(ss, " "), true)
}

// source runs a file in the current shell.
func (a *analyzer) source(e *env, args []field) (bool, bool) {
	if len(args) == 0 {
		return true, true
	}
	a.scriptArg(e, args[0])
	return false, true
}

// trap runs its action string later, in the current shell.
func (a *analyzer) trap(e *env, args []field) {
	if len(args) < 2 || hasAny(args[:1], "-l", "-p", "--") {
		if len(args) >= 3 && args[0].s == "--" {
			a.trap(e, args[1:])
		}
		return
	}
	act := args[0]
	if act.dyn {
		a.unresolved("trap with an action that is not static")
		a.flagSub(act.sub)
		return
	}
	if act.s == "" || act.s == "-" {
		return
	}
	a.code(e.fork(), act.s, true)
}

// interpreters maps each interpreter to its family, which sets the
// options that carry inline code.
var interpreters = map[string]string{
	"sh": "shell", "bash": "shell", "zsh": "shell", "dash": "shell", "ksh": "shell", "mksh": "shell",
	"ash": "shell", "yash": "shell", "posh": "shell", "rbash": "shell", "busybox": "shell",
	"python": "python", "pypy": "python",
	"perl": "perl", "ruby": "ruby", "irb": "irb", "node": "node", "nodejs": "node",
	"php": "php", "lua": "lua", "luajit": "lua", "rscript": "rscript", "tclsh": "tclsh", "wish": "tclsh",
	"osascript": "osascript", "pwsh": "pwsh", "powershell": "pwsh", "fish": "fish", "csh": "csh", "tcsh": "csh",
	"jshell": "jshell", "groovy": "groovy", "scala": "scala", "elixir": "elixir", "erl": "erl",
}

func interpreterPrograms() map[string]handler {
	m := map[string]handler{}
	for n := range interpreters {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) {
			return a.interp(e, interpreters[c.name], c.name, c.args)
		}
	}
	m["eval"] = func(a *analyzer, e *env, c call) (bool, bool) { a.eval(e, c.args); return true, true }
	m["trap"] = func(a *analyzer, e *env, c call) (bool, bool) { a.trap(e, c.args); return true, true }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.source(e, c.args) }, "source", ".")
	return m
}

// interpFamily returns the family of an interpreter name, "" for others.
func interpFamily(name string) string { return interpreters[canonical(name)] }
