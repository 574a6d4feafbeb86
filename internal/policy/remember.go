// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"errors"
	"fmt"
	"hash/fnv"
	"path"
	"slices"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
)

// This file turns "remember this" into real rules (docs/spec.md §4):
//
//   - a remembered rule is an allow at a chosen scope — space, agent or
//     workspace, never builtin or a mode — with provenance "remembered"
//     and an expiry: saying yes for the next hours is not rewriting the
//     standing policy;
//   - it is constrained by the arguments of the approved action,
//     generalised one step and never to a catch-all: refs feature/login
//     → feature/**, paths src/app/x.go → src/app/**, commands drop their
//     last argument; a value that cannot be generalised without becoming
//     "**" stays exact;
//   - hosts stay exact (api.github.com, never *.github.com): a network
//     destination is approved as itself, and the network rule remembered
//     beside the guardrail (package config, netpolicy's Remember) names
//     the same host, so that the engine and the egress proxy let the same
//     destination through;
//   - it refuses a prefix that runs code it does not say (python, bash,
//     node -e, sh -c, make, env… — [InterpreterWide]) or that runs code
//     the agent can edit (make test, npm test, python tools/gen.py,
//     ./build.sh), both read from the one table of reach.go; and it
//     refuses commands the floor flagged or that shell analysis found to
//     run unanalysed code: approving one run of them says nothing about
//     the next;
//   - it refuses to write an unconstrained rule for a class whose actions
//     normally carry the facet that should constrain it.

// Remember errors.
var (
	ErrRememberScope       = errors.New("remembered rules live at space, agent or workspace scope")
	ErrRememberTTL         = errors.New("a remembered rule needs a positive TTL")
	ErrRememberInterpreter = errors.New("refusing to remember an interpreter-wide command prefix or one that runs code the agent can edit")
	ErrRememberOpaque      = errors.New("refusing to remember a command the floor flagged")
	ErrRememberUnbounded   = errors.New("refusing to remember an unconstrained rule")
)

// facetOf names the facet that must constrain a remembered rule of a class.
var facetOf = map[action.Class]string{
	action.GitPush:                  "refs",
	action.FileDelete:               "paths",
	action.FileWriteOutsideWorktree: "paths",
	action.NetworkEgress:            "hosts",
}

// RememberOptions say where and for how long an approval is remembered.
type RememberOptions struct {
	Scope Scope
	TTL   time.Duration
	Now   time.Time
	// Command remembers the action's command invocations as command
	// rules instead of its classes.
	Command bool
}

// Remember writes the rules that let actions like a, approved once, through
// without asking again. It never returns a rule broader than one step of
// generalisation beyond a's own arguments.
func Remember(a *action.Action, classes []action.Class, opt RememberOptions) ([]*Rule, error) {
	if opt.Scope.Kind != SpaceScope && opt.Scope.Kind != AgentScope && opt.Scope.Kind != WorkspaceScope {
		return nil, ErrRememberScope
	}
	if opt.TTL <= 0 {
		return nil, ErrRememberTTL
	}
	for _, f := range a.Flags {
		if f.Opaque() {
			return nil, fmt.Errorf("%w: %s", ErrRememberOpaque, f)
		}
	}
	if a.Unresolved != "" {
		return nil, fmt.Errorf("%w: %s", ErrRememberOpaque, a.Unresolved)
	}
	base := Rule{
		Scope:      opt.Scope,
		Decision:   action.Allow,
		Expires:    opt.Now.Add(opt.TTL).UTC().Truncate(time.Second),
		Provenance: ProvenanceRemembered,
		Reason:     "remembered approval",
	}
	var rules []*Rule
	if opt.Command {
		for i, argv := range a.Commands {
			prefix := GeneraliseCommand(argv)
			if commandReach(prefix) != reachSaid {
				return nil, fmt.Errorf("%w: %q", ErrRememberInterpreter, strings.Join(prefix, " "))
			}
			if a.CommandCode(i) != action.NoCode {
				return nil, fmt.Errorf("%w: %q runs code that is not analysed", ErrRememberInterpreter, strings.Join(argv, " "))
			}
			r := base
			r.Command = prefix
			r.ID = rememberedID("cmd", opt.Scope, strings.Join(prefix, " "))
			if !slices.ContainsFunc(rules, func(o *Rule) bool { return o.ID == r.ID }) {
				rules = append(rules, &r)
			}
		}
		if len(rules) == 0 {
			return nil, fmt.Errorf("%w: the action runs no command", ErrRememberUnbounded)
		}
		return rules, nil
	}
	for _, c := range classes {
		r := base
		r.Class = c
		for _, ref := range a.Refs {
			r.Refs = appendNew(r.Refs, GeneraliseRef(ref))
		}
		for i := range a.Paths {
			// A path reached through an alias of the project is
			// remembered as the project's own.
			_, res := a.Paths[i].InProject()
			r.Paths = appendNew(r.Paths, GeneralisePath(res, a.Project))
		}
		for _, h := range a.Hosts {
			r.Hosts = appendNew(r.Hosts, normHost(h))
		}
		if a.Count != nil {
			n := *a.Count
			r.MaxCount = &n
		}
		if a.Cents != nil {
			n := *a.Cents
			r.MaxCents = &n
		}
		if slices.Contains(r.Refs, "**") || slices.Contains(r.Paths, "**") {
			return nil, fmt.Errorf("%w: the action covers every value of its %s", ErrRememberUnbounded, facetOf[c])
		}
		if f, ok := facetOf[c]; ok && !r.Constrained() {
			return nil, fmt.Errorf("%w: a %s rule without %s would cover all %s", ErrRememberUnbounded, c, f, c.Covers())
		}
		r.ID = rememberedID(c.String(), opt.Scope, fmt.Sprint(r.Refs, r.Paths, r.Hosts))
		rules = append(rules, &r)
	}
	if len(rules) == 0 {
		return nil, fmt.Errorf("%w: the action has no class to remember", ErrRememberUnbounded)
	}
	return rules, nil
}

func appendNew(list []string, v string) []string {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

func rememberedID(kind string, sc Scope, detail string) string {
	h := fnv.New32a()
	h.Write([]byte(sc.String() + "\x00" + detail))
	return fmt.Sprintf("remembered-%s-%08x", strings.ReplaceAll(kind, " ", "-"), h.Sum32())
}

// GeneraliseRef widens a ref one step: feature/login → feature/**. A ref
// of one segment (main) stays exact: its parent would be "**".
func GeneraliseRef(ref string) string {
	ref = normRef(ref)
	i := strings.LastIndexByte(ref, '/')
	if i <= 0 {
		return ref
	}
	return ref[:i] + "/**"
}

// GeneralisePath widens a path one step to its directory: a path inside
// the project becomes project-relative (src/app/x.go → src/app/**); a file
// directly in the project, or in /, stays exact.
func GeneralisePath(p, project string) string {
	dir := path.Dir(p)
	if project != "" && action.Within(project, p) {
		if dir == path.Clean(project) {
			return strings.TrimPrefix(strings.TrimPrefix(p, project), "/")
		}
		return strings.TrimPrefix(strings.TrimPrefix(dir, project), "/") + "/**"
	}
	if dir == "/" {
		return p
	}
	return dir + "/**"
}

// GeneraliseCommand widens an invocation one step by dropping its last
// argument; a single word stays as it is.
func GeneraliseCommand(argv []string) []string {
	if len(argv) <= 1 {
		return slices.Clone(argv)
	}
	return slices.Clone(argv[:len(argv)-1])
}
