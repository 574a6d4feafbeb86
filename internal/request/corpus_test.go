// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
)

// TestCorpusThroughEngine runs the shell-analysis corpus through the real
// pipeline — request, shellparse, pathguard, the engine — under the rules
// of the corpus ("deny git push", "deny rm", "deny curl", every class
// otherwise allowed, contained). The engine must agree with the verdict
// written in the corpus, or be stricter only for a reason the corpus's
// small evaluator does not model: the floor (a sensitive or unresolvable
// path) or a read outside the project.
func TestCorpusThroughEngine(t *testing.T) {
	f, err := os.Open("../shellparse/testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ws := policy.Scope{Kind: policy.WorkspaceScope}
	set := &policy.Set{Rules: []*policy.Rule{
		{ID: "deny-git-push", Scope: ws, Command: []string{"git", "push"}, Decision: action.Deny},
		{ID: "deny-rm", Scope: ws, Command: []string{"rm"}, Decision: action.Deny},
		{ID: "deny-curl", Scope: ws, Command: []string{"curl"}, Decision: action.Deny},
	}}
	for _, c := range action.Classes() {
		set.Rules = append(set.Rules, &policy.Rule{ID: "allow-" + c.String(), Scope: ws, Class: c, Decision: action.Allow})
	}
	eng, err := policy.Compile(set, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := request.Options{Dir: "/nonexistent/project", Home: "/nonexistent/home"}
	sc := bufio.NewScanner(f)
	n := 0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		_, text, _ = strings.Cut(text, " ") // the "s" or "-" mark
		verdict, cmd, ok := strings.Cut(text, ": ")
		if !ok {
			t.Fatalf("corpus.txt:%d: no verdict", line)
		}
		want, ok := action.ParseVerdict(verdict)
		if !ok {
			t.Fatalf("corpus.txt:%d: bad verdict %q", line, verdict)
		}
		cmd = strings.ReplaceAll(cmd, "␤", "\n")
		req := &request.Request{Tool: "bash", Command: cmd, Contained: true}
		a, _, err := req.Action(o)
		if err != nil {
			t.Fatalf("corpus.txt:%d: %v", line, err)
		}
		d, _ := eng.Evaluate(a, policy.Env{})
		n++
		switch {
		case d.Verdict == want:
		case d.Verdict < want && (strings.HasPrefix(d.Rule, "floor") || d.Rule == "builtin:read-outside-project"):
			// Stricter for a reason the corpus evaluator does not model.
		default:
			t.Errorf("corpus.txt:%d: %q: engine says %v by %s (%s), corpus says %v", line, cmd, d.Verdict, d.Rule, d.Reason, want)
		}
	}
	if n < 250 {
		t.Errorf("corpus has %d commands, want at least 250", n)
	}
}

// TestCorpusUncontainedCode runs the corpus through the real pipeline under
// the embedded default (no rule), uncontained, and checks the property of
// docs/spec.md §3: no command that runs unanalysed code is allowed.
func TestCorpusUncontainedCode(t *testing.T) {
	f, err := os.Open("../shellparse/testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	eng, err := policy.Compile(nil, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := request.Options{Dir: "/nonexistent/project", Home: "/nonexistent/home"}
	sc := bufio.NewScanner(f)
	code := 0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		_, text, _ = strings.Cut(text, " ")
		_, cmd, ok := strings.Cut(text, ": ")
		if !ok {
			t.Fatalf("corpus.txt:%d: no verdict", line)
		}
		cmd = strings.ReplaceAll(cmd, "␤", "\n")
		a, _, err := (&request.Request{Tool: "bash", Command: cmd}).Action(o)
		if err != nil {
			t.Fatalf("corpus.txt:%d: %v", line, err)
		}
		if !a.RunsCode() {
			continue
		}
		code++
		if d, _ := eng.Evaluate(a, policy.Env{}); d.Verdict == action.Allow {
			t.Errorf("corpus.txt:%d: %q runs unanalysed code (flags %v) and is allowed uncontained by %s", line, cmd, a.Flags, d.Rule)
		}
	}
	if code == 0 {
		t.Error("no command of the corpus runs code: the property was not exercised")
	}
}
