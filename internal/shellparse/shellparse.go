// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package shellparse analyses a bash command string statically, as bash
// would run it, without running anything: the simple commands it could
// start (through pipes, lists, subshells, substitutions, functions and
// wrappers such as sudo, env, xargs, find -exec and sh -c), their effect
// classes, the paths, hosts and refs they touch, and the flags of
// docs/spec.md §6.
//
// # Fail closed
//
// The analysis only decomposes what it fully understands. Anything whose
// effect depends on run-time values — a command name from a variable, eval
// of a non-literal, decoded text executed, a parse error, an unknown git
// subcommand — sets [Analysis.Unresolved] and [action.FlagUnresolvable], so
// that the policy floor never allows it. Over-reporting is preferred to
// under-reporting: a wrapper is reported together with the command it
// runs, a function body is analysed where it is called and, once more,
// if it is never called.
//
// # Inline programs and scripts
//
// Code given to an interpreter as a string (python -c, perl -e, node -e,
// ruby -e, php -r, lua -e, osascript -e, deno eval), a heredoc, a pipe of
// static text or a script written earlier in the same command line is
// read for the commands it starts: a literal os.system("git push"),
// subprocess.run(["git", "push"]), child_process.execSync, system,
// backticks or io.popen is analysed as shell code, and its classes are
// the command's; a command that is not literal, code evaluated from a
// value, and a spawning name the scanner cannot follow are unresolved.
// Text decoded by printf or echo -e escapes, rev, tr, base64 -d or
// xxd -r -p of static input is computed, and analysed when a shell runs
// it; piped into an interpreter, decoded text is decode_exec.
//
// # Commands inside commands
//
// A wrapper (env, sudo, script -c, unshare, strace, tmux send-keys,
// parallel, watch…) is peeled: the command it runs is analysed as its own
// invocation, or as a shell string where the wrapper hands it to a shell;
// an option its grammar does not know is unresolved. A variable that
// chooses code (GIT_PAGER, EDITOR, GIT_SSH_COMMAND, LD_PRELOAD,
// NODE_OPTIONS…), set before a command, by env or by export, is runs_code
// unless its value is a command line analysed as read-only (GIT_PAGER=cat).
// A program no family knows whose operands, from a word naming a known
// program on, analyse as a command that is not read-only (mytool git push)
// is taken to run that command: runs_code, and the command's classes. A
// detached process (&, nohup, setsid, disown, screen -dm) is never
// read-only; a redirection to /dev/null or to another descriptor keeps a
// command read-only.
//
// # Names
//
// A command name is normalised by quote removal, escape removal and
// ANSI-C decoding, then reduced to its base name and lower-cased:
// '/usr/bin/git', \git, g""it and GIT are all "git". Lower-casing is the
// safer reading: on a case-insensitive filesystem GIT runs git, and a rule
// written for git must not be bypassed by a capital letter. A name with a
// slash outside the system directories (./git, bin/tool) runs a file of
// the project: it keeps its base name for rules and classification and is
// flagged runs_code.
//
// # Paths, refs and hosts
//
// Paths are reported as written after quote removal and static expansion
// (~, $HOME, ${HOME}), made absolute against the working directory, which
// follows cd, builtin cd, command cd, pushd, popd and cd - (once the
// command itself changed directory), and not a cd in a subshell, a
// substitution or a program of its own (env cd); they are not cleaned or
// resolved (package
// pathguard does that). When a cd may or may not have happened (cd x; y),
// a relative path is reported against every candidate directory. Globs are
// reported as written. git push refs are reported as written (HEAD:main,
// +main, :gone); --all, --branches, --mirror, --tags and --prune push or
// delete every matching ref and are reported as the ref "**"; a push
// without a refspec is reported as "HEAD", the checked-out branch.
//
// The package does no I/O and never runs a command.
package shellparse

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/action"
)

// DefaultMaxDepth is how deeply sh -c, eval, su -c and trap strings are
// parsed again when Options.MaxDepth is zero.
const DefaultMaxDepth = 4

// maxInvocations bounds the work done for one command string.
const maxInvocations = 2048

// maxCommand bounds the length of a command string analysed: a longer one
// is unresolved, unparsed (a hook payload may carry megabytes).
const maxCommand = 256 << 10

// maxTokens bounds the shell code parsed for one command string, in
// words and operators ([tokens]), nested strings (sh -c, eval, a
// script written and run) and side analyses included. The syntax tree
// and the walk cost up to about 1 KiB for each, so whatever the command
// holds, its analysis allocates tens of MiB at most; a command longer
// than maxCommand but with few words is cut off by that bound first.
// Deeper re-parsing of the same text would otherwise multiply the cost:
// eval eval eval … parses the whole command once per level.
const maxTokens = 32 << 10

// maxExpanded bounds the fields words expand to over one analysis:
// brace expansion makes up to maxFields of one word, and a command of
// such words would make millions.
const maxExpanded = 8 << 10

// maxNest bounds how deeply substitutions and subshells nest: the text of
// every level is kept, so the work grows with the square of the depth.
const maxNest = 64

// maxWork bounds the invocations analysed for one command string,
// side analyses of an unknown program's operands included.
const maxWork = 8 * maxInvocations

// maxFuncDepth bounds nested function calls.
const maxFuncDepth = 16

// maxCwds bounds the candidate working directories tracked at once.
const maxCwds = 8

// Options say where a command runs.
type Options struct {
	// Cwd is the absolute working directory. Empty leaves relative paths
	// relative.
	Cwd string
	// Home expands ~ and $HOME. Empty leaves them unresolved.
	Home string
	// MaxDepth bounds re-parsing of sh -c, eval, su -c and trap strings;
	// zero means DefaultMaxDepth.
	MaxDepth int
}

// Analysis is what analysing one command string found.
type Analysis struct {
	// Invocations holds one entry per simple command bash could start, in
	// source order; a wrapper is followed by the command it runs.
	Invocations []Invocation
	// Classes always includes ProcessSpawn; taxonomy order.
	Classes []action.Class
	// Paths the command reads, writes or deletes, in order of appearance.
	Paths []Path
	// Hosts contacted, lower case; Refs pushed, as written.
	Hosts, Refs []string
	// Packages names the packages a package manager installs, or fetches
	// and runs (npx prettier, pip install requests, go run x@v1), as
	// written on the command line, version and registry prefix included
	// (prettier@3, npm:cowsay, github:u/r): a rule may allow a named
	// package. A requirements or lock file installs packages that are not
	// named here.
	Packages []string `json:",omitempty"`
	// Flags, in the order of docs/spec.md §6.
	Flags []action.Flag
	// ReadOnly is true when every invocation is a known read-only command
	// and nothing writes, deletes, fetches, installs, reads a secret or
	// runs unclassified code.
	ReadOnly bool
	// Unresolved says why the command cannot be analysed statically; it is
	// empty if it can. A parse error gives "line:col: msg".
	Unresolved string
}

// Invocation is one simple command.
type Invocation struct {
	// Argv is the argument vector with a normalised program name. A
	// dynamic word is given as its source text.
	Argv []string
	// Env holds the assignments placed before the command or given to
	// env; a dynamic value is given as its source text.
	Env map[string]string `json:",omitempty"`
	// Redirects are the redirections of the statement.
	Redirects []Redirect `json:",omitempty"`
	// Dynamic reports that argv is not fully static.
	Dynamic bool `json:",omitempty"`
	// RunsCode reports that this invocation runs code whose effect is not
	// classified: it set runs_code, pipe_to_interpreter, download_exec or
	// decode_exec. The policy asks before running such an invocation
	// uncontained unless a rule names it (docs/spec.md §3).
	RunsCode bool `json:",omitempty"`
	// Stdin is the text on the command's standard input when the analysis
	// knows it (a heredoc, a here-string, a pipe of static text), as bash
	// feeds it; StdinKnown says it does. A program that reads its input
	// from there (Codex's apply_patch) is read with it. Neither is part of
	// the analysis's printed form.
	Stdin      string `json:"-"`
	StdinKnown bool   `json:"-"`
	// Dirs are the directories the command may start in (after the cd
	// before it), nil when unknown.
	Dirs []string `json:"-"`
}

// Redirect is one redirection: Op such as ">", "2>>", "<", "<<<".
type Redirect struct {
	Op     string
	Target string
}

// Path is one path facet.
type Path struct {
	Path   string
	Access action.Access
	// Recursive, on a read, says the command reads every file under Path
	// when it is a directory (grep -r, rg, git grep, tar -c, zip -r, cp
	// -r, rsync -a, scp -r, find -exec): the caller must look inside it.
	// On a write it says the command writes names below Path that are
	// not known before it runs (an archive extracted, a directory copied
	// into it).
	Recursive bool `json:",omitempty"`
}

// Commands returns the normalised argv of every invocation.
func (an *Analysis) Commands() [][]string {
	out := make([][]string, len(an.Invocations))
	for i, inv := range an.Invocations {
		out[i] = inv.Argv
	}
	return out
}

// HasFlag reports whether f is among the flags.
func (an *Analysis) HasFlag(f action.Flag) bool { return slices.Contains(an.Flags, f) }

// flagOrder is the order of docs/spec.md §6.
var flagOrder = []action.Flag{
	action.FlagDownloadExec, action.FlagDecodeExec, action.FlagPipeToInterpreter,
	action.FlagUnresolvable, action.FlagRunsCode, action.FlagPrivilegeEscalation,
	action.FlagBackground,
}

// invMeta is what the analyser knows of one invocation beyond its argv.
type invMeta struct {
	fetch, decode bool
}

// analyzer holds the state of one Analyze call.
type analyzer struct {
	opt      Options
	inv      []Invocation
	meta     []invMeta
	classes  uint32
	flags    map[action.Flag]bool
	paths    []Path
	pathSeen map[Path]int // index in paths, by Path without Recursive
	hosts    []string
	refs     []string
	pkgs     []string
	notRO    bool
	why      string
	funcs    map[string]*syntax.Stmt
	called   map[string]bool
	stack    []frame
	funcGen  int
	fetched  map[string]bool
	// links maps a link made earlier in the command (ln) to what it
	// points to, and linkHops bounds following them (files.go).
	links                map[string][]string
	linkHops, linkBudget int
	ifs                  bool
	// homeDyn, pwdDyn: the script assigns HOME, PWD.
	homeDyn, pwdDyn bool
	funcs0          []string // definition order
	// cur is the index of the invocation being classified, -1 outside
	// one.
	cur int
	// written holds the files this command line writes with output the
	// analysis knows, by cleaned path (script.go).
	written map[string]writtenFile
	// out is what the simple command last walked writes to standard
	// output, when it is static.
	out output
	// writes logs every path written or deleted, repeats included.
	writes []string
	// orphans are function bodies defined in a subshell and never called
	// there.
	orphans []*syntax.Stmt
	// programText counts the bytes of programs read from text the
	// command line computes (scripts it writes, text it pipes).
	programText int
	// envRuns holds NAME=VALUE settings that run code (envVar).
	envRuns map[string]bool
	// probing: a side analysis of an unknown program's operands, which
	// does not probe again.
	probing bool
	// work counts the invocations analysed, shared with side analyses;
	// finds holds what sideFinds found for a text, shared too; spent
	// counts the tokens parsed and the fields expanded, shared too.
	work  *int
	finds map[string]bool
	spent *spent
}

// spent is what one analysis has used of its bounds ([maxTokens],
// [maxExpanded]).
type spent struct {
	tokens, fields int
}

// tokens counts the words and operators of src: each run of bytes
// between blanks and shell metacharacters, and each metacharacter. It
// allocates nothing, so that it can bound the parse before it happens.
func tokens(src string) int {
	n, in := 0, false
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\n':
			in = false
		case ';', '&', '|', '<', '>', '(', ')', '`', '$', '{', '}', '\'', '"':
			n++
			in = false
		default:
			if !in {
				n++
			}
			in = true
		}
	}
	return n
}

// env is the shell state at one point of the walk. It is copied for a
// subshell; slices in it are never modified in place.
type env struct {
	src   string
	depth int
	// nest counts the substitutions and subshells around the walk.
	nest int
	// cwd holds the candidate working directories after the statement
	// in any outcome, ok those if it succeeded; nil means unknown. prev
	// and prevOk are the same for $OLDPWD, which cd - goes to; it is
	// unknown until the command changes directory itself.
	cwd, ok      []string
	prev, prevOk []string
	// dirs is the directory stack pushed by this command; an entry nil
	// is unknown.
	dirs [][]string
	// params are $1…, known only in a function or sh -c with arguments.
	params      []string
	paramsKnown bool
	stdin       stdinInfo
	funcDepth   int
	noFunc      bool
}

// stdinInfo says where a command's standard input comes from.
type stdinInfo struct {
	kind int
	sub  subInfo
	// body is a heredoc or here-string, when static.
	body       string
	bodyStatic bool
	// file is the file redirected to standard input, when static; proc
	// the source of a <(…) redirected to it.
	file, proc string
}

const (
	stdinNone = iota
	stdinPipe
	stdinDoc
	stdinFile
)

func (e *env) fork() *env { c := *e; return &c }

// settle starts a statement: what holds in any outcome of the previous
// one holds when the next begins.
func (e *env) settle() { e.ok, e.prevOk = e.cwd, e.prev }

// text returns the source text of a node.
func (e *env) text(n syntax.Node) string {
	s, t := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || t > len(e.src) || s > t {
		return ""
	}
	return e.src[s:t]
}

// Prepare builds the tables of programs Analyze classifies by, which its
// first call would otherwise build (0.2 ms in a new process): a caller
// that will analyse a command soon may build them on another goroutine,
// beside its other work.
func Prepare() { table() }

// Analyze parses and classifies one command string as bash would run it.
// It never fails: what it cannot analyse sets Unresolved.
func Analyze(cmd string, opt Options) *Analysis {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	a := &analyzer{opt: opt, flags: map[action.Flag]bool{}, pathSeen: map[Path]int{},
		funcs: map[string]*syntax.Stmt{}, called: map[string]bool{}, fetched: map[string]bool{},
		inv: make([]Invocation, 0, 8), meta: make([]invMeta, 0, 8), cur: -1, work: new(int), finds: map[string]bool{}, spent: new(spent)}
	e := &env{src: cmd, cwd: []string{opt.Cwd}}
	e.settle()
	if len(cmd) > maxCommand {
		a.unresolved(fmt.Sprintf("the command is %d bytes, more than the %d analysed", len(cmd), maxCommand))
		return a.result()
	}
	a.code(e, cmd, false)
	// Functions defined and never called by name may still be called
	// in ways the walk cannot see (a trap, a dynamic name): analyse them.
	for i := 0; i < len(a.funcs0); i++ {
		name := a.funcs0[i]
		if !a.called[name] {
			a.called[name] = true
			c := e.fork()
			c.paramsKnown = false
			a.stmt(c, a.funcs[name])
		}
	}
	for i := 0; i < len(a.orphans); i++ {
		c := e.fork()
		c.paramsKnown = false
		a.stmt(c, a.orphans[i])
	}
	return a.result()
}

// code parses src as a script and walks it in e, which it changes.
func (a *analyzer) code(e *env, src string, nested bool) {
	if nested {
		if e.depth+1 > a.opt.MaxDepth {
			a.unresolved(fmt.Sprintf("shell code nested more than %d levels deep", a.opt.MaxDepth))
			return
		}
		e.depth++
		defer func() { e.depth-- }()
	}
	if strings.IndexByte(src, 0) >= 0 {
		a.unresolved("the command holds a NUL byte")
		return
	}
	if n := tokens(src); a.spent.tokens+n > maxTokens {
		a.unresolved(fmt.Sprintf("the command holds more than %d words and operators to analyse", maxTokens))
		return
	} else {
		a.spent.tokens += n
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false)).Parse(strings.NewReader(src), "")
	if err != nil {
		a.unresolved(err.Error())
		return
	}
	a.prescan(f)
	saved := e.src
	e.src = src
	a.stmts(e, f.Stmts)
	e.src = saved
}

// home returns the static home directory, or "" if it is not known.
func (a *analyzer) home() string {
	if a.homeDyn {
		return ""
	}
	return a.opt.Home
}

// unresolved records why the command cannot be analysed; the first
// reason is kept.
func (a *analyzer) unresolved(why string) {
	if a.why == "" {
		a.why = why
	}
	a.flag(action.FlagUnresolvable)
}

func (a *analyzer) flag(f action.Flag) {
	a.flags[f] = true
	switch f {
	case action.FlagRunsCode, action.FlagPipeToInterpreter, action.FlagDownloadExec, action.FlagDecodeExec:
		if a.cur >= 0 {
			a.inv[a.cur].RunsCode = true
		}
	}
	// A detached process outlives the command: never read-only.
	a.notRO = true
}

func (a *analyzer) class(c action.Class) {
	a.classes |= 1 << c
	if c != action.ProcessSpawn {
		a.notRO = true
	}
}

func (a *analyzer) host(h string) {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h != "" && !slices.Contains(a.hosts, h) {
		a.hosts = append(a.hosts, h)
	}
}

func (a *analyzer) ref(r string) {
	if !slices.Contains(a.refs, r) {
		a.refs = append(a.refs, r)
	}
}

func (a *analyzer) result() *Analysis {
	an := &Analysis{Invocations: a.inv, Paths: a.paths, Hosts: a.hosts, Refs: a.refs, Packages: a.pkgs, Unresolved: a.why}
	a.classes |= 1 << action.ProcessSpawn
	for _, c := range action.Classes() {
		if a.classes&(1<<c) != 0 {
			an.Classes = append(an.Classes, c)
		}
	}
	for _, f := range flagOrder {
		if a.flags[f] {
			an.Flags = append(an.Flags, f)
		}
	}
	an.ReadOnly = !a.notRO && a.why == ""
	return an
}

// abs makes p absolute against every candidate working directory.
// /proc/self/cwd is the working directory of the process that opens the
// path, which is the command's: it is made relative, so that it follows
// cd like any relative path and is unknown where the directory is.
func (a *analyzer) abs(e *env, p string) ([]string, bool) {
	for _, c := range [...]string{"/proc/self/cwd", "/proc/thread-self/cwd"} {
		if rest, ok := strings.CutPrefix(p, c); ok && (rest == "" || rest[0] == '/') {
			p = strings.TrimLeft(rest, "/")
			if p == "" {
				p = "."
			}
			break
		}
	}
	if strings.HasPrefix(p, "/") {
		return []string{p}, true
	}
	if e.cwd == nil {
		return nil, false
	}
	out := make([]string, 0, len(e.cwd))
	for _, d := range e.cwd {
		out = append(out, join(d, p))
	}
	return out, true
}

func join(dir, p string) string {
	switch {
	case dir == "":
		return p
	case p == "" || p == ".":
		return dir
	case strings.HasSuffix(dir, "/"):
		return dir + p
	}
	return dir + "/" + p
}

// notPaths are device files that are not a read or write of data.
var notPaths = []string{"/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr",
	"/dev/tty", "/dev/random", "/dev/urandom", "/dev/full"}

// path records a path facet from a field.
func (a *analyzer) path(e *env, f field, acc action.Access) { a.pathRec(e, f, acc, false) }

// recRead records a directory operand that is read recursively.
func (a *analyzer) recRead(e *env, f field) { a.pathRec(e, f, action.Read, true) }

// pathRec records a path facet from a field; rec marks a recursive read.
func (a *analyzer) pathRec(e *env, f field, acc action.Access, rec bool) {
	switch {
	case f.under != "":
		a.addPath(f.under, acc, rec)
		return
	case f.proc:
		if acc != action.Read {
			a.notRO = true
		}
		return
	case f.dyn:
		a.unresolved(fmt.Sprintf("the path %s is not static", f.s))
		return
	case f.s == "" || f.s == "-":
		if acc != action.Read {
			a.notRO = true
		}
		return
	}
	a.pathStr(e, f.s, acc, rec)
}

func (a *analyzer) pathStr(e *env, p string, acc action.Access, rec bool) {
	if slices.Contains(notPaths, p) {
		return // writing to /dev/null or the terminal keeps a command read-only
	}
	if strings.HasPrefix(p, "/dev/fd/") {
		if acc != action.Read {
			a.notRO = true
		}
		return
	}
	ps, ok := a.abs(e, p)
	if !ok {
		a.unresolved(fmt.Sprintf("the working directory is not known for the path %s", p))
		return
	}
	for _, q := range ps {
		a.addPath(q, acc, rec)
	}
}

func (a *analyzer) addPath(p string, acc action.Access, rec bool) {
	if acc != action.Read {
		a.notRO = true
	}
	rec = rec && acc != action.Delete
	if acc != action.Read && len(a.writes) < maxInvocations {
		a.writes = append(a.writes, p)
	}
	k := Path{Path: p, Access: acc}
	if acc == action.Read && secretPath(p) {
		a.class(action.SecretAccess)
	}
	if i, ok := a.pathSeen[k]; ok {
		a.paths[i].Recursive = a.paths[i].Recursive || rec
		a.throughLinks(p, acc, rec)
		return
	}
	a.pathSeen[k] = len(a.paths)
	k.Recursive = rec
	a.paths = append(a.paths, k)
	a.throughLinks(p, acc, rec)
}

// secretPath reports, lexically, whether p names an obvious secret
// (docs/spec.md §5). Package pathguard makes the authoritative check on the
// resolved path; this only classifies the read as secretAccess.
func secretPath(p string) bool {
	if strings.ContainsAny(p, "*?[") && globSecret(p) {
		return true
	}
	l := strings.ToLower(p)
	base := l[strings.LastIndexByte(l, '/')+1:]
	for _, s := range []string{"/.ssh/", "/.gnupg/", "/.aws/credentials", "/.aws/config", "/.kube/",
		"/.docker/config.json", "/.netrc", "/.git-credentials", "/.config/gh/hosts.yml", "/.config/hub",
		"/.config/gcloud/", "/.pypirc", "/.vault-token", "/.gem/credentials", "/.bash_history", "/.zsh_history"} {
		if strings.Contains("/"+l+"/", s) {
			return true
		}
	}
	if strings.HasSuffix(l, "/.ssh") || strings.HasSuffix(l, "/.gnupg") || l == ".ssh" || l == ".gnupg" {
		return true
	}
	if base == ".env" || strings.HasPrefix(base, ".env.") {
		switch base {
		case ".env.example", ".env.sample", ".env.template", ".env.dist":
		default:
			return true
		}
	}
	for _, k := range []string{"id_rsa", "id_ecdsa", "id_ed25519", "id_dsa"} {
		if strings.HasPrefix(base, k) && !strings.HasSuffix(base, ".pub") {
			return true
		}
	}
	if strings.HasPrefix(l, "/proc/") && base == "environ" {
		return true
	}
	return secretName(l)
}

// union merges two candidate sets; nil (unknown) absorbs.
func union(x, y []string) []string {
	if x == nil || y == nil {
		return nil
	}
	out := slices.Clone(x)
	for _, d := range y {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if len(out) > maxCwds {
		return nil
	}
	return out
}

func sameSet(x, y []string) bool {
	if (x == nil) != (y == nil) || len(x) != len(y) {
		return false
	}
	for _, d := range x {
		if !slices.Contains(y, d) {
			return false
		}
	}
	return true
}
