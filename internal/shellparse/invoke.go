// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file handles one simple command: it records the invocation,
// normalises the program name, calls inline functions, peels wrappers with
// their own option grammar, and re-parses code given as a string
// (sh -c, eval, su -c, trap, flock -c, sudo -s).
//
// Wrapper rules: an option the grammar does not know makes the command
// unresolved, because it might take a value that hides the real command.
// The wrapper and the command it runs are both reported.

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

var wrappers = map[string]wrapper{
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

// peel handles the wrappers of the table; handled is false for others.
func (a *analyzer) peel(e *env, name string, args []field) (ro, known, handled bool) {
	w, ok := wrappers[name]
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
		if first, _ = normName(first); programs[canonical(first)] == nil {
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
		if programs[canonical(name)] == nil {
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
		ifs: a.ifs, homeDyn: a.homeDyn, pwdDyn: a.pwdDyn, cur: -1, probing: true, work: a.work, finds: a.finds}
}

func wrapperPrograms() map[string]handler {
	m := map[string]handler{}
	for n := range wrappers {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) {
			ro, known, _ := a.peel(e, c.name, c.args)
			return ro, known
		}
	}
	m["env"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.envCmd(e, c.args) }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.sudo(e, c.name, c.args) }, "sudo", "sudoedit")
	m["su"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.su(e, c.args) }
	m["flock"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.flock(e, c.args) }
	for n := range simpleWrappers {
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
