// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file handles one simple command: it records the invocation,
// normalises the program name, calls inline functions, and re-parses code
// given as a string (sh -c, eval, su -c, trap, flock -c, sudo -s). It also
// holds the option scanner every family reads its arguments with, and the
// search of an unknown program's operands for a command it runs. Wrappers
// with an option grammar of their own are peeled in peel.go.

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/action"
)

// systemDirs hold programs installed by the system; a path outside them
// runs a file of the project or the user.
var systemDirs = []string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/",
	"/opt/homebrew/bin/", "/usr/libexec/", "/usr/lib/git-core/"}

// normName reduces a program name to its lower-case base name and reports
// whether it was given as a path.
func normName(s string) (string, bool) {
	pathy := strings.Contains(s, "/")
	if pathy {
		s = s[strings.LastIndexByte(s, '/')+1:]
	}
	return strings.ToLower(s), pathy
}

func systemDir(p string) bool {
	for _, d := range systemDirs {
		if rest, ok := strings.CutPrefix(p, d); ok && !strings.Contains(rest, "/") && !strings.Contains(rest, "..") {
			return true
		}
	}
	return false
}

// invoke records and analyses one command; known reports whether the
// program's effect is classified.
func (a *analyzer) invoke(e *env, argv []field, envm map[string]string, redirs []Redirect) (known bool) {
	if *a.work >= maxWork {
		a.unresolved("the command starts too many programs to analyse")
		return false
	}
	i := a.record(e, argv, envm, redirs)
	defer func(cur int) { a.cur = cur }(a.cur)
	a.cur = i
	a.class(action.ProcessSpawn)
	f0 := argv[0]
	if f0.dyn {
		a.unresolved("the command name is not static: " + f0.s)
		a.flagSub(f0.sub)
		return false
	}
	if f0.glob {
		a.unresolved("the command name is a glob pattern: " + f0.s)
		return false
	}
	name, pathy := normName(f0.s)
	a.inv[i].Argv[0] = name
	for k, v := range envm {
		if a.envRuns[k+"="+v] {
			a.flag(action.FlagRunsCode) // the command runs what the variable names
		}
	}
	if pathy && !systemDir(f0.s) {
		a.flag(action.FlagRunsCode)
		if ps, ok := a.abs(e, f0.s); ok {
			for _, p := range ps {
				if a.fetched[path.Clean(p)] {
					a.flag(action.FlagDownloadExec)
				}
			}
		}
	}
	if name == "" {
		return true
	}
	if body, ok := a.funcs[name]; ok && !e.noFunc && !pathy {
		return a.callFunc(e, name, body, argv[1:])
	}
	e2 := e
	if e.noFunc || pathy {
		e2 = e.fork()
		e2.noFunc = false
	}
	ro, known := a.command(e2, i, name, argv)
	if e2 != e && !pathy {
		// /usr/bin/cd is a program of its own: it cannot change the
		// shell's directory.
		e.cwd, e.ok, e.prev, e.prevOk, e.dirs = e2.cwd, e2.ok, e2.prev, e2.prevOk, e2.dirs
		e.params, e.paramsKnown = e2.params, e2.paramsKnown
	}
	if !ro {
		a.notRO = true
	}
	return known
}

// frame is a function call being analysed.
type frame struct {
	name   string
	gen    int
	params []string
	known  bool
	cwd    []string
	dirs   int
}

// callFunc analyses a call of a function defined in the script with the
// arguments of the call. A recursive call (direct or mutual) is analysed
// again with its own arguments, so that $1 names what that call runs; a
// recursive call in the same state as a call being analysed would add
// nothing and is not followed. Calls nested more than maxFuncDepth deep,
// and recursive calls with arguments that are not static, are unresolved.
func (a *analyzer) callFunc(e *env, name string, body *syntax.Stmt, args []field) bool {
	a.called[name] = true
	params, known := statics(args)
	fr := frame{name: name, gen: a.funcGen, params: params, known: known, cwd: e.cwd, dirs: len(e.dirs)}
	recursive := false
	for _, f := range a.stack {
		if f.name != name {
			continue
		}
		recursive = true
		if f.gen == fr.gen && f.known && known && slices.Equal(f.params, params) && sameSet(f.cwd, fr.cwd) && f.dirs == fr.dirs {
			return true
		}
	}
	if recursive && !known {
		a.unresolved(fmt.Sprintf("the recursive function %s is called with arguments that are not static", name))
		return false
	}
	if e.funcDepth >= maxFuncDepth {
		a.unresolved(fmt.Sprintf("functions call each other more than %d levels deep", maxFuncDepth))
		return false
	}
	a.stack = append(a.stack, fr)
	saved, savedKnown := e.params, e.paramsKnown
	e.params, e.paramsKnown = params, known
	e.funcDepth++
	a.stmt(e, body)
	e.funcDepth--
	e.params, e.paramsKnown = saved, savedKnown
	a.stack = a.stack[:len(a.stack)-1]
	return true
}

// statics returns the values of fields if they are all static.
func statics(fs []field) ([]string, bool) {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		if f.dyn {
			return nil, false
		}
		out = append(out, f.s)
	}
	return out, true
}

// flagSub flags code whose text came from a fetch or a decoder.
func (a *analyzer) flagSub(s subInfo) {
	if s.fetch {
		a.flag(action.FlagDownloadExec)
	}
	if s.decode {
		a.flag(action.FlagDecodeExec)
	}
}

// opt is one option found by scan.
type opt struct {
	name string // "-x" or "--long"
	val  field
	has  bool
}

// scan splits args into options and operands. short lists the short
// options that take a value, long the long ones (without "--"). With stop,
// the first operand ends the options (POSIX and wrapper style); otherwise
// options and operands may mix (GNU style). "--" always ends options.
func scan(args []field, short string, long []string, stop bool) (opts []opt, ops []field) {
	for i := 0; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn || len(s) < 2 || s[0] != '-' {
			ops = append(ops, f)
			if stop {
				return opts, append(ops, args[i+1:]...)
			}
			continue
		}
		if s == "--" {
			return opts, append(ops, args[i+1:]...)
		}
		if s[1] == '-' {
			name, val, has := strings.Cut(s[2:], "=")
			o := opt{name: "--" + name, val: field{s: val}, has: has}
			if !has && slices.Contains(long, name) && i+1 < len(args) {
				i++
				o.val, o.has = args[i], true
			}
			opts = append(opts, o)
			continue
		}
		for j := 1; j < len(s); j++ {
			c := s[j]
			if strings.IndexByte(short, c) >= 0 {
				o := opt{name: "-" + string(c), val: field{s: s[j+1:]}, has: true}
				if j+1 == len(s) {
					o.has = false
					if i+1 < len(args) {
						i++
						o.val, o.has = args[i], true
					}
				}
				opts = append(opts, o)
				break
			}
			opts = append(opts, opt{name: "-" + string(c)})
		}
	}
	return opts, ops
}

func hasOpt(opts []opt, names ...string) bool {
	for _, o := range opts {
		if slices.Contains(names, o.name) {
			return true
		}
	}
	return false
}

func optVals(opts []opt, names ...string) []field {
	var out []field
	for _, o := range opts {
		if slices.Contains(names, o.name) && o.has {
			out = append(out, o.val)
		}
	}
	return out
}

// inner runs the command a wrapper starts. It runs as a program of its
// own: a cd there (env cd, nice cd, xargs cd) does not change the shell's
// directory.
func (a *analyzer) inner(e *env, argv []field, envm map[string]string, noFunc bool) bool {
	if len(argv) == 0 {
		return true
	}
	c := e.fork()
	c.noFunc = noFunc
	return a.invoke(c, argv, envm, nil)
}

// innerShell runs the command of builtin and command, which run it in the
// shell itself: builtin cd and command pushd change its directory.
func (a *analyzer) innerShell(e *env, argv []field) bool {
	c := e.fork()
	c.noFunc = true
	known := a.invoke(c, argv, nil, nil)
	e.cwd, e.ok, e.prev, e.prevOk, e.dirs = c.cwd, c.ok, c.prev, c.prevOk, c.dirs
	e.params, e.paramsKnown = c.params, c.paramsKnown
	return known
}

// chdir returns a copy of e whose working directory is dir.
func (a *analyzer) chdir(e *env, dir field) *env {
	c := e.fork()
	if dir.dyn {
		c.cwd = nil
		return c
	}
	ps, ok := a.abs(e, dir.s)
	if !ok {
		c.cwd = nil
		return c
	}
	c.cwd = ps
	c.ok = ps
	return c
}

// shellString joins fields into a command line a shell will parse.
func (a *analyzer) shellString(e *env, fs []field) {
	ss, ok := statics(fs)
	if !ok {
		a.unresolved("a command string built from dynamic words")
		for _, f := range fs {
			a.flagSub(f.sub)
		}
		return
	}
	a.code(e.fork(), strings.Join(ss, " "), true)
}

// maxProbes bounds the operand suffixes of one unknown program that are
// analysed on the side, maxProbeWords their length.
const (
	maxProbes     = 16
	maxProbeWords = 256
)

// unknownProgram looks for a command in the operands of a program no
// family knows (mytool git push origin main, mytool -- "curl x"): from
// each word that names a known program, the rest of the words is
// analysed on the side as a command. The first that is not read-only is
// analysed as an invocation the program runs, so its classes merge, and
// the program is runs_code. A word with a slash other than a system
// directory is a path, not a program name.
func (a *analyzer) unknownProgram(e *env, args []field) {
	if a.probing {
		return
	}
	// The value of --opt=VALUE is an operand too.
	var ops []field
	for _, f := range args {
		ops = append(ops, f)
		if !f.dyn && strings.HasPrefix(f.s, "-") {
			if _, v, ok := strings.Cut(f.s, "="); ok && v != "" {
				ops = append(ops, field{s: v})
			}
		}
	}
	args = ops
	// An operand that is a whole command line, quotes and all.
	for _, f := range args {
		if f.dyn || !strings.ContainsAny(f.s, " \t\n;|&") {
			continue
		}
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(f.s), ""); err != nil {
			continue // prose, not a command line: the words are looked at below
		}
		first, _, _ := strings.Cut(strings.TrimSpace(f.s), " ")
		if first, _ = normName(first); !claimed(canonical(first)) {
			// Text led by an unknown word (prose, a pattern) counts only
			// if what it would run does something: mytool "othertool
			// 'git push'", mytool 'x; rm -rf y'.
			if a.sideFinds(e, f.s) {
				a.flag(action.FlagRunsCode)
				a.code(e.fork(), f.s, true)
				return
			}
			continue
		}
		if !a.probeCode(e, f.s) {
			a.flag(action.FlagRunsCode)
			a.code(e.fork(), f.s, true)
			return
		}
	}
	var words []field
	for _, f := range args {
		if f.dyn {
			words = append(words, f)
			continue
		}
		for _, w := range strings.Fields(f.s) {
			words = append(words, field{s: w})
		}
	}
	probes := 0
	for k, w := range words {
		if w.dyn || strings.Contains(w.s, "/") && !systemDir(w.s) {
			continue
		}
		name, _ := normName(w.s)
		if !claimed(canonical(name)) {
			continue
		}
		if probes++; probes > maxProbes || len(words)-k > maxProbeWords {
			// Too many to look at each: what the first runs is analysed.
			a.flag(action.FlagRunsCode)
			a.inner(e.fork(), words[k:], nil, true)
			return
		}
		if a.probe(e, words[k:]) {
			continue
		}
		a.flag(action.FlagRunsCode)
		a.inner(e.fork(), words[k:], nil, true)
		return
	}
}

// probe analyses argv as a command on the side and reports whether it is
// known and read-only.
func (a *analyzer) probe(e *env, argv []field) bool {
	b := a.side()
	c := e.fork()
	c.noFunc = true
	b.invoke(c, argv, nil, nil)
	return !b.notRO && b.why == ""
}

// probeCode is probe for a command line.
func (a *analyzer) probeCode(e *env, src string) bool {
	b := a.side()
	b.code(e.fork(), src, true)
	return !b.notRO && b.why == ""
}

// sideFinds analyses src as a command line on the side, operands of
// unknown programs included, and reports whether it does more than start
// programs: a class beyond processSpawn, or code run unclassified.
func (a *analyzer) sideFinds(e *env, src string) bool {
	if len(src) > maxSideText {
		return true // too long to look at twice: assume it runs something
	}
	if found, ok := a.finds[src]; ok {
		return found
	}
	b := a.side()
	b.probing = false
	b.code(e.fork(), src, true)
	found := b.classes&^(1<<action.ProcessSpawn) != 0
	for _, f := range []action.Flag{action.FlagRunsCode, action.FlagPipeToInterpreter, action.FlagDownloadExec, action.FlagDecodeExec, action.FlagPrivilegeEscalation} {
		found = found || b.flags[f]
	}
	a.finds[src] = found
	return found
}

// maxSideText bounds the operand text sideFinds analyses.
const maxSideText = 16 << 10

// side returns an analyzer for a side analysis in the same setting.
func (a *analyzer) side() *analyzer {
	return &analyzer{opt: a.opt, flags: map[action.Flag]bool{}, pathSeen: map[Path]int{},
		funcs: map[string]*syntax.Stmt{}, called: map[string]bool{}, fetched: a.fetched,
		ifs: a.ifs, homeDyn: a.homeDyn, pwdDyn: a.pwdDyn, cur: -1, probing: true, work: a.work, finds: a.finds, spent: a.spent}
}
