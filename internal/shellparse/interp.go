// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the interpreters family: shells, python, perl, node and
// the others that run a program given inline, as a script or on standard
// input, and the shell builtins that run code (eval, source, trap). A
// shell's program is walked as bash; another language's goes through the
// inline scanner (inline.go), which finds the commands it starts. A
// program read from a file redirect (bash < x.sh) is pipe_to_interpreter;
// one written earlier in the command line is analysed from what was
// written (script.go).

import (
	"net/netip"
	"path"
	"strings"
	"sync"

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
		return a.shell(e, name, args)
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
		codeOpts, vals = "rBRFE", "cdztS"
		// php -S ADDR serves the document root.
		for j, f := range args {
			if v, ok := strings.CutPrefix(f.s, "-S"); ok && !f.dyn {
				if v == "" && j+1 < len(args) {
					v = args[j+1].s
				}
				a.listen(v)
			}
		}
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
	inPlace := false // perl -i, ruby -i: the files are edited
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
			if c == 'i' && (fam == "perl" || fam == "ruby") {
				// -i[EXT]: what follows is the backup suffix
				// (perl -pie CODE is suffix "e", not -e).
				inPlace = true
				j = len(s)
				continue
			}
			if strings.IndexByte(codeOpts, c) >= 0 {
				if (fam == "node" || fam == "bun") && strings.Trim(s[j+1:], codeOpts) == "" {
					// node -pe CODE: the flags take no attached value.
					j = len(s) - 1
				}
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
		if len(code) > 0 && (fam == "python" || fam == "pwsh") {
			break // python -c CODE ends the options; perl -e a -e b runs both
		}
	}
	if fam == "deno" {
		// deno run|eval|task…: all run code; deno eval CODE is read.
		a.flag(action.FlagRunsCode)
		if script >= 0 && !args[script].dyn && args[script].s == "eval" {
			for _, f := range args[script+1:] {
				if !f.dyn && strings.HasPrefix(f.s, "-") {
					continue
				}
				code = append(code, f)
				break
			}
			a.inlineFields(e, fam, name, code)
		}
		return false, true
	}
	a.flag(action.FlagRunsCode)
	// The operands after perl's or ruby's program are the files it
	// reads, or edits with -i.
	files := func(from int) {
		if fam != "perl" && fam != "ruby" || from < 0 {
			return
		}
		acc := action.Read
		if inPlace {
			acc = action.Write
		}
		for _, f := range args[from:] {
			a.path(e, f, acc)
		}
	}
	if len(code) > 0 {
		a.inlineFields(e, fam, name, code)
		files(script)
		return false, true
	}
	if script >= 0 && args[script].s != "-" {
		a.scriptArg(e, args[script], fam, name)
		files(script + 1)
		return false, true
	}
	a.stdinCode(e, fam, name)
	return false, true
}

// inlineFields analyses the inline program given as code options (-c,
// -e, -r, --eval): joined by newlines, as perl, ruby and osascript join
// several -e, and for node, which runs one of them, each alone too.
func (a *analyzer) inlineFields(e *env, fam, name string, code []field) {
	var static []string
	for _, c := range code {
		if c.dyn {
			a.flagSub(c.sub)
			a.unresolved(name + " runs code that is not static: " + c.s)
			continue
		}
		static = append(static, c.s)
	}
	if len(static) > 1 && (fam == "node" || fam == "nodejs" || fam == "bun") {
		for _, s := range static {
			a.inlineProgram(e, fam, name, s)
		}
	}
	if len(static) > 0 {
		a.inlineProgram(e, fam, name, strings.Join(static, "\n"))
	}
}

// inlineProgram analyses a program of the interpreter family fam with
// the inline scanner: the literal commands it starts are walked as
// shell code, what it starts that is not literal is unresolved, and its
// network libraries are network egress.
func (a *analyzer) inlineProgram(e *env, fam, name, src string) {
	lang := inlineLang(fam)
	if lang == "" {
		return
	}
	a.programText += len(src)
	if a.programText > maxProgramText {
		a.unresolved("the command runs more program text than the analysis reads")
		return
	}
	r := scanInline(lang, src)
	for _, o := range r.opaque {
		a.unresolved(name + " runs " + o)
	}
	if r.net {
		a.class(action.NetworkEgress)
		for _, h := range r.hosts {
			a.host(h)
		}
	}
	for _, c := range r.cmds {
		c2 := e.fork()
		c2.stdin = stdinInfo{}
		c2.params, c2.paramsKnown = nil, true
		a.scoped(func() { a.code(c2, c, true) })
	}
}

// pyModule handles python -m.
func (a *analyzer) pyModule(e *env, mod field, rest []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	if mod.dyn {
		a.unresolved("python -m with a module that is not static: " + mod.s)
		return false, false
	}
	switch mod.s {
	case "pip", "pip3":
		return a.pkg(e, "pip", rest)
	case "venv", "json.tool", "py_compile", "compileall":
		return false, true
	case "http.server", "SimpleHTTPServer":
		// It binds every interface unless told otherwise: a listener
		// others can reach.
		bind := ""
		for j := 0; j < len(rest); j++ {
			f := rest[j]
			if v, ok := strings.CutPrefix(f.s, "--bind="); ok {
				bind = v
			} else if (f.s == "-b" || f.s == "--bind") && j+1 < len(rest) {
				j++
				bind = rest[j].s
				if rest[j].dyn {
					bind = "*"
				}
			}
		}
		a.listen(bind)
		return false, true
	}
	return false, true
}

// listen reports a server bound to addr (host, host:port or [v6]:port;
// "" is every interface): one bound beyond loopback can be reached from
// outside, which is networkEgress.
func (a *analyzer) listen(addr string) {
	h := addr
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		h = ap.Addr().String()
	} else if i := strings.LastIndexByte(addr, ':'); i >= 0 && strings.IndexByte(addr[:i], ':') < 0 {
		h = addr[:i] // name:port
	}
	h = strings.Trim(h, "[]")
	if h == "localhost" || h == "ip6-localhost" {
		return
	}
	if ip, err := netip.ParseAddr(h); err == nil && ip.IsLoopback() {
		return
	}
	a.class(action.NetworkEgress)
}

// scriptArg handles a script operand of an interpreter (of family fam,
// called as name) or of source.
func (a *analyzer) scriptArg(e *env, f field, fam, name string) {
	switch {
	case f.procIn:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(f.sub)
		a.procProgram(e, f.s, fam, name, name == "source" || name == ".")
	case f.dyn:
		a.flagSub(f.sub)
		a.unresolved("the script " + f.s + " is not static")
	case f.s == "/dev/stdin" || f.s == "/proc/self/fd/0" || f.s == "/dev/fd/0":
		a.stdinCode(e, fam, name)
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
		a.runScript(e, f.s, fam, name, name == "source" || name == ".")
	}
}

// stdinCode handles an interpreter of family fam, called as name,
// reading its program from standard input: a static heredoc, here-string
// or pipeline text is analysed as that program (shell code as bash), and
// a file written earlier in the command line as its content.
func (a *analyzer) stdinCode(e *env, fam, name string) {
	shell := fam == "shell"
	switch e.stdin.kind {
	case stdinPipe:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(e.stdin.sub)
		if e.stdin.bodyStatic {
			a.program(e, fam, name, e.stdin.body, false)
		}
	case stdinDoc:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(e.stdin.sub)
		if !shell {
			a.flag(action.FlagRunsCode)
		}
		if e.stdin.bodyStatic {
			a.program(e, fam, name, e.stdin.body, false)
		} else {
			a.flag(action.FlagRunsCode)
			a.unresolved(name + " reads its program from a heredoc or here-string that expands values")
		}
	case stdinFile:
		// bash < script.sh: the program comes from a file.
		a.flag(action.FlagRunsCode)
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(e.stdin.sub)
		if e.stdin.file != "" {
			a.runScript(e, e.stdin.file, fam, name, false)
		}
		if e.stdin.proc != "" {
			a.procProgram(e, e.stdin.proc, fam, name, false)
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
func (a *analyzer) shell(e *env, name string, args []field) (bool, bool) {
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
		a.scoped(func() { a.code(c, script.s, true) })
		return true, true
	}
	if len(rest) > 0 && !hasS {
		a.scriptArg(e, rest[0], "shell", name)
		return false, true
	}
	a.stdinCode(e, "shell", name)
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
	a.scriptArg(e, args[0], "shell", "source")
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
	// The action runs later: what it defines cannot stand for a program
	// run before it.
	c := e.fork()
	a.scoped(func() { a.code(c, act.s, true) })
}

// interpreters maps each interpreter to its family, which sets the
// options that carry inline code.
var interpreters = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"sh": "shell", "bash": "shell", "zsh": "shell", "dash": "shell", "ksh": "shell", "mksh": "shell",
		"ash": "shell", "yash": "shell", "posh": "shell", "rbash": "shell", "busybox": "shell",
		"python": "python", "pypy": "python",
		"perl": "perl", "ruby": "ruby", "irb": "irb", "node": "node", "nodejs": "node",
		"php": "php", "lua": "lua", "luajit": "lua", "rscript": "rscript", "tclsh": "tclsh", "wish": "tclsh",
		"osascript": "osascript", "pwsh": "pwsh", "powershell": "pwsh", "fish": "fish", "csh": "csh", "tcsh": "csh",
		"jshell": "jshell", "groovy": "groovy", "scala": "scala", "elixir": "elixir", "erl": "erl",
	}
})

func interpreterPrograms() map[string]handler {
	m := map[string]handler{}
	for n := range interpreters() {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) {
			return a.interp(e, interpreters()[c.name], c.name, c.args)
		}
	}
	m["eval"] = func(a *analyzer, e *env, c call) (bool, bool) { a.eval(e, c.args); return true, true }
	m["trap"] = func(a *analyzer, e *env, c call) (bool, bool) { a.trap(e, c.args); return true, true }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.source(e, c.args) }, "source", ".")
	return m
}

// interpFamily returns the family of an interpreter name, "" for others.
func interpFamily(name string) string { return interpreters()[canonical(name)] }
