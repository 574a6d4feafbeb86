// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file reads an inline program (python -c, perl -e, node -e, a
// heredoc given to an interpreter, a script written earlier in the same
// command line) far enough to find the commands it starts. The program is
// not parsed: it is split into tokens by a tolerant tokenizer that knows
// each language's strings (with their escapes and interpolation) and
// comments (inlinelex.go), the calls that start a process — os.system,
// subprocess, child_process, Deno.Command, Bun.spawn, system, exec,
// backticks, qx, %x, IO.popen, shell_exec, os.execute, io.popen, do shell
// script — are found in the token stream (inlinelang.go), and what each
// runs is read from its arguments (inlinespawn.go). The rules here:
//
//   - A process-spawning name that appears where the tokenizer cannot
//     follow it (in a comment, inside a longer string, after a construct
//     the tokenizer misread) is reported as opaque: the caller makes the
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
