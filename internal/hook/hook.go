// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package hook answers agent CLIs' hooks: one pipeline, around every
// agent's pure adapter (an [adapter.Agent]), from the payload an agent
// writes on the hook's stdin to the answer it reads back. `warden hook
// NAME` reads the payload, calls [Decide] within [Bounded], and writes
// the answer; `warden hook install NAME` calls [Install].
//
// # The pipeline
//
//  1. Parse: the agent reads its payload into an [adapter.Call].
//  2. Translate: the call in Warden's terms, in its project (the git work
//     tree of its cwd, [gitindex.Project], or none); with --wrap, shell commands
//     are decided as contained, and one already wrapped is recognised.
//  3. After the call ran (adapter.After), nothing is decided: a wrapped
//     run's execution record becomes a note on what the sandbox refused.
//  4. Decide: every request of the call with the engine of warden
//     explain (the policy from --policy, else the embedded default, with
//     the managed tier); the strictest decision is the call's. A
//     recursive read is judged with the sensitive files below it.
//  5. Answer: a prompt nobody can answer is a deny; the note tells the
//     model what to do instead; an allowed shell command is rewritten to
//     run under warden run (--wrap, before the call only), with a
//     single-use grant that hands the run this decision (package grant),
//     so that the run does not judge again what was decided here.
//  6. Note: notes are rate-limited per session ([limiter]).
//  7. Record: the decision goes to the sink, before it is answered.
//
// # Failing closed
//
// The hook answers, or it fails with an error that `warden hook` turns
// into exit status 2 — never anything else, whatever happens: a panic, a
// timeout ([Bounded]), input it cannot read, a policy that does not load,
// a decision the sink cannot record. Agent CLIs run the tool when a hook
// fails any other way.
package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
)

// MaxPayload is the largest payload a hook reads, 16 MiB: a write of a
// large file carries its content. Each agent's Parse checks its own
// bound too (all are the same). A longer payload is refused
// ([ReadPayload]), never read whole: a hook killed for its memory would
// fail open.
const MaxPayload = 16 << 20

// Options are what one hook call is decided with.
type Options struct {
	// Policy loads the policy a decision needs; it is called only for an
	// event that decides. Its error refuses the call.
	Policy func() (*config.Policy, error)
	// PolicyPath is the policy file's absolute path, which --wrap hands
	// to warden run; empty when the policy is discovered, and then the
	// path of the file Policy loaded is handed over instead.
	PolicyPath string
	// Wrap runs allowed shell commands under warden run (--wrap).
	Wrap bool
	// Headless says nobody can answer a prompt: a prompt is a deny.
	Headless bool
	Now      time.Time
	Home     string
	// StateDir is where the agent's hook keeps its state: note limits
	// and wrapped runs' execution records ([StateDir]); empty for none.
	StateDir string
	// Grants is where --wrap's grants go ([GrantDir]), which warden run
	// redeems; empty for none: wrapped runs then judge their command in
	// full.
	Grants string
	// Ask puts a question nobody in the client can answer (headless,
	// or a client with no ask) to a person through warden serve, and
	// waits for the answer; ok is false when no warden serve runs (the
	// question is then a deny, as always). nil asks nobody.
	Ask func(Question) (Answer, bool)
	// Sink records each decision before it is answered; nil records
	// nothing. A decision it cannot record is refused, unless the
	// policy says audit: best-effort: then Warn is told.
	Sink audit.Sink
	Warn func(string)
}

// Decide answers one hook payload of agent ag. An error refuses the call
// (the caller exits 2 with it).
func Decide(ag adapter.Agent, payload []byte, o Options) ([]byte, error) {
	c, err := ag.Parse(payload)
	if err != nil {
		return nil, fmt.Errorf("reading %s's hook payload: %v", ag.Title(), err)
	}
	opt := adapter.Options{Project: gitindex.Project(c.Cwd, o.Home)}
	if o.Wrap {
		if opt.Wrap, err = wrapper(ag, o, opt.Project, c.Cwd); err != nil {
			return nil, err
		}
	}
	if err := ag.Translate(c, opt); err != nil {
		return nil, fmt.Errorf("reading %s's hook payload: %v", ag.Title(), err)
	}
	notes := &limiter{dir: o.StateDir, session: c.Session, now: o.Now}
	if c.Phase == adapter.After {
		var ans adapter.Answer
		if c.Wrapped && c.Audit != "" {
			ans.Context = sandboxNote(notes, c, o.Now)
		}
		return ag.Answer(c, ans), nil
	}

	p, err := o.Policy()
	if err != nil {
		return nil, fmt.Errorf("%v (the call is refused)", err)
	}
	if opt.Wrap != nil && opt.Wrap.Policy == "" {
		// The run applies the very file this call was decided with,
		// discovered or named.
		opt.Wrap.Policy = p.Path
	}
	a, d, err := Judge(p, c, o.Now, o.Home)
	if err != nil {
		return nil, fmt.Errorf("%s call: %v", c.Tool, err)
	}
	// A question nobody in the client can answer goes to a person
	// through warden serve, when one runs: the call waits for the
	// answer, and takes it as the policy's.
	asked := d.Verdict // what the policy said, for the record
	answered := false  // a person answered through warden serve
	if d.Verdict == action.Prompt && adapter.Verdict(d.Verdict, !o.Headless && c.Asks) == action.Deny && o.Ask != nil {
		if res, ok := o.Ask(Question{Call: c, Action: a, Decision: d, Policy: p, Project: opt.Project, Agent: ag.Name()}); ok {
			d, answered = res.apply(d), true
		}
	}
	if v := adapter.Verdict(d.Verdict, !o.Headless && c.Asks); opt.Wrap != nil && wraps(c) && v != action.Deny {
		// The run it is rewritten to keeps its record there, and is
		// handed this decision.
		prepareRuns(opt.Wrap)
		opt.Wrap.Grant = issueGrant(o, c, opt.Wrap, p, d, v)
	}
	ans, err := Respond(ag, c, a, d, o.Headless, opt.Wrap)
	if err != nil {
		return nil, err
	}
	if ans.Verdict == action.Deny && !answered {
		// A person's answer is always told; the policy's own notes
		// are limited.
		ans.Reason = notes.reason(c.Subject, d, ans.Reason)
	}
	rd := d
	rd.Verdict = asked
	if err := record(o, ag, c, opt.Project, p, rd, ans.Verdict); err != nil {
		return nil, err
	}
	return ag.Answer(c, ans), nil
}

// Respond is the answer to a decided call, before the note limits: a
// prompt nobody can answer is a deny, the note says why and what to do
// instead, and with w (--wrap) an allowed shell command is rewritten to
// run under warden run, before the call only.
func Respond(ag adapter.Agent, c *adapter.Call, a *action.Action, d policy.Decision, headless bool, w *adapter.Wrapper) (adapter.Answer, error) {
	v := adapter.Verdict(d.Verdict, !headless && c.Asks)
	ans := adapter.Answer{Verdict: v, Reason: adapter.Note(c.Subject, a, d, v, ag.Unanswered(c, headless))}
	if w != nil && wraps(c) && v != action.Deny {
		// The run's record is named after the call, or, for an agent
		// that gives calls no id (Gemini CLI), after the grant, which
		// the line carries to the hook after the call.
		id := c.ID
		if id == "" {
			id = w.Grant
		}
		in, err := ag.Rewrite(c, w.Wrap(c.Requests[0].Command, c.Dir, id))
		if err != nil {
			return adapter.Answer{}, fmt.Errorf("--wrap: %v", err)
		}
		ans.Input = in
	}
	return ans, nil
}

// wraps reports whether --wrap rewrites c if it may run: a shell command
// not already wrapped, before it runs.
func wraps(c *adapter.Call) bool {
	return c.Phase == adapter.Before && c.Shell && !c.Wrapped
}

// wrapper is --wrap's rewriting: this warden binary, the hook's policy,
// the project, and execution records under the hook's state for an agent
// whose hook reads them back after the call.
//
// The project is the call's; without one (no git work tree), the one
// warden run would take there (the directory, never the home or the
// root, [gitindex.RunProject]), named on the line so that the run's
// project is the one its grant is bound to.
func wrapper(ag adapter.Agent, o Options, project, cwd string) (*adapter.Wrapper, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--wrap: cannot find the warden binary: %v", err)
	}
	if project == "" {
		project = gitindex.RunProject(cwd, o.Home)
	}
	w := &adapter.Wrapper{Exe: exe, Policy: o.PolicyPath, Project: project}
	if o.StateDir != "" && ReadsRuns(ag) {
		w.AuditDir = filepath.Join(o.StateDir, "runs")
	}
	return w, nil
}

// ReadsRuns reports whether ag's hook is called after the call, where it
// reads a wrapped run's execution record.
func ReadsRuns(ag adapter.Agent) bool {
	for _, ev := range ag.Hooks().Events {
		if ev.Phase == adapter.After {
			return true
		}
	}
	return false
}

// record writes the decision to the sink, if any; a decision that cannot
// be recorded is refused.
func record(o Options, ag adapter.Agent, c *adapter.Call, project string, p *config.Policy, d policy.Decision, v action.Verdict) error {
	if o.Sink == nil {
		return nil
	}
	rec := &audit.Decision{
		Surface: "hook " + ag.Name(), Agent: ag.Name(), Session: c.Session, Project: project,
		Tool: c.Tool, Subject: c.Subject.Value, Verdict: d.Verdict.String(), Answered: v.String(),
		Rule: d.Rule, Scope: d.Scope, Reason: d.Reason, Policy: p.Revision, PolicyPath: p.Path,
		Contained: len(c.Requests) > 0 && c.Requests[0].Contained,
	}
	for _, cl := range d.Classes {
		rec.Classes = append(rec.Classes, cl.String())
	}
	if err := o.Sink.Write(audit.DecisionEvent(o.Now, rec)); err != nil {
		if p.File.Audit == policyfile.AuditBestEffort && o.Warn != nil {
			o.Warn(fmt.Sprintf("the decision was not recorded: %v (audit: best-effort, so it is answered anyway)", err))
			return nil
		}
		return fmt.Errorf("recording the decision: %v (the call is refused; audit: best-effort in the policy answers anyway)", err)
	}
	return nil
}

// Bounded runs decide with a deadline and turns a panic into an error.
// On timeout it returns at once; decide's goroutine is left to the
// process's exit. An answer that is not JSON is an error too.
func Bounded(deadline time.Duration, decide func() ([]byte, error)) ([]byte, error) {
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("internal error: %v (the call is refused)", r)}
			}
		}()
		out, err := decide()
		if err == nil && !json.Valid(out) {
			err = errors.New("internal error: the answer is not JSON (the call is refused)")
		}
		done <- result{out, err}
	}()
	t := time.NewTimer(deadline)
	defer t.Stop()
	select {
	case r := <-done:
		return r.out, r.err
	case <-t.C:
		return nil, fmt.Errorf("no decision within %v (the call is refused)", deadline)
	}
}

// Question is a prompt a hook could not put to a person in the client.
type Question struct {
	Call     *adapter.Call
	Action   *action.Action
	Decision policy.Decision
	Policy   *config.Policy
	Project  string
	Agent    string
}

// Answer is what became of a [Question]: allowed (once, or remembered as
// a rule), denied with the person's reason, or unanswered until it
// expired (a deny).
type Answer struct {
	Allowed bool
	// ID is the approval's; Reason says who answered what, for the
	// agent and the record.
	ID     string
	Reason string
}

// apply makes d the decision the person took.
func (a Answer) apply(d policy.Decision) policy.Decision {
	d.Verdict = action.Deny
	if a.Allowed {
		d.Verdict = action.Allow
	}
	d.Reason = a.Reason
	return d
}
