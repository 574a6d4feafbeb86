// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request

import (
	"slices"
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
	for _, p := range an.Paths {
		s.Paths = append(s.Paths, ShellPath{Path: p.Path, Access: p.Access, Recursive: p.Recursive})
	}
	return s
}

// declBuiltins change variables of the shell, and so what the programs it
// starts read from their environment.
var declBuiltins = []string{"export", "declare", "typeset", "local", "readonly"}

// codeDetail says, invocation by invocation, which ones run code whose
// effect is not classified ([shellparse.Invocation.RunsCode]), so that a
// rule naming one command (make test) does not have to cover the cd
// before it.
//
// The detail is used only where it cannot hide code. Shell analysis flags
// an assignment of a variable that makes programs run code (LD_PRELOAD,
// GIT_PAGER, BASH_ENV…) without saying which invocation it reaches, and
// an exported variable reaches them all: when the analysis found code and
// the command assigns or exports anything (an "=" or a declaration
// builtin at any level, or $'…' text that could spell one), or when no
// invocation says it runs the code, every invocation counts as running
// code. The policy then asks unless a rule names every one of them.
func codeDetail(command string, an *shellparse.Analysis) []bool {
	code := make([]bool, len(an.Invocations))
	if !slices.ContainsFunc(an.Flags, action.Flag.RunsCode) {
		return code
	}
	attributed := false
	all := strings.Contains(command, "=") || strings.Contains(command, "$'")
	for i, inv := range an.Invocations {
		code[i] = inv.RunsCode
		attributed = attributed || inv.RunsCode
		if len(inv.Env) > 0 || len(inv.Argv) > 0 && slices.Contains(declBuiltins, inv.Argv[0]) {
			all = true
		}
	}
	if all || !attributed {
		for i := range code {
			code[i] = true
		}
	}
	return code
}

// analyzeArgv analyses each argv of a request's "commands" as the simple
// command it is, quoted word by word, and says which of them run code
// whose effect is not classified. A harness that gives argv lists instead
// of a command string says nothing of what they run; judging them as the
// shell would run them keeps the two forms of one command coherent: ls
// stays a read, python -c … runs code. An argv that cannot be quoted
// counts as running code.
func analyzeArgv(commands [][]string, cwd, home string) []bool {
	code := make([]bool, len(commands))
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
			code[i] = true
			continue
		}
		an := shellparse.Analyze(strings.Join(words, " "), shellparse.Options{Cwd: cwd, Home: home})
		code[i] = an.Unresolved != "" || slices.ContainsFunc(an.Flags, action.Flag.RunsCode)
	}
	return code
}
