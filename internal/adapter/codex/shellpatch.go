// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

// A shell command may apply a patch two ways, and Warden reads it both
// ways, judging every file either one writes:
//
//   - Codex intercepts it (codex-rs/apply-patch/src/invocation.rs,
//     extract_apply_patch_from_bash): a script that is apply_patch (or
//     applypatch) with a heredoc, optionally after cd DIR &&, is not run;
//     Codex parses the heredoc's text as written, unexpanded, and applies
//     it in DIR itself. The shell tool's argv ["bash", "-lc", SCRIPT]
//     reaches the hook joined (bash -lc 'SCRIPT'), and is read as SCRIPT.
//     Codex's bash grammar (tree-sitter) and Warden's (mvdan/sh) differ at
//     the edges, so every apply_patch with a heredoc is read this way, in
//     the directory of a cd before it or the working directory: a reading
//     Codex would not make adds files to judge, never removes one.
//   - bash runs it: Codex puts an apply_patch program on the shell's
//     PATH, which reads its patch from its one argument (after an
//     optional --preserve-crlf) or from standard input, and applies it in
//     its working directory. Every invocation shell analysis finds
//     (wrappers, nested shells and functions included) is read with the
//     argument or the standard input bash gives it, in every directory it
//     may start in.
//
// A patch Warden cannot read — a patch one of the readings rejects, an
// input from a file or a program, an argument or a directory known only
// when the command runs — refuses the call.

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/shellparse"
)

// shellPatch is a patch a shell command applies and the directories it
// may apply in, absolute.
type shellPatch struct {
	dirs    []string
	changes []Change
}

// patchesInCommand finds the patches the shell command cmd applies when
// Codex runs it in cwd (absolute). It fails when one cannot be read.
func patchesInCommand(cmd, cwd string) ([]shellPatch, error) {
	if !mentionsApplyPatch(cmd) {
		return nil, nil
	}
	an := shellparse.Analyze(cmd, shellparse.Options{Cwd: cwd})
	if an.Unresolved != "" {
		return nil, fmt.Errorf("apply_patch in a command Warden cannot analyse (%s)", an.Unresolved)
	}
	out, err := intercepted(cmd, cwd, an)
	if err != nil {
		return nil, err
	}
	for _, inv := range an.Invocations {
		if !isApplyPatch(inv.Argv[0]) {
			continue
		}
		sp, err := invoked(inv)
		if err != nil {
			return nil, err
		}
		if sp != nil {
			out = append(out, *sp)
		}
	}
	return out, nil
}

// mentionsApplyPatch reports whether cmd names apply_patch anywhere, in
// any case: only then is it looked for.
func mentionsApplyPatch(cmd string) bool {
	l := strings.ToLower(cmd)
	return strings.Contains(l, "apply_patch") || strings.Contains(l, "applypatch")
}

func isApplyPatch(name string) bool {
	name = strings.ToLower(name[strings.LastIndexByte(name, '/')+1:])
	return name == "apply_patch" || name == "applypatch"
}

// invoked reads the patch of one apply_patch program bash runs; nil when
// it applies none (more than one argument: the program refuses them).
func invoked(inv shellparse.Invocation) (*shellPatch, error) {
	if inv.Dynamic {
		return nil, errors.New("apply_patch with an argument known only when the command runs")
	}
	args := inv.Argv[1:]
	if len(args) > 0 && args[0] == "--preserve-crlf" {
		args = args[1:]
	}
	var text string
	switch {
	case len(args) > 1:
		return nil, nil
	case len(args) == 1:
		text = args[0]
	case inv.StdinKnown:
		text = inv.Stdin
	default:
		return nil, errors.New("apply_patch reads its patch from a standard input Warden cannot see (give it as a quoted heredoc: apply_patch <<'EOF')")
	}
	if len(inv.Dirs) == 0 {
		return nil, errors.New("apply_patch runs in a directory known only when the command runs")
	}
	changes, err := ParsePatch(text)
	if err != nil {
		return nil, fmt.Errorf("apply_patch: %v", err)
	}
	return &shellPatch{dirs: inv.Dirs, changes: changes}, nil
}

// intercepted reads the patches Codex would take from the command
// without running it: the text of every heredoc given to apply_patch,
// as written.
func intercepted(cmd, cwd string, an *shellparse.Analysis) ([]shellPatch, error) {
	f, err := parseBash(cmd)
	if err != nil {
		return nil, nil // analysed above; Codex's intercept needs a parse too
	}
	src := cmd
	if script, ok := shellScript(f, an); ok {
		g, err := parseBash(script)
		if err != nil {
			return nil, nil
		}
		f, src = g, script
	}
	// The statements after cd DIR &&, with the cd's argument.
	cds := map[*syntax.Stmt]*syntax.Word{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt {
			if c, ok := b.X.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 2 && c.Args[0].Lit() == "cd" {
				cds[b.Y] = c.Args[1]
			}
		}
		return true
	})
	var out []shellPatch
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || err != nil {
			return err == nil
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || !isApplyPatch(c.Args[0].Lit()) {
			return true
		}
		for _, r := range st.Redirs {
			if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc {
				continue
			}
			var changes []Change
			if changes, err = ParsePatch(heredocText(src, r)); err != nil {
				err = fmt.Errorf("apply_patch: %v", err)
				return false
			}
			dirs := []string{cwd}
			if w, ok := cds[st]; ok {
				if dirs, err = cdDirs(cwd, src, w); err != nil {
					return false
				}
			}
			out = append(out, shellPatch{dirs: dirs, changes: changes})
		}
		return true
	})
	return out, err
}

func parseBash(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// shellScript is SCRIPT when the command is one bash, zsh or sh -c or -lc
// SCRIPT, with static words: the shell tool's argv, joined.
func shellScript(f *syntax.File, an *shellparse.Analysis) (string, bool) {
	if len(f.Stmts) != 1 || len(an.Invocations) == 0 {
		return "", false
	}
	st := f.Stmts[0]
	if c, ok := st.Cmd.(*syntax.CallExpr); !ok || len(c.Args) != 3 || len(c.Assigns) > 0 || len(st.Redirs) > 0 {
		return "", false
	}
	inv := an.Invocations[0]
	if inv.Dynamic || len(inv.Argv) != 3 {
		return "", false
	}
	switch inv.Argv[0] {
	case "bash", "zsh", "sh":
	default:
		return "", false
	}
	if inv.Argv[1] != "-c" && inv.Argv[1] != "-lc" {
		return "", false
	}
	return inv.Argv[2], true
}

// heredocText is a heredoc's text as written, up to its delimiter's line.
func heredocText(src string, r *syntax.Redirect) string {
	if r.Hdoc == nil {
		return ""
	}
	s, e := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
	if s < 0 || e > len(src) || s > e {
		return ""
	}
	t := src[s:e]
	if i := strings.LastIndexByte(t, '\n'); i >= 0 {
		return t[:i]
	}
	return ""
}

// cdDirs is the directory Codex applies a patch in after cd W: W's text
// as its grammar captures it (a word as written, a quoted string's
// content), resolved against cwd as Codex resolves it now (. and ..
// removed lexically) and as older versions did (joined as it is). Any
// other word is not Codex's form: the patch applies in cwd.
func cdDirs(cwd, src string, w *syntax.Word) ([]string, error) {
	var dir string
	switch {
	case len(w.Parts) != 1:
		return []string{cwd}, nil
	case isLit(w.Parts[0]):
		dir = src[w.Pos().Offset():w.End().Offset()]
	default:
		switch p := w.Parts[0].(type) {
		case *syntax.SglQuoted:
			if p.Dollar {
				return []string{cwd}, nil
			}
			dir = p.Value
		case *syntax.DblQuoted:
			if len(p.Parts) != 1 || !isLit(p.Parts[0]) {
				return []string{cwd}, nil
			}
			dir = p.Parts[0].(*syntax.Lit).Value
		default:
			return []string{cwd}, nil
		}
	}
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		return nil, fmt.Errorf("apply_patch after cd %s: the home directory is not known here", clip(dir))
	}
	if !path.IsAbs(dir) {
		dir = cwd + "/" + dir
	}
	if c := path.Clean(dir); c != dir {
		return []string{c, dir}, nil
	}
	return []string{dir}, nil
}

func isLit(p syntax.WordPart) bool {
	_, ok := p.(*syntax.Lit)
	return ok
}
