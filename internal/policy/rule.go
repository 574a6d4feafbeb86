// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
)

// ScopeKind orders scopes from least to most specific.
type ScopeKind uint8

// Scope kinds. The zero value is Builtin, the least specific.
const (
	Builtin ScopeKind = iota
	ModeScope
	WorkspaceScope
	AgentScope
	SpaceScope
)

// Scope is where a rule applies: builtin, mode:<name>, workspace,
// agent:<id> or space:<id>.
type Scope struct {
	Kind ScopeKind
	// Name is the mode, agent or space id; empty for builtin and workspace.
	Name string
}

func (s Scope) String() string {
	switch s.Kind {
	case ModeScope:
		return "mode:" + s.Name
	case WorkspaceScope:
		return "workspace"
	case AgentScope:
		return "agent:" + s.Name
	case SpaceScope:
		return "space:" + s.Name
	}
	return "builtin"
}

// ParseScope parses a scope as written in a policy file.
func ParseScope(s string) (Scope, error) {
	kind, name, hasName := strings.Cut(s, ":")
	switch kind {
	case "builtin", "workspace":
		if hasName {
			return Scope{}, fmt.Errorf("scope %q takes no name", kind)
		}
		if kind == "builtin" {
			return Scope{Kind: Builtin}, nil
		}
		return Scope{Kind: WorkspaceScope}, nil
	case "mode":
		m, ok := action.ParseMode(name)
		if !ok {
			return Scope{}, fmt.Errorf("unknown mode %q in scope %q (want proposeOnly, actWithApproval or actFreely)", name, s)
		}
		return Scope{Kind: ModeScope, Name: string(m)}, nil
	case "agent", "space":
		if name == "" {
			return Scope{}, fmt.Errorf("scope %q needs an id: %s:<id>", s, kind)
		}
		if kind == "agent" {
			return Scope{Kind: AgentScope, Name: name}, nil
		}
		return Scope{Kind: SpaceScope, Name: name}, nil
	}
	return Scope{}, fmt.Errorf("unknown scope %q (want builtin, mode:<name>, workspace, agent:<id> or space:<id>)", s)
}

// Level is a rule's enforcement level. The zero value is Hard.
type Level uint8

// Enforcement levels.
const (
	Hard Level = iota
	Soft
	Advisory
)

var levelNames = [...]string{Hard: "hard", Soft: "soft", Advisory: "advisory"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return "hard"
}

// ParseLevel parses "hard", "soft" or "advisory".
func ParseLevel(s string) (Level, bool) {
	for l, name := range levelNames {
		if s == name {
			return Level(l), true
		}
	}
	return Hard, false
}

// Pos is where a rule was written.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Provenance values for [Rule.Provenance].
const (
	ProvenanceRemembered = "remembered"
	ProvenanceManaged    = "managed"
	ProvenanceBuiltin    = "builtin"
)

// Rule maps (scope, class or command prefix, constraints) to a verdict.
//
// A rule names exactly one of Class and Command. Paths, Refs and Hosts are
// pattern lists in which a leading "!" negates ("**", "!main" is any ref
// but main); a value is inside the list when it matches a positive pattern
// (or the list has only negations) and no negative one. MaxCount and
// MaxCents bound the count and cents facets.
//
// How constraints apply depends on the decision: a restrictive rule (deny
// or prompt) applies when the request touches any value it names, or
// exceeds a limit; an allow rule applies only when every value of the
// request is inside it and within its limits. A rule naming a facet the
// request does not describe escalates to prompt.
type Rule struct {
	ID       string
	Scope    Scope
	Class    action.Class
	Command  []string
	Paths    []string
	Refs     []string
	Hosts    []string
	MaxCount *int64
	MaxCents *int64
	Decision action.Verdict
	Level    Level
	Reason   string
	// Expires, when not zero, is when the rule stops applying.
	Expires time.Time
	// Provenance is empty for written rules, or one of the Provenance*
	// values.
	Provenance string
	Pos        Pos
}

// Constrained reports whether the rule names any facet constraint.
func (r *Rule) Constrained() bool {
	return len(r.Paths) > 0 || len(r.Refs) > 0 || len(r.Hosts) > 0 ||
		r.MaxCount != nil || r.MaxCents != nil
}

// Delegation holds the barriers applied when an agent acts for another.
type Delegation struct {
	// MaxDepth is the longest delegation chain allowed; 0 means the
	// default, 3.
	MaxDepth int
	// Autonomy is each agent's own autonomy setting; a delegate never acts
	// more freely than any delegator above it.
	Autonomy map[string]action.Mode
}

// DefaultMaxDepth is the delegation depth limit when a policy sets none.
const DefaultMaxDepth = 3

// Set is a whole guardrail policy: the data a policy file holds. Compile
// it with [Compile] before evaluating actions.
type Set struct {
	// Autonomy is the space's autonomy dial; empty behaves as
	// actWithApproval.
	Autonomy   action.Mode
	Rules      []*Rule
	Delegation Delegation
	// OverrideHolders may lift a soft-level deny with a justification.
	OverrideHolders []string
	// Exempt names governance paths (docs/spec.md §5) the floor leaves to
	// the rules: absolute, "~/"-relative or project-relative, each
	// with everything below it. Only the guarded tier can be exempted;
	// the managed tier's exemptions are not read (it only tightens).
	Exempt []string
	// Source names where the set came from, for explanations.
	Source string
}
