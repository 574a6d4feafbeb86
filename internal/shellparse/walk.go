// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file walks the syntax tree statement by statement. Every construct
// that can start a command is followed: lists, pipelines, subshells,
// blocks, if/while/until/for/case bodies, function bodies, command and
// process substitutions anywhere in a word (including ${x:-…} defaults,
// arithmetic, heredoc bodies with an unquoted delimiter, case patterns and
// redirection targets), time and coproc. A construct the walk does not know
// is unresolved.

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/action"
)

func (a *analyzer) stmts(e *env, list []*syntax.Stmt) {
	for _, s := range list {
		a.stmt(e, s)
	}
}

func (a *analyzer) stmt(e *env, s *syntax.Stmt) {
	if s == nil {
		return
	}
	if len(a.inv) >= maxInvocations || *a.work >= maxWork {
		a.unresolved("the command starts too many programs to analyse")
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		a.flag(action.FlagBackground)
	}
	e.settle()
	if s.Background || s.Coprocess || s.Disown {
		// A background job runs in a subshell: its cd does not count.
		c := e.fork()
		a.scoped(func() { a.stmtCmd(c, s) })
		e.settle()
		return
	}
	a.stmtCmd(e, s)
}

func (a *analyzer) stmtCmd(e *env, s *syntax.Stmt) {
	// A redirection of standard input holds for this statement only.
	saved := e.stdin
	defer func() { e.stdin = saved }()
	redirs, writes := a.redirects(e, s.Redirs)
	if _, ok := s.Cmd.(*syntax.CallExpr); !ok {
		defer func() {
			// What a compound command writes is not followed, but for
			// a pipeline's last stage.
			if b, ok := s.Cmd.(*syntax.BinaryCmd); !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll || stdoutRedirected(s.Redirs) {
				a.out = output{}
			}
			for _, w := range writes {
				for _, p := range w {
					a.write(path.Clean(p), output{}, false)
				}
			}
		}()
	}
	switch c := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		start, paths0 := len(a.meta), len(a.writes)
		a.call(e, c, redirs)
		if len(writes) > 0 && len(a.meta) > start && a.meta[start].fetch {
			for _, w := range writes {
				for _, p := range w {
					a.fetched[path.Clean(p)] = true
				}
			}
		}
		a.noteOutput(e, s, start, paths0, writes)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			a.pipeline(e, c)
		case syntax.AndStmt:
			a.stmt(e, c.X)
			anyX, anyPrevX := e.cwd, e.prev
			e.cwd, e.prev = e.ok, e.prevOk
			a.maybe(func() { a.stmt(e, c.Y) })
			e.cwd, e.prev = union(anyX, e.cwd), union(anyPrevX, e.prev)
		case syntax.OrStmt:
			a.stmt(e, c.X)
			okX, anyX := e.ok, e.cwd
			okPrevX, anyPrevX := e.prevOk, e.prev
			a.maybe(func() { a.stmt(e, c.Y) })
			e.ok, e.prevOk = union(okX, e.ok), union(okPrevX, e.prevOk)
			e.cwd, e.prev = union(anyX, e.cwd), union(anyPrevX, e.prev)
		}
	case *syntax.Subshell:
		// A subshell's cd, pushd and popd stay inside it.
		if e.nest >= maxNest {
			a.unresolved(fmt.Sprintf("the command nests substitutions and subshells more than %d deep", maxNest))
			return
		}
		c2 := e.fork()
		c2.nest++
		a.scoped(func() { a.stmts(c2, c.Stmts) })
		e.settle()
	case *syntax.Block:
		a.stmts(e, c.Stmts)
	case *syntax.IfClause:
		all, allPrev := e.cwd, e.prev
		for cl := c; cl != nil; cl = cl.Else {
			e.settle()
			if cl == c {
				a.stmts(e, cl.Cond)
			} else {
				a.maybe(func() { a.stmts(e, cl.Cond) })
			}
			cond, condPrev := e.cwd, e.prev
			e.cwd, e.prev = e.ok, e.prevOk
			a.maybe(func() { a.stmts(e, cl.Then) })
			all = union(all, union(cond, e.cwd))
			allPrev = union(allPrev, union(condPrev, e.prev))
			e.cwd, e.prev = cond, condPrev
		}
		e.cwd, e.prev = all, allPrev
		e.settle()
	case *syntax.WhileClause:
		a.loop(e, func() {
			a.stmts(e, c.Cond)
			a.maybe(func() { a.stmts(e, c.Do) })
		})
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			a.words(e, l.Items)
		case *syntax.CStyleLoop:
			a.substs(e, l)
		}
		a.loop(e, func() { a.maybe(func() { a.stmts(e, c.Do) }) })
	case *syntax.CaseClause:
		a.word(e, c.Word)
		pre, prePrev := e.cwd, e.prev
		all, allPrev := pre, prePrev
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				a.substs(e, p)
			}
			e.cwd, e.prev = pre, prePrev
			a.maybe(func() { a.stmts(e, it.Stmts) })
			all, allPrev = union(all, e.cwd), union(allPrev, e.prev)
		}
		e.cwd, e.prev = all, allPrev
		e.settle()
	case *syntax.FuncDecl:
		names := c.Names
		if c.Name != nil {
			names = append(names, c.Name)
		}
		if len(names) == 0 {
			// An anonymous function runs at once.
			a.stmt(e, c.Body)
			break
		}
		body, piped := c.Body, false
		for {
			b, ok := body.Cmd.(*syntax.BinaryCmd)
			if !ok {
				break
			}
			piped = piped || b.Op == syntax.Pipe || b.Op == syntax.PipeAll
			body = b.X
		}
		define := func() {
			for _, n := range names {
				name := strings.ToLower(n.Value)
				if _, ok := a.funcs[name]; !ok {
					a.funcs0 = append(a.funcs0, name)
				}
				a.funcs[name] = body
				a.funcGen++
				// A later definition replaces the function: analyse the
				// new body at the next call.
				a.called[name] = false
			}
		}
		if body == c.Body {
			define()
			break
		}
		// The parser reads "f() { …; } | cmd" and "f() { …; } && cmd" as
		// a function whose body is the list; bash defines f with the
		// braces and runs the list, a pipeline in subshells. Walk the
		// list too (the body once more, which over-reports).
		if piped {
			a.scoped(define)
		} else {
			define()
		}
		a.stmt(e, c.Body)
	case *syntax.ArithmCmd, *syntax.LetClause:
		a.evalText(e, c)
		a.substs(e, c)
	case *syntax.TestClause:
		a.evalText(e, c)
		a.substs(e, c)
	case *syntax.DeclClause:
		a.decl(e, c, redirs)
	case *syntax.TimeClause:
		a.stmt(e, c.Stmt)
	case *syntax.CoprocClause:
		a.flag(action.FlagBackground)
		a.stmt(e.fork(), c.Stmt)
	case *syntax.TestDecl:
		a.stmt(e.fork(), c.Body)
	default:
		a.unresolved(fmt.Sprintf("%s: unsupported shell construct", c.Pos()))
	}
}

// scoped walks code that runs in a subshell: the functions it defines
// do not exist after it, so they cannot hide a program of the same name
// run later ("( git() { :; } ); git push" pushes). A body defined there
// and not called there is analysed at the end, as any uncalled function.
func (a *analyzer) scoped(walk func()) {
	var saved map[string]*syntax.Stmt
	if len(a.funcs) > 0 {
		saved = maps.Clone(a.funcs)
	}
	walk()
	changed := false
	for _, name := range a.funcs0 { // definition order, not map order
		body, ok := a.funcs[name]
		if ok && saved[name] != body {
			changed = true
			if !a.called[name] && !slices.Contains(a.orphans, body) {
				a.orphans = append(a.orphans, body)
			}
		}
	}
	if changed || len(a.funcs) != len(saved) {
		if saved == nil {
			saved = map[string]*syntax.Stmt{}
		}
		a.funcs = saved
		a.funcGen++
	}
}

// maybe walks code that may not run (the right side of && and ||, the
// branches of if and case, loop bodies): a function it defines may not
// exist after it, so it is set aside like a subshell's
// ("false && git() { :; }; git push" pushes).
func (a *analyzer) maybe(walk func()) { a.scoped(walk) }

// loop walks a loop body once; a body that changes the working directory
// makes the next iterations' directory unknown.
func (a *analyzer) loop(e *env, body func()) {
	pre, prePrev := e.cwd, e.prev
	body()
	if !sameSet(pre, e.cwd) {
		a.unresolved("the working directory changes inside a loop")
		e.cwd = nil
	}
	if !sameSet(prePrev, e.prev) {
		e.prev = nil
	}
	e.cwd, e.prev = union(pre, e.cwd), union(prePrev, e.prev)
	e.settle()
}

// evalText makes a quoted string that bash may evaluate as arithmetic or as
// a variable name (where a subscript runs command substitutions)
// unresolved: [[ -v 'a[$(cmd)]' ]], (( 'x' )), let, declare.
func (a *analyzer) evalText(e *env, n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			a.textCode(e, n.Value, "a quoted string may be evaluated as code: "+e.text(n))
		case *syntax.Lit:
			a.textCode(e, n.Value, "a string may be evaluated as code: "+e.text(n))
		}
		return true
	})
}

// codeText reports whether s could run a command if bash evaluated it as
// an arithmetic subscript or a variable name.
func codeText(s string) bool { return strings.Contains(s, "$(") || strings.Contains(s, "`") }

// textCode reports text that bash may later evaluate (a variable's value,
// a quoted subscript) as unresolved, and walks the command substitutions
// it holds so that the commands they would run are reported too.
func (a *analyzer) textCode(e *env, s, why string) {
	if !codeText(s) {
		return
	}
	a.unresolved(why)
	if e.depth+1 > a.opt.MaxDepth {
		return
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(s))
	if err != nil || w == nil {
		return
	}
	c := e.fork()
	c.src = s
	c.depth++
	a.substs(c, w)
}

// pipeline walks the stages of a pipeline, each in a subshell, telling
// each stage what the earlier stages ran.
func (a *analyzer) pipeline(e *env, c *syntax.BinaryCmd) {
	var stages []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated && !s.Background {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(c.X)
	flatten(c.Y)
	var before subInfo
	var prev output
	for i, s := range stages {
		c := e.fork()
		if i > 0 {
			c.stdin = stdinInfo{kind: stdinPipe, sub: before, body: prev.text, bodyStatic: prev.ok}
		}
		start := len(a.meta)
		a.out = output{}
		if len(stages) > 1 {
			a.scoped(func() { a.stmt(c, s) })
		} else {
			a.stmt(c, s)
		}
		before = before.or(a.since(start))
		prev = a.out
	}
	a.out = prev
	e.settle()
}

// redirects records the redirections of a statement: paths, hosts of
// /dev/tcp, and where standard input now comes from. It returns the
// redirections and the paths standard output is written to.
func (a *analyzer) redirects(e *env, rs []*syntax.Redirect) ([]Redirect, [][]string) {
	var out []Redirect
	var writes [][]string
	for _, r := range rs {
		op := r.Op.String()
		if r.N != nil {
			op = r.N.Value + op
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			var sub subInfo
			if r.Hdoc != nil {
				sub = a.substs(e, r.Hdoc)
				a.secretWord(r.Hdoc)
			}
			body, static := a.docText(e, r)
			e.stdin = stdinInfo{kind: stdinDoc, sub: sub, body: body, bodyStatic: static}
			out = append(out, Redirect{Op: op, Target: e.text(r.Word)})
			continue
		case syntax.WordHdoc:
			fs := a.word(e, r.Word)
			f := fs[0]
			e.stdin = stdinInfo{kind: stdinDoc, sub: f.sub, body: f.s + "\n", bodyStatic: !f.dyn && len(fs) == 1}
			out = append(out, Redirect{Op: op, Target: f.s})
			continue
		}
		fs := a.word(e, r.Word)
		f := fs[0]
		if len(fs) != 1 {
			f = field{s: e.text(r.Word), dyn: true}
		}
		out = append(out, Redirect{Op: op, Target: f.s})
		if !f.dyn {
			if host, ok := devNet(f.s); ok {
				a.class(action.NetworkEgress)
				a.host(host)
				continue
			}
		}
		switch r.Op {
		case syntax.DplIn, syntax.DplOut:
			if f.dyn {
				a.unresolved("the redirection target " + f.s + " is not static")
				continue
			}
			if _, err := strconv.Atoi(strings.TrimSuffix(f.s, "-")); err == nil || f.s == "-" {
				continue // fd duplication or closing
			}
			if r.Op == syntax.DplIn {
				a.path(e, f, action.Read)
				continue
			}
			fallthrough
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
			a.path(e, f, action.Write)
			if (r.N == nil || r.N.Value == "1") && !f.dyn {
				ps, _ := a.abs(e, f.s)
				writes = append(writes, ps)
			}
		case syntax.RdrIn:
			a.path(e, f, action.Read)
			if (r.N == nil || r.N.Value == "0") && f.s != "/dev/stdin" {
				e.stdin = stdinInfo{kind: stdinFile, sub: f.sub}
				if !f.dyn {
					e.stdin.file = f.s
				}
				if f.procIn {
					e.stdin.proc = f.s
				}
			}
		case syntax.RdrInOut:
			a.path(e, f, action.Write)
		}
	}
	return out, writes
}

// devNet recognises bash's /dev/tcp/host/port and /dev/udp/host/port.
func devNet(p string) (string, bool) {
	for _, pre := range []string{"/dev/tcp/", "/dev/udp/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok {
			host, _, _ := strings.Cut(rest, "/")
			return host, true
		}
	}
	return "", false
}

// docText returns a heredoc body as the reading program sees it, and
// whether it is static: bash removes the leading tabs of every line of a
// <<- heredoc, and in one whose delimiter is unquoted it removes the
// backslash before $, `, \ and a newline, which the parser keeps (a body
// holding a backslash there is not taken as static).
func (a *analyzer) docText(e *env, r *syntax.Redirect) (string, bool) {
	w := r.Hdoc
	if w == nil {
		return "", true
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	body := b.String()
	if r.Word.Lit() != "" && strings.Contains(e.text(w), `\`) {
		return "", false
	}
	if r.Op == syntax.DashHdoc {
		lines := strings.Split(body, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, "\t")
		}
		body = strings.Join(lines, "\n")
	}
	return body, true
}

// call handles a simple command.
func (a *analyzer) call(e *env, c *syntax.CallExpr, redirs []Redirect) {
	envm := a.assigns(e, c.Assigns, len(c.Args) == 0)
	if len(c.Args) == 0 {
		return // assignments alone; redirection paths are already recorded
	}
	argv := a.words(e, c.Args)
	if len(argv) == 0 {
		return
	}
	a.invoke(e, argv, envm, redirs)
}

// How a variable's value changes which code runs.
const (
	envOther   = iota + 1 // any value runs code or changes where it comes from
	envCommand            // a command line the program runs: pagers, editors, ssh commands
	envScript             // a file of shell or python code run at start-up
	envOptions            // options of an interpreter, which may load code
)

// dangerousEnv are variables whose value changes which code runs.
var dangerousEnv = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"PATH": envOther, "LD_PRELOAD": envOther, "LD_LIBRARY_PATH": envOther, "LD_AUDIT": envOther,
		"BASH_ENV": envScript, "ENV": envScript, "PROMPT_COMMAND": envCommand, "SHELLOPTS": envOther,
		"BASHOPTS": envOther, "PS4": envOther,
		"NODE_OPTIONS": envOptions, "NODE_PATH": envOther, "PYTHONPATH": envOther, "PYTHONSTARTUP": envScript,
		"PYTHONHOME": envOther, "PYTHONWARNINGS": envOther,
		"PERL5OPT": envOptions, "PERL5LIB": envOther, "PERLLIB": envOther, "PERL5DB": envOther,
		"RUBYOPT": envOptions, "RUBYLIB": envOther,
		"JAVA_TOOL_OPTIONS": envOptions, "_JAVA_OPTIONS": envOptions, "JDK_JAVA_OPTIONS": envOptions,
		"EDITOR": envCommand, "VISUAL": envCommand, "FCEDIT": envCommand, "SUDO_EDITOR": envCommand,
		"PAGER": envCommand, "MANPAGER": envCommand, "SYSTEMD_PAGER": envCommand, "BAT_PAGER": envCommand,
		"LESSOPEN": envCommand, "LESSCLOSE": envCommand,
		"SSH_ASKPASS": envCommand, "SUDO_ASKPASS": envCommand,
		"GIT_SSH": envCommand, "GIT_SSH_COMMAND": envCommand, "GIT_EDITOR": envCommand, "GIT_PAGER": envCommand,
		"GIT_EXTERNAL_DIFF": envCommand, "GIT_ASKPASS": envCommand, "GIT_EXEC_PATH": envOther,
		"GIT_PROXY_COMMAND": envCommand, "GIT_SEQUENCE_EDITOR": envCommand,
		"GIT_CONFIG": envOther, "GIT_CONFIG_GLOBAL": envOther, "GIT_CONFIG_SYSTEM": envOther,
		"GIT_CONFIG_PARAMETERS": envOther, "GIT_CONFIG_COUNT": envOther, "GIT_TEMPLATE_DIR": envOther,
		"GIT_DIR": envOther, "GIT_COMMON_DIR": envOther,
	}
})

// envKindOf returns how name changes which code runs, 0 if it does not.
func envKindOf(n string) int {
	if k := dangerousEnv()[n]; k != 0 {
		return k
	}
	if strings.HasPrefix(n, "GIT_CONFIG_") || strings.HasPrefix(n, "DYLD_") || strings.HasPrefix(n, "BASH_FUNC_") || strings.HasPrefix(n, "LD_") && n != "LD_BIND_NOW" {
		return envOther
	}
	return 0
}

func dangerousName(n string) bool { return envKindOf(n) != 0 }

// safeNodeOptions are NODE_OPTIONS that load no code.
var safeNodeOptions = []string{"--max-old-space-size", "--max-semi-space-size", "--enable-source-maps", "--no-warnings",
	"--no-deprecation", "--trace-warnings", "--trace-deprecation", "--stack-size", "--openssl-legacy-provider",
	"--max-http-header-size", "--unhandled-rejections", "--dns-result-order", "--use-openssl-ca", "--trace-uncaught",
	"--heapsnapshot-signal", "--trace-exit", "--throw-deprecation", "--pending-deprecation", "--disable-warning",
	"--use-system-ca", "--no-experimental-fetch", "--inspect", "--inspect-brk"}

// envVar reacts to a variable being set to val (static says whether val
// is known). A variable that changes which code runs is runs_code, unless
// its value is known to run nothing unclassified: a command-valued one
// (GIT_PAGER, EDITOR, GIT_SSH_COMMAND) is analysed as a command line and
// merged, and is harmless when that command is read-only (GIT_PAGER=cat);
// an empty value runs nothing.
func (a *analyzer) envVar(e *env, name, val string, static bool) {
	if name == "IFS" {
		a.ifs = true
	}
	kind := envKindOf(name)
	if kind == 0 || static && val == "" {
		return
	}
	runs := true
	switch {
	case !static:
		if kind == envCommand {
			a.unresolved("cannot be analysed statically: the command in " + name)
		}
	case kind == envCommand:
		cmd := val
		if name == "LESSOPEN" || name == "LESSCLOSE" {
			cmd = strings.TrimLeft(cmd, "|-")
		}
		runs = !a.readOnlyCode(e, cmd)
	case kind == envScript:
		a.path(e, field{s: val}, action.Read)
	case kind == envOptions && name == "NODE_OPTIONS":
		runs = false
		for _, o := range strings.Fields(val) {
			n, _, _ := strings.Cut(o, "=")
			if !slices.Contains(safeNodeOptions, n) {
				runs = true
			}
		}
	}
	if runs {
		if a.envRuns == nil {
			a.envRuns = map[string]bool{}
		}
		a.envRuns[name+"="+val] = true
		a.flag(action.FlagRunsCode)
	}
}

// readOnlyCode analyses src as shell code and reports whether it is known
// and read-only; what it runs is merged into the analysis.
func (a *analyzer) readOnlyCode(e *env, src string) bool {
	before, why := a.notRO, a.why
	a.notRO, a.why = false, ""
	a.code(e.fork(), src, true)
	ro := !a.notRO && a.why == ""
	a.notRO = a.notRO || before
	if why != "" {
		a.why = why
	}
	return ro
}

// assigns handles variable assignments, before a command or alone.
func (a *analyzer) assigns(e *env, as []*syntax.Assign, alone bool) map[string]string {
	var m map[string]string
	for _, as := range as {
		if as.Value != nil {
			a.substs(e, as.Value)
		}
		if as.Array != nil {
			a.substs(e, as.Array)
		}
		if as.Index != nil {
			a.substs(e, as.Index)
		}
		if as.Name == nil {
			continue
		}
		name := as.Name.Value
		val, static := "", true
		if as.Value != nil {
			fs := a.word(e, as.Value)
			val = fs[0].s
			if len(fs) > 1 || fs[0].dyn {
				val, static = e.text(as.Value), false
			} else {
				a.textCode(e, val, "the variable "+name+" holds command text that bash may evaluate")
				a.rebindText(val)
			}
		}
		if as.Array != nil || as.Index != nil || as.Append {
			static = false
		}
		a.envVar(e, name, val, static)
		if alone {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		m[name] = val
	}
	return m
}

// decl handles declare, export, local, readonly, typeset and nameref.
func (a *analyzer) decl(e *env, c *syntax.DeclClause, redirs []Redirect) {
	argv := []field{{s: c.Variant.Value}}
	operands := 0
	for _, as := range c.Args {
		if as.Name == nil && as.Value != nil {
			fs := a.word(e, as.Value)
			for _, f := range fs {
				argv = append(argv, f)
				if !strings.HasPrefix(f.s, "-") && !strings.HasPrefix(f.s, "+") {
					operands++
				}
				if f.dyn {
					a.unresolved(c.Variant.Value + " with a name that is not static: " + f.s)
					continue
				}
				a.textCode(e, f.s, "a declared name may be evaluated as code: "+f.s)
				name, val, has := strings.Cut(f.s, "=")
				switch {
				case strings.HasPrefix(f.s, "-") || strings.HasPrefix(f.s, "+"):
				case has:
					a.envVar(e, name, val, true)
				case dangerousName(name):
					a.flag(action.FlagRunsCode) // exports a value set elsewhere
				}
				if strings.HasPrefix(f.s, "-") || strings.HasPrefix(f.s, "+") {
					continue
				}
				if has || (c.Variant.Value != "export" && c.Variant.Value != "readonly") {
					a.rebindVar(name)
				}
				a.rebindText(val)
			}
			continue
		}
		a.assigns(e, []*syntax.Assign{as}, true)
		operands++
		if as.Name != nil {
			argv = append(argv, field{s: e.text(as)})
		}
	}
	a.record(e, argv, nil, redirs)
	if operands == 0 && (c.Variant.Value == "export" || c.Variant.Value == "declare" || c.Variant.Value == "typeset") {
		// Printing the environment reveals its secrets.
		a.class(action.SecretAccess)
	}
}

// record appends an invocation and returns its index.
func (a *analyzer) record(e *env, argv []field, envm map[string]string, redirs []Redirect) int {
	*a.work++
	inv := Invocation{Env: envm, Redirects: redirs, Argv: make([]string, 0, len(argv)), Dirs: e.cwd}
	if in := e.stdin; (in.kind == stdinDoc || in.kind == stdinPipe) && in.bodyStatic {
		inv.Stdin, inv.StdinKnown = in.body, true
	}
	for _, f := range argv {
		inv.Argv = append(inv.Argv, f.s)
		if f.dyn || f.glob {
			inv.Dynamic = true
		}
	}
	a.inv = append(a.inv, inv)
	a.meta = append(a.meta, invMeta{})
	return len(a.inv) - 1
}

// param returns the static value of a parameter expansion.
func (e *env) param(a *analyzer, p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil ||
		p.Exp != nil || p.Names != 0 || p.Width || p.IsSet || p.NestedParam != nil || len(p.Modifiers) > 0 || p.Flags != nil {
		return "", false
	}
	if a.ifs {
		return "", false
	}
	switch name := p.Param.Value; {
	case name == "HOME":
		return a.home(), a.home() != ""
	case name == "PWD":
		if len(e.cwd) == 1 && !a.pwdDyn && e.cwd[0] != "" {
			return e.cwd[0], true
		}
	case name == "#" && e.paramsKnown:
		return strconv.Itoa(len(e.params)), true
	case name == "*" && e.paramsKnown && len(e.params) == 0:
		return "", true
	case len(name) == 1 && name[0] >= '1' && name[0] <= '9' && e.paramsKnown:
		i := int(name[0] - '1')
		if i < len(e.params) {
			return e.params[i], true
		}
		return "", true
	}
	return "", false
}

// positionalWord expands "$@", $@, "$*" and $* alone when the positional
// parameters are known.
func (e *env) positionalWord(w *syntax.Word) ([]field, bool) {
	if !e.paramsKnown || len(w.Parts) != 1 {
		return nil, false
	}
	part := w.Parts[0]
	quoted := false
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part, quoted = dq.Parts[0], true
	}
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil {
		return nil, false
	}
	switch p.Param.Value {
	case "@":
	case "*":
		if quoted {
			return []field{{s: strings.Join(e.params, " ")}}, true
		}
	default:
		return nil, false
	}
	out := []field{}
	for _, s := range e.params {
		if !quoted && (s == "" || strings.ContainsAny(s, " \t\n*?[")) {
			return nil, false
		}
		out = append(out, field{s: s})
	}
	return out, true
}
