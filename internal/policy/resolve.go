// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
)

// This file resolves each unit through the scope chain (steps 3 to 5 and
// the managed tier of step 7 in the package doc):
//
//   - the units are each effective class of the action (those it
//     declares, those its tool declares, and fileWriteOutsideWorktree
//     whenever a path outside the project is written or deleted), each
//     command invocation, and the reading of paths outside the project;
//     each is resolved on its own;
//   - the chain is space:<id> > agent:<id> > workspace > mode:<mode in
//     force> > builtin, walked from the most specific scope; the first
//     scope holding a matching rule decides, and the walk stops there;
//   - an expired rule takes no part; the builtin scope always holds the
//     class's built-in default, so a class unit is always decided; a read
//     outside the project that no rule matches asks
//     (builtin:read-outside-project); a command unit no rule matches is
//     left to the classes;
//   - inside one scope the longest command prefix wins, then a rule with
//     constraints (or escalated) beats one without, then the most
//     restrictive verdict, then, between two escalated prompts, the one
//     from the stricter rule; a written rule beats the built-in default it
//     refines, and otherwise the rule written first wins; an allow never
//     overrides a deny in the same scope;
//   - the managed tier is walked the same way with no built-in defaults,
//     and its outcome replaces the unit's only when it is stricter.

// unit is one thing resolved on its own: a class, a command invocation,
// or the built-in check of reads outside the project.
type unit struct {
	name  string
	class action.Class
	argv  []string
	// code is what unanalysed code the invocation runs outside the
	// sandbox; builtin:runs-code applies to it (runscode.go). Contained,
	// it is always NoCode.
	code action.Code
}

// label names the unit in explanations; a command's is built on first use.
func (u *unit) label() string {
	if u.name == "" && u.argv != nil {
		u.name = "command " + strings.Join(u.argv, " ")
	}
	return u.name
}

// outcome is the resolution of one unit.
type outcome struct {
	unit    unit
	decided bool
	verdict action.Verdict
	rule    string
	scope   string
	level   Level
	reason  string
	over    *action.Override
	// escalated names the facets a rule wanted and the request lacked.
	escalated string
	// sticky marks a prompt escalated from a deny rule: actFreely does
	// not turn it into allow.
	sticky bool
	// cmd is the command prefix of the deciding rule as written, words
	// the number of argv words it matched, and allows whether the rule
	// is written as allow (not a lifted soft deny): what builtin:runs-code
	// needs to tell a rule that names a command from one that does not.
	cmd    []string
	words  int
	allows bool
}

// describe is the outcome's reason, formatted only for the decider.
func (o *outcome) describe() string {
	switch {
	case o.escalated != "":
		return "rule " + o.rule + " names " + o.escalated + ", which the request does not describe: asking instead of guessing"
	case o.reason != "":
		return o.reason
	}
	return "rule " + o.rule + ": " + o.verdict.String() + " " + o.unit.label()
}

// classes returns the action's effective classes: those it declares plus
// those its tool declares (a tool cannot drop its own classes), with the
// write-outside-worktree class kept only when a written path is outside.
// unclassified is true for an unknown tool that declares nothing.
func (ev *evaluation) classes() (cs []action.Class, unclassified, mutatingTool bool) {
	a := ev.a
	for _, c := range a.Classes {
		if !c.Valid() {
			panic(fmt.Sprintf("invalid class %d", c))
		}
	}
	cs = slices.Clone(a.Classes)
	t, known := action.LookupTool(a.Tool)
	if known {
		for _, c := range t.Classes {
			if t.OutsideOnly && c == action.FileWriteOutsideWorktree {
				continue
			}
			cs = append(cs, c)
		}
	}
	// Whatever the tool, a write or delete outside the worktree is what
	// fileWriteOutsideWorktree covers: a shell's touch /etc/x included.
	if ev.writesOutside() {
		cs = append(cs, action.FileWriteOutsideWorktree)
	}
	slices.Sort(cs)
	cs = slices.Compact(cs)
	return cs, !known && len(cs) == 0, known && t.Mutating
}

func (ev *evaluation) writesOutside() bool {
	for i := range ev.a.Paths {
		if p := &ev.a.Paths[i]; p.Access != action.Read && !ev.inProject(p) {
			return true
		}
	}
	return false
}

// inProject reports whether p is inside the project: both what was meant
// and what the kernel reaches, each as the resolver spelt it under the
// project when it gets there through an alias (a link, /proc/self/root,
// a bind mount). A path that only looks inside (a link in the project to
// /etc) has its resolved form outside, and is outside.
func (ev *evaluation) inProject(p *action.Path) bool {
	lex, res := p.InProject()
	return action.Within(ev.a.Project, res) && action.Within(ev.a.Project, lex)
}

// units lists what is resolved independently: each class, each command
// invocation, and reads outside the project.
func (ev *evaluation) units(classes []action.Class) []unit {
	us := ev.unitBuf[:0]
	for _, c := range classes {
		us = append(us, unit{name: classUnitNames[c], class: c})
	}
	for i, argv := range ev.a.Commands {
		if len(argv) > 0 {
			// The name of a command unit is built only if something
			// needs it (a match, the trace): see unit.label.
			us = append(us, unit{argv: argv, code: codeOf(ev.a, i)})
		}
	}
	for i := range ev.a.Paths {
		if p := &ev.a.Paths[i]; p.Access == action.Read && !ev.inProject(p) {
			us = append(us, unit{name: "read " + p.Resolved})
			break
		}
	}
	return us
}

// chain returns the scopes to walk for the principal, most specific first.
func (ev *evaluation) chain(mode action.Mode) []Scope {
	p := ev.a.Principal
	sc := make([]Scope, 0, 5)
	if p.Space != "" {
		sc = append(sc, Scope{Kind: SpaceScope, Name: p.Space})
	}
	if p.Agent != "" {
		sc = append(sc, Scope{Kind: AgentScope, Name: p.Agent})
	}
	return append(sc, Scope{Kind: WorkspaceScope}, Scope{Kind: ModeScope, Name: string(mode)}, Scope{Kind: Builtin})
}

// resolve decides one unit: main chain, then the managed tier combined
// most-restrictively, each after its enforcement level.
func (ev *evaluation) resolve(u unit, mode action.Mode) outcome {
	o := ev.walk(&ev.e.main, u, mode, false)
	if ev.e.hasMgd {
		m := ev.walk(&ev.e.managed, u, mode, true)
		if m.over != nil && o.over == nil {
			// A managed soft deny lifted by a managed holder is still an
			// override the audit must see.
			o.over = m.over
		}
		if m.decided && (!o.decided || m.verdict < o.verdict) {
			if ev.env.Trace {
				ev.tracef("%s: managed tier tightens %s to %s (rule %s)", u.label(), o.verdict, m.verdict, m.rule)
			}
			m.reason, m.escalated = "managed policy: "+m.describe(), ""
			return m
		}
		if m.decided {
			if ev.env.Trace {
				ev.tracef("%s: managed tier (%s by %s) does not tighten %s", u.label(), m.verdict, m.rule, o.verdict)
			}
		}
	}
	return o
}

// walk resolves a unit through one index's scope chain.
func (ev *evaluation) walk(ix *index, u unit, mode action.Mode, managed bool) outcome {
	tier := ""
	if managed {
		tier = "managed "
	}
	for _, sc := range ev.chain(mode) {
		cands := ev.candidates(ix, sc, u, managed)
		if len(cands) == 0 {
			if ev.env.Trace && ix.scopes[sc] != nil {
				ev.tracef("%s: %sscope %s has rules, none matching", u.label(), tier, sc)
			}
			continue
		}
		best := pick(cands)
		// An advisory rule never decides: resolution goes on as if it
		// were absent, and what it would have done is recorded. Deploying
		// a strict rule as advisory must change no verdict.
		for best.rule.Level == Advisory {
			ev.advise(u, sc, best, managed)
			cands = slices.DeleteFunc(cands, func(c candidate) bool { return c.rule.Level == Advisory })
			if len(cands) == 0 {
				break
			}
			best = pick(cands)
		}
		if len(cands) == 0 {
			continue
		}
		for i := range cands {
			c := &cands[i]
			m := Match{Rule: c.rule.ID, Scope: sc.String(), Unit: u.label(), Decision: c.verdict, Escalated: c.escalated, Managed: managed, Outcome: "decided"}
			if c != best {
				m.Outcome, m.LostTo = lostBecause(best, c), best.rule.ID
			}
			ev.x.Matched = append(ev.x.Matched, m)
		}
		if ev.env.Trace {
			ev.tracef("%s: %sscope %s has %d matching rule(s); %s decides %s", u.label(), tier, sc, len(cands), best.rule.ID, best.verdict)
		}
		return ev.enforce(u, sc, best, managed)
	}
	if u.class == 0 && u.argv == nil && !managed {
		// The built-in check of reads outside the project.
		ev.x.Matched = append(ev.x.Matched, Match{Rule: "builtin:read-outside-project", Scope: "builtin", Unit: u.label(), Decision: action.Prompt, Outcome: "decided"})
		if ev.env.Trace {
			ev.tracef("%s: reading outside the project asks first", u.label())
		}
		return outcome{unit: u, decided: true, verdict: action.Prompt, rule: "builtin:read-outside-project", scope: "builtin",
			reason: "reading outside the project needs confirmation"}
	}
	if u.argv != nil || managed {
		if ev.env.Trace {
			ev.tracef("%s: no %scommand rule matches", u.label(), tier)
		}
	}
	return outcome{unit: u}
}

// candidate is a rule that matched a unit, with its effective verdict.
type candidate struct {
	rule      *compiled
	verdict   action.Verdict
	escalated bool
	prefix    int
	why       string
}

func (ev *evaluation) candidates(ix *index, sc Scope, u unit, managed bool) []candidate {
	cands := ev.candBuf[:0]
	b := ix.scopes[sc]
	consider := func(c *compiled, prefix int) {
		if !c.Expires.IsZero() && !ev.env.Now.Before(c.Expires) {
			if ev.env.Trace {
				ev.tracef("%s: rule %s expired at %s; skipped", u.label(), c.ID, c.Expires.Format(time.RFC3339))
			}
			return
		}
		ok, escalated, why := ev.match(c)
		if !ok {
			return
		}
		v := c.Decision
		if escalated {
			v = action.Prompt
		}
		cands = append(cands, candidate{rule: c, verdict: v, escalated: escalated, prefix: prefix, why: why})
	}
	if b != nil {
		if u.class != 0 {
			if cr := b.byClass[u.class]; cr != nil {
				for _, c := range ev.lookup(cr) {
					consider(c, 0)
				}
			}
		} else if u.argv != nil {
			n := b.cmds
			for i, w := range u.argv {
				if n = n.next[w]; n == nil {
					break
				}
				for _, c := range n.rules {
					consider(c, i+1)
				}
			}
		}
	}
	if u.class != 0 && sc.Kind == Builtin && !managed {
		v, why := u.class.Default(ev.a.Contained)
		if why == "" {
			why = builtinWhy[u.class]
		}
		if u.class == action.FileDelete {
			why += ev.deleteWhy()
		}
		cands = append(cands, candidate{rule: builtinRule(u.class), verdict: v, why: why})
	}
	return cands
}

// deleteWhy quotes what the request layer said of the paths it found to
// be deleted by a command that does not say so (a tracked file truncated
// by a redirection), for the reason of the built-in fileDelete default.
func (ev *evaluation) deleteWhy() string {
	var out string
	for i := range ev.a.Paths {
		if p := &ev.a.Paths[i]; p.Access == action.Delete && p.Why != "" {
			out += "; " + p.Why
		}
	}
	if out != "" {
		out = ":" + out[1:]
	}
	return out
}

// lookup returns, in policy order, the rules of one class that could
// match the action: the unindexed ones, those filed under a key of the
// action's values, and every rule keyed by a facet the action lacks.
func (ev *evaluation) lookup(cr *classRules) []*compiled {
	found := ev.ruleBuf[:0]
	add := func(list []*compiled) {
		for _, c := range list {
			if !slices.Contains(found, c) {
				found = append(found, c)
			}
		}
	}
	add(cr.rest)
	a := ev.a
	if len(cr.refs.all) > 0 {
		if len(a.Refs) == 0 || hasSymbolicRef(a.Refs) || slices.ContainsFunc(a.Refs, func(r string) bool { return normRef(r) == "**" }) {
			add(cr.refs.all)
		}
		for _, r := range a.Refs {
			r = normRef(r)
			if i := strings.IndexByte(r, '/'); i >= 0 {
				r = r[:i]
			}
			add(cr.refs.keyed[r])
		}
	}
	if len(cr.hosts.all) > 0 {
		if len(a.Hosts) == 0 {
			add(cr.hosts.all)
		}
		for _, h := range a.Hosts {
			add(cr.hosts.keyed[hostKey(normHost(h))])
		}
	}
	if len(cr.paths.all) > 0 {
		if len(a.Paths) == 0 {
			add(cr.paths.all)
		}
		for i := range a.Paths {
			ap := &a.Paths[i]
			for _, p := range [4]string{ap.Resolved, ap.Lexical, ap.InResolved, ap.InLexical} {
				if p == "" {
					continue
				}
				add(cr.paths.keyed[absKey(p)])
				if action.Within(a.Project, p) {
					add(cr.paths.keyed[relKey(p, a.Project)])
				}
			}
		}
	}
	if len(found) > 1 {
		slices.SortFunc(found, func(x, y *compiled) int { return x.order - y.order })
	}
	return found
}

var classUnitNames = func() [action.EnclosureControl + 1]string {
	var names [action.EnclosureControl + 1]string
	for _, c := range action.Classes() {
		names[c] = "class " + c.String()
	}
	return names
}()

var builtinWhy = func() [action.EnclosureControl + 1]string {
	var whys [action.EnclosureControl + 1]string
	for _, c := range action.Classes() {
		whys[c] = "the built-in default for " + c.String()
	}
	return whys
}()

var builtinRules = func() [action.EnclosureControl + 1]*compiled {
	var rs [action.EnclosureControl + 1]*compiled
	for _, c := range action.Classes() {
		rs[c] = &compiled{Rule: &Rule{ID: "builtin:" + c.String(), Scope: Scope{Kind: Builtin}, Class: c, Provenance: ProvenanceBuiltin}}
	}
	return rs
}()

func builtinRule(c action.Class) *compiled { return builtinRules[c] }

// pick chooses the deciding rule among one scope's matches: the longest
// command prefix, then constrained over unconstrained, then the most
// restrictive; and allow never overrides a deny in the same scope.
func pick(cands []candidate) *candidate {
	best := &cands[0]
	for i := 1; i < len(cands); i++ {
		if beats(&cands[i], best) {
			best = &cands[i]
		}
	}
	if best.verdict == action.Allow {
		var deny *candidate
		for i := range cands {
			if cands[i].verdict == action.Deny && (deny == nil || beats(&cands[i], deny)) {
				deny = &cands[i]
			}
		}
		if deny != nil {
			return deny
		}
	}
	return best
}

func beats(a, b *candidate) bool {
	if a.prefix != b.prefix {
		return a.prefix > b.prefix
	}
	ac, bc := a.rule.Constrained() || a.escalated, b.rule.Constrained() || b.escalated
	if ac != bc {
		return ac
	}
	if a.verdict != b.verdict {
		return a.verdict < b.verdict
	}
	if a.rule.Decision != b.rule.Decision {
		// Two escalated prompts: the one from the stricter rule speaks,
		// so that a deny that could not be checked is what decides.
		return a.rule.Decision < b.rule.Decision
	}
	if a.rule.Provenance == ProvenanceBuiltin || b.rule.Provenance == ProvenanceBuiltin {
		// A written rule at builtin scope beats the default it refines.
		return b.rule.Provenance == ProvenanceBuiltin
	}
	return a.rule.order < b.rule.order
}

// lostBecause says why c lost to best; the strings are constants so that
// explaining costs nothing on the hot path.
func lostBecause(best, c *candidate) string {
	switch {
	case best.verdict == action.Deny && c.verdict == action.Allow && !beats(best, c):
		return "lost: allow never overrides a deny in the same scope"
	case best.prefix != c.prefix:
		return "lost: shorter command prefix"
	case (best.rule.Constrained() || best.escalated) != (c.rule.Constrained() || c.escalated):
		return "lost: less specific (unconstrained)"
	case best.verdict != c.verdict:
		return "lost: as specific but less restrictive"
	case best.rule.Decision != c.rule.Decision:
		return "lost: both ask, and the stricter rule speaks"
	}
	return "lost: same verdict, written later"
}
