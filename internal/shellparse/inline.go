// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file reads an inline program (python -c, perl -e, node -e, a
// heredoc given to an interpreter, a script written earlier in the same
// command line) far enough to find the commands it starts. The program is
// not parsed: it is split into tokens by a tolerant tokenizer that knows
// each language's strings (with their escapes and interpolation) and
// comments, and the calls that start a process — os.system, subprocess,
// child_process, Deno.Command, Bun.spawn, system, exec, backticks, qx,
// %x, IO.popen, shell_exec, os.execute, io.popen, do shell script — are
// found in the token stream. The rules:
//
//   - A call whose command is a literal string is reported as shell code
//     to analyse; a literal argument vector ("git", ["push"]) is joined,
//     each element quoted.
//   - A call whose command is not a literal (concatenation, a variable, an
//     interpolated string, decoding), a call made by name (getattr,
//     send(:system), call_user_func("system")), code evaluated from a
//     string that is not a literal (eval, exec, Function), and a
//     process-spawning name that appears where the tokenizer cannot follow
//     it (in a comment, inside a longer string, after a construct the
//     tokenizer misread) are reported as opaque: the caller makes the
//     command unresolved.
//   - Network libraries (urllib, requests, fetch, LWP, Net::HTTP, curl_…)
//     report network egress, with the hosts of literal URLs.
//
// The work is bounded: a program larger than maxInline is opaque, and
// code evaluated from a literal string is read again at most
// maxInlineDepth levels deep.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxInline bounds the size of an inline program the scanner reads.
const maxInline = 64 << 10

// maxInlineDepth bounds eval("…") inside an inline program.
const maxInlineDepth = 3

// maxInlineCmds bounds the commands reported for one program.
const maxInlineCmds = 64

// inlineScan is what scanning one inline program found.
type inlineScan struct {
	// cmds are literal shell commands the program starts.
	cmds []string
	// opaque are snippets of the program that start a command, or run
	// code, that cannot be analysed.
	opaque []string
	// net reports a network library; hosts are the hosts of literal
	// URLs.
	net   bool
	hosts []string
}

// itok is one token of an inline program.
type itok struct {
	// k is the kind: 'i' identifier, 's' string, 'x' command string
	// (backticks, qx, %x), 'w' word list (qw, %w), 'v' variable ($x, @x),
	// 'y' symbol (:name), 'n' number, 'p' punctuation.
	k byte
	// s is the identifier, the decoded string or the punctuation.
	s string
	// dyn: the string interpolates values.
	dyn bool
	// tpl: the string is a JavaScript template literal.
	tpl bool
	// nl: a newline comes before the token.
	nl   bool
	pos  int
	list []string
}

// Languages the scanner knows.
const (
	langPython = "python"
	langJS     = "node"
	langPerl   = "perl"
	langRuby   = "ruby"
	langPHP    = "php"
	langLua    = "lua"
	langOSA    = "osascript"
)

// inlineLang returns the scanner language of an interpreter family, ""
// if there is none.
func inlineLang(fam string) string {
	switch fam {
	case "python":
		return langPython
	case "node", "nodejs", "bun", "deno":
		return langJS
	case "perl":
		return langPerl
	case "ruby", "irb":
		return langRuby
	case "php":
		return langPHP
	case "lua", "luajit":
		return langLua
	case "osascript":
		return langOSA
	}
	return ""
}

// scanInline scans the program src written in lang.
func scanInline(lang, src string) *inlineScan {
	r := &inlineScan{}
	r.scan(lang, src, 0)
	return r
}

func (r *inlineScan) cmd(s string) {
	if len(r.cmds) >= maxInlineCmds {
		r.opaque1("the program starts more than " + strconv.Itoa(maxInlineCmds) + " commands")
		return
	}
	r.cmds = append(r.cmds, s)
}

func (r *inlineScan) opaque1(s string) {
	if len(r.opaque) < 8 {
		r.opaque = append(r.opaque, s)
	}
}

func (r *inlineScan) scan(lang, src string, depth int) {
	if len(src) > maxInline {
		r.opaque1("a program larger than " + strconv.Itoa(maxInline>>10) + " KiB")
		return
	}
	if !utf8.ValidString(src) || strings.IndexByte(src, 0) >= 0 {
		r.opaque1("a program that is not text")
		return
	}
	toks := lexInline(lang, src)
	s := &scanner{r: r, lang: lang, src: src, toks: toks, depth: depth, used: make([]bool, len(toks)), read: make([]bool, len(toks))}
	s.prepare()
	for i := range toks {
		s.at(i)
	}
	s.leftovers()
	s.network()
}

// scanner walks the tokens of one program.
type scanner struct {
	r     *inlineScan
	lang  string
	src   string
	toks  []itok
	depth int
	// used marks the tokens consumed by a recognised call; read those
	// read again as code by eval("…").
	used, read []bool
	// subprocess: python code that imports subprocess (or an alias),
	// childProc: JavaScript code that loads child_process.
	subprocess, childProc bool
	aliases               map[string]bool
	// fnAlias maps a name bound to a process-spawning function (from os
	// import system as s, {execSync: run}) to that function.
	fnAlias map[string]string
}

// snippet returns the source from token i to j, bounded.
func (s *scanner) snippet(i, j int) string {
	if i >= len(s.toks) {
		return ""
	}
	start := s.toks[i].pos
	end := len(s.src)
	if j < len(s.toks) {
		end = s.toks[j].pos
	}
	if end < start {
		end = start
	}
	t := strings.TrimSpace(s.src[start:end])
	if len(t) > 80 {
		t = t[:77] + "..."
	}
	return t
}

func (s *scanner) opaque(i, j int, why string) {
	// Name the callee with its qualifiers: os.system, not system.
	for k := 0; k < 4 && i >= 2; k++ {
		p, q := s.tok(i-1), s.tok(i-2)
		if p.k != 'p' || p.s != "." && p.s != "::" && p.s != "->" || q.k != 'i' && q.k != 'v' {
			break
		}
		i -= 2
	}
	s.r.opaque1(why + ": " + s.snippet(i, j))
}

func (s *scanner) tok(i int) itok {
	if i < 0 || i >= len(s.toks) {
		return itok{}
	}
	return s.toks[i]
}

func (s *scanner) isP(i int, p string) bool { t := s.tok(i); return t.k == 'p' && t.s == p }

// qual returns the qualifier of the identifier at i (os in os.system), ""
// if there is none, ")" after a call or index.
func (s *scanner) qual(i int) string {
	p := s.tok(i - 1)
	if p.k != 'p' || (p.s != "." && p.s != "::" && p.s != "->" && p.s != "?.") {
		return ""
	}
	q := s.tok(i - 2)
	switch q.k {
	case 'i', 'v':
		return q.s
	case 'p':
		return q.s
	}
	return "?"
}

// prepare finds the imports that make generic names spawn processes.
func (s *scanner) prepare() {
	s.aliases = map[string]bool{}
	s.fnAlias = map[string]string{}
	for i, t := range s.toks {
		if t.k == 'i' && s.tok(i+2).k == 'i' {
			// from os import system as s; const {execSync: run} = …
			n := s.tok(i + 1)
			if s.lang == langPython && n.k == 'i' && n.s == "as" && (pySpawnAny[t.s] || pySpawnSub[t.s] || pyEval[t.s]) ||
				s.lang == langJS && n.k == 'p' && n.s == ":" && (jsSpawn[t.s] || jsEval[t.s]) {
				s.fnAlias[s.tok(i+2).s] = t.s
			}
		}
		switch s.lang {
		case langPython:
			if t.k == 'i' && t.s == "subprocess" || t.k == 's' && t.s == "subprocess" {
				s.subprocess = true
				if s.tok(i+1).k == 'i' && s.tok(i+1).s == "as" && s.tok(i+2).k == 'i' {
					s.aliases[s.tok(i+2).s] = true
				}
			}
		case langJS:
			if (t.k == 'i' || t.k == 's') && (t.s == "child_process" || t.s == "node:child_process") {
				s.childProc = true
			}
		}
	}
}

// Names per language.
var (
	pySpawnAny = set("system", "popen", "popen2", "popen3", "popen4", "Popen", "check_output", "check_call",
		"getoutput", "getstatusoutput", "create_subprocess_exec", "create_subprocess_shell",
		"execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
		"spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
		"posix_spawn", "posix_spawnp", "startfile")
	pySpawnSub = set("run", "call")
	pyCmdKw    = set("args", "cmd", "command", "argv", "executable", "file", "path")
	pyEval     = set("eval", "exec", "compile", "__import__", "import_module", "getattr", "execfile")
	jsSpawn    = set("exec", "execSync", "spawn", "spawnSync", "execFile", "execFileSync")
	jsEval     = set("eval", "Function", "require", "import", "binding", "_linkedBinding", "runInNewContext",
		"runInThisContext", "runInContext", "compileFunction")
	plSpawn = set("system", "exec", "readpipe", "open", "open2", "open3")
	plEval  = set("eval", "do", "require")
	rbSpawn = set("system", "exec", "spawn", "popen", "popen2", "popen2e", "popen3", "capture2", "capture2e",
		"capture3", "pipeline", "pipeline_r", "pipeline_w", "pipeline_rw", "pipeline_start", "open")
	rbEval   = set("eval", "instance_eval", "class_eval", "module_eval", "instance_exec", "class_exec")
	phpSpawn = set("system", "exec", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec")
	phpEval  = set("eval", "assert", "create_function", "call_user_func", "call_user_func_array", "preg_replace_callback_array")
	luaSpawn = set("execute", "popen")
	luaEval  = set("load", "loadstring", "dofile", "loadfile", "require")
	// markers are the names that must be followed wherever they appear.
	markers = map[string][]string{
		langPython: {"system", "popen", "subprocess", "Popen", "check_output", "check_call", "getoutput",
			"getstatusoutput", "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
			"spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
			"posix_spawn", "posix_spawnp", "pty", "eval", "exec", "__import__", "importlib", "getattr", "ctypes",
			"create_subprocess_exec", "create_subprocess_shell", "__builtins__", "builtins"},
		langJS: {"child_process", "execSync", "spawnSync", "execFile", "execFileSync", "spawn", "exec", "eval",
			"Function", "require", "binding", "Deno", "Bun", "doShellScript", "vm"},
		langPerl: {"system", "exec", "readpipe", "qx", "open", "open2", "open3", "eval", "syscall"},
		langRuby: {"system", "exec", "spawn", "popen", "popen2", "popen3", "capture2", "capture2e", "capture3",
			"Open3", "PTY", "eval", "instance_eval", "class_eval", "module_eval", "send", "__send__",
			"public_send", "const_get", "method", "syscall"},
		langPHP: {"system", "exec", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec", "eval",
			"assert", "create_function", "call_user_func", "call_user_func_array"},
		langLua: {"execute", "popen", "load", "loadstring", "dofile", "loadfile"},
		langOSA: {"shell", "doShellScript"},
	}
	// netHints name network libraries, per language.
	netHints = map[string][]string{
		langPython: {"urllib", "urllib2", "urllib3", "requests", "httpx", "aiohttp", "http.client", "socket",
			"ftplib", "smtplib", "telnetlib", "paramiko", "urlopen", "websocket", "websockets"},
		langJS: {"fetch", "http", "https", "net", "tls", "dgram", "axios", "undici", "WebSocket",
			"XMLHttpRequest", "node:http", "node:https", "node:net"},
		langPerl: {"LWP", "IO::Socket", "HTTP::Tiny", "Net::", "Socket", "WWW::Mechanize", "Mojo::UserAgent"},
		langRuby: {"Net::HTTP", "open-uri", "URI.open", "Socket", "TCPSocket", "HTTParty", "Faraday",
			"RestClient", "Net::FTP"},
		langPHP: {"curl_", "fsockopen", "stream_socket_client", "socket_connect", "get_headers"},
		langLua: {"socket", "http"},
		langOSA: {"curl", "http"},
	}
	// urlReaders read a URL they are given as they read a file.
	urlReaders = map[string][]string{
		langPHP:  {"file_get_contents", "fopen", "readfile", "copy", "file", "simplexml_load_file", "parse_ini_file"},
		langRuby: {"open", "URI"},
		langPerl: {"get", "getprint", "getstore", "head"},
	}
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// at looks at token i.
func (s *scanner) at(i int) {
	t := s.toks[i]
	if s.used[i] {
		return
	}
	switch t.k {
	case 'x':
		s.used[i] = true
		if t.dyn {
			s.opaque(i, i+1, "a command string that is not a literal")
			return
		}
		s.r.cmd(t.s)
		return
	case 's':
		// Bun.$`…` and zx's $`…` run a template as shell.
		if t.tpl && s.lang == langJS && s.tok(i-1).k == 'i' && s.tok(i-1).s == "$" {
			s.used[i] = true
			if t.dyn {
				s.opaque(i-1, i+1, "a shell template that is not a literal")
				return
			}
			s.r.cmd(t.s)
		}
		return
	case 'v':
		// $f(…) in PHP calls a function named by a variable.
		if s.lang == langPHP && s.isP(i+1, "(") && !s.isP(i-1, "->") && !s.isP(i-1, "::") {
			s.opaque(i, i+2, "a call of a function named by a variable")
		}
		return
	case 'p':
		// f[x](…): a function called by a computed name.
		if t.s == "]" && s.isP(i+1, "(") && s.lang != langPerl && s.lang != langOSA {
			k := i - 1
			for depth := 0; k >= 0; k-- {
				u := s.toks[k]
				if u.k == 'p' && (u.s == "]" || u.s == ")" || u.s == "}") {
					depth++
				} else if u.k == 'p' && (u.s == "[" || u.s == "(" || u.s == "{") {
					if depth == 0 {
						break
					}
					depth--
				}
			}
			if k < 0 || k+2 != i || s.tok(k+1).k != 's' || s.tok(k+1).dyn || spawnName(s.tok(k+1).s) {
				s.opaque(max(k, 0), i+2, "a function called by a computed name")
			}
		}
		return
	case 'i':
	default:
		return
	}
	name, q := t.s, s.qual(i)
	if target, ok := s.fnAlias[name]; ok && q == "" && !s.isP(i-1, "{") && !s.isP(i+1, ":") {
		name = target
	}
	if name == "constructor" && s.lang == langJS && s.isP(i+1, "(") {
		s.opaque(i, i+2, "the Function constructor")
		return
	}
	switch s.lang {
	case langPython:
		switch {
		case pySpawnAny[name] || pySpawnSub[name] && (q == "subprocess" || s.aliases[q] || q == "" && s.subprocess || q == ")") ||
			name == "spawn" && q == "pty":
			s.spawn(i, name)
		case pyEval[name] && (q == "" || name == "import_module"):
			s.eval(i, name)
		}
	case langJS:
		switch {
		case jsSpawn[name] && (s.childProc || name != "exec") && q != "?":
			s.spawn(i, name)
		case q == "Deno" && (name == "Command" || name == "run"), q == "Bun" && (name == "spawn" || name == "spawnSync"):
			s.spawn(i, name)
		case name == "doShellScript":
			s.spawn(i, name)
		case jsEval[name] && (q == "" || name == "binding" || name == "_linkedBinding" || strings.HasPrefix(name, "run") || name == "compileFunction"):
			s.eval(i, name)
		}
	case langPerl:
		switch {
		case plSpawn[name] && (q == "" || q == "CORE" || q == "IPC"):
			s.spawn(i, name)
		case plEval[name] && q == "":
			s.eval(i, name)
		}
	case langRuby:
		switch {
		case rbSpawn[name] && (name != "open" || q == "" || q == "Kernel") && q != "File":
			s.spawn(i, name)
		case rbEval[name]:
			s.eval(i, name)
		}
	case langPHP:
		switch {
		case phpSpawn[name] && q == "":
			s.spawn(i, name)
		case phpEval[name] && q == "":
			s.eval(i, name)
		}
	case langLua:
		switch {
		case luaSpawn[name] && (q == "os" || q == "io"):
			s.spawn(i, name)
		case luaEval[name] && q == "":
			s.eval(i, name)
		}
	case langOSA:
		if name == "do" && s.tok(i+1).k == 'i' && strings.EqualFold(s.tok(i+1).s, "shell") && s.tok(i+2).k == 'i' && strings.EqualFold(s.tok(i+2).s, "script") {
			s.used[i+1], s.used[i+2] = true, true
			s.spawnAt(i, i+2, name)
		} else if name == "doShellScript" {
			s.spawn(i, name)
		}
	}
}

// arg is one argument of a call.
type arg struct {
	str  string
	list []string
	// k: 's' string, 'l' list, 'k' keyword or option (ignored), 'o' an
	// object with cmd/args lists, '?' anything else.
	k    byte
	obj  map[string]arg
	i, j int
}

// args returns the arguments of the call whose callee ends at token i,
// and the index after them; ok is false if the callee is not called.
func (s *scanner) args(i int) ([]arg, int, bool) {
	j := i + 1
	// new Deno.Command(…), os.system (…)
	if s.isP(j, "(") {
		end := s.matching(j)
		return s.split(j+1, end), end + 1, true
	}
	// Calls without parentheses: system "…", os.execute "…", do shell
	// script "…".
	switch s.lang {
	case langPerl, langRuby, langLua, langOSA, langPHP:
	default:
		return nil, j, false
	}
	t := s.tok(j)
	if t.k == 0 || t.k == 'p' && t.s != "[" && t.s != "{" && t.s != "%" || t.nl && s.lang != langPerl {
		return nil, j, false
	}
	if s.lang == langLua && t.k != 's' && !(t.k == 'p' && t.s == "{") {
		return nil, j, false
	}
	end := j
	depth := 0
	for ; end < len(s.toks); end++ {
		u := s.toks[end]
		if end > j && u.nl && s.lang != langPerl && depth == 0 {
			break
		}
		if u.k == 'p' {
			switch u.s {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					goto done
				}
				depth--
			case ";", "|", "&":
				if depth == 0 && !(s.lang == langOSA && u.s == "&") {
					goto done
				}
			}
		}
		if u.k == 'i' && depth == 0 && end > j {
			switch u.s {
			case "or", "and", "if", "unless", "while", "until", "rescue", "then", "do":
				goto done
			}
		}
	}
done:
	return s.split(j, end), end, true
}

// matching returns the index of the bracket closing the one at i, or
// len(toks).
func (s *scanner) matching(i int) int {
	depth := 0
	for k := i; k < len(s.toks); k++ {
		t := s.toks[k]
		if t.k != 'p' {
			continue
		}
		switch t.s {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return len(s.toks)
}

// split splits tokens i..end at top-level commas into arguments.
func (s *scanner) split(i, end int) []arg {
	var out []arg
	depth := 0
	start := i
	for k := i; k <= end && k <= len(s.toks); k++ {
		if k == end || k == len(s.toks) {
			if k > start {
				out = append(out, s.value(start, k))
			}
			break
		}
		t := s.toks[k]
		if t.k != 'p' {
			continue
		}
		switch t.s {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",", "=>":
			if depth == 0 && !(t.s == "=>" && s.lang != langPerl) {
				out = append(out, s.value(start, k))
				start = k + 1
			}
		}
	}
	return out
}

// value evaluates the tokens i..j of one argument.
func (s *scanner) value(i, j int) arg {
	a := arg{k: '?', i: i, j: j}
	n := j - i
	t := s.tok(i)
	switch {
	case n == 1 && t.k == 's' && !t.dyn:
		a.k, a.str = 's', t.s
	case n >= 2 && s.lang == langOSA && t.k == 's' && !t.dyn && s.tok(i+1).k == 'i':
		// do shell script "ls" with administrator privileges
		a.k, a.str = 's', t.s
	case n == 1 && t.k == 'w':
		a.k, a.list = 'l', t.list
	case n >= 1 && s.lang == langPython && allStrings(s.toks[i:j]):
		// Adjacent literals are one string in Python.
		var b strings.Builder
		for _, u := range s.toks[i:j] {
			b.WriteString(u.s)
		}
		a.k, a.str = 's', b.String()
	case n >= 3 && t.k == 'i' && s.isP(i+1, "=") && s.lang == langPython && pyCmdKw[t.s]:
		// subprocess.run(args=[…]), os.execv(path=…)
		return s.value(i+2, j)
	case n >= 2 && t.k == 'i' && s.isP(i+1, "=") && s.lang == langPython,
		n >= 2 && (t.k == 'i' || t.k == 'y') && s.isP(i+1, ":") && s.lang == langRuby,
		n == 1 && t.k == 'y':
		a.k = 'k' // shell=True, exception: true, :err
	case n >= 2 && (t.k == 's' || t.k == 'i' || t.k == 'y') && s.isP(i+1, "=>") && (s.lang == langRuby || s.lang == langPHP):
		a.k = 'k'
	case n >= 2 && t.k == 'p' && (t.s == "[" || t.s == "(" || t.s == "{" && s.lang == langLua) && s.matching(i) == j-1:
		if l, ok := s.strList(i+1, j-1); ok {
			a.k, a.list = 'l', l
		}
	case n >= 3 && s.lang == langPHP && t.k == 'i' && t.s == "array" && s.isP(i+1, "(") && s.matching(i+1) == j-1:
		if l, ok := s.strList(i+2, j-1); ok {
			a.k, a.list = 'l', l
		}
	case n >= 2 && t.k == 'p' && t.s == "{" && s.matching(i) == j-1:
		a.k, a.obj = 'o', s.object(i+1, j-1)
	}
	return a
}

func allStrings(ts []itok) bool {
	for _, t := range ts {
		if t.k != 's' || t.dyn {
			return false
		}
	}
	return true
}

// strList evaluates a comma-separated list of literal strings.
func (s *scanner) strList(i, j int) ([]string, bool) {
	var out []string
	for _, v := range s.split(i, j) {
		switch v.k {
		case 's':
			out = append(out, v.str)
		case 'l':
			out = append(out, v.list...)
		default:
			return nil, false
		}
	}
	return out, true
}

// object evaluates the cmd and args members of an object literal.
func (s *scanner) object(i, j int) map[string]arg {
	m := map[string]arg{}
	for _, v := range s.split(i, j) {
		k := s.tok(v.i)
		if (k.k == 'i' || k.k == 's') && s.isP(v.i+1, ":") {
			m[k.s] = s.value(v.i+2, v.j)
		}
	}
	return m
}

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

// spawnNames are the names of process-spawning and code-evaluating
// functions that a program may call by name.
var spawnNames = set("system", "popen", "Popen", "check_output", "check_call", "getoutput", "getstatusoutput",
	"exec", "execSync", "spawn", "spawnSync", "execFile", "execFileSync", "shell_exec", "passthru", "proc_open",
	"pcntl_exec", "readpipe", "execute", "popen3", "popen2", "capture2", "capture2e", "capture3", "eval",
	"execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe", "spawnl", "spawnle",
	"spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "posix_spawn", "posix_spawnp",
	"doShellScript", "instance_eval", "class_eval", "module_eval", "assert", "create_function", "constructor")

// spawnName reports whether a name, given as a string, is that of a
// process-spawning or code-evaluating function in some language.
func spawnName(n string) bool { return spawnNames[n] }

// leftovers reports what the walk could not follow: a string that names
// a process-spawning function (reflection), and a marker name that
// appears in the source more often than the tokens account for (in a
// comment, in a longer string, after a construct the tokenizer misread).
func (s *scanner) leftovers() {
	for i, t := range s.toks {
		if s.used[i] || t.k != 's' && t.k != 'y' {
			continue
		}
		if spawnName(t.s) && (t.k == 'y' || s.isP(i-1, "[") || s.isP(i-1, "(") || s.isP(i-1, ",")) {
			s.opaque(i, i+1, "a process-spawning function named by a string")
		}
	}
	for _, m := range markers[s.lang] {
		raw := countWord(s.src, m)
		if raw == 0 {
			continue
		}
		seen := 0
		for k, t := range s.toks {
			switch {
			case s.read[k]:
				seen += countWord(t.s, m) // read again as code, where it is followed
			case t.k == 'x' || t.k == 's' && s.used[k] && !t.dyn:
				// A command string names programs, not functions.
				seen += countWord(t.s, m)
				if strings.HasPrefix(s.src[t.pos:], m) {
					seen++ // qx{…}
				}
			case (t.k == 'i' || t.k == 's' || t.k == 'y' || t.k == 'v') && (t.s == m || t.s == "node:"+m):
				seen++
			}
		}
		if raw > seen {
			s.r.opaque1("the name " + m + " appears where the program cannot be followed")
		}
	}
}

// countWord counts the occurrences of w in s not inside a longer name.
func countWord(s, w string) int {
	n := 0
	for k := 0; ; {
		j := strings.Index(s[k:], w)
		if j < 0 {
			return n
		}
		j += k
		e := j + len(w)
		if (j == 0 || !nameByte(s[j-1])) && (e >= len(s) || !nameByte(s[e])) {
			n++
		}
		k = j + 1
	}
}

func nameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// network reports network libraries and the hosts of literal URLs.
func (s *scanner) network() {
	for _, h := range netHints[s.lang] {
		if strings.HasSuffix(h, "_") || strings.HasSuffix(h, ":") || strings.ContainsAny(h, ".-:") {
			if strings.Contains(s.src, h) {
				s.r.net = true
				break
			}
			continue
		}
		if countWord(s.src, h) > 0 {
			s.r.net = true
			break
		}
	}
	var hosts []string
	for _, t := range s.toks {
		if t.k != 's' {
			continue
		}
		if h, ok := urlHost(t.s); ok && len(hosts) < 16 {
			hosts = append(hosts, h)
		}
	}
	if len(hosts) == 0 {
		return
	}
	for _, n := range urlReaders[s.lang] {
		if countWord(s.src, n) > 0 {
			s.r.net = true
		}
	}
	if s.r.net {
		s.r.hosts = append(s.r.hosts, hosts[:min(len(hosts), 16-len(s.r.hosts))]...)
	}
}

// urlHost returns the host of a literal URL.
func urlHost(u string) (string, bool) {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "", false
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "ftp", "ws", "wss":
	default:
		return "", false
	}
	end := strings.IndexAny(rest, "/?#")
	if end >= 0 {
		rest = rest[:end]
	}
	if k := strings.LastIndexByte(rest, '@'); k >= 0 {
		rest = rest[k+1:]
	}
	if strings.HasPrefix(rest, "[") {
		if k := strings.IndexByte(rest, ']'); k > 0 {
			return strings.ToLower(rest[1:k]), true
		}
	}
	if k := strings.LastIndexByte(rest, ':'); k >= 0 {
		rest = rest[:k]
	}
	if rest == "" {
		return "", false
	}
	return strings.ToLower(rest), true
}
