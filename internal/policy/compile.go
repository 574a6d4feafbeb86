// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"fmt"
	"path"
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
	byClass [action.EnclosureControl + 1]*classRules
	cmds    *trie
}

// facet indexes a class's rules by one facet: each rule is filed under the
// literal head of its positive patterns (a ref's first segment, a host's
// last two labels, a path's first segment), so a request only meets the
// rules that could match its values.
type facet struct {
	keyed map[string][]*compiled
	// all holds every rule keyed by this facet: a request lacking the
	// facet must meet them all, since each then escalates to prompt.
	all []*compiled
}

// classRules are one scope's rules for one class.
type classRules struct {
	// rest are the rules that no facet can index: unconstrained ones, and
	// those whose patterns start with a wildcard or hold only negations.
	rest               []*compiled
	refs, hosts, paths facet
}

func (f *facet) add(keys []string, c *compiled) {
	if f.keyed == nil {
		f.keyed = make(map[string][]*compiled)
	}
	for _, k := range keys {
		if list := f.keyed[k]; len(list) == 0 || list[len(list)-1] != c {
			f.keyed[k] = append(list, c)
		}
	}
	f.all = append(f.all, c)
}

func (cr *classRules) add(c *compiled) {
	if keys := refKeys(&c.refs); keys != nil {
		cr.refs.add(keys, c)
	} else if keys := hostKeys(&c.hosts); keys != nil {
		cr.hosts.add(keys, c)
	} else if keys := pathKeys(&c.paths); keys != nil {
		cr.paths.add(keys, c)
	} else {
		cr.rest = append(cr.rest, c)
	}
}

// refKeys returns the index keys of a ref pattern set, or nil when any
// positive pattern starts with a wildcard (or there is none).
func refKeys(ps *patternSet) []string {
	if len(ps.pos) == 0 {
		return nil
	}
	keys := make([]string, 0, len(ps.pos))
	for _, g := range ps.pos {
		if len(g.segs) == 0 || hasMeta(g.segs[0]) {
			return nil
		}
		keys = append(keys, g.segs[0])
	}
	return keys
}

func hostKeys(ps *patternSet) []string {
	if len(ps.pos) == 0 {
		return nil
	}
	keys := make([]string, 0, len(ps.pos))
	for _, g := range ps.pos {
		h := g.host
		if g.wildcard {
			h = h[1:]
			if strings.Count(h, ".") < 1 {
				return nil // "*.com": too broad to key
			}
		}
		keys = append(keys, hostKey(h))
	}
	return keys
}

// hostKey is the last two labels of a host.
func hostKey(h string) string {
	i := strings.LastIndexByte(h, '.')
	if i < 0 {
		return h
	}
	if j := strings.LastIndexByte(h[:i], '.'); j >= 0 {
		return h[j+1:]
	}
	return h
}

func pathKeys(ps *patternSet) []string {
	if len(ps.pos) == 0 {
		return nil
	}
	keys := make([]string, 0, len(ps.pos))
	for _, g := range ps.pos {
		switch {
		case len(g.segs) >= 2 && g.segs[0] == "/" && !hasMeta(g.segs[1]):
			keys = append(keys, "/"+g.segs[1])
		case len(g.segs) >= 1 && g.segs[0] != "/" && !hasMeta(g.segs[0]):
			keys = append(keys, "rel/"+g.segs[0])
		default:
			return nil
		}
	}
	return keys
}

// absKey is the key under which pathKeys files the rules that could hold
// the absolute path p: "/" and its first segment.
func absKey(p string) string {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[:i]
	}
	return "/" + p
}

// relKey is the key under which pathKeys files the rules whose relative
// patterns could hold p, a path inside project: "rel/" and the first
// segment below the project.
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

func hasMeta(seg string) bool { return strings.ContainsAny(seg, "*?[\\") }

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
			if b.byClass[r.Class] == nil {
				b.byClass[r.Class] = &classRules{}
			}
			b.byClass[r.Class].add(c)
		} else {
			b.cmds.insert(normCommand(r.Command), c)
		}
		ix.n++
	}
	return ix, nil
}

// normCommand writes a rule's program name the way shell analysis writes
// the commands it finds: base name, lower case ("/usr/bin/Make" → "make"),
// so a rule always meets the invocations it names.
func normCommand(words []string) []string {
	if len(words) == 0 {
		return words
	}
	head := strings.ToLower(path.Base(words[0]))
	if head == words[0] {
		return words
	}
	return append([]string{head}, words[1:]...)
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
	for facet, list := range map[string][]string{FacetPaths: r.Paths, FacetRefs: r.Refs, FacetHosts: r.Hosts} {
		for _, p := range list {
			if err := ValidFacetPattern(facet, p); err != nil {
				return err
			}
		}
	}
	return nil
}
