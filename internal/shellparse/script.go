// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file follows text through one command line: what a simple command
// writes to standard output when the analysis can compute it (echo,
// printf, cat of a heredoc, rev, tr, base64 -d, xxd -r -p of static
// input), the files written with it (cat > x.sh <<EOF, echo … > x,
// tee x), and the scripts later run from those files (sh x.sh, ./x,
// source x, python x.py, bash < x.sh), whose content is analysed as the
// program that runs it would read it. The rules:
//
//   - Text that a decoder or an escape-expanding printf or echo -e
//     produces is marked decoded: piped into an interpreter it is
//     decode_exec.
//   - A file written in the command line with output the analysis cannot
//     compute, or by a program whose output it does not follow (cp,
//     curl -o, sed -i), and then run, is unresolved.

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/action"
)

// maxText bounds the static text followed through a command line.
const maxText = 64 << 10

// maxProgramText bounds the program text read in one analysis, in total:
// inline programs and the text the command line computes (scripts
// written, text piped), which a function or a loop of calls may read many
// times.
const maxProgramText = 4 * maxText

// output is what a command writes to standard output.
type output struct {
	text string
	// ok: the text is known; dec: it was decoded or escape-expanded.
	ok, dec bool
}

// writtenFile is a file written in the command line.
type writtenFile struct {
	// texts are what the file may hold: a file written on two paths of
	// the command line (if … then echo a > f; else echo b > f; fi) may
	// hold either.
	texts []string
	// static: texts are all that was written (or appended, with
	// partial: the earlier content is the file's own); dec: some of it
	// was decoded.
	static, partial, dec bool
}

// maxAlts bounds the contents tracked for one file.
const maxAlts = 4

// passWrappers run the command they are given with the same standard
// input and output.
var passWrappers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"env": true, "nice": true, "timeout": true, "command": true, "builtin": true,
		"nohup": true, "stdbuf": true, "sudo": true, "doas": true, "exec": true, "ionice": true, "chrt": true, "time": true}
})

// lastCmd returns the index of the command a simple command recorded at
// start runs, through wrappers that keep its input and output: the only
// invocation, or the last one after wrappers.
func (a *analyzer) lastCmd(start int) (int, bool) {
	if start >= len(a.inv) {
		return 0, false
	}
	for _, inv := range a.inv[start : len(a.inv)-1] {
		if inv.Dynamic || len(inv.Argv) == 0 || !passWrappers()[inv.Argv[0]] {
			return 0, false
		}
	}
	return len(a.inv) - 1, true
}

// outputOf computes the standard output of the one invocation recorded
// at start, whose standard input is in.
func (a *analyzer) outputOf(e *env, in stdinInfo, start int) output {
	last, ok := a.lastCmd(start)
	if !ok {
		return output{}
	}
	inv := a.inv[last]
	if inv.Dynamic || len(inv.Argv) == 0 {
		return output{}
	}
	stdin := func() (string, bool) {
		if (in.kind == stdinDoc || in.kind == stdinPipe) && in.bodyStatic {
			return in.body, true
		}
		return "", false
	}
	args := inv.Argv[1:]
	switch inv.Argv[0] {
	case ":", "true", "false":
		return output{ok: true}
	case "echo":
		return echoOut(args)
	case "printf":
		return printfOut(args)
	case "cat":
		// cat of standard input and of files written in the command line.
		if len(args) == 0 {
			s, ok := stdin()
			return output{text: s, ok: ok}
		}
		var b strings.Builder
		dec := false
		for _, f := range args {
			var s string
			ok, d := false, false
			if f == "-" {
				s, ok = stdin()
			} else if !strings.HasPrefix(f, "-") {
				s, ok, d = a.writtenText(e, f)
			}
			dec = dec || d
			if !ok || b.Len()+len(s) > maxText {
				return output{dec: dec}
			}
			b.WriteString(s)
		}
		return output{text: b.String(), ok: true, dec: dec}
	case "tee":
		for _, f := range args {
			if strings.HasPrefix(f, "-") && f != "-a" && f != "--append" {
				return output{}
			}
		}
		s, ok := stdin()
		return output{text: s, ok: ok}
	case "rev":
		s, ok := stdin()
		if !ok || len(args) > 0 {
			return output{dec: true}
		}
		lines := strings.SplitAfter(s, "\n")
		var b strings.Builder
		for _, l := range lines {
			body, nl := strings.CutSuffix(l, "\n")
			r := []rune(body)
			slices.Reverse(r)
			b.WriteString(string(r))
			if nl {
				b.WriteByte('\n')
			}
		}
		return output{text: b.String(), ok: true, dec: true}
	case "tr":
		s, ok := stdin()
		if !ok {
			return output{dec: true}
		}
		t, ok := trOut(args, s)
		return output{text: t, ok: ok, dec: true}
	case "base64", "base32":
		if !hasAnyS(args, "-d", "-D", "--decode") {
			return output{}
		}
		s, ok := stdin()
		if !ok {
			return output{dec: true}
		}
		clean := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\t' || r == '\r' {
				return -1
			}
			return r
		}, s)
		var d []byte
		var err error
		if inv.Argv[0] == "base64" {
			d, err = base64.StdEncoding.DecodeString(clean)
			if err != nil {
				d, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(clean, "="))
			}
		} else {
			d, err = base32.StdEncoding.DecodeString(clean)
		}
		return output{text: string(d), ok: err == nil && utf8.Valid(d), dec: true}
	case "xxd":
		if !hasAnyS(args, "-r") {
			return output{}
		}
		s, ok := stdin()
		if !ok || !hasAnyS(args, "-p", "-ps", "-rp", "-pr", "-plain", "-postscript") {
			return output{dec: true}
		}
		clean := strings.Map(func(r rune) rune {
			if isHex(byte(r)) && r < 0x80 {
				return r
			}
			return -1
		}, s)
		d, err := hex.DecodeString(clean[:len(clean)&^1])
		return output{text: string(d), ok: err == nil && utf8.Valid(d), dec: true}
	}
	return output{}
}

func hasAnyS(args []string, want ...string) bool {
	for _, s := range args {
		if slices.Contains(want, s) {
			return true
		}
	}
	return false
}

// echoOut is bash's echo: -n, -e and -E options, then the words.
func echoOut(args []string) output {
	esc, nl := false, "\n"
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				nl = ""
			case 'e':
				esc = true
			case 'E':
				esc = false
			}
		}
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if !strings.Contains(s, `\`) {
		return output{text: s + nl, ok: true}
	}
	if !esc {
		// sh's echo expands escapes where bash's does not: the text is
		// not known, and may decode.
		return output{dec: hidesText(s)}
	}
	t, stop := printfEscapes(s, true)
	if stop {
		nl = ""
	}
	return output{text: t + nl, ok: true, dec: hidesText(s)}
}

// printfOut is printf with %s, %b, %c, %d, %i, %u, %% directives and the
// escapes of its format, the format reused while arguments remain.
func printfOut(args []string) output {
	if len(args) == 0 || args[0] == "-v" || args[0] == "--" && len(args) == 1 {
		return output{}
	}
	if args[0] == "--" {
		args = args[1:]
	}
	format, rest := args[0], args[1:]
	dec := hidesText(format)
	var b strings.Builder
	for {
		used := 0
		for k := 0; k < len(format); k++ {
			c := format[k]
			switch {
			case c == '\\':
				n := escapeLen(format[k:])
				t, _ := printfEscapes(format[k:k+n], false)
				b.WriteString(t)
				k += n - 1
			case c == '%':
				if k+1 < len(format) && format[k+1] == '%' {
					b.WriteByte('%')
					k++
					continue
				}
				j := k + 1
				for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
					j++
				}
				if j >= len(format) || j > k+1 {
					return output{dec: dec}
				}
				var v string
				if used < len(rest) {
					v = rest[used]
				}
				used++
				switch format[j] {
				case 's':
					b.WriteString(v)
				case 'b':
					t, stop := printfEscapes(v, true)
					b.WriteString(t)
					dec = dec || hidesText(v)
					if stop {
						return output{text: b.String(), ok: true, dec: dec}
					}
				case 'c':
					if v != "" {
						_, n := utf8.DecodeRuneInString(v)
						b.WriteString(v[:n])
					}
				case 'd', 'i', 'u':
					if v == "" {
						v = "0"
					}
					n, err := strconv.ParseInt(v, 10, 64)
					if err != nil {
						return output{dec: dec}
					}
					b.WriteString(strconv.FormatInt(n, 10))
				default:
					return output{dec: dec}
				}
				k = j
			default:
				b.WriteByte(c)
			}
			if b.Len() > maxText {
				return output{dec: dec}
			}
		}
		if used == 0 || used >= len(rest) {
			break
		}
		rest = rest[used:]
	}
	return output{text: b.String(), ok: true, dec: dec}
}

// hidesText reports whether s holds an escape that spells a byte by its
// code (\x67, \147, \u0067), which hides the text from a reader.
func hidesText(s string) bool {
	for k := 0; k+1 < len(s); k++ {
		if s[k] != '\\' {
			continue
		}
		if strings.IndexByte("xuU01234567", s[k+1]) >= 0 {
			return true
		}
		k++
	}
	return false
}

// escapeLen returns the length of the backslash escape at the start of
// s, as printf reads it.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch c := s[1]; {
	case c == 'x':
		n := 2
		for n < len(s) && n < 4 && isHex(s[n]) {
			n++
		}
		return n
	case c == 'u' || c == 'U':
		w := 4
		if c == 'U' {
			w = 8
		}
		n := 2
		for n < len(s) && n < 2+w && isHex(s[n]) {
			n++
		}
		return n
	case c >= '0' && c <= '7':
		n := 1
		for n < len(s) && n < 4 && s[n] >= '0' && s[n] <= '7' {
			n++
		}
		if c == '0' {
			for n < len(s) && n < 5 && s[n] >= '0' && s[n] <= '7' {
				n++
			}
		}
		return n
	}
	return 2
}

// printfEscapes expands the escapes of printf's format (or, with b, of
// %b and echo -e, where octal takes a leading 0 and \c stops output).
func printfEscapes(s string, b bool) (string, bool) {
	var out strings.Builder
	for k := 0; k < len(s); k++ {
		c := s[k]
		if c != '\\' || k+1 >= len(s) {
			out.WriteByte(c)
			continue
		}
		n := escapeLen(s[k:])
		e := s[k+1]
		switch {
		case e == 'c' && b:
			return out.String(), true
		case e == 'x' && n > 2:
			v, _ := strconv.ParseUint(s[k+2:k+n], 16, 8)
			out.WriteByte(byte(v))
		case (e == 'u' || e == 'U') && n > 2:
			v, _ := strconv.ParseUint(s[k+2:k+n], 16, 32)
			if v > utf8.MaxRune {
				v = utf8.RuneError
			}
			out.WriteRune(rune(v))
		case e >= '0' && e <= '7':
			digits := s[k+1 : k+n]
			if b {
				digits = strings.TrimPrefix(digits, "0")
			}
			v, _ := strconv.ParseUint("0"+digits, 8, 16)
			out.WriteByte(byte(v))
		default:
			if r, ok := map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'a': 7, 'b': 8, 'f': 12, 'v': 11, 'e': 27, 'E': 27, '\\': '\\', '"': '"', '\'': '\''}[e]; ok {
				out.WriteByte(r)
			} else {
				out.WriteByte('\\')
				out.WriteByte(e)
			}
		}
		k += n - 1
	}
	return out.String(), false
}

// trOut is tr SET1 SET2, tr -d SET and tr -s of static text; ok is false
// for what it does not compute (classes, -c).
func trOut(args []string, s string) (string, bool) {
	del, squeeze := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		for _, c := range args[0][1:] {
			switch c {
			case 'd':
				del = true
			case 's':
				squeeze = true
			default:
				return "", false
			}
		}
		args = args[1:]
	}
	if squeeze || len(args) == 0 || len(args) > 2 || del != (len(args) == 1) {
		return "", false
	}
	set1, ok := trSet(args[0])
	if !ok {
		return "", false
	}
	if del {
		return strings.Map(func(r rune) rune {
			if slices.Contains(set1, r) {
				return -1
			}
			return r
		}, s), true
	}
	set2, ok := trSet(args[1])
	if !ok || len(set2) == 0 {
		return "", false
	}
	return strings.Map(func(r rune) rune {
		if k := slices.Index(set1, r); k >= 0 {
			if k >= len(set2) {
				k = len(set2) - 1
			}
			return set2[k]
		}
		return r
	}, s), true
}

// trSet expands a tr set with ranges and escapes.
func trSet(s string) ([]rune, bool) {
	if strings.Contains(s, "[:") || strings.Contains(s, "[=") || strings.Contains(s, "*") {
		return nil, false
	}
	t, _ := printfEscapes(s, false)
	rs := []rune(t)
	var out []rune
	for k := 0; k < len(rs); k++ {
		if k+2 < len(rs) && rs[k+1] == '-' {
			if rs[k+2] < rs[k] || rs[k+2]-rs[k] > 1024 {
				return nil, false
			}
			for r := rs[k]; r <= rs[k+2]; r++ {
				out = append(out, r)
			}
			k += 2
			continue
		}
		out = append(out, rs[k])
	}
	return out, true
}

// stdoutRedirected reports whether a statement sends standard output to
// a file or another descriptor.
func stdoutRedirected(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.N != nil && r.N.Value != "1" {
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob,
			syntax.AppAll, syntax.AppAllClob, syntax.DplOut:
			return true
		}
	}
	return false
}

// appends reports, per standard-output redirection with a static target,
// whether it appends.
func appends(rs []*syntax.Redirect) []bool {
	var out []bool
	for _, r := range rs {
		if r.N != nil && r.N.Value != "1" {
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob:
			out = append(out, false)
		case syntax.AppOut, syntax.AppClob, syntax.AppAll, syntax.AppAllClob:
			out = append(out, true)
		case syntax.DplOut:
			out = append(out, false)
		}
	}
	return out
}

// noteOutput records what the simple command just walked writes: its
// static output, for the next stage of a pipeline, and the files it
// writes with it. writes are its standard-output redirection targets.
func (a *analyzer) noteOutput(e *env, s *syntax.Stmt, start, paths0 int, writes [][]string) {
	// Files the command writes by option or operand (cp, curl -o, sed -i)
	// hold content the analysis does not follow; chmod and touch keep it.
	meta := true
	for _, inv := range a.inv[start:] {
		// tee's files are written below, with what it reads.
		meta = meta && len(inv.Argv) > 0 && (keepsContent()[inv.Argv[0]] || inv.Argv[0] == "tee")
	}
	if !meta {
		for _, p := range a.writes[min(paths0, len(a.writes)):] {
			a.write(path.Clean(p), output{}, false)
		}
	}
	if len(a.writes) >= maxInvocations {
		a.unresolved("the command writes too many paths to follow")
	}
	out := output{}
	if len(a.inv) > start {
		out = a.outputOf(e, e.stdin, start)
		if out.dec {
			a.meta[len(a.meta)-1].decode = true
		}
	} else if len(a.inv) == start {
		out = output{ok: true} // redirections alone: > x truncates x
	}
	if len(out.text) > maxText {
		out = output{dec: out.dec}
	}
	app := appends(s.Redirs)
	for k, ps := range writes {
		ap := k < len(app) && app[k]
		for _, p := range ps {
			a.write(path.Clean(p), out, ap)
		}
	}
	// tee FILE… writes its standard input to every file.
	if last, ok := a.lastCmd(start); ok && a.inv[last].Argv[0] == "tee" && !a.inv[last].Dynamic {
		args := a.inv[last].Argv[1:]
		ap := hasAnyS(args, "-a", "--append")
		for _, f := range args {
			if strings.HasPrefix(f, "-") {
				continue
			}
			if ps, ok := a.abs(e, f); ok {
				for _, p := range ps {
					a.write(path.Clean(p), output{text: out.text, ok: out.ok}, ap)
				}
			}
		}
	}
	if stdoutRedirected(s.Redirs) {
		out = output{}
	}
	a.out = out
}

func (a *analyzer) write(p string, out output, app bool) {
	if a.written == nil {
		a.written = map[string]writtenFile{}
	}
	old, seen := a.written[p]
	w := writtenFile{texts: []string{out.text}, static: out.ok, partial: app, dec: out.dec}
	switch {
	case !seen:
	case !old.static || !out.ok:
		w = writtenFile{dec: old.dec || out.dec}
	case app:
		w = writtenFile{static: true, partial: old.partial, dec: old.dec || out.dec}
		for _, t := range old.texts {
			w.texts = append(w.texts, t+out.text)
			w.static = w.static && len(t)+len(out.text) <= maxText
		}
	default:
		// An earlier write may be the one that holds, on another path
		// of the command line: keep both.
		w = writtenFile{texts: old.texts, static: true, partial: old.partial, dec: old.dec || out.dec}
		if !slices.Contains(w.texts, out.text) {
			w.texts = append(slices.Clip(w.texts), out.text)
		}
		w.static = len(w.texts) <= maxAlts
	}
	a.written[p] = w
}

// writtenText returns the one content a file written in the command
// line holds, when it is known, and whether some of it was decoded.
func (a *analyzer) writtenText(e *env, file string) (string, bool, bool) {
	ps, ok := a.abs(e, file)
	if !ok || len(ps) != 1 {
		return "", false, false
	}
	w, ok := a.written[path.Clean(ps[0])]
	if !ok || !w.static || w.partial || len(w.texts) != 1 {
		return "", false, w.dec
	}
	return w.texts[0], true, w.dec
}

// keepsContent are the programs that change a file without changing
// what it holds, and the wrappers that run them.
var keepsContent = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"chmod": true, "chown": true, "chgrp": true, "touch": true, "chattr": true,
		"setfacl": true, "mkdir": true, "sudo": true, "doas": true, "env": true, "nice": true, "command": true,
		"builtin": true, "timeout": true, "nohup": true}
})

// runScript analyses a file run as a program: by the interpreter of
// family fam (name as called), or, when fam is "", as an executable whose
// #! line names the interpreter. here says the script runs in the
// current shell (source).
func (a *analyzer) runScript(e *env, file string, fam, name string, here bool) {
	ps, ok := a.abs(e, file)
	if !ok {
		return
	}
	for _, p := range ps {
		p = path.Clean(p)
		w, ok := a.written[p]
		if !ok {
			continue
		}
		if w.dec {
			a.flag(action.FlagDecodeExec) // decoded text run
		}
		if !w.static {
			a.unresolved("the script " + file + " is written in this command with content that is not static")
			continue
		}
		for _, text := range w.texts {
			a.runText(e, file, fam, name, text, here)
		}
	}
}

// runText analyses one content of a script run as a program.
func (a *analyzer) runText(e *env, file, fam, name, text string, here bool) {
	if fam == "" {
		// An executable: its #! line names the interpreter; without one,
		// the shell runs it.
		fam, name = "shell", "sh"
		if line, ok := strings.CutPrefix(text, "#!"); ok {
			line, _, _ = strings.Cut(line, "\n")
			fs := strings.Fields(line)
			if len(fs) > 0 {
				name, _ = normName(fs[0])
				if name == "env" {
					name = ""
					for _, x := range fs[1:] {
						if !strings.HasPrefix(x, "-") && !strings.Contains(x, "=") {
							name, _ = normName(x)
							break
						}
					}
				}
				fam = interpFamily(name)
			}
			if fam == "" {
				a.unresolved("the script " + file + " runs with " + strings.TrimSpace(line))
				return
			}
		}
	}
	a.program(e, fam, name, text, here)
}

// procProgram analyses the program a process substitution <(…) gives an
// interpreter, when its output is static: bash <(echo 'git push') and
// source <(printf …) run it. The substitution was walked already; its
// output is computed again, apart, so that nothing is recorded twice.
func (a *analyzer) procProgram(e *env, src, fam, name string, here bool) {
	inner, ok := strings.CutPrefix(src, "<(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return
	}
	inner = inner[:len(inner)-1]
	a.programText += len(inner)
	if a.programText > maxProgramText {
		a.unresolved("the command runs more program text than the analysis reads")
		return
	}
	sub := &analyzer{opt: a.opt, flags: map[action.Flag]bool{}, pathSeen: map[Path]int{},
		funcs: map[string]*syntax.Stmt{}, called: map[string]bool{}, fetched: map[string]bool{}, cur: -1,
		work: a.work, finds: a.finds, spent: a.spent, probing: a.probing}
	c := &env{src: inner, cwd: e.cwd, ok: e.cwd, depth: e.depth}
	sub.code(c, inner, false)
	if sub.out.ok && sub.why == "" {
		if sub.out.dec {
			a.flag(action.FlagDecodeExec)
		}
		a.program(e, fam, name, sub.out.text, here)
	}
}

// program analyses a program text given to the interpreter of family fam:
// shell code is walked as bash; other languages go through the inline
// scanner; here says shell code runs in the current shell.
func (a *analyzer) program(e *env, fam, name, text string, here bool) {
	// A script written once and run many times is read each time: bound
	// the total.
	a.programText += len(text)
	if a.programText > maxProgramText {
		a.unresolved("the command runs more program text than the analysis reads")
		return
	}
	if fam == "shell" {
		if here {
			a.code(e, text, true)
			return
		}
		c := e.fork()
		c.stdin = stdinInfo{}
		a.scoped(func() { a.code(c, text, true) })
		return
	}
	a.inlineProgram(e, fam, name, text)
}
