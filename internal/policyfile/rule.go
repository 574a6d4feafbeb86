// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"warden.dev/warden/internal/pathguard"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

// ruleKeys are a rule's keys, in the order Format writes them.
var ruleKeys = []string{
	"id", "scope", "class", "command", "paths", "refs", "hosts",
	"max_count", "max_cents", "decision", "level", "reason", "expires",
	"provenance",
}

var (
	decisionNames   = []string{"allow", "prompt", "deny"}
	levelNames      = []string{"advisory", "soft", "hard"}
	modeNames       = []string{string(action.ProposeOnly), string(action.ActWithApproval), string(action.ActFreely)}
	provenanceNames = []string{policy.ProvenanceRemembered, policy.ProvenanceManaged, policy.ProvenanceBuiltin}
)

func classNames() []string {
	var names []string
	for _, c := range action.Classes() {
		names = append(names, c.String())
	}
	return names
}

// generatedID is the id of the n-th rule (0-based) when it names none.
func generatedID(n int) string { return fmt.Sprintf("rule-%d", n+1) }

func (d *decoder) rules(n *yaml.Node) ([]*policy.Rule, error) {
	items, err := d.list(n, "rules")
	if err != nil {
		return nil, err
	}
	type idUse struct {
		n         *yaml.Node
		generated bool
	}
	ids := make(map[string]idUse)
	var rules []*policy.Rule
	for i, it := range items {
		r, idNode, err := d.rule(it)
		if err != nil {
			return nil, err
		}
		use := idUse{idNode, idNode == nil}
		if use.generated {
			r.ID = generatedID(i)
			use.n = it
		}
		if prev, ok := ids[r.ID]; ok {
			msg := fmt.Sprintf("duplicate rule id %q (first used at %d:%d)", r.ID, prev.n.Line, prev.n.Column)
			switch {
			case use.generated:
				msg = fmt.Sprintf("rule without id gets the id %q, already used at %d:%d; give it an id", r.ID, prev.n.Line, prev.n.Column)
			case prev.generated:
				msg = fmt.Sprintf("duplicate rule id %q (the generated id of the rule without id at %d:%d)", r.ID, prev.n.Line, prev.n.Column)
			}
			return nil, d.Errorf(use.n, "%s", msg)
		}
		ids[r.ID] = use
		rules = append(rules, r)
	}
	return rules, nil
}

// rule decodes one rule; idNode is the id's value node, nil when the rule
// has no id.
func (d *decoder) rule(n *yaml.Node) (r *policy.Rule, idNode *yaml.Node, err error) {
	fs, err := d.Fields(n, "rule", ruleKeys, false)
	if err != nil {
		return nil, nil, err
	}
	r = &policy.Rule{Scope: policy.Scope{Kind: policy.WorkspaceScope}, Pos: d.pos(n)}
	var classKey, commandKey *yaml.Node
	hasDecision := false
	for _, f := range fs {
		switch f.Key {
		case "id":
			if r.ID, err = d.id(f.V, "rule id"); err != nil {
				return nil, nil, err
			}
			idNode = f.V
		case "scope":
			s, err := d.str(f.V, "scope")
			if err != nil {
				return nil, nil, err
			}
			if r.Scope, err = policy.ParseScope(s); err != nil {
				return nil, nil, d.Errorf(f.V, "%v", err)
			}
		case "class":
			if commandKey != nil {
				return nil, nil, d.Errorf(f.K, "rule has both command and class; a rule names exactly one")
			}
			classKey = f.K
			s, err := d.oneOf(f.V, "class", classNames()...)
			if err != nil {
				return nil, nil, err
			}
			r.Class, _ = action.ParseClass(s)
		case "command":
			if classKey != nil {
				return nil, nil, d.Errorf(f.K, "rule has both class and command; a rule names exactly one")
			}
			commandKey = f.K
			s, err := d.str(f.V, "command")
			if err != nil {
				return nil, nil, err
			}
			// A command prefix is whole argv words; there is no quoting,
			// so a word can never hold white space.
			r.Command = strings.Fields(s)
			if len(r.Command) == 0 {
				return nil, nil, d.Errorf(f.V, "command must not be empty")
			}
		case "paths":
			if r.Paths, err = d.patterns(f.V, "paths", false); err != nil {
				return nil, nil, err
			}
		case "refs":
			if r.Refs, err = d.patterns(f.V, "refs", false); err != nil {
				return nil, nil, err
			}
		case "hosts":
			if r.Hosts, err = d.patterns(f.V, "hosts", false); err != nil {
				return nil, nil, err
			}
		case "max_count":
			v, err := d.integer(f.V, "max_count", 0, math.MaxInt64)
			if err != nil {
				return nil, nil, err
			}
			r.MaxCount = &v
		case "max_cents":
			v, err := d.integer(f.V, "max_cents", 0, math.MaxInt64)
			if err != nil {
				return nil, nil, err
			}
			r.MaxCents = &v
		case "decision":
			s, err := d.oneOf(f.V, "decision", decisionNames...)
			if err != nil {
				return nil, nil, err
			}
			r.Decision, _ = action.ParseVerdict(s)
			hasDecision = true
		case "level":
			s, err := d.oneOf(f.V, "level", levelNames...)
			if err != nil {
				return nil, nil, err
			}
			r.Level, _ = policy.ParseLevel(s)
		case "reason":
			if r.Reason, err = d.str(f.V, "reason"); err != nil {
				return nil, nil, err
			}
		case "expires":
			if r.Expires, err = d.timestamp(f.V, "expires"); err != nil {
				return nil, nil, err
			}
		case "provenance":
			if r.Provenance, err = d.oneOf(f.V, "provenance", provenanceNames...); err != nil {
				return nil, nil, err
			}
		}
	}
	if classKey == nil && commandKey == nil {
		return nil, nil, d.Errorf(n, "rule needs a class or a command")
	}
	if !hasDecision {
		return nil, nil, d.Errorf(n, "rule needs a decision (allow, prompt or deny)")
	}
	return r, idNode, nil
}

// patterns decodes a list of glob patterns, where a leading "!" negates.
func (d *decoder) patterns(n *yaml.Node, what string, emptyOK bool) ([]string, error) {
	ps, err := d.strList(n, what, emptyOK)
	if err != nil {
		return nil, err
	}
	for i, p := range ps {
		switch {
		case strings.TrimSpace(p) == "":
			return nil, d.Errorf(n.Content[i], "%s items must not be empty", what)
		case strings.TrimSpace(p) == "!":
			return nil, d.Errorf(n.Content[i], "%s pattern %q negates nothing; write !<pattern>", what, p)
		}
		// Check each pattern with the matcher that will use it, so a
		// bad one is reported here, with its position, and not later.
		var err error
		switch what {
		case "paths", "refs", "hosts":
			if err := policy.ValidFacetPattern(what, p); err != nil {
				return nil, d.Errorf(n.Content[i], "%v", err)
			}
		case "sensitive":
			if err := pathguard.ValidatePattern(p); err != nil {
				return nil, d.Errorf(n.Content[i], "%v", err)
			}
		}
		if err != nil {
			return nil, d.Errorf(n.Content[i], "%s pattern %q: %v", what, p, err)
		}
	}
	return ps, nil
}

// id decodes an identifier: a rule id, an agent id, an override holder.
func (d *decoder) id(n *yaml.Node, what string) (string, error) {
	s, err := d.nonEmpty(n, what)
	if err != nil {
		return "", err
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }); i >= 0 {
		return "", d.Errorf(n, "%s %q must not contain white space or control characters", what, s)
	}
	return s, nil
}

func (d *decoder) ids(n *yaml.Node, what string) ([]string, error) {
	items, err := d.list(n, what)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, it := range items {
		s, err := d.id(it, what+" item")
		if err != nil {
			return nil, err
		}
		if contains(out, s) {
			return nil, d.Errorf(it, "%s lists %q twice", what, s)
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *decoder) mode(n *yaml.Node, what string) (action.Mode, error) {
	s, err := d.str(n, what)
	if err != nil {
		return "", err
	}
	m, ok := action.ParseMode(s)
	if !ok {
		msg := fmt.Sprintf("unknown autonomy mode %q", s)
		if sg := Suggest(s, modeNames); sg != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sg)
		}
		return "", d.Errorf(n, "%s; want %s", msg, orList(modeNames))
	}
	return m, nil
}

// maxDelegationDepth bounds delegation.max_depth; a deeper chain of
// agents acting for agents is a loop, not a design.
const maxDelegationDepth = 100

func (d *decoder) delegation(n *yaml.Node) (policy.Delegation, error) {
	var del policy.Delegation
	fs, err := d.Fields(n, "delegation", []string{"max_depth", "autonomy"}, true)
	if err != nil {
		return del, err
	}
	for _, f := range fs {
		switch f.Key {
		case "max_depth":
			v, err := d.integer(f.V, "max_depth", 1, maxDelegationDepth)
			if err != nil {
				return del, err
			}
			del.MaxDepth = int(v)
		case "autonomy":
			afs, err := d.Fields(f.V, "delegation autonomy", nil, true)
			if err != nil {
				return del, err
			}
			for _, af := range afs {
				if _, err := d.id(af.K, "agent id"); err != nil {
					return del, err
				}
				m, err := d.mode(af.V, "autonomy")
				if err != nil {
					return del, err
				}
				if del.Autonomy == nil {
					del.Autonomy = make(map[string]action.Mode)
				}
				del.Autonomy[af.Key] = m
			}
		}
	}
	return del, nil
}
