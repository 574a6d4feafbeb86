// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"strings"

	"warden.dev/warden/internal/action"
)

// compiled is a rule with its patterns compiled once.
type compiled struct {
	*Rule
	paths, refs, hosts patternSet
	order              int // position in the set, for stable explanations
}

// bucket holds one scope's rules, indexed so that a decision never scans
// rules of other classes or commands: class rules by class, command rules
// in a trie keyed by argv words.
type bucket struct {
	byClass [action.EnclosureControl + 1][]*compiled
	cmds    *trie
}

type trie struct {
	rules []*compiled // rules whose whole prefix ends here
	next  map[string]*trie
}

func (t *trie) insert(words []string, c *compiled) {
	n := t
	for _, w := range words {
		if n.next == nil {
			n.next = make(map[string]*trie)
		}
		child := n.next[w]
		if child == nil {
			child = &trie{}
			n.next[w] = child
		}
		n = child
	}
	n.rules = append(n.rules, c)
}

// index is a compiled rule set.
type index struct {
	scopes map[Scope]*bucket
	n      int
}

func buildIndex(s *Set, home string) (index, error) {
	ix := index{scopes: make(map[Scope]*bucket)}
	if s == nil {
		return ix, nil
	}
	seen := make(map[string]bool, len(s.Rules))
	for i, r := range s.Rules {
		if r == nil {
			return ix, fmt.Errorf("rule %d is nil", i)
		}
		if err := validate(r); err != nil {
			return ix, fmt.Errorf("rule %q: %v", r.ID, err)
		}
		if seen[r.ID] {
			return ix, fmt.Errorf("duplicate rule id %q", r.ID)
		}
		seen[r.ID] = true
		c := &compiled{
			Rule:  r,
			paths: compilePaths(r.Paths, home),
			refs:  compileRefs(r.Refs),
			hosts: compileHosts(r.Hosts),
			order: i,
		}
		b := ix.scopes[r.Scope]
		if b == nil {
			b = &bucket{cmds: &trie{}}
			ix.scopes[r.Scope] = b
		}
		if r.Class != 0 {
			b.byClass[r.Class] = append(b.byClass[r.Class], c)
		} else {
			b.cmds.insert(r.Command, c)
		}
		ix.n++
	}
	return ix, nil
}

func validate(r *Rule) error {
	switch {
	case r.ID == "":
		return fmt.Errorf("missing id")
	case r.Class != 0 && len(r.Command) > 0:
		return fmt.Errorf("names both a class and a command")
	case r.Class == 0 && len(r.Command) == 0:
		return fmt.Errorf("names neither a class nor a command")
	case r.Class != 0 && !r.Class.Valid():
		return fmt.Errorf("unknown class %d", r.Class)
	case r.Decision > action.Allow:
		return fmt.Errorf("unknown decision %d", r.Decision)
	case r.Level > Advisory:
		return fmt.Errorf("unknown level %d", r.Level)
	}
	for _, w := range r.Command {
		if w == "" || strings.ContainsAny(w, " \t\n") {
			return fmt.Errorf("command word %q is empty or holds white space", w)
		}
	}
	for _, list := range [][]string{r.Paths, r.Refs, r.Hosts} {
		for _, p := range list {
			if err := ValidPattern(p); err != nil {
				return fmt.Errorf("pattern %q: %v", p, err)
			}
		}
	}
	return nil
}
