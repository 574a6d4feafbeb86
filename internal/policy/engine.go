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

// Engine decides actions against a compiled policy and, optionally, a
// managed tier. It is immutable after [Compile] and safe for concurrent
// use; every call resolves from scratch (no memoisation across calls).
type Engine struct {
	set        *Set
	managedSet *Set
	main       index
	managed    index
	hasMgd     bool
	home       string
}

// Options configure [Compile].
type Options struct {
	// Managed is the managed tier: combined most-restrictively with the
	// result of every decision, so it can only tighten.
	Managed *Set
	// Home is the user's home directory, for "~/" in path patterns.
	Home string
}

// Compile indexes a policy set for evaluation. A nil set is the empty
// policy: only the built-in defaults and the floor apply.
func Compile(s *Set, opt Options) (*Engine, error) {
	if s == nil {
		s = &Set{}
	}
	main, err := buildIndex(s, opt.Home)
	if err != nil {
		return nil, fmt.Errorf("compiling policy: %v", err)
	}
	managed, err := buildIndex(opt.Managed, opt.Home)
	if err != nil {
		return nil, fmt.Errorf("compiling managed policy: %v", err)
	}
	ms := opt.Managed
	if ms == nil {
		ms = &Set{}
	}
	return &Engine{set: s, managedSet: ms, main: main, managed: managed, hasMgd: opt.Managed != nil, home: opt.Home}, nil
}

// Env is what a decision depends on besides the action and the policy.
type Env struct {
	// Now is the time used for rule expiry. The engine never reads the
	// clock itself, so a decision is a pure function of its inputs.
	Now time.Time
	// NoApprover reports that nobody can answer a prompt now (a headless
	// session, a hook in dontAsk mode): a prompt then becomes a deny.
	NoApprover bool
	// Trace asks for [Explanation.Trace], the step-by-step sentences. The
	// decision, the matched rules and why each lost are always given;
	// the sentences cost formatting that hooks on the hot path skip.
	Trace bool
}

// Decision is the outcome of evaluating one action.
type Decision struct {
	Verdict action.Verdict
	// Rule and Scope name the rule that decided; Level is its
	// enforcement level.
	Rule  string
	Scope string
	Level Level
	// Classes are the action's classes; Confirm lists those that need
	// confirmation when the verdict is prompt (one prompt lists them all).
	Classes []action.Class
	Confirm []action.Class
	// Reason is a sentence a person (or the agent) can act on.
	Reason string
	// WouldHave is set when an advisory rule let through what it would
	// otherwise have stopped: "deny by rule X".
	WouldHave string
	// Override is set when a soft deny was lifted, with its justification.
	Override *action.Override
}

// Explanation is how a decision was reached.
type Explanation struct {
	// Trace is every step of resolution, in order, in plain sentences.
	Trace []string
	// Matched lists every rule that matched a class or an invocation, in
	// the order they were considered.
	Matched []Match
	// Errors holds internal errors; any error makes the decision deny.
	Errors []string
}

// Match is one rule that matched a unit of resolution.
type Match struct {
	Rule     string
	Scope    string
	Unit     string // "class gitPush", "command git push origin main"…
	Decision action.Verdict
	// Escalated is true when the rule named a facet the request lacks.
	Escalated bool
	Managed   bool
	// Outcome is "decided" or why the rule lost to the rule LostTo.
	Outcome string
	LostTo  string
}

// RuleIDs returns the ids of the matched rules, each once, in order.
func (x *Explanation) RuleIDs() []string {
	var ids []string
	for _, m := range x.Matched {
		if !slices.Contains(ids, m.Rule) {
			ids = append(ids, m.Rule)
		}
	}
	return ids
}

// Evaluate decides one action. It never fails: an internal error, even a
// panic, yields Deny with the error in the explanation.
func (e *Engine) Evaluate(a *action.Action, env Env) (d Decision, x Explanation) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("internal error: %v", r)
			d = Decision{Verdict: action.Deny, Reason: msg + " (denied: an error is never an allow)"}
			x.Errors = append(x.Errors, msg)
			x.Trace = append(x.Trace, "internal error; denied")
		}
	}()
	ev := evaluation{e: e, a: a, env: env}
	ev.x.Matched = make([]Match, 0, 6)
	return ev.run()
}

// evaluation is the state of one Evaluate call.
type evaluation struct {
	e   *Engine
	a   *action.Action
	env Env
	x   Explanation
	// effective are the action's effective classes; the action itself is
	// never modified.
	effective []action.Class
	// would is what the first advisory rule that matched would have done.
	would string
	// Buffers reused across units, so that a decision allocates little.
	candBuf [8]candidate
	ruleBuf [16]*compiled
	unitBuf [8]unit
	outBuf  [8]outcome
}

func (ev *evaluation) tracef(format string, args ...any) {
	if ev.env.Trace {
		ev.x.Trace = append(ev.x.Trace, fmt.Sprintf(format, args...))
	}
}

// deny ends the evaluation early with a deny by a non-rule check: the floor
// ("floor:…") or a delegation barrier ("delegation:…").
func (ev *evaluation) deny(rule, reason string) (Decision, Explanation) {
	if ev.env.Trace {
		ev.tracef("verdict: deny by %s — %s", rule, reason)
	}
	scope, _, _ := strings.Cut(rule, ":")
	var classes []action.Class
	if ev.a != nil {
		classes = ev.effective
	}
	return Decision{Verdict: action.Deny, Rule: rule, Scope: scope, Reason: reason, Classes: classes}, ev.x
}

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

func (ev *evaluation) run() (Decision, Explanation) {
	a := ev.a
	if a == nil {
		return ev.deny("floor:invalid-action", "no action given")
	}
	if a.Tool == "" {
		return ev.deny("floor:invalid-action", "the action names no tool")
	}

	// 1. The floor: nothing loosens it, and a denial here is final.
	classes, unclassified, mutatingTool := ev.classes()
	// Work on a copy: the caller's action is never modified.
	ev.effective = classes
	if ev.env.Trace {
		ev.tracef("action: tool %s, classes %s, contained=%t", a.Tool, classList(classes), a.Contained)
	}
	for _, p := range a.Paths {
		switch {
		case !p.Checked:
			return ev.deny("floor:unresolved-path", fmt.Sprintf("path %q was never resolved (floor: unresolved paths are denied)", p.Raw))
		case p.Err != "":
			return ev.deny("floor:unresolved-path", fmt.Sprintf("path %q cannot be resolved: %s (floor: resolution errors are denied)", p.Raw, p.Err))
		case p.Sensitive != "":
			return ev.deny("floor:sensitive-path", fmt.Sprintf("path %q is sensitive (%s): the floor denies it to every tool, for reading and writing", p.Raw, p.Sensitive))
		}
	}
	floorPrompt := ""
	if a.Unresolved != "" {
		floorPrompt = "cannot be analysed statically: " + a.Unresolved
	}
	for _, f := range a.Flags {
		if floorPrompt != "" {
			break
		}
		if f.Opaque() {
			floorPrompt = fmt.Sprintf("the command is flagged %s: cannot be analysed statically or executes fetched or decoded text, so it is never allowed without asking", f)
			break
		}
	}
	if floorPrompt == "" && unclassified {
		floorPrompt = fmt.Sprintf("tool %q declares no class, so it is treated as mutating and asked about", a.Tool)
	}
	if floorPrompt != "" {
		if ev.env.Trace {
			ev.tracef("floor: at least prompt — %s", floorPrompt)
		}
	} else {
		if ev.env.Trace {
			ev.tracef("floor: no sensitive path, nothing opaque")
		}
	}

	// Delegation barriers and the autonomy ceiling (§8).
	mode, why := ev.mode()
	if ev.env.Trace {
		ev.tracef("autonomy: %s (%s)", mode, why)
	}
	if len(classes) > 0 || unclassified {
		if barrier, reason := ev.delegation(); reason != "" {
			return ev.deny("delegation:"+barrier, reason)
		}
		if ev.env.Trace && len(a.Principal.Delegation) > 0 {
			ev.tracef("delegation: chain of %d within the depth limit, no cycle, within budget", len(a.Principal.Delegation))
		}
	}

	// 2–6. Resolve every unit through the scope chain, managed tier and
	// enforcement level; combine most-restrictively.
	units := ev.units(classes)
	outs := ev.outBuf[:0]
	for _, u := range units {
		o := ev.resolve(u, mode)
		if u.code != action.NoCode {
			o = ev.runsCode(u, o)
		}
		if o.decided {
			outs = append(outs, o)
		}
	}
	if !a.Contained && len(a.Commands) == 0 && a.RunsCode() {
		outs = append(outs, ev.codeWithoutCommands())
	}
	d := Decision{Verdict: action.Allow, Classes: classes}
	var decider *outcome
	sticky := false
	for i := range outs {
		o := &outs[i]
		sticky = sticky || (o.sticky && o.verdict == action.Prompt)
		if o.verdict == action.Prompt && o.unit.class != 0 {
			d.Confirm = append(d.Confirm, o.unit.class)
		}
		if o.over != nil {
			d.Override = o.over
		}
		if decider == nil || o.verdict < decider.verdict {
			decider = o
		}
	}
	d.WouldHave = ev.would
	if decider != nil {
		d.Verdict, d.Rule, d.Scope, d.Level, d.Reason = decider.verdict, decider.rule, decider.scope, decider.level, decider.describe()
		if ev.env.Trace {
			ev.tracef("combined: %s, decided by %s on %s (most restrictive of %d)", d.Verdict, decider.rule, decider.unit.label(), len(outs))
		}
	} else {
		d.Reason = "nothing gated: no class applies (reading inside the project and writing inside the worktree are the agent's ordinary work)"
		if ev.env.Trace {
			ev.tracef("combined: nothing gated; allow")
		}
	}
	if d.Verdict != action.Prompt {
		d.Confirm = nil
	} else if len(d.Confirm) > 1 {
		names := make([]string, len(d.Confirm))
		for i, c := range d.Confirm {
			names[i] = c.String()
		}
		d.Reason = "one confirmation covers " + strings.Join(names, ", ") + " (" + d.Reason + ")"
	}

	// 7. Autonomy.
	switch mode {
	case action.ProposeOnly:
		if len(classes) > 0 || unclassified || mutatingTool || ev.writes() {
			d.Verdict, d.Reason = action.Deny, "this space only proposes: the agent may reason and answer, not act (autonomy proposeOnly)"
			d.Rule, d.Scope, d.Level = "autonomy:proposeOnly", "autonomy", Hard
			if ev.env.Trace {
				ev.tracef("autonomy proposeOnly: every gated action is denied")
			}
		}
	case action.ActFreely:
		if d.Verdict == action.Prompt && floorPrompt == "" && !sticky {
			d.Verdict = action.Allow
			d.Reason += " (prompt allowed without asking: autonomy actFreely)"
			if ev.env.Trace {
				ev.tracef("autonomy actFreely: the prompt becomes allow; a deny would stay")
			}
		}
	}

	// The floor's minimum: opaque commands are never allowed.
	if floorPrompt != "" && d.Verdict == action.Prompt {
		// The floor asks too; it is the reason that matters most.
		d.Reason = floorPrompt + " (and " + d.Rule + ": " + d.Reason + ")"
		d.Rule, d.Scope, d.Level = "floor", "floor", Hard
	}
	if floorPrompt != "" && d.Verdict == action.Allow {
		d.Verdict, d.Reason = action.Prompt, floorPrompt
		d.Rule, d.Scope, d.Level = "floor", "floor", Hard
		if ev.env.Trace {
			ev.tracef("floor: raised allow to prompt")
		}
	}

	// A prompt nobody can answer is a deny.
	if d.Verdict == action.Prompt && ev.env.NoApprover {
		d.Verdict = action.Deny
		d.Reason += " — and no approver is connected: an unanswered question is never a yes"
		if ev.env.Trace {
			ev.tracef("no approver: prompt becomes deny")
		}
	}
	if d.Verdict != action.Prompt {
		d.Confirm = nil
	}
	if ev.env.Trace {
		ev.tracef("verdict: %s", d.Verdict)
	}
	return d, ev.x
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

// writes reports whether any path is written or deleted.
func (ev *evaluation) writes() bool {
	for _, p := range ev.a.Paths {
		if p.Access != action.Read {
			return true
		}
	}
	return false
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

// mode is the autonomy in force: the least autonomous of the policy's
// dial, the caller's mode and every delegator's own setting. Unset values
// take no part; nothing set at all means actWithApproval.
func (ev *evaluation) mode() (action.Mode, string) {
	p := ev.a.Principal
	m, why := action.ActWithApproval, "the default"
	switch pol := ev.e.set.Autonomy; {
	case pol != "" && p.Mode != "" && p.Mode.MoreFree(pol):
		m, why = pol, "the policy's autonomy; the principal's "+string(p.Mode)+" cannot exceed it"
	case p.Mode != "":
		m, why = p.Mode, "the principal's mode"
	case pol != "":
		m, why = pol, "the policy's autonomy"
	}
	if ma := ev.e.managedSet.Autonomy; ma != "" && m.MoreFree(ma) {
		m, why = ma, "capped by the managed tier's autonomy"
	}
	for _, auto := range [2]map[string]action.Mode{ev.e.set.Delegation.Autonomy, ev.e.managedSet.Delegation.Autonomy} {
		for i := 0; len(auto) > 0 && i <= len(p.Delegation); i++ {
			agent := p.Agent
			if i < len(p.Delegation) {
				agent = p.Delegation[i]
			}
			if am, ok := auto[agent]; ok && m.MoreFree(am) {
				m, why = am, "capped by the autonomy of "+agent+" (a delegate never acts more freely than its delegator)"
			}
		}
	}
	return m, why
}

// delegation applies the depth, cycle and budget barriers; it returns the
// barrier and why the action is refused, or "".
func (ev *evaluation) delegation() (barrier, reason string) {
	p := ev.a.Principal
	if len(p.Delegation) == 0 {
		return "", ""
	}
	max := ev.e.set.Delegation.MaxDepth
	if max <= 0 {
		max = DefaultMaxDepth
	}
	if mm := ev.e.managedSet.Delegation.MaxDepth; mm > 0 && mm < max {
		max = mm
	}
	if len(p.Delegation) > max {
		return "depth", fmt.Sprintf("delegation barrier (depth): the chain %s is %d deep, the limit is %d",
			strings.Join(append(slices.Clone(p.Delegation), p.Agent), " → "), len(p.Delegation), max)
	}
	seen := make(map[string]bool, len(p.Delegation)+1)
	for _, id := range append(slices.Clone(p.Delegation), p.Agent) {
		if id != "" && seen[id] {
			return "cycle", fmt.Sprintf("delegation barrier (cycle): agent %q appears twice in the chain %s",
				id, strings.Join(append(slices.Clone(p.Delegation), p.Agent), " → "))
		}
		seen[id] = true
	}
	if p.BudgetCents != nil {
		cost := int64(0)
		if ev.a.Cents != nil {
			cost = *ev.a.Cents
		}
		if cost > *p.BudgetCents {
			return "budget", fmt.Sprintf("delegation barrier (budget): the action costs %d cents and the delegator has %d left; a delegation cannot create budget", cost, *p.BudgetCents)
		}
	}
	return "", ""
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

// hasSymbolicRef reports whether a ref names no branch by itself: HEAD,
// @, HEAD~2, @{u}, FETCH_HEAD… — what it pushes depends on the checkout.
func hasSymbolicRef(refs []string) bool {
	for _, r := range refs {
		r = normRef(r)
		switch {
		case r == "" || r == "@" || strings.HasSuffix(r, "HEAD") || strings.HasPrefix(r, "HEAD~") ||
			strings.HasPrefix(r, "HEAD^") || strings.HasPrefix(r, "@{") || strings.HasPrefix(r, "@~") || strings.HasPrefix(r, "@^"):
			return true
		}
	}
	return false
}

func absKey(p string) string {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[:i]
	}
	return "/" + p
}

func relKey(p, project string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(p, project), "/")
	if project == "/" {
		rel = strings.TrimPrefix(p, "/")
	}
	if i := strings.IndexByte(rel, '/'); i >= 0 {
		rel = rel[:i]
	}
	return "rel/" + rel
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

// advise records what an advisory rule would have done.
func (ev *evaluation) advise(u unit, sc Scope, c *candidate, managed bool) {
	ev.x.Matched = append(ev.x.Matched, Match{Rule: c.rule.ID, Scope: sc.String(), Unit: u.label(), Decision: c.verdict,
		Escalated: c.escalated, Managed: managed, Outcome: "advisory: recorded, does not decide"})
	if c.verdict != action.Allow && ev.would == "" {
		ev.would = c.verdict.String() + " by advisory rule " + c.rule.ID
	}
	if ev.env.Trace {
		ev.tracef("%s: rule %s is advisory: it would have decided %s; recorded, and resolution goes on without it", u.label(), c.rule.ID, c.verdict)
	}
}

// holders returns who may lift a soft deny of one tier: each tier names
// its own, so a workspace cannot lift a managed soft deny.
func (ev *evaluation) holders(managed bool) []string {
	if managed {
		return ev.e.managedSet.OverrideHolders
	}
	return ev.e.set.OverrideHolders
}

// enforce applies the deciding rule's enforcement level.
func (ev *evaluation) enforce(u unit, sc Scope, c *candidate, managed bool) outcome {
	o := outcome{unit: u, decided: true, verdict: c.verdict, rule: c.rule.ID, scope: sc.String(), level: c.rule.Level,
		cmd: c.rule.Command, words: c.prefix, allows: c.rule.Decision == action.Allow}
	o.reason = c.rule.Reason
	if o.reason == "" {
		o.reason = c.why
	}
	if c.escalated {
		o.escalated = c.why
		// A rule that cannot be checked because the request does not
		// describe the facet is not a question autonomy may answer: a
		// deny further down the chain might be what applies.
		o.sticky = true
	}
	switch c.rule.Level {
	case Soft:
		if o.verdict == action.Deny {
			if ov := ev.a.Override; ov != nil && ov.Justification != "" && slices.Contains(ev.holders(managed), ov.By) {
				o.verdict, o.over = action.Allow, ov
				o.allows = false
				o.reason = fmt.Sprintf("soft deny by %s overridden by %s: %q", c.rule.ID, ov.By, ov.Justification)
				if ev.env.Trace {
					ev.tracef("%s: soft rule %s overridden by %s with a recorded justification", u.label(), c.rule.ID, ov.By)
				}
			} else {
				if ev.env.Trace {
					ev.tracef("%s: soft rule %s denies; a holder of the override permission may lift it with a justification", u.label(), c.rule.ID)
				}
			}
		}
	}
	return o
}

// match tests a rule's constraints against the action. A restrictive rule
// matches when the request touches any value it names; an allow rule only
// when every value lies inside. A named facet the request lacks makes the
// match escalated (prompt) — provided every facet it has matches. why
// names the missing facets.
func (ev *evaluation) match(c *compiled) (ok, escalated bool, why string) {
	a := ev.a
	restrictive := c.Decision != action.Allow
	missing := ""
	lack := func(facet string) {
		if missing == "" {
			missing = facet
		} else {
			missing += " and " + facet
		}
	}
	if !c.paths.empty() {
		if len(a.Paths) == 0 {
			lack("paths")
		} else if !ev.matchPaths(c, restrictive) {
			return false, false, ""
		}
	}
	if !c.refs.empty() {
		if len(a.Refs) == 0 {
			lack("refs")
		} else if hasSymbolicRef(a.Refs) {
			// HEAD names whatever is checked out: the rule cannot be
			// checked against it, so it is asked about, never guessed.
			lack("a named ref (HEAD or @ names no branch)")
		} else if !matchRefs(restrictive, a.Refs, &c.refs) {
			return false, false, ""
		}
	}
	if !c.hosts.empty() {
		if len(a.Hosts) == 0 {
			lack("hosts")
		} else if !matchAll(restrictive, a.Hosts, &c.hosts, normHost, matchHost) {
			return false, false, ""
		}
	}
	if c.MaxCount != nil {
		if a.Count == nil {
			lack("a count")
		} else if !limit(restrictive, *a.Count, *c.MaxCount) {
			return false, false, ""
		}
	}
	if c.MaxCents != nil {
		if a.Cents == nil {
			lack("a cost in cents")
		} else if !limit(restrictive, *a.Cents, *c.MaxCents) {
			return false, false, ""
		}
	}
	return true, missing != "", missing
}

// matchRefs is matchAll for refs, where "**" (git push --all, --mirror,
// --tags) means every branch: it touches every ref a restrictive rule
// names, and lies inside an allow rule only when that rule allows every
// ref.
func matchRefs(restrictive bool, refs []string, ps *patternSet) bool {
	for _, r := range refs {
		r = normRef(r)
		in := false
		if r == "**" {
			in = restrictive || (len(ps.neg) == 0 && slices.ContainsFunc(ps.pos, func(g glob) bool { return len(g.segs) == 1 && g.segs[0] == "**" }))
		} else {
			in = ps.containsValue(r, matchRef)
		}
		if in == restrictive {
			return restrictive
		}
	}
	return !restrictive
}

// matchAll applies the any/every rule to a list of values: a restrictive
// rule needs one value inside its set, an allow rule all of them.
func matchAll(restrictive bool, values []string, ps *patternSet, norm func(string) string, m func(*glob, string) bool) bool {
	for _, v := range values {
		v = norm(v)
		if ps.containsValue(v, m) == restrictive {
			return restrictive
		}
	}
	return !restrictive
}

// limit: an allow rule holds within its limit; a restrictive rule applies
// beyond it ("prompt when deleting more than 50 files").
func limit(restrictive bool, v, max int64) bool {
	if restrictive {
		return v > max
	}
	return v <= max
}

// matchPaths judges the real path and the path as written: a restrictive
// rule applies when either is inside its patterns; an allow rule needs
// both, so a symlink cannot carry an allowed name to a forbidden file.
// Each of the two may also be spelt under the project, when it reaches the
// project through an alias (action.Path.InLexical, InResolved): the two
// spellings name the same file, so a restrictive rule applies when any
// spelling is inside its patterns, and an allow rule needs, for the real
// path and for the path as written, one spelling inside, and no spelling
// excluded by a negated pattern.
func (ev *evaluation) matchPaths(c *compiled, restrictive bool) bool {
	project := ev.a.Project
	for i := range ev.a.Paths {
		p := &ev.a.Paths[i]
		res := c.paths.containsPath(p.Resolved, project)
		lex := c.paths.containsPath(p.Lexical, project)
		var inRes, inLex bool
		if p.InResolved != "" {
			inRes = c.paths.containsPath(p.InResolved, project)
		}
		if p.InLexical != "" {
			inLex = c.paths.containsPath(p.InLexical, project)
		}
		var in bool
		switch {
		case restrictive:
			in = res || lex || inRes || inLex
		case p.InResolved == "" && p.InLexical == "":
			in = res && lex
		default:
			in = (res || inRes) && (lex || inLex) &&
				!c.paths.excludesPath(p.Resolved, project) && !c.paths.excludesPath(p.Lexical, project) &&
				(p.InResolved == "" || !c.paths.excludesPath(p.InResolved, project)) &&
				(p.InLexical == "" || !c.paths.excludesPath(p.InLexical, project))
		}
		if in == restrictive {
			return restrictive
		}
	}
	return !restrictive
}

func classList(cs []action.Class) string {
	if len(cs) == 0 {
		return "none (a read)"
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.String()
	}
	return strings.Join(names, ", ")
}
