// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

// run resolves the action in the order of the package doc, one method per
// step; a deny by the floor or by a delegation barrier ends it early.
func (ev *evaluation) run() (Decision, Explanation) {
	a := ev.a
	if a == nil {
		return ev.deny("floor:invalid-action", "no action given")
	}
	if a.Tool == "" {
		return ev.deny("floor:invalid-action", "the action names no tool")
	}
	classes, unclassified, mutatingTool := ev.classes()
	// Work on a copy: the caller's action is never modified.
	ev.effective = classes
	if ev.env.Trace {
		ev.tracef("action: tool %s, classes %s, contained=%t", a.Tool, classList(classes), a.Contained)
	}

	// 1. The floor: nothing loosens it, and a denial here is final.
	rule, reason, floorRule, floorPrompt := ev.floor(unclassified)
	if rule != "" {
		return ev.deny(rule, reason)
	}

	// 2. Delegation barriers and the autonomy ceiling.
	mode, why := ev.mode()
	if ev.env.Trace {
		ev.tracef("autonomy: %s (%s)", mode, why)
	}
	gated := len(classes) > 0 || unclassified
	if gated {
		if barrier, reason := ev.delegation(); reason != "" {
			return ev.deny("delegation:"+barrier, reason)
		}
	}

	// 3–8. Resolve every unit; combine most-restrictively.
	var d Decision
	sticky := ev.combine(&d, classes, ev.outcomes(classes, mode))

	// 9. Autonomy, which answers neither the floor's prompt nor an
	// escalated one; then the floor's minimum, which no mode lowers; then
	// the approver.
	ev.autonomy(&d, mode, gated || mutatingTool, floorPrompt != "" || sticky)
	ev.atLeastPrompt(&d, floorRule, floorPrompt)
	ev.approver(&d)
	if d.Verdict != action.Prompt {
		d.Confirm = nil
	}
	if ev.env.Trace {
		ev.tracef("verdict: %s", d.Verdict)
	}
	return d, ev.x
}

// maxQuotedPath bounds a path quoted whole in a reason: PATH_MAX, past
// which no system call takes a path.
const maxQuotedPath = 4096

// quotePath quotes p for a reason. A path longer than any system call
// takes is shown by its start and its length: it is denied whatever it
// says, and a payload's megabytes need not be copied into the reason and
// every record that keeps it.
func quotePath(p string) string {
	if len(p) <= maxQuotedPath {
		return strconv.Quote(p)
	}
	cut := 256
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", p[:cut], len(p))
}

// floor is step 1 of resolution (package doc). A path that was never
// resolved, failed to resolve or is sensitive is denied: floor returns the
// rule and the reason, and nothing below can change that. Otherwise prompt
// is why the action is at least prompt (see [evaluation.opaque]), or "".
func (ev *evaluation) floor(unclassified bool) (rule, reason, promptRule, prompt string) {
	for _, p := range ev.a.Paths {
		switch {
		case !p.Checked:
			return "floor:unresolved-path", fmt.Sprintf("path %s was never resolved (floor: unresolved paths are denied)", quotePath(p.Raw)), "", ""
		case p.Err != "":
			return "floor:unresolved-path", fmt.Sprintf("path %s cannot be resolved: %s (floor: resolution errors are denied)", quotePath(p.Raw), p.Err), "", ""
		case p.Sensitive != "":
			return "floor:sensitive-path", fmt.Sprintf("path %s is sensitive (%s): the floor denies it to every tool, for reading and writing", quotePath(p.Raw), p.Sensitive), "", ""
		}
	}
	denyRule, deny, gov := ev.governed()
	switch {
	case deny != "":
		return denyRule, deny, "", ""
	case gov != "":
		if ev.env.Trace {
			ev.tracef("floor: at least prompt — %s", gov)
		}
		return "", "", RuleGovernance, gov
	}
	promptRule, prompt = "floor", ev.opaque(unclassified)
	if ev.env.Trace {
		if prompt != "" {
			ev.tracef("floor: at least prompt — %s", prompt)
		} else {
			ev.tracef("floor: no sensitive path, nothing opaque")
		}
	}
	return "", "", promptRule, prompt
}

// opaque is the floor's prompt (step 1): why no rule, level or autonomy
// mode may make the action allow, or "". The first reason found is given:
// a command that cannot be analysed statically, then a flag that makes a
// command opaque (download-and-execute, decoded text executed, code read
// from a pipe…), then a tool that declares no class.
func (ev *evaluation) opaque(unclassified bool) string {
	a := ev.a
	if a.Unresolved != "" {
		return "cannot be analysed statically: " + a.Unresolved
	}
	for _, f := range a.Flags {
		if f.Opaque() {
			return fmt.Sprintf("the command is flagged %s: cannot be analysed statically or executes fetched or decoded text, so it is never allowed without asking", f)
		}
	}
	if unclassified {
		return fmt.Sprintf("tool %q declares no class, so it is treated as mutating and asked about", a.Tool)
	}
	return ""
}

// outcomes is steps 3 to 7 of resolution (package doc): each unit resolved
// through the scope chain, its enforcement level and the managed tier,
// then builtin:runs-code for what runs unanalysed code outside the
// sandbox. A command unit that no rule decides has no outcome.
func (ev *evaluation) outcomes(classes []action.Class, mode action.Mode) []outcome {
	outs := ev.outBuf[:0]
	for _, u := range ev.units(classes) {
		o := ev.resolve(u, mode)
		if u.code != action.NoCode {
			o = ev.runsCode(u, o)
		}
		if o.decided {
			outs = append(outs, o)
		}
	}
	if a := ev.a; !a.Contained && len(a.Commands) == 0 && a.RunsCode() {
		outs = append(outs, ev.codeWithoutCommands())
	}
	return outs
}

// combine is step 8 of resolution (package doc): it sets d to the
// outcomes combined most-restrictively, the first of the most restrictive
// deciding, with every class that asks listed in [Decision.Confirm], so
// one prompt covers them all. With no outcome, nothing is gated and the
// action is allowed. sticky reports a prompt escalated from a rule the
// request could not be checked against, which autonomy must not answer.
// d is filled in place, as the later steps refine it: returning the
// Decision by value costs a measurable copy on the hot path.
func (ev *evaluation) combine(d *Decision, classes []action.Class, outs []outcome) (sticky bool) {
	*d = Decision{Verdict: action.Allow, Classes: classes}
	var decider *outcome
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
	return sticky
}

// autonomy is step 9 of resolution (package doc) for the mode in force.
// proposeOnly denies every action that is not a read: one that acts (a
// class, an unclassified or mutating tool) or writes a path. actFreely
// turns a prompt into allow unless keepPrompt: the floor's prompt and an
// escalated one are never answered by autonomy. actWithApproval keeps the
// prompt.
func (ev *evaluation) autonomy(d *Decision, mode action.Mode, acts, keepPrompt bool) {
	switch mode {
	case action.ProposeOnly:
		if acts || ev.writes() {
			d.Verdict, d.Reason = action.Deny, "this space only proposes: the agent may reason and answer, not act (autonomy proposeOnly)"
			d.Rule, d.Scope, d.Level = "autonomy:proposeOnly", "autonomy", Hard
			if ev.env.Trace {
				ev.tracef("autonomy proposeOnly: every gated action is denied")
			}
		}
	case action.ActFreely:
		if d.Verdict == action.Prompt && !keepPrompt {
			d.Verdict = action.Allow
			d.Reason += " (prompt allowed without asking: autonomy actFreely)"
			if ev.env.Trace {
				ev.tracef("autonomy actFreely: the prompt becomes allow; a deny would stay")
			}
		}
	}
}

// atLeastPrompt is the floor's minimum (step 1 of the package doc),
// applied after autonomy so that no rule, level or mode makes an opaque
// action allow: an allow becomes the floor's prompt, and a prompt is
// given the floor's reason first. A deny stays.
func (ev *evaluation) atLeastPrompt(d *Decision, floorRule, floorPrompt string) {
	if floorPrompt == "" {
		return
	}
	switch d.Verdict {
	case action.Prompt:
		// The floor asks too; it is the reason that matters most.
		d.Reason = floorPrompt + " (and " + d.Rule + ": " + d.Reason + ")"
		d.Rule, d.Scope, d.Level = floorRule, "floor", Hard
	case action.Allow:
		d.Verdict, d.Reason = action.Prompt, floorPrompt
		d.Rule, d.Scope, d.Level = floorRule, "floor", Hard
		if ev.env.Trace {
			ev.tracef("floor: raised allow to prompt")
		}
	}
}

// approver ends step 9 of resolution (package doc): a prompt that nobody
// can answer ([Env.NoApprover]) is a deny, for an unanswered question is
// never a yes.
func (ev *evaluation) approver(d *Decision) {
	if d.Verdict == action.Prompt && ev.env.NoApprover {
		d.Verdict = action.Deny
		d.Reason += " — and no approver is connected: an unanswered question is never a yes"
		if ev.env.Trace {
			ev.tracef("no approver: prompt becomes deny")
		}
	}
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
