// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
)

// This file says where a glob pattern can reach: Gemini CLI's glob and
// read_many_files, and Claude Code's Glob, which are judged alike (a
// pattern a client matches more narrowly is only judged wider). Gemini
// CLI 0.61 matches them with node-glob in the search directory, checking
// that directory against its workspace and nothing else: the pattern
// itself may leave it. The rules, from node-glob, minimatch and
// brace-expansion as 0.61 bundles them, and each proven against the real
// client (TestGeminiRealClient, "read tools"):
//
//   - braces expand before anything is matched, {a,b} into a and b,
//     nested; an alternative is matched on its own, so each is judged on
//     its own ({../home/.ssh/*,x} listed ~/.ssh);
//   - a sequence ({1..9}, {a..z}) makes letters and digits only, never a
//     dot or a slash: it is taken as a wildcard, which can only make the
//     literal directory shorter (wider);
//   - the literal leading directories of an alternative are where its
//     matching starts: an absolute one, or one with "..", leaves the
//     search directory (the path is cleaned as written);
//   - a wildcard segment matches one entry a directory lists, never . or
//     .. (** any number of directories, none included); a literal ".."
//     after one climbs back a level, and the rest of the pattern matches
//     below wherever that is (*/../../home/.ssh/* listed ~/.ssh from the
//     project): such an alternative reaches everything below the lowest
//     directory it can climb to, counting each segment one level down
//     (** none) and each ".." one up.

// Reach is where one brace alternative of a glob pattern can match.
type Reach struct {
	// Dir is the alternative's literal leading directory, resolved
	// against the search directory: with Above, climbed.
	Dir string
	// File is the path the alternative names, when it has no wildcard
	// at all (node-glob matches it as a literal path).
	File string
	// Above says a ".." after a wildcard climbs out of the literal
	// directory: the alternative may match anything below Dir.
	Above bool
}

// The bounds of one pattern with braces: a longer one, or one with more
// brace alternatives, or alternatives longer in all than maxExpanded, is
// refused (the hook fails closed) rather than expanded; minimatch's own
// bounds are 64 KiB and 100,000 alternatives. A crash or an exhausted
// memory would be a hook failure, on which Gemini CLI runs the tool. A
// pattern without braces is its own one alternative, of any length.
const (
	maxPattern      = 4 << 10
	maxAlternatives = 1024
	maxExpanded     = 1 << 20
)

// GlobReach returns where pattern, matched in dir, can reach: one reach
// per brace alternative, in order, duplicates dropped. It is an error
// when the pattern has braces and is longer than maxPattern, or has more
// alternatives than its bounds allow.
func GlobReach(dir, pattern string) ([]Reach, error) {
	alts := []string{pattern}
	if strings.ContainsAny(pattern, "{}") {
		if len(pattern) > maxPattern {
			return nil, fmt.Errorf("the glob pattern has braces and is longer than %d bytes", maxPattern)
		}
		// No alternative is longer than the pattern (a placeholder
		// for an escape is 3 bytes for 2): this bounds them in all.
		limit := max(1, min(maxAlternatives, maxExpanded/(2*len(pattern))))
		var ok bool
		if alts, ok = expandBraces(pattern, limit); !ok {
			return nil, fmt.Errorf("the glob pattern %q has more than %d brace alternatives", pattern, limit)
		}
	}
	var out []Reach
	seen := map[Reach]bool{}
	for _, a := range alts {
		r := reachOf(dir, a)
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// reachOf is where one brace alternative a, matched in dir, can reach.
// It walks a's segments in place: a pattern may be megabytes of path.
func reachOf(dir, a string) Reach {
	start := 0 // where the segment holding the first wildcard starts
	for {
		end := strings.IndexByte(a[start:], '/')
		if end < 0 {
			if !isMagic(a[start:]) {
				// No wildcard: the path itself, in its directory.
				file := JoinDir(dir, a)
				if strings.HasPrefix(file, "/") {
					return Reach{Dir: path.Dir(file), File: file}
				}
				return Reach{Dir: JoinDir(dir, a[:max(0, strings.LastIndexByte(a, '/'))]), File: file}
			}
			break
		}
		if isMagic(a[start : start+end]) {
			break
		}
		start += end + 1
	}
	lit := strings.TrimSuffix(a[:start], "/")
	if lit == "" && strings.HasPrefix(a, "/") {
		lit = "/"
	}
	r := Reach{Dir: JoinDir(dir, lit)}
	// How far below the literal directory each segment leaves the
	// match, at the least: a wildcard or a name one level down, ** none
	// (it matches zero directories too), ".." one up. The lowest point
	// is how far the match can climb.
	depth, climbs := 0, 0
	for rest := a[start:]; ; {
		seg, next, more := strings.Cut(rest, "/")
		switch seg {
		case "**", ".", "":
		case "..":
			depth--
			climbs = max(climbs, -depth)
		default:
			depth++
		}
		if !more {
			break
		}
		rest = next
	}
	if climbs > 0 {
		r.Dir, r.Above = path.Join(r.Dir, strings.Repeat("../", climbs)), true
		if !strings.HasPrefix(r.Dir, "/") && !strings.HasPrefix(r.Dir, "~/") && r.Dir != "~" {
			// Climbed above ~ (node-glob's ~ is a directory named ~,
			// Warden's the home): the widest reach.
			r.Dir = "/"
		}
	}
	return r
}

// isMagic says whether minimatch treats a pattern segment as a wildcard:
// *, ?, a [class], a brace left as written, or an extglob +(…), @(…),
// !(…) (*(…) and ?(…) hold * and ?).
func isMagic(seg string) bool {
	return strings.ContainsAny(seg, "*?[{}") || strings.Contains(seg, "+(") || strings.Contains(seg, "@(") || strings.Contains(seg, "!(")
}

// sequence is the body of a brace-expansion sequence, {1..9} or {a..z}
// with an optional step.
var sequence = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(-?\d+\.\.-?\d+|[a-zA-Z]\.\.[a-zA-Z])(\.\.-?\d+)?$`)
})

// closeLater is brace-expansion's test of the text after a group with
// no comma, /,(?!,).*\}/: a comma, not followed by another, and a }
// later. Then the group's } is taken as a literal and the { closes
// further on.
var closeLater = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,(\}|[^,].*\})`) })

// Escaped characters stand for themselves while braces expand, as
// brace-expansion's escapeBraces has them; a } that a group with no comma
// gave up (closeLater) too.
const (
	escSlash = "\uE000"
	escOpen  = "\uE001"
	escClose = "\uE002"
	escComma = "\uE003"
	escDot   = "\uE004"
)

var (
	escape   = strings.NewReplacer(`\\`, escSlash, `\{`, escOpen, `\}`, escClose, `\,`, escComma, `\.`, escDot)
	unescape = strings.NewReplacer(escSlash, `\`, escOpen, "{", escClose, "}", escComma, ",", escDot, ".")
)

// expandBraces returns the alternatives of pattern's brace groups as
// brace-expansion makes them, each sequence as * (see the file comment),
// or ok false when there would be more than max. Where it differs from
// brace-expansion it makes more alternatives, never fewer: a } that
// stands for itself is kept as written, a group after a $ is expanded.
func expandBraces(pattern string, max int) ([]string, bool) {
	if strings.HasPrefix(pattern, "{}") {
		pattern = `\{\}` + pattern[2:]
	}
	alts, ok := expand(escape.Replace(pattern), max)
	for i, a := range alts {
		alts[i] = unescape.Replace(a)
	}
	return alts, ok
}

func expand(s string, max int) ([]string, bool) {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return []string{s}, true
	}
	close := matchingBrace(s, open)
	if close < 0 {
		// Unbalanced: this { is literal; a later group may expand.
		rest, ok := expand(s[open+1:], max)
		var alts []string
		for _, r := range rest {
			alts = append(alts, s[:open+1]+r)
		}
		return alts, ok
	}
	pre, body, post := s[:open], s[open+1:close], s[close+1:]
	var mids []string
	switch parts := splitTop(body); {
	case sequence().MatchString(body):
		mids = []string{"*"}
	case len(parts) == 1 && closeLater().MatchString(post):
		return expand(pre+"{"+body+escClose+post, max)
	case len(parts) == 1:
		// {x} is kept as written, its inner groups expanded.
		inner, ok := expand(body, max)
		if !ok {
			return nil, false
		}
		for _, in := range inner {
			mids = append(mids, "{"+in+"}")
		}
	default:
		for _, p := range parts {
			e, ok := expand(p, max)
			if !ok || len(mids)+len(e) > max {
				return nil, false
			}
			mids = append(mids, e...)
		}
	}
	posts, ok := expand(post, max)
	if !ok || len(mids)*len(posts) > max {
		return nil, false
	}
	alts := make([]string, 0, len(mids)*len(posts))
	for _, m := range mids {
		for _, p := range posts {
			alts = append(alts, pre+m+p)
		}
	}
	return alts, true
}

// matchingBrace returns the index of the } closing the { at open, or -1.
func matchingBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTop splits a brace group's body at its top-level commas.
func splitTop(body string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, body[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, body[start:])
}

// JoinDir resolves p against dir unless it is absolute or starts at ~.
func JoinDir(dir, p string) string {
	if p == "" {
		return dir
	}
	if path.IsAbs(p) || strings.HasPrefix(p, "~") {
		return p
	}
	return path.Join(dir, p)
}
