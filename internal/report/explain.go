// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package report renders Warden's results for people and for programs:
// the explanation of a decision (warden explain, docs/spec.md §11), the
// doctor's host report and honesty matrix, a policy's enumeration. It
// computes nothing that decides; the JSON forms are the contracts tests
// outside the repository rely on, typed here so that every surface
// (the CLI, a web page) prints the same.
package report

import (
	"fmt"
	"io"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
	"warden.dev/warden/internal/shellparse"
)

// Explanation is the JSON of `warden explain --json` (docs/spec.md §11).
// The first ten fields are the contract; the rest add detail.
type Explanation struct {
	Decision  string    `json:"decision"`
	Classes   []string  `json:"classes"`
	Rule      string    `json:"rule"`
	Rules     []string  `json:"rules"`
	Scope     string    `json:"scope"`
	Level     string    `json:"level"`
	Reason    string    `json:"reason"`
	Flags     []string  `json:"flags"`
	Shell     any       `json:"shell"`
	Trace     []string  `json:"trace"`
	Confirm   []string  `json:"confirm,omitempty"`
	WouldHave string    `json:"would_have,omitempty"`
	Override  any       `json:"override,omitempty"`
	Matched   []Match   `json:"matched"`
	Paths     []PathOut `json:"paths,omitempty"`
	Errors    []string  `json:"errors,omitempty"`
}

// Match is one rule that matched.
type Match struct {
	Rule      string `json:"rule"`
	Scope     string `json:"scope"`
	Unit      string `json:"unit"`
	Decision  string `json:"decision"`
	Escalated bool   `json:"escalated,omitempty"`
	Managed   bool   `json:"managed,omitempty"`
	Outcome   string `json:"outcome"`
	LostTo    string `json:"lost_to,omitempty"`
}

// PathOut is one path of the action as resolved.
type PathOut struct {
	Path      string `json:"path"`
	Resolved  string `json:"resolved"`
	Access    string `json:"access"`
	Sensitive string `json:"sensitive,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Explain is the explanation of decision d of action a (sh is its shell
// analysis, nil for another tool), as warden explain prints it.
func Explain(a *action.Action, sh *request.Shell, d policy.Decision, x policy.Explanation) Explanation {
	out := Explanation{
		Decision:  d.Verdict.String(),
		Classes:   classNames(d.Classes),
		Rule:      d.Rule,
		Rules:     x.RuleIDs(),
		Scope:     d.Scope,
		Reason:    d.Reason,
		Flags:     []string{},
		Trace:     x.Trace,
		Confirm:   classNames(d.Confirm),
		WouldHave: d.WouldHave,
		Matched:   []Match{},
		Errors:    x.Errors,
	}
	if len(out.Confirm) == 0 {
		out.Confirm = nil
	}
	if out.Rules == nil {
		out.Rules = []string{}
	}
	if d.Rule != "" {
		out.Level = d.Level.String()
	}
	if d.Override != nil {
		out.Override = map[string]string{"by": d.Override.By, "justification": d.Override.Justification}
	}
	for _, f := range a.Flags {
		out.Flags = append(out.Flags, string(f))
	}
	if sh != nil {
		out.Shell = shellJSON(a, sh)
	}
	for _, m := range x.Matched {
		out.Matched = append(out.Matched, Match{m.Rule, m.Scope, m.Unit, m.Decision.String(), m.Escalated, m.Managed, m.Outcome, m.LostTo})
	}
	for _, p := range a.Paths {
		out.Paths = append(out.Paths, PathOut{p.Raw, p.Resolved, p.Access.String(), p.Sensitive, p.Err})
	}
	return out
}

// shellJSON is the "shell" object of docs/spec.md §6.
func shellJSON(a *action.Action, sh *request.Shell) map[string]any {
	if an, ok := sh.Detail.(*shellparse.Analysis); ok {
		return analysisJSON(an)
	}
	invs := []map[string]any{}
	for _, argv := range sh.Commands {
		invs = append(invs, map[string]any{"argv": argv, "env": map[string]string{}, "redirects": []string{}})
	}
	paths := []map[string]string{}
	for _, p := range sh.Paths {
		paths = append(paths, map[string]string{"path": p.Path, "access": p.Access.String()})
	}
	flags := []string{}
	for _, f := range sh.Flags {
		flags = append(flags, string(f))
	}
	readOnly := len(a.Classes) == 1 && a.Classes[0] == action.ProcessSpawn && sh.Unresolved == "" && len(sh.Hosts) == 0
	for _, p := range sh.Paths {
		if p.Access != action.Read {
			readOnly = false
		}
	}
	return map[string]any{
		"invocations": invs,
		"read_only":   readOnly,
		"flags":       flags,
		"paths":       paths,
		"hosts":       orEmpty(sh.Hosts),
		"refs":        orEmpty(sh.Refs),
		"unresolved":  sh.Unresolved,
	}
}

// analysisJSON is the "shell" object from full shell analysis.
func analysisJSON(an *shellparse.Analysis) map[string]any {
	invs := []map[string]any{}
	for _, inv := range an.Invocations {
		env := inv.Env
		if env == nil {
			env = map[string]string{}
		}
		redirs := []map[string]string{}
		for _, r := range inv.Redirects {
			redirs = append(redirs, map[string]string{"op": r.Op, "target": r.Target})
		}
		invs = append(invs, map[string]any{"argv": inv.Argv, "env": env, "redirects": redirs})
	}
	paths := []map[string]string{}
	for _, p := range an.Paths {
		paths = append(paths, map[string]string{"path": p.Path, "access": p.Access.String()})
	}
	flags := []string{}
	for _, f := range an.Flags {
		flags = append(flags, string(f))
	}
	out := map[string]any{
		"invocations": invs,
		"read_only":   an.ReadOnly,
		"flags":       flags,
		"paths":       paths,
		"hosts":       orEmpty(an.Hosts),
		"refs":        orEmpty(an.Refs),
	}
	if len(an.Packages) > 0 {
		out["packages"] = an.Packages
	}
	if an.Unresolved != "" {
		out["unresolved"] = an.Unresolved
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func classNames(cs []action.Class) []string {
	names := []string{}
	for _, c := range cs {
		names = append(names, c.String())
	}
	return names
}

// WriteText writes the readable form of out, the explanation of a's
// decision: the action as understood, each step of resolution, the
// verdict and the rule that decided it.
func (out Explanation) WriteText(w io.Writer, a *action.Action) {
	fmt.Fprintf(w, "Action\n  tool       %s\n", a.Tool)
	var who []string
	for _, kv := range [][2]string{{"space", a.Principal.Space}, {"agent", a.Principal.Agent}, {"workspace", a.Principal.Workspace}, {"mode", string(a.Principal.Mode)}} {
		if kv[1] != "" {
			who = append(who, kv[0]+"="+kv[1])
		}
	}
	if len(who) > 0 {
		fmt.Fprintf(w, "  principal  %s\n", strings.Join(who, " "))
	}
	if len(a.Principal.Delegation) > 0 {
		fmt.Fprintf(w, "  delegated  %s → %s\n", strings.Join(a.Principal.Delegation, " → "), a.Principal.Agent)
	}
	for _, argv := range a.Commands {
		fmt.Fprintf(w, "  runs       %s\n", strings.Join(argv, " "))
	}
	for _, p := range out.Paths {
		extra := ""
		if p.Resolved != "" && p.Resolved != p.Path {
			extra = " → " + p.Resolved
		}
		switch {
		case p.Error != "":
			extra += " (unresolvable: " + p.Error + ")"
		case p.Sensitive != "":
			extra += " (sensitive: " + p.Sensitive + ")"
		}
		fmt.Fprintf(w, "  %-10s %s%s\n", p.Access, p.Path, extra)
	}
	if len(a.Refs) > 0 {
		fmt.Fprintf(w, "  refs       %s\n", strings.Join(a.Refs, ", "))
	}
	if len(a.Hosts) > 0 {
		fmt.Fprintf(w, "  hosts      %s\n", strings.Join(a.Hosts, ", "))
	}
	if len(out.Flags) > 0 {
		fmt.Fprintf(w, "  flags      %s\n", strings.Join(out.Flags, ", "))
	}
	contained := "no (the agent's own tool; no sandbox under it)"
	if a.Contained {
		contained = "yes (runs under warden run)"
	}
	fmt.Fprintf(w, "  contained  %s\n\nResolution\n", contained)
	for i, step := range out.Trace {
		fmt.Fprintf(w, "  %2d. %s\n", i+1, step)
	}
	if len(out.Matched) > 0 {
		fmt.Fprintf(w, "\nRules that matched\n")
		for _, m := range out.Matched {
			outcome := m.Outcome
			if m.LostTo != "" {
				outcome = strings.Replace(outcome, "lost:", "lost to "+m.LostTo+":", 1)
			}
			fmt.Fprintf(w, "  %-24s %-18s %-7s on %s: %s\n", m.Rule, m.Scope, m.Decision, m.Unit, outcome)
		}
	}
	fmt.Fprintf(w, "\nVerdict: %s\n", strings.ToUpper(out.Decision))
	if out.Rule != "" {
		fmt.Fprintf(w, "  rule     %s (scope %s, level %s)\n", out.Rule, out.Scope, out.Level)
	}
	if len(out.Confirm) > 0 {
		fmt.Fprintf(w, "  confirm  %s\n", strings.Join(out.Confirm, ", "))
	}
	fmt.Fprintf(w, "  reason   %s\n", out.Reason)
	if out.WouldHave != "" {
		fmt.Fprintf(w, "  advisory would have been %s\n", out.WouldHave)
	}
}
