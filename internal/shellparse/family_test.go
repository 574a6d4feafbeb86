// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/shellparse"
)

// This file holds the machinery of the family tests: each family of
// dangerous commands (family_*_test.go) lists members with what the
// analysis must find for them, and every member is checked under several
// spellings — quoted, absolute, escaped, wrapped, nested in bash -c and
// in $(…) — so that a family is caught as a family, not as one string.

// want is what the analysis of a member must contain, whatever the
// spelling: at least these classes, flags, hosts and paths. Prompt says
// the uncontained stand-in (uncontainedAllow) must not allow it; every
// member with a class or flag beyond processSpawn implies it.
type want struct {
	classes    []action.Class
	flags      []action.Flag
	hosts      []string
	paths      []shellparse.Path
	unresolved bool
	prompt     bool
}

// member is one command of a family. plain says the command must only be
// checked as written (it starts with an assignment, a redirection or a
// keyword that the spellings would break).
type member struct {
	cmd   string
	want  want
	plain bool
}

// spellings returns cmd written several ways that bash runs alike.
func spellings(cmd string) []string {
	out := []string{cmd}
	first, rest, _ := strings.Cut(cmd, " ")
	if rest != "" {
		rest = " " + rest
	}
	if !strings.ContainsAny(first, "/'\"\\$=") {
		out = append(out,
			"'"+first+"'"+rest,
			`"`+first+`"`+rest,
			`\`+first+rest,
			"/usr/bin/"+first+rest,
			"env "+first+rest,
			"nice -n 5 "+first+rest,
			"timeout 10 "+first+rest,
			"command "+first+rest,
		)
	}
	q := "'" + strings.ReplaceAll(cmd, "'", `'\''`) + "'"
	out = append(out,
		"bash -c "+q,
		"sh -c "+q,
		"true && "+cmd,
		"( "+cmd+" )",
		"{ "+cmd+"; }",
		"echo $( "+cmd+" )",
		"x=$( "+cmd+" )",
	)
	return out
}

// checkFamily checks every member of a family under every spelling.
func checkFamily(t *testing.T, members []member) {
	t.Helper()
	for _, m := range members {
		sp := []string{m.cmd}
		if !m.plain {
			sp = spellings(m.cmd)
		}
		for _, s := range sp {
			an := shellparse.Analyze(s, corpusOpts)
			if msg := lacks(an, m.want); msg != "" {
				t.Errorf("Analyze(%q): %s\n%s", s, msg, describe(an))
			}
		}
	}
}

// lacks says what of w the analysis misses, "" if nothing.
func lacks(an *shellparse.Analysis, w want) string {
	var miss []string
	for _, c := range w.classes {
		if !slices.Contains(an.Classes, c) {
			miss = append(miss, "class "+c.String())
		}
	}
	for _, f := range w.flags {
		if !an.HasFlag(f) {
			miss = append(miss, "flag "+string(f))
		}
	}
	for _, h := range w.hosts {
		if !slices.Contains(an.Hosts, h) {
			miss = append(miss, "host "+h)
		}
	}
	for _, p := range w.paths {
		if !slices.ContainsFunc(an.Paths, func(q shellparse.Path) bool { return q.Path == p.Path && q.Access == p.Access }) {
			miss = append(miss, fmt.Sprintf("path %s %s", p.Access, p.Path))
		}
	}
	if w.unresolved && an.Unresolved == "" {
		miss = append(miss, "unresolved")
	}
	prompt := w.prompt || w.unresolved || len(w.flags) > 0 || slices.ContainsFunc(w.classes, func(c action.Class) bool {
		return c != action.ProcessSpawn && c != action.GitCommit
	})
	if prompt && uncontainedAllow(an) {
		miss = append(miss, "an uncontained allow")
	}
	if len(miss) == 0 {
		return ""
	}
	return "lacks " + strings.Join(miss, ", ")
}

// uncontainedAllow is a stand-in for the policy engine on the embedded
// default with contained false: it allows only commands whose classes are
// processSpawn and gitCommit, with no flag but background, fully
// resolved, no invocation running unclassified code, and every path
// inside the project (corpusOpts.Cwd) and not a secret.
func uncontainedAllow(an *shellparse.Analysis) bool {
	if an.Unresolved != "" {
		return false
	}
	for _, c := range an.Classes {
		if c != action.ProcessSpawn && c != action.GitCommit {
			return false
		}
	}
	for _, f := range an.Flags {
		if f != action.FlagBackground {
			return false
		}
	}
	for _, inv := range an.Invocations {
		if inv.RunsCode {
			return false
		}
	}
	for _, p := range an.Paths {
		q := path.Clean(p.Path)
		if q == "/dev/null" {
			continue
		}
		if !strings.HasPrefix(q, corpusOpts.Cwd+"/") && q != corpusOpts.Cwd {
			return false
		}
		if base := path.Base(q); strings.HasPrefix(base, ".env") || strings.HasPrefix(base, "id_") {
			return false
		}
	}
	return true
}

// dangerous are programs that run code, reach the network or install
// packages, written here independently of the analyser's own tables: an
// uncontained allow must never hold one of them as an invocation.
var dangerous = strings.Fields(`sh bash zsh dash ksh fish python python3 perl ruby node deno bun php lua
	curl wget nc ncat socat telnet ftp ssh scp rsync npm npx pnpm yarn bunx pip pip3 pipx uv uvx
	poetry cargo gem composer apt apt-get brew make gradle mvn pytest docker kubectl aws gsutil rclone`)

// TestNoHiddenDanger is the property of the family tests: for every
// command of the corpus and every spelling of every family member that
// the uncontained stand-in allows, no invocation is a dangerous program,
// and no operand of a program no family claims parses, from there on,
// as a command that is not read-only (mytool git push origin main).
func TestNoHiddenDanger(t *testing.T) {
	var cmds []string
	for _, e := range readCorpus(t) {
		cmds = append(cmds, e.cmd)
	}
	for _, fam := range allFamilies {
		for _, m := range fam {
			cmds = append(cmds, spellings(m.cmd)...)
		}
	}
	for _, cmd := range cmds {
		an := shellparse.Analyze(cmd, corpusOpts)
		if !uncontainedAllow(an) {
			continue
		}
		for _, inv := range an.Invocations {
			if len(inv.Argv) == 0 {
				continue
			}
			// A shell whose -c string was analysed is followed by what
			// it runs.
			shellC := slices.Contains(strings.Fields("sh bash zsh dash ksh"), inv.Argv[0]) && slices.Contains(inv.Argv, "-c")
			if slices.Contains(dangerous, inv.Argv[0]) && !shellC {
				t.Errorf("Analyze(%q) allows uncontained the dangerous program %q\n%s", cmd, inv.Argv[0], describe(an))
			}
			if shellparse.Claimed(inv.Argv[0]) {
				continue
			}
			var words []string
			for _, a := range inv.Argv[1:] {
				words = append(words, strings.Fields(a)...)
			}
			for k, w := range words {
				if !shellparse.Claimed(w) {
					continue
				}
				sub := shellparse.Analyze(strings.Join(words[k:], " "), corpusOpts)
				if !sub.ReadOnly {
					t.Errorf("Analyze(%q) allows uncontained %q, whose operands run %q\n%s", cmd, inv.Argv[0], strings.Join(words[k:], " "), describe(an))
					break
				}
			}
		}
	}
}

// allFamilies holds every family table, each added by its own
// family_*_test.go in an init.
var allFamilies = map[string][]member{}

// TestFamilies checks every family table.
func TestFamilies(t *testing.T) {
	for name, fam := range allFamilies {
		t.Run(name, func(t *testing.T) { checkFamily(t, fam) })
	}
}
