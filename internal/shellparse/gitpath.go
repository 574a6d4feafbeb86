// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file finds the files a git command names: object names (rev:path,
// :path, :stage:path), pathspecs with their magic, and the top of the
// repository they are taken from; and it holds the subcommands that read
// through them, the diff machinery (show, diff, log, format-patch) and
// grep.
//
// Rule: what git reads for the caller is a read facet, so that the
// sensitive floor applies to it: rev:path and :path name the file path
// under the top of the repository (the project, when git runs inside it),
// ./path under the working directory; pathspecs and --no-index operands
// are files.

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
)

// gitObjectPath returns the path an object name rev:path, :path or
// :stage:path names, "" when it names no path (:/text searches the
// commit messages; rev: is a tree).
func gitObjectPath(s string) string {
	var p string
	switch {
	case strings.HasPrefix(s, ":/"):
		return ""
	case strings.HasPrefix(s, ":"):
		p = s[1:]
		if len(p) >= 2 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' {
			p = p[2:]
		}
	default:
		depth, at := 0, -1
		for j := 0; j < len(s) && at < 0; j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth = max(depth-1, 0)
			case ':':
				if depth == 0 {
					at = j
				}
			}
		}
		if at <= 0 {
			return ""
		}
		p = s[at+1:]
	}
	return p
}

// gitObject records the read of the file an object name names, and
// reports whether it names one.
func (a *analyzer) gitObject(e *env, s string, rec bool) bool {
	p := gitObjectPath(s)
	if p == "" {
		return false
	}
	a.gitTop(e, field{s: p}, action.Read, rec)
	return true
}

// gitTop records a path that git takes relative to the top of the
// repository, or to the working directory when it starts with ./ or
// ../. The top is the project when git runs inside it, else the
// working directory.
func (a *analyzer) gitTop(e *env, f field, acc action.Access, rec bool) {
	if f.dyn {
		a.pathRec(e, f, acc, rec)
		return
	}
	p := path.Clean(f.s)
	if e.cwd == nil || strings.HasPrefix(p, "/") || p == "." || p == ".." || strings.HasPrefix(f.s, "./") || strings.HasPrefix(p, "../") {
		a.pathRec(e, field{s: p}, acc, rec)
		return
	}
	if acc != action.Read {
		a.notRO = true
	}
	for _, top := range a.gitTops(e) {
		a.addPath(join(top, p), acc, rec)
	}
}

// gitTops returns the candidate tops of the repository: the project when
// git runs inside it, else the working directory; nil if that is not
// known.
func (a *analyzer) gitTops(e *env) []string {
	if e.cwd == nil {
		return nil
	}
	root := path.Clean(a.opt.Cwd)
	out := make([]string, 0, len(e.cwd))
	for _, d := range e.cwd {
		top := d
		if cd := path.Clean(d); root != "." && (cd == root || strings.HasPrefix(cd, strings.TrimSuffix(root, "/")+"/")) {
			top = root
		}
		if !slices.Contains(out, top) {
			out = append(out, top)
		}
	}
	return out
}

// gitWorkTree records the whole work tree: its top.
func (a *analyzer) gitWorkTree(e *env, acc action.Access) {
	tops := a.gitTops(e)
	if tops == nil {
		a.pathRec(e, field{s: "."}, acc, false)
		return
	}
	if acc != action.Read {
		a.notRO = true
	}
	for _, t := range tops {
		a.addPath(t, acc, false)
	}
}

// gitPathspec records a pathspec operand: a file under the working
// directory, or under the top of the repository with the :/ and :(top)
// magic; an excluding pathspec names nothing.
func (a *analyzer) gitPathspec(e *env, f field, acc action.Access) {
	if f.dyn || !strings.HasPrefix(f.s, ":") {
		a.pathRec(e, f, acc, false)
		return
	}
	s := f.s[1:]
	top := false
	switch {
	case strings.HasPrefix(s, "("):
		magic, after, ok := strings.Cut(s[1:], ")")
		if !ok || strings.Contains(magic, "exclude") {
			return
		}
		top = strings.Contains(magic, "top")
		s = after
	case strings.HasPrefix(s, "!") || strings.HasPrefix(s, "^"):
		return
	case strings.HasPrefix(s, "/"):
		top = true
		s = s[1:]
	}
	if top {
		if s == "" || s == "." {
			a.gitWorkTree(e, acc)
			return
		}
		a.gitTop(e, field{s: s}, acc, false)
		return
	}
	a.pathRec(e, field{s: s}, acc, false)
}

// gitReads records the reads of the operands of a command that takes
// revisions and paths (show, diff, log, blame): an object name's file,
// and every operand that looks like a file rather than a revision; with
// files, every operand that is not a revision (blame); after "--",
// every operand.
func (a *analyzer) gitReads(e *env, ops []field, files bool) {
	dash := false
	for _, f := range ops {
		if f.dyn {
			if !dash && gitRevSubst(f.s) {
				continue
			}
			a.unresolved(fmt.Sprintf("the git operand %s, a revision or a path", f.s))
			continue
		}
		if f.s == "--" && !dash {
			dash = true
			continue
		}
		if !dash && a.gitObject(e, f.s, false) {
			continue
		}
		if dash || (files || looksLikeFile(f.s)) && !looksLikeRev(f.s) {
			a.gitPathspec(e, f, action.Read)
		}
	}
}

// gitRevSubst reports an operand that is one command substitution of a
// git command printing commits or ref names from static words
// ($(git merge-base main HEAD), $(git describe --tags --abbrev=0)): its
// output names no file (a ref name holds no ":" and no component
// starting with "."), and the command itself is analysed where it
// stands.
func gitRevSubst(src string) bool {
	// The word may join such substitutions with range and ancestry
	// operators: $(git merge-base a b)..HEAD, $(git describe)^.
	n := 0
	for src != "" {
		i := strings.Index(src, "$(")
		if i < 0 {
			i = len(src)
		}
		if strings.Trim(src[:i], ".^~@{}0123456789HEAD") != "" {
			return false
		}
		if i == len(src) {
			break
		}
		j := strings.IndexByte(src[i:], ')')
		if j < 0 || !gitRevCmd(src[i+2:i+j]) {
			return false
		}
		n++
		src = src[i+j+1:]
	}
	return n > 0
}

// gitRevCmd reports the text of a git command printing commits or ref
// names, with static words only.
func gitRevCmd(inner string) bool {
	if strings.ContainsAny(inner, "$`()|;&<>:'\"\\\n*?[") {
		return false
	}
	w := strings.Fields(inner)
	if len(w) < 2 || w[0] != "git" {
		return false
	}
	switch w[1] {
	case "merge-base", "describe", "symbolic-ref":
		return true
	case "rev-parse":
		// Not --show-toplevel and the like, which print paths.
		for _, x := range w[2:] {
			if strings.HasPrefix(x, "--") && !slices.Contains([]string{"--verify", "--short", "--abbrev-ref", "--quiet", "--symbolic-full-name"}, x) && !strings.HasPrefix(x, "--short=") {
				return false
			}
		}
		return true
	case "branch":
		return len(w) == 3 && w[2] == "--show-current"
	}
	return false
}

// looksLikeRev reports an operand that names a revision or a range.
func looksLikeRev(s string) bool {
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") {
		return false
	}
	if s == "HEAD" || s == "@" || strings.HasSuffix(s, "_HEAD") || strings.Contains(s, "..") ||
		strings.ContainsAny(s, "^~") || strings.Contains(s, "@{") {
		return true
	}
	if len(s) >= 7 && len(s) <= 64 && strings.Trim(s, "0123456789abcdef") == "" {
		return true
	}
	return false
}

// looksLikeFile reports an operand that is more likely a file than a
// branch: a relative or absolute path, a glob, a dotfile, a name with an
// extension, a secret.
func looksLikeFile(s string) bool {
	if s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") ||
		strings.HasPrefix(s, "~") || strings.HasPrefix(s, ":") || strings.ContainsAny(s, "*?[") || secretPath(s) {
		return true
	}
	base := path.Base(s)
	if strings.HasPrefix(base, ".") {
		return true
	}
	k := strings.LastIndexByte(base, '.')
	if k <= 0 || len(base)-k-1 > 8 {
		return false
	}
	ext := base[k+1:]
	letter := false
	for _, r := range ext {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9' || r == '_' || r == '-':
		default:
			return false
		}
	}
	return letter
}

// gitDiffVals are the options of the diff and revision machinery that
// take their value as the next argument.
var gitDiffVals = []string{"max-count", "skip", "since", "after", "until", "before", "author", "committer", "grep",
	"grep-reflog", "output", "exclude", "diff-filter", "find-object", "anchored", "ignore-matching-lines",
	"inter-hunk-context", "diff-algorithm", "src-prefix", "dst-prefix", "line-prefix", "word-diff-regex",
	"output-indicator-new", "output-indicator-old", "output-indicator-context", "since-as-filter", "encoding",
	"output-directory", "in-reply-to", "subject-prefix", "suffix", "to", "cc", "from", "add-header",
	"signature", "signature-file", "base", "interdiff", "range-diff", "creation-factor", "description-file", "start-number"}

// gitDiff handles the commands of the diff machinery: show, diff, log and
// format-patch.
func (a *analyzer) gitDiff(c *env, sub string, rest []field, ro bool) bool {
	before, after, dash := splitDash(rest)
	opts, ops := scan(before, "nSGOLIov", gitDiffVals, false)
	if hasOpt(opts, "--ext-diff", "--textconv") {
		a.flag(action.FlagRunsCode)
		ro = false
	}
	for _, f := range optVals(opts, "--output") {
		a.path(c, f, action.Write)
		ro = false
	}
	for _, f := range optVals(opts, "-O", "--signature-file", "--description-file") {
		a.path(c, f, action.Read)
	}
	for _, f := range optVals(opts, "-L") {
		if f.dyn {
			a.path(c, f, action.Read)
		} else if k := strings.LastIndexByte(f.s, ':'); k >= 0 {
			a.path(c, field{s: f.s[k+1:]}, action.Read)
		}
	}
	if sub == "format-patch" {
		dirs := optVals(opts, "-o", "--output-directory")
		if len(dirs) == 0 && !hasOpt(opts, "--stdout") {
			dirs = []field{{s: "."}}
		}
		for _, f := range dirs {
			a.path(c, f, action.Write)
		}
	}
	if sub == "diff" && hasOpt(opts, "--no-index") {
		for _, f := range append(ops, after...) {
			a.path(c, f, action.Read)
		}
		return ro
	}
	if dash {
		ops = append(append(ops, field{s: "--"}), after...)
	}
	a.gitReads(c, ops, false)
	return ro
}

// gitGrep: git grep reads the work tree under the working directory; -O
// opens the files in a pager of the caller's choosing.
func (a *analyzer) gitGrep(c *env, rest []field, ro bool) bool {
	before, after, dash := splitDash(rest)
	opts, ops := gitScan(before, "efABCm", []string{"file", "max-depth", "after-context", "before-context", "context", "max-count", "threads"},
		[]string{"open-files-in-pager", "no-index", "untracked", "textconv"})
	if hasOpt(opts, "-O", "--open-files-in-pager", "--textconv") {
		a.flag(action.FlagRunsCode)
		ro = false
	}
	for _, f := range optVals(opts, "-f", "--file") {
		a.path(c, f, action.Read)
	}
	if len(optVals(opts, "-e", "-f", "--file")) == 0 && len(ops) > 0 {
		ops = ops[1:] // the pattern
	}
	if dash {
		ops = append(append(ops, field{s: "--"}), after...)
	}
	a.gitReads(c, ops, false)
	a.recRead(c, field{s: "."})
	return ro
}
