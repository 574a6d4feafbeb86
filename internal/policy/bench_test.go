// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/governance"
	"warden.dev/warden/internal/policy"
)

// benchSet builds n rules spread the way real policies grow: per-agent
// scopes, every class, ref and path constraints, and command prefixes.
func benchSet(n int) *policy.Set {
	s := &policy.Set{}
	classes := action.Classes()
	for i := 0; i < n; i++ {
		r := &policy.Rule{ID: fmt.Sprintf("r%d", i), Decision: action.Verdict(i % 3)}
		switch i % 4 {
		case 0:
			r.Scope = policy.Scope{Kind: policy.AgentScope, Name: fmt.Sprintf("agent%d", i%97)}
		case 1:
			r.Scope = policy.Scope{Kind: policy.SpaceScope, Name: fmt.Sprintf("space%d", i%89)}
		default:
			r.Scope = policy.Scope{Kind: policy.WorkspaceScope}
		}
		if i%5 == 0 {
			r.Command = []string{fmt.Sprintf("tool%d", i%131), "sub"}
		} else {
			// Every generated rule is constrained to values the
			// benchmarked action does not carry, so the decision is the
			// same at every size and only the lookup cost grows.
			r.Class = classes[i%len(classes)]
			switch r.Class {
			case action.GitPush:
				r.Refs = []string{fmt.Sprintf("team%d/**", i), "!main"}
			case action.NetworkEgress:
				r.Hosts = []string{fmt.Sprintf("*.h%d.example", i)}
			default:
				r.Paths = []string{fmt.Sprintf("dir%d/**", i)}
			}
		}
		s.Rules = append(s.Rules, r)
	}
	// The rules the benchmarked action really meets.
	s.Rules = append(s.Rules,
		&policy.Rule{ID: "protect-main", Scope: policy.Scope{Kind: policy.WorkspaceScope}, Class: action.GitPush, Refs: []string{"main"}, Decision: action.Deny},
		&policy.Rule{ID: "features", Scope: policy.Scope{Kind: policy.WorkspaceScope}, Class: action.GitPush, Refs: []string{"feature/**"}, Decision: action.Allow},
		&policy.Rule{ID: "no-git-push", Scope: policy.Scope{Kind: policy.WorkspaceScope}, Command: []string{"git", "push"}, Decision: action.Prompt},
	)
	return s
}

func BenchmarkEvaluate(b *testing.B) {
	a := &action.Action{
		Tool:      "bash",
		Classes:   []action.Class{action.GitPush, action.NetworkEgress},
		Refs:      []string{"feature/login"},
		Hosts:     []string{"github.com"},
		Commands:  [][]string{{"git", "push", "origin", "feature/login"}},
		Principal: action.Principal{Agent: "agent5", Space: "space7"},
		Cwd:       "/src/app", Project: "/src/app", Contained: true,
	}
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		n     int
		trace bool
	}{{10, false}, {100, false}, {10000, false}, {100, true}} {
		n := tc.n
		name := fmt.Sprintf("rules=%d", n)
		if tc.trace {
			name += "/trace"
		}
		b.Run(name, func(b *testing.B) {
			eng, err := policy.Compile(benchSet(n), policy.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			durs := make([]time.Duration, 0, 1<<16)
			for b.Loop() {
				t0 := time.Now()
				d, _ := eng.Evaluate(a, policy.Env{Now: now, Trace: tc.trace})
				if len(durs) < cap(durs) {
					durs = append(durs, time.Since(t0))
				}
				if d.Verdict != action.Prompt {
					b.Fatalf("verdict %v, want prompt", d.Verdict)
				}
			}
			if len(durs) > 0 {
				slices.Sort(durs)
				b.ReportMetric(float64(durs[len(durs)/2].Nanoseconds()), "p50-ns")
				b.ReportMetric(float64(durs[len(durs)*99/100].Nanoseconds()), "p99-ns")
			}
		})
	}
}

// BenchmarkFloorGovernance is a decision on a write of three paths,
// without governance paths (what the floor costs every write) and with
// one held by the governance floor and one exempted.
func BenchmarkFloorGovernance(b *testing.B) {
	paths := func(gov bool) []action.Path {
		ps := []action.Path{
			{Raw: "main.go", Lexical: "/src/app/main.go", Resolved: "/src/app/main.go", Access: action.Write, Checked: true},
			{Raw: "docs/a.md", Lexical: "/src/app/docs/a.md", Resolved: "/src/app/docs/a.md", Access: action.Write, Checked: true},
			{Raw: ".vscode/tasks.json", Lexical: "/src/app/.vscode/tasks.json", Resolved: "/src/app/.vscode/tasks.json", Access: action.Write, Checked: true},
		}
		if gov {
			ps[1].Governed = []governance.Match{{Path: "/src/app/docs/a.md", Tier: governance.Guarded, Why: "exempted"}}
			ps[2].Governed = []governance.Match{{Path: "/src/app/.vscode/tasks.json", Tier: governance.Guarded, Why: ".vscode"}}
		}
		return ps
	}
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	set := benchSet(100)
	set.Exempt = []string{"docs", "~/.local/bin"}
	eng, err := policy.Compile(set, policy.Options{Home: "/home/u"})
	if err != nil {
		b.Fatal(err)
	}
	for _, gov := range []bool{false, true} {
		a := &action.Action{Tool: "write_file", Paths: paths(gov), Commands: [][]string{{"warden", "run", "--", "make"}},
			Cwd: "/src/app", Project: "/src/app"}
		b.Run(fmt.Sprintf("governed=%t", gov), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				eng.Evaluate(a, policy.Env{Now: now})
			}
		})
	}
}
