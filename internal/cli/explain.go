// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/report"
	"warden.dev/warden/internal/request"
	"warden.dev/warden/internal/store"
)

func runExplain(ctx context.Context, args []string) error {
	fs := newFlags("explain", "explain [--policy FILE] [--json] [--no-approver] [--record] [-|FILE]")
	policyPath := fs.String("policy", "", "policy `file` (default: the one discovery finds, see warden policy show)")
	asJSON := fs.Bool("json", false, "print the decision as JSON")
	noApprover := fs.Bool("no-approver", false, "decide as if nobody can answer a prompt (a prompt becomes deny)")
	record := fs.Bool("record", false, "record the decision in the store, as the hooks do (warden audit shows it)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return badInput("explain takes at most one input (- for stdin)")
	}
	in := Stdin
	if len(pos) == 1 && pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return badInput(fmt.Sprintf("reading action: %v", err))
		}
		defer f.Close()
		in = f
	}
	lp, err := loadPolicyNoting(*policyPath)
	if err != nil {
		return err
	}
	req, err := request.Decode(in)
	if err != nil {
		return badInput(err.Error(), `the action is one JSON object, e.g. {"tool":"git_push","refs":["main"]}`)
	}
	a, sh, err := lp.Action(req, cwd())
	if err != nil {
		return badInput(err.Error())
	}
	d, x := lp.Engine.Evaluate(a, policy.Env{Now: now(), NoApprover: *noApprover, Trace: true})
	out := report.Explain(a, sh, d, x)
	if *record {
		rec := &store.Recorder{Dir: contain.StateDir()}
		defer rec.Close()
		ev := &audit.Decision{Surface: "explain", Agent: a.Principal.Agent, Session: a.Principal.Session, Tool: a.Tool, Subject: explainSubject(req),
			Classes: out.Classes, Verdict: out.Decision, Answered: out.Decision, Rule: d.Rule, Scope: d.Scope, Reason: d.Reason,
			Policy: lp.Revision, PolicyPath: lp.Path}
		if err := rec.Write(audit.DecisionEvent(now(), ev)); err != nil {
			return storeError(fmt.Errorf("--record: %w", err))
		}
	}
	if *asJSON {
		return printJSON(out)
	}
	out.WriteText(Stdout, a)
	return nil
}

// explainSubject is what an explained action is about, for its record:
// its command, path, URL or hosts.
func explainSubject(r *request.Request) string {
	switch {
	case r.Command != "":
		return r.Command
	case r.Path != nil:
		return *r.Path
	case len(r.Paths) > 0:
		return strings.Join(r.Paths, " ")
	case r.URL != "":
		return r.URL
	case len(r.Hosts) > 0:
		return strings.Join(r.Hosts, " ")
	}
	return ""
}
