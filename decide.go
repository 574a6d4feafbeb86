// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package warden

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/report"
	"warden.dev/warden/internal/request"
)

// Verdict is the outcome of a decision. The zero value is [Deny], so a
// forgotten initialisation fails closed.
type Verdict uint8

// The three verdicts, from most to least restrictive.
const (
	Deny Verdict = iota
	// Prompt: a person decides. A prompt nobody answers is a deny.
	Prompt
	Allow
)

var verdictNames = [...]string{Deny: "deny", Prompt: "prompt", Allow: "allow"}

// String returns "deny", "prompt" or "allow"; an unknown value prints as
// "deny", as it is taken.
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "deny"
}

// verdict is the engine's verdict as the API's; anything unknown is a
// deny.
func verdict(v action.Verdict) Verdict {
	switch v {
	case action.Allow:
		return Allow
	case action.Prompt:
		return Prompt
	}
	return Deny
}

// Action is one thing an agent wants to do, as its harness describes it:
// the tool it calls and the facets a rule can constrain. It is the Go form
// of the JSON action warden explain reads (docs/design.md, "Data flow").
type Action struct {
	// Tool is the tool called: one of Warden's tool names (bash,
	// read_file, write_file, edit_file, delete_file, web_fetch,
	// git_push, …), which says its classes and how it touches paths,
	// or any other name with Classes.
	Tool string
	// Command is the bash tool's command line, analysed as bash would
	// run it (see [AnalyzeShell]).
	Command string
	// Commands are argument vectors a tool starts without a shell
	// (a spawn_process tool), judged as the shell would run them; give
	// Command or Commands, not both.
	Commands [][]string
	// Paths are the paths the tool touches, as the agent wrote them:
	// relative ones are taken against Cwd, and "~" is the home.
	Paths []string
	// Access is how Paths are touched ("read", "write" or "delete");
	// empty means the tool's own.
	Access string
	// Recursive says every path is read with everything below it (a
	// search tool): the secrets below a directory are judged too.
	Recursive bool
	// URL is the address a fetch tool reaches; its host is judged.
	URL string
	// Refs are the git refs pushed; Hosts the hosts contacted.
	Refs  []string
	Hosts []string
	// Classes are effect classes (gitPush, fileDelete, networkEgress, …)
	// added to the tool's own.
	Classes []string
	// Cwd is the directory the tool runs in, taken against the
	// process's working directory. Project is the project directory;
	// empty means the git work tree holding Cwd, as Warden's hooks take
	// it, and with none every write is outside. The home, the root and
	// an ancestor of the home are never a project.
	Cwd     string
	Project string
	// Agent names the agent, for rules scoped agent:<name>.
	Agent string
	// Contained says the action runs inside Warden's sandbox ([Run]).
	Contained bool
}

// Decision is how a policy decided an action.
type Decision struct {
	Verdict Verdict
	// Rule is the id of the rule that decided ("floor:sensitive-path",
	// "builtin:gitPush", a policy rule's id); Scope is its scope.
	Rule  string
	Scope string
	// Reason is a sentence a person, or the agent, can act on.
	Reason string
	// Classes are the action's effect classes; Confirm those a prompt
	// asks about (one prompt covers them all).
	Classes []string
	Confirm []string
	// WouldHave is set when an advisory rule let through what it would
	// otherwise have stopped: "deny by rule X".
	WouldHave string
}

// Decide resolves a (reading the filesystem: see the package doc) and
// decides it. A deny is a result, not an error: the error is for an
// action that is malformed, or a ctx already done, and then nothing was
// decided. A [Prompt] is the caller's to ask; a prompt nobody answers is
// a deny.
func (p *Policy) Decide(ctx context.Context, a Action) (Decision, error) {
	// Without the trace's sentences, which cost formatting on every
	// tool call; the decision is the same.
	ev, err := p.evaluate(ctx, a, false)
	if err != nil {
		return Decision{}, err
	}
	return decision(ev.d), nil
}

// Explanation is a decision with how it was reached, as warden explain
// shows it. Only [Policy.Explain] makes one.
type Explanation struct {
	Decision Decision
	// Rules are the ids of every rule that matched, each once, in the
	// order they were considered.
	Rules []string
	// Trace is every step of resolution, in order, in plain sentences.
	Trace []string

	out report.Explanation
	a   *action.Action
}

// Explain resolves a and decides it as [Policy.Decide] does, and says
// how: the rules that matched and each step of resolution.
func (p *Policy) Explain(ctx context.Context, a Action) (*Explanation, error) {
	ev, err := p.evaluate(ctx, a, true)
	if err != nil {
		return nil, err
	}
	return &Explanation{
		Decision: decision(ev.d),
		Rules:    ev.x.RuleIDs(),
		Trace:    ev.x.Trace,
		out:      report.Explain(ev.act, ev.sh, ev.d, ev.x),
		a:        ev.act,
	}, nil
}

// evaluation is one action resolved and decided.
type evaluation struct {
	act *action.Action
	sh  *request.Shell // nil but for the bash tool
	d   policy.Decision
	x   policy.Explanation
}

// evaluate resolves a and decides it, with the trace's sentences when
// trace is set.
func (p *Policy) evaluate(ctx context.Context, a Action, trace bool) (*evaluation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req := a.request()
	dir, err := os.Getwd()
	if err != nil && !filepath.IsAbs(a.Cwd) {
		return nil, fmt.Errorf("action: no working directory to take cwd against: %v", err)
	}
	if a.Project == "" {
		// As the hooks take it: the git work tree holding cwd, never the
		// home, the root or an ancestor of the home; without one every
		// write is outside, rather than the project defaulting to cwd.
		cwd := a.Cwd
		if !filepath.IsAbs(cwd) {
			cwd = filepath.Join(dir, cwd)
		}
		if req.Project = gitindex.Project(cwd, p.lp.Home()); req.Project == "" {
			req.NoProject = true
		}
	}
	ev := &evaluation{}
	if ev.act, ev.sh, err = p.lp.Action(req, dir); err != nil {
		return nil, err
	}
	ev.d, ev.x = p.lp.Engine.Evaluate(ev.act, policy.Env{Now: p.now(), NoApprover: p.noApprover, Trace: trace})
	return ev, nil
}

// String is the explanation as warden explain prints it: the action as
// understood, each step of resolution, the verdict and the rule.
func (x *Explanation) String() string {
	if x == nil || x.a == nil {
		return "<no explanation>"
	}
	var b strings.Builder
	x.out.WriteText(&b, x.a)
	return b.String()
}

// MarshalJSON is the explanation as warden explain --json prints it, the
// contract of docs/design.md.
func (x *Explanation) MarshalJSON() ([]byte, error) {
	if x == nil || x.a == nil {
		return nil, errors.New("marshalling an explanation Explain did not make")
	}
	return json.Marshal(x.out)
}

func (a Action) request() *request.Request {
	r := &request.Request{
		Tool: a.Tool, Command: a.Command, Commands: a.Commands, Paths: a.Paths, Access: a.Access,
		URL: a.URL, Refs: a.Refs, Hosts: a.Hosts, Classes: a.Classes,
		Cwd: a.Cwd, Project: a.Project, Contained: a.Contained, Recursive: a.Recursive,
	}
	r.Principal.Agent = a.Agent
	return r
}

func decision(d policy.Decision) Decision {
	return Decision{
		Verdict:   verdict(d.Verdict),
		Rule:      d.Rule,
		Scope:     d.Scope,
		Reason:    d.Reason,
		Classes:   classNames(d.Classes),
		Confirm:   classNames(d.Confirm),
		WouldHave: d.WouldHave,
	}
}

func classNames(cs []action.Class) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}
