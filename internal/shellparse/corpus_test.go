// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/shellparse"
)

// entry is one line of testdata/corpus.txt.
type entry struct {
	line    int
	safe    bool
	verdict string
	cmd     string
}

func readCorpus(t testing.TB) []entry {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "corpus.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []entry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		mark, rest, _ := strings.Cut(line, " ")
		v, cmd, ok := strings.Cut(rest, ": ")
		if !ok || (mark != "s" && mark != "-") {
			t.Fatalf("corpus.txt:%d: want \"[s|-] VERDICT: COMMAND\"", n)
		}
		out = append(out, entry{line: n, safe: mark == "s", verdict: v, cmd: strings.ReplaceAll(cmd, "␤", "\n")})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rules are the command rules the corpus verdicts are written for.
var rules = [][]string{{"git", "push"}, {"rm"}, {"curl"}}

// verdict is a tiny stand-in for the policy engine: deny if an invocation
// starts with a denied command; else prompt if the analysis is
// unresolved or carries an opaque flag; else allow.
func verdict(an *shellparse.Analysis) string {
	for _, inv := range an.Invocations {
		for _, r := range rules {
			if len(inv.Argv) >= len(r) && slices.Equal(inv.Argv[:len(r)], r) {
				return "deny"
			}
		}
	}
	if an.Unresolved != "" {
		return "prompt"
	}
	for _, f := range an.Flags {
		if f.Opaque() {
			return "prompt"
		}
	}
	return "allow"
}

var corpusOpts = shellparse.Options{Cwd: "/work/p", Home: "/home/u"}

// describe renders an analysis for the golden file.
func describe(an *shellparse.Analysis) string {
	var b strings.Builder
	fmt.Fprintf(&b, "verdict: %s\n", verdict(an))
	var cs []string
	for _, c := range an.Classes {
		cs = append(cs, c.String())
	}
	fmt.Fprintf(&b, "classes: %s\n", strings.Join(cs, " "))
	if len(an.Flags) > 0 {
		var fs []string
		for _, f := range an.Flags {
			fs = append(fs, string(f))
		}
		fmt.Fprintf(&b, "flags: %s\n", strings.Join(fs, " "))
	}
	fmt.Fprintf(&b, "read_only: %v\n", an.ReadOnly)
	for _, inv := range an.Invocations {
		fmt.Fprintf(&b, "invocation: %q", inv.Argv)
		if inv.Dynamic {
			b.WriteString(" dynamic")
		}
		if len(inv.Env) > 0 {
			var keys []string
			for k := range inv.Env {
				keys = append(keys, k+"="+inv.Env[k])
			}
			slices.Sort(keys)
			fmt.Fprintf(&b, " env=%q", keys)
		}
		for _, r := range inv.Redirects {
			fmt.Fprintf(&b, " %s%q", r.Op, r.Target)
		}
		b.WriteString("\n")
	}
	for _, p := range an.Paths {
		rec := ""
		if p.Recursive {
			rec = " recursive"
		}
		fmt.Fprintf(&b, "path: %s %s%s\n", p.Access, p.Path, rec)
	}
	if len(an.Hosts) > 0 {
		fmt.Fprintf(&b, "hosts: %s\n", strings.Join(an.Hosts, " "))
	}
	if len(an.Refs) > 0 {
		fmt.Fprintf(&b, "refs: %s\n", strings.Join(an.Refs, " "))
	}
	if an.Unresolved != "" {
		fmt.Fprintf(&b, "unresolved: %s\n", an.Unresolved)
	}
	return b.String()
}

// TestCorpus checks the verdict written in the corpus for every command,
// and the full analysis against testdata/corpus.golden.
func TestCorpus(t *testing.T) {
	entries := readCorpus(t)
	if len(entries) < 250 {
		t.Errorf("corpus has %d commands, want at least 250", len(entries))
	}
	var golden strings.Builder
	for _, e := range entries {
		an := shellparse.Analyze(e.cmd, corpusOpts)
		if got := verdict(an); got != e.verdict {
			t.Errorf("corpus.txt:%d: Analyze(%q) verdict = %s, want %s\n%s", e.line, e.cmd, got, e.verdict, describe(an))
		}
		fmt.Fprintf(&golden, "$ %s\n%s\n", strings.ReplaceAll(e.cmd, "\n", "␤"), describe(an))
	}
	goldentest.Check(t, filepath.Join("testdata", "corpus.golden"), []byte(golden.String()))
}
