// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import "strings"

// Suggest returns the candidate closest to s when it is close enough to be
// a likely typo (at most two edits, and fewer edits than s has runes), or
// "" when none is. Case differences alone count as one edit, so "gitpush"
// suggests "gitPush".
func Suggest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := distance(s, c)
		if strings.EqualFold(s, c) {
			d = 1
		}
		if d < bestD && d < len([]rune(s)) {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein edit distance between a and b, in runes.
// Long inputs are not compared: a key of more than 64 runes is no typo.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
