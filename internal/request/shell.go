// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/shellparse"
)

// Analyze runs full shell analysis (package shellparse) on a bash command
// and returns what the request needs of it.
func Analyze(command, cwd, home string) Shell {
	an := shellparse.Analyze(command, shellparse.Options{Cwd: cwd, Home: home})
	s := Shell{
		Classes:    an.Classes,
		Commands:   an.Commands(),
		Code:       codeDetail(command, an),
		Hosts:      an.Hosts,
		Refs:       an.Refs,
		Flags:      an.Flags,
		Unresolved: an.Unresolved,
		Detail:     an,
	}
	var truncs []redirect
	for _, p := range an.Paths {
		sp := ShellPath{Path: p.Path, Access: p.Access, Recursive: p.Recursive}
		if p.Access == action.Write {
			if truncs == nil {
				truncs = truncations(command, an)
			}
			sp.Truncate = truncatedBy(p.Path, truncs)
		}
		s.Paths = append(s.Paths, sp)
	}
	return s
}

// redirect is a redirection that truncates its target: the operator, and
// the target as written or as shell analysis evaluated it.
type redirect struct{ op, target string }

// truncatingOp reports whether a redirection operator opens its target
// with O_TRUNC: >, >|, &>, &>|, >& with a file, with or without a file
// descriptor before it. >> and &>> append, < and <> do not truncate.
func truncatingOp(op string) bool {
	switch strings.TrimLeft(op, "0123456789") {
	case ">", ">|", "&>", "&>|", ">&":
		return true
	}
	return false
}

// truncations lists the truncating redirections of a command: those shell
// analysis gives on each invocation (which include the commands of
// bash -c strings and substitutions, with targets evaluated), and those
// the command's syntax tree holds where no invocation carries them (a
// bare > f, a redirection of a { … } group, a subshell or a loop), with a
// static target.
func truncations(command string, an *shellparse.Analysis) []redirect {
	out := []redirect{}
	add := func(op, target string) {
		if !truncatingOp(op) || target == "" {
			return
		}
		if strings.HasSuffix(op, ">&") {
			if _, err := strconv.Atoi(strings.TrimSuffix(target, "-")); err == nil || target == "-" {
				return // a duplication or a close: no file
			}
		}
		out = append(out, redirect{op, target})
	}
	for _, inv := range an.Invocations {
		for _, r := range inv.Redirects {
			add(r.Op, r.Target)
		}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return out // analysis marks the command unresolved
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		if !ok || r.Word == nil {
			return true
		}
		op := r.Op.String()
		if r.N != nil {
			op = r.N.Value + op
		}
		if t, ok := staticWord(r.Word); ok {
			add(op, t)
		}
		return true
	})
	return out
}

// staticWord returns the text of a word made only of literals and
// quoted literals, quotes removed.
func staticWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			// A backslash outside quotes stands for the byte after it.
			for i := 0; i < len(p.Value); i++ {
				if p.Value[i] == '\\' && i+1 < len(p.Value) {
					i++
				}
				b.WriteByte(p.Value[i])
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// truncatedBy returns the operator of a truncating redirection whose
// target is the path facet p (absolute against the working directory the
// analysis tracked), or "". A target names p when it is p, or when p ends
// with it as a relative path (written in a directory a cd reached);
// a ~/ target matches on what follows the ~. Matching on the end of the
// path takes a few writes by append for truncations, never the reverse:
// the safe side.
func truncatedBy(p string, rs []redirect) string {
	for _, r := range rs {
		t := r.target
		for _, c := range [...]string{"/proc/self/cwd/", "/proc/thread-self/cwd/"} {
			if rest, ok := strings.CutPrefix(t, c); ok {
				t = rest
			}
		}
		switch {
		case p == t:
		case strings.HasPrefix(t, "~/"):
			if !strings.HasSuffix(p, t[1:]) {
				continue
			}
		case strings.HasPrefix(t, "/"):
			continue
		case !strings.HasSuffix(p, "/"+t):
			continue
		}
		return r.op
	}
	return ""
}

// declBuiltins change variables of the shell, and so what the programs it
// starts read from their environment.
var declBuiltins = []string{"export", "declare", "typeset", "local", "readonly"}

// systemDirs hold programs installed by the system: a program run from
// one by path is the program its name says.
var systemDirs = []string{"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"}

// codeDetail says, invocation by invocation, which ones run code whose
// effect is not classified ([shellparse.Invocation.RunsCode]), so that a
// rule naming one command (make test) does not have to cover the cd
// before it, and whether the invocation's argv is what names that code.
//
// The detail is used only where it cannot hide code; anything else is
// [action.HiddenCode], which no rule can allow uncontained:
//
//   - shell analysis flags the assignment of a variable that makes
//     programs run code (LD_PRELOAD, GIT_PAGER, BASH_ENV…) without saying
//     which invocation it reaches, and an exported variable reaches them
//     all. When the analysis found code and the command assigns or
//     exports anything — an "=" or a declaration builtin at any level, or
//     $'…' text that could spell one — or when no invocation says it runs
//     the code, every invocation counts as running hidden code;
//   - argv holds the program's base name (./make test is make test), so
//     an invocation whose name the command also spells as a path outside
//     the system directories (./make, ~/bin/make), or a command with any
//     expansion that could splice a name ($, {, a backtick), runs hidden
//     code; so does one whose argv is not static, such as the words xargs
//     appends (ls | xargs make test may run make test -f x.mk).
func codeDetail(command string, an *shellparse.Analysis) []action.Code {
	code := make([]action.Code, len(an.Invocations))
	if !slices.ContainsFunc(an.Flags, action.Flag.RunsCode) {
		return code
	}
	attributed := false
	hidden := strings.Contains(command, "=") || strings.Contains(command, "$'")
	for _, inv := range an.Invocations {
		attributed = attributed || inv.RunsCode
		if len(inv.Env) > 0 || len(inv.Argv) > 0 && slices.Contains(declBuiltins, inv.Argv[0]) {
			hidden = true
		}
	}
	if hidden || !attributed {
		for i := range code {
			code[i] = action.HiddenCode
		}
		return code
	}
	spliced := strings.ContainsAny(command, "${`")
	plain := strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(command)
	for i, inv := range an.Invocations {
		switch {
		case !inv.RunsCode:
		case spliced || inv.Dynamic || len(inv.Argv) == 0 || spelledAsPath(plain, inv.Argv[0]):
			code[i] = action.HiddenCode
		default:
			code[i] = action.NamedCode
		}
	}
	return code
}

// spelledAsPath reports whether text, quotes removed, names the program
// name as the last component of a path outside the system directories.
func spelledAsPath(text, name string) bool {
	lower := strings.ToLower(text)
	needle := "/" + strings.ToLower(name)
	for off := 0; ; {
		j := strings.Index(lower[off:], needle)
		if j < 0 {
			return false
		}
		at := off + j
		end := at + len(needle)
		off = at + 1
		if end < len(lower) && nameByte(lower[end]) {
			continue // /maker is not /make
		}
		dir := lower[:at]
		system := false
		for _, d := range systemDirs {
			if strings.HasSuffix(dir, d) && (len(dir) == len(d) || strings.IndexByte(" \t\n;|&()<>", dir[len(dir)-len(d)-1]) >= 0) {
				system = true
			}
		}
		if !system {
			return true
		}
	}
}

// nameByte reports whether b can be part of a file name word.
func nameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '.' || b == '_' || b == '-' || b == '+'
}

// analyzeArgv analyses each argv of a request's "commands" as the simple
// command it is, quoted word by word, and says what code each runs. A
// harness that gives argv lists instead of a command string says nothing
// of what they run; judging them as the shell would run them keeps the two
// forms of one command coherent: ls stays a read, python -c … runs code.
// An argv that cannot be quoted or analysed runs hidden code.
func analyzeArgv(commands [][]string, cwd, home string) []action.Code {
	code := make([]action.Code, len(commands))
	for i, argv := range commands {
		words := make([]string, len(argv))
		ok := true
		for j, w := range argv {
			q, err := syntax.Quote(w, syntax.LangBash)
			if err != nil {
				ok = false
				break
			}
			words[j] = q
		}
		if !ok {
			code[i] = action.HiddenCode
			continue
		}
		src := strings.Join(words, " ")
		an := shellparse.Analyze(src, shellparse.Options{Cwd: cwd, Home: home})
		if an.Unresolved != "" {
			code[i] = action.HiddenCode
			continue
		}
		code[i] = slices.Max(append(codeDetail(src, an), action.NoCode))
	}
	return code
}
