// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file reports what a call found by the inline-program scanner
// (inline.go, inlinelang.go) runs. The rules:
//
//   - A call whose command is a literal string is reported as shell code
//     to analyse; a literal argument vector ("git", ["push"]) is joined,
//     each element quoted.
//   - A call whose command is not a literal (concatenation, a variable, an
//     interpolated string, decoding), a call made by name (getattr,
//     send(:system), call_user_func("system")) and code evaluated from a
//     string that is not a literal (eval, exec, Function) are reported as
//     opaque: the caller makes the command unresolved.
//   - Code evaluated from a literal string is scanned again, in the same
//     language.

import (
	"strconv"
	"strings"
)

// quoteArgv joins an argument vector as a shell command.
func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// spawn handles a process-spawning callee ending at token i.
func (s *scanner) spawn(i int, name string) { s.spawnAt(i, i, name) }

// spawnAt handles a process-spawning callee that starts at token i and
// ends at token last.
func (s *scanner) spawnAt(i, last int, name string) {
	s.used[last] = true
	args, end, ok := s.args(last)
	if !ok {
		if s.binding(i) {
			return
		}
		s.opaque(i, i+2, "a process-spawning function used where its argument is not known")
		return
	}
	for k := last; k < end && k < len(s.toks); k++ {
		s.used[k] = true
	}
	// Positional arguments, without keywords and options.
	var pos []arg
	var obj map[string]arg
	for _, a := range args {
		switch a.k {
		case 'k':
		case 'o':
			if obj == nil {
				obj = a.obj
			}
			if len(pos) == 0 {
				continue // ruby's env hash, Bun.spawn({cmd})
			}
			pos = append(pos, a)
		default:
			pos = append(pos, a)
		}
	}
	bad := func() { s.opaque(i, end, "a command that is not a literal") }
	if len(pos) == 0 && len(args) > 0 && obj == nil {
		bad() // only keywords or options: the command is among them
		return
	}
	switch {
	case s.lang == langPython && strings.HasPrefix(name, "spawn") && name != "spawn":
		if len(pos) > 0 {
			pos = pos[1:] // the mode
		}
		fallthrough
	case s.lang == langPython && (strings.HasPrefix(name, "exec") || strings.HasPrefix(name, "posix_spawn")):
		// os.execvp(file, [argv0, args…]), os.execlp(file, argv0, args…)
		if len(pos) == 0 || pos[0].k != 's' {
			bad()
			return
		}
		argv := []string{pos[0].str}
		var rest []string
		v := strings.Contains(strings.TrimPrefix(name, "posix_"), "v") || strings.HasPrefix(name, "posix_spawn")
		if v {
			if len(pos) < 2 || pos[1].k != 'l' {
				bad()
				return
			}
			rest = pos[1].list
		} else {
			l := pos[1:]
			if strings.HasSuffix(name, "e") && len(l) > 0 {
				l = l[:len(l)-1] // the environment
			}
			for _, a := range l {
				if a.k != 's' {
					bad()
					return
				}
				rest = append(rest, a.str)
			}
		}
		if len(rest) > 0 {
			rest = rest[1:] // argv[0]
		}
		s.r.cmd(quoteArgv(append(argv, rest...)))
		return
	case s.lang == langPython && name == "create_subprocess_exec":
		var argv []string
		for _, a := range pos {
			if a.k != 's' {
				bad()
				return
			}
			argv = append(argv, a.str)
		}
		if len(argv) > 0 {
			s.r.cmd(quoteArgv(argv))
		}
		return
	case s.lang == langPerl && name == "open":
		s.perlOpen(i, end, pos)
		return
	case s.lang == langPerl && (name == "open2" || name == "open3"):
		n := 2
		if name == "open3" {
			n = 3
		}
		if len(pos) <= n {
			bad()
			return
		}
		pos = pos[n:]
	case s.lang == langRuby && name == "open":
		if len(pos) == 0 || pos[0].k != 's' {
			bad()
			return
		}
		if c, ok := strings.CutPrefix(strings.TrimSpace(pos[0].str), "|"); ok {
			s.r.cmd(c)
		}
		return
	case s.lang == langJS && obj != nil && len(pos) == 0:
		// Bun.spawn({cmd: […]}), Deno.run({cmd: […]})
		c, ok := obj["cmd"]
		if !ok || c.k != 'l' {
			bad()
			return
		}
		s.r.cmd(quoteArgv(c.list))
		return
	case s.lang == langJS && name == "Command":
		// new Deno.Command("git", {args: ["push"]})
		if len(pos) == 0 || pos[0].k != 's' {
			bad()
			return
		}
		argv := []string{pos[0].str}
		if len(pos) > 1 && pos[1].k == 'o' {
			if a, ok := pos[1].obj["args"]; ok {
				if a.k != 'l' {
					bad()
					return
				}
				argv = append(argv, a.list...)
			}
		} else if len(pos) > 1 {
			bad()
			return
		}
		s.r.cmd(quoteArgv(argv))
		return
	case s.lang == langPHP && name == "pcntl_exec":
		if len(pos) == 0 || pos[0].k != 's' {
			bad()
			return
		}
		argv := []string{pos[0].str}
		if len(pos) > 1 {
			if pos[1].k != 'l' {
				bad()
				return
			}
			argv = append(argv, pos[1].list...)
		}
		s.r.cmd(quoteArgv(argv))
		return
	}
	s.generic(i, end, pos)
}

// generic handles a call whose first argument is a shell string, an
// argument vector, or a program followed by its arguments (as strings
// or as a list); arguments after those are options.
func (s *scanner) generic(i, end int, pos []arg) {
	if len(pos) == 0 {
		if end > i+1 && end < len(s.toks) || s.isP(i+1, "(") {
			return // os.system() or platform.system(): nothing runs
		}
		s.opaque(i, end, "a process-spawning function used where its argument is not known")
		return
	}
	switch pos[0].k {
	case 'l':
		s.r.cmd(quoteArgv(pos[0].list))
		return
	case 's':
	default:
		s.opaque(i, end, "a command that is not a literal")
		return
	}
	argv := []string{pos[0].str}
	for _, a := range pos[1:] {
		switch a.k {
		case 's':
			argv = append(argv, a.str)
		case 'l':
			argv = append(argv, a.list...)
		case 'o':
			// spawn("git", ["push"], {shell: true}): options.
		default:
			if s.lang == langJS || s.lang == langPHP || s.lang == langPython {
				// An options argument (a variable, a mode string)
				// after the command.
				continue
			}
			s.opaque(i, end, "a command that is not a literal")
			return
		}
	}
	if len(argv) == 1 {
		s.r.cmd(argv[0])
		return
	}
	switch s.lang {
	case langPHP, langLua:
		// popen("cmd", "r"), proc_open("cmd", …): only the first is the
		// command.
		s.r.cmd(argv[0])
		return
	}
	// A program and its arguments. A first string that reads as a shell
	// command (execSync("git push", "utf8")) is analysed as one too.
	if strings.ContainsAny(argv[0], " \t\n;|&$`<>(") {
		s.r.cmd(argv[0])
	}
	s.r.cmd(quoteArgv(argv[:1]) + " " + quoteArgv(argv[1:]))
}

// perlOpen handles open(FH, "|cmd"), open(FH, "cmd|") and
// open(FH, "-|", "cmd", args…).
func (s *scanner) perlOpen(i, end int, pos []arg) {
	if len(pos) < 2 {
		if len(pos) == 1 && pos[0].k == 's' {
			s.perlOpen2(i, end, pos[0].str)
			return
		}
		s.opaque(i, end, "an open whose mode is not a literal")
		return
	}
	m := pos[1]
	if m.k != 's' {
		s.opaque(i, end, "an open whose mode is not a literal")
		return
	}
	mode := strings.TrimSpace(m.str)
	if len(pos) == 2 {
		s.perlOpen2(i, end, mode)
		return
	}
	if !strings.Contains(mode, "|") {
		return // open(F, "<", $path)
	}
	rest := pos[2:]
	var argv []string
	for _, a := range rest {
		switch a.k {
		case 's':
			argv = append(argv, a.str)
		case 'l':
			argv = append(argv, a.list...)
		default:
			s.opaque(i, end, "a command that is not a literal")
			return
		}
	}
	if len(argv) == 1 {
		s.r.cmd(argv[0])
	} else if len(argv) > 1 {
		s.r.cmd(quoteArgv(argv))
	}
}

func (s *scanner) perlOpen2(i, end int, m string) {
	m = strings.TrimSpace(m)
	switch {
	case strings.HasPrefix(m, "|"):
		s.r.cmd(strings.TrimPrefix(m, "|"))
	case strings.HasSuffix(m, "|"):
		s.r.cmd(strings.TrimSuffix(m, "|"))
	case m == "-|" || m == "|-":
		// A fork: the child runs the rest of the program.
	}
}

// eval handles code evaluated from a string and calls made by name.
func (s *scanner) eval(i int, name string) {
	j := i + 1
	switch {
	case s.lang == langPerl && name == "eval" && s.isP(j, "{"),
		s.lang == langRuby && (s.isP(j, "{") || s.tok(j).k == 'i' && s.tok(j).s == "do"),
		s.lang == langJS && name == "require" && s.tok(j).k == 's' && !s.tok(j).dyn,
		s.lang == langPerl && (name == "require" || name == "do") && (s.tok(j).k == 'i' || s.isP(j, "{")),
		s.lang == langPerl && name == "do" && s.tok(j).k == 's':
		return // a block, a module or a file by name
	case s.lang == langPython && name == "compile" && !s.isP(j, "("):
		return
	}
	args, end, ok := s.args(i)
	if !ok {
		if s.lang == langJS && name == "import" {
			return // import x from "…"
		}
		s.opaque(i, i+2, "code run from a value that is not known")
		return
	}
	for k := i; k < end && k < len(s.toks); k++ {
		s.used[k] = true
	}
	var first arg
	if len(args) > 0 {
		first = args[0]
	}
	switch name {
	case "__import__", "import_module", "require", "import", "dofile", "loadfile":
		// A module or file by name: its name must be literal.
		if first.k != 's' {
			s.opaque(i, end, "a module loaded by a name that is not a literal")
		}
		return
	case "getattr", "call_user_func", "call_user_func_array", "send", "__send__", "public_send":
		k := 1
		if name != "getattr" {
			k = 0
		}
		if len(args) <= k || args[k].k != 's' {
			s.opaque(i, end, "a function called by a name that is not a literal")
			return
		}
		if spawnName(args[k].str) {
			s.opaque(i, end, "a process-spawning function called by name")
		}
		return
	case "binding", "_linkedBinding":
		s.opaque(i, end, "a call into the runtime's internals")
		return
	}
	if len(args) == 0 {
		return
	}
	if first.k != 's' {
		if s.lang == langPython && s.readsFile(first) {
			return // exec(open("x.py").read()) runs a file, as python x.py does
		}
		s.opaque(i, end, "code evaluated from a value that is not a literal")
		return
	}
	if s.depth+1 >= maxInlineDepth {
		s.opaque(i, end, "code evaluated more than "+strconv.Itoa(maxInlineDepth)+" levels deep")
		return
	}
	for k := first.i; k < first.j; k++ {
		s.read[k] = true
	}
	s.r.scan(s.lang, first.str, s.depth+1)
}

// binding reports whether the name at i is bound by an import rather
// than used: from os import system, const {execSync} = require(…),
// import {spawn} from "child_process".
func (s *scanner) binding(i int) bool {
	if s.qual(i) != "" {
		return false
	}
	p, n := s.tok(i-1), s.tok(i+1)
	before := p.k == 'p' && (p.s == "{" || p.s == "," || p.s == ":" && s.lang == langJS) || p.k == 'i' && (p.s == "import" || p.s == "as")
	after := n.k == 0 || n.nl || n.k == 'p' && (n.s == "," || n.s == "}" || n.s == ";" || n.s == ":") || n.k == 'i' && n.s == "as"
	return before && after
}

// readsFile reports whether an argument is open("literal").read().
func (s *scanner) readsFile(a arg) bool {
	want := []string{"open", "(", "", ")", ".", "read", "(", ")"}
	if a.j-a.i != len(want) {
		return false
	}
	for k, w := range want {
		t := s.tok(a.i + k)
		switch {
		case k == 2:
			if t.k != 's' || t.dyn {
				return false
			}
		case t.s != w || t.k != 'i' && t.k != 'p':
			return false
		}
	}
	return true
}
