// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"errors"
	"fmt"
	"net/netip"
	"path"
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
)

// This file implements the constraint language of docs/spec.md §4. Its
// patterns:
//
//   - paths and refs are globs over "/"-separated segments: "*", "?" and
//     "[...]" match within one segment, a "**" segment matches any number of
//     segments (zero included);
//   - a relative path pattern is relative to the project, except one that
//     starts with "**/", which matches anywhere; "~/" is the user's home;
//   - hosts match exactly (case-insensitive, one trailing dot ignored), and
//     "*.example.com" matches every subdomain at any depth but never the
//     apex or a look-alike such as "evilexample.com";
//   - a "!" prefix negates; a value is inside a list when it matches a
//     positive pattern (or the list holds only negations) and no negation.
//
// And how a rule's constraints match an action:
//
//   - a restrictive rule (deny, prompt) applies when the request touches
//     any value it names or exceeds a limit; an allow rule applies only
//     when every value lies inside it and within its limits;
//   - paths are judged as resolved and as written: a restrictive rule
//     applies if either is inside, an allow rule needs both, and no
//     spelling of either excluded by a negation;
//   - the ref "**" (git push --all, --mirror, --tags) is every branch;
//   - a facet the rule names and the request lacks, or a symbolic ref
//     (HEAD, @), makes the match escalated (prompt) rather than applied or
//     ignored, provided every facet the request has matches.

// ErrBadPattern is returned by [ValidPattern] for a malformed glob.
var ErrBadPattern = errors.New("malformed pattern")

// ValidPattern reports whether p is a well-formed path, ref or host
// pattern.
func ValidPattern(p string) error {
	body := strings.TrimPrefix(p, "!")
	if body == "" {
		return errors.New("empty pattern")
	}
	for _, seg := range strings.Split(body, "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return ErrBadPattern
		}
	}
	return nil
}

// The facets a rule can constrain with patterns.
const (
	FacetPaths = "paths"
	FacetRefs  = "refs"
	FacetHosts = "hosts"
)

// ValidFacetPattern reports whether p is a pattern that can match values
// of the facet: on top of [ValidPattern], a host is a name (or "*."
// followed by one) or an IP address, never a bare wildcard or one inside
// the name; a path has no "." or ".." segment (they never match a
// resolved path, so such a rule would be silently dead).
func ValidFacetPattern(facet, p string) error {
	if err := ValidPattern(p); err != nil {
		return fmt.Errorf("%s pattern %q: %v", strings.TrimSuffix(facet, "s"), p, err)
	}
	body := strings.TrimPrefix(p, "!")
	switch facet {
	case FacetHosts:
		h := strings.TrimSuffix(strings.TrimPrefix(body, "*."), ".")
		if _, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil && !strings.HasPrefix(body, "*.") {
			return nil
		}
		if !validHostname(h) {
			return fmt.Errorf("host pattern %q: want a host name, or *. followed by one (any subdomain, not the apex)", p)
		}
	case FacetPaths:
		for _, seg := range strings.Split(body, "/") {
			if seg == "." || seg == ".." {
				return fmt.Errorf("path pattern %q has a %q segment, which never matches a resolved path (write it from the project root, or as an absolute path)", p, seg)
			}
		}
	case FacetRefs:
		if strings.ContainsAny(body, " \t\n:~^") || strings.Contains(body, "..") {
			return fmt.Errorf("ref pattern %q: a ref name has no spaces, ':', '~', '^' or '..'", p)
		}
	}
	return nil
}

// validHostname accepts DNS names made of letters, digits, '-' and '_'.
func validHostname(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}

// glob is one compiled pattern.
type glob struct {
	neg  bool
	segs []string // for paths and refs; nil for hosts
	// host patterns
	host     string
	wildcard bool // "*.suffix": host holds ".suffix"
}

// patternSet is a compiled pattern list.
type patternSet struct {
	pos, neg []glob
}

func (ps *patternSet) empty() bool { return len(ps.pos) == 0 && len(ps.neg) == 0 }

// containsValue reports whether v is inside the set, m testing one glob.
func (ps *patternSet) containsValue(v string, m func(*glob, string) bool) bool {
	in := len(ps.pos) == 0
	for i := range ps.pos {
		if m(&ps.pos[i], v) {
			in = true
			break
		}
	}
	if !in {
		return false
	}
	for i := range ps.neg {
		if m(&ps.neg[i], v) {
			return false
		}
	}
	return true
}

// containsPath reports whether the absolute path p is inside the set.
func (ps *patternSet) containsPath(p, project string) bool {
	in := len(ps.pos) == 0
	for i := range ps.pos {
		if matchPath(&ps.pos[i], p, project) {
			in = true
			break
		}
	}
	if !in {
		return false
	}
	for i := range ps.neg {
		if matchPath(&ps.neg[i], p, project) {
			return false
		}
	}
	return true
}

// excludesPath reports whether a negated pattern of the set matches the
// absolute path p.
func (ps *patternSet) excludesPath(p, project string) bool {
	for i := range ps.neg {
		if matchPath(&ps.neg[i], p, project) {
			return true
		}
	}
	return false
}

func compilePaths(pats []string, home string) patternSet {
	var ps patternSet
	for _, p := range pats {
		g := glob{neg: strings.HasPrefix(p, "!")}
		body := strings.TrimPrefix(p, "!")
		switch {
		case body == "~" || strings.HasPrefix(body, "~/"):
			if home == "" {
				// Without a home the pattern cannot name anything real;
				// keep it relative to nothing so it never matches.
				body = "/\x00nohome" + body[1:]
			} else {
				body = home + body[1:]
			}
		}
		if strings.HasSuffix(body, "/") && body != "/" {
			// "build/" names the directory and everything under it.
			body += "**"
		}
		g.segs = splitSegs(body)
		if strings.HasPrefix(body, "/") {
			g.segs = append([]string{"/"}, g.segs...)
		}
		add(&ps, g)
	}
	return ps
}

func compileRefs(pats []string) patternSet {
	var ps patternSet
	for _, p := range pats {
		g := glob{neg: strings.HasPrefix(p, "!")}
		g.segs = splitSegs(normRef(strings.TrimPrefix(p, "!")))
		add(&ps, g)
	}
	return ps
}

func compileHosts(pats []string) patternSet {
	var ps patternSet
	for _, p := range pats {
		g := glob{neg: strings.HasPrefix(p, "!")}
		h := normHost(strings.TrimPrefix(p, "!"))
		if suffix, ok := strings.CutPrefix(h, "*"); ok && strings.HasPrefix(suffix, ".") {
			g.wildcard, g.host = true, suffix
		} else {
			g.host = h
		}
		add(&ps, g)
	}
	return ps
}

func add(ps *patternSet, g glob) {
	if g.neg {
		ps.neg = append(ps.neg, g)
	} else {
		ps.pos = append(ps.pos, g)
	}
}

func splitSegs(s string) []string {
	s = strings.Trim(s, "/")
	if s == "" {
		return nil
	}
	return strings.Split(s, "/")
}

// normRef reduces a ref to the branch or tag name a rule speaks of:
// "HEAD:refs/heads/main" and "+main" both push to "main".
func normRef(r string) string {
	if i := strings.LastIndexByte(r, ':'); i >= 0 {
		r = r[i+1:]
	}
	r = strings.TrimPrefix(r, "+")
	if s, ok := strings.CutPrefix(r, "refs/heads/"); ok {
		return s
	}
	return r
}

func normHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// matchSegs matches a segment pattern against a "/"-separated value.
// It never allocates: value is walked in place.
func matchSegs(pat []string, value string) bool {
	if len(pat) == 0 {
		return value == ""
	}
	if pat[0] == "**" {
		if matchSegs(pat[1:], value) {
			return true
		}
		for i := 0; i < len(value); i++ {
			if value[i] == '/' && matchSegs(pat[1:], value[i+1:]) {
				return true
			}
		}
		// "**" at the end also matches the whole remaining value.
		return len(pat) == 1 && value != ""
	}
	seg, rest, more := strings.Cut(value, "/")
	if ok, _ := path.Match(pat[0], seg); !ok {
		return false
	}
	if !more {
		return len(pat) == 1 || (len(pat) == 2 && pat[1] == "**")
	}
	return matchSegs(pat[1:], rest)
}

// matchPath matches a compiled path glob against an absolute path.
// project is the worktree root for relative patterns.
func matchPath(g *glob, p, project string) bool {
	switch {
	case len(g.segs) > 0 && g.segs[0] == "/":
		return matchSegs(g.segs[1:], strings.TrimPrefix(p, "/"))
	case len(g.segs) > 0 && g.segs[0] == "**":
		return matchSegs(g.segs, strings.TrimPrefix(p, "/"))
	default:
		if !action.Within(project, p) {
			return false
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, project), "/")
		if project == "/" {
			rel = strings.TrimPrefix(p, "/")
		}
		return matchSegs(g.segs, rel)
	}
}

func matchRef(g *glob, ref string) bool { return matchSegs(g.segs, ref) }

func matchHost(g *glob, host string) bool {
	if g.wildcard {
		// Any depth of subdomain, never the apex: "a.example.com" and
		// "a.b.example.com" match "*.example.com"; "example.com" and
		// "evilexample.com" do not.
		return len(host) > len(g.host) && strings.HasSuffix(host, g.host)
	}
	return host == g.host
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
