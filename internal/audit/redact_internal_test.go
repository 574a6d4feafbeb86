// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit

import (
	"regexp"
	"testing"
)

// redactEvery is RedactText's redaction with every pattern tried: what it
// was before patterns were passed over by what a text lacks.
func redactEvery(s string) string {
	for _, p := range secretPatterns {
		s = redactWith(regexp.MustCompile(p.expr), s)
	}
	return s
}

// secretSeeds are texts each pattern matches, spelled to slip past a
// prefilter that forgot case folding (ſ folds to s, K to k under (?i)).
var secretSeeds = []string{
	`Authorization: Bearer abc`, `PROXY-AUTHORIZATION: basic Zm9v`, `https://u:p@h/`,
	`PASSWORD=x`, `paſſword=hunter2`, "api_\u212Aey: abc", `Client-Secret="v"`, `SECRET: v`,
	"-----BEGIN RSA PRIVATE KEY-----\nabc", `ghp_0123456789abcdefghijklmnopqrstuvwxyz01`,
	`xoxb-0123456789-abc`, `AKIAIOSFODNN7EXAMPLE`, `plain text`, `--flag -x a_b`, ``,
}

// TestRedactPassesOverOnlyWhatCannotMatch: passing a pattern over for
// what a text lacks changes no redaction.
func TestRedactPassesOverOnlyWhatCannotMatch(t *testing.T) {
	for _, s := range secretSeeds {
		if got, want := RedactText(s), redactEvery(s); got != want {
			t.Errorf("RedactText(%q) = %q, every pattern tried gives %q", s, got, want)
		}
	}
}

func FuzzRedactPassesOver(f *testing.F) {
	for _, s := range secretSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > MaxText {
			return
		}
		if got, want := RedactText(s), redactEvery(s); got != want {
			t.Fatalf("RedactText(%q) = %q, every pattern tried gives %q", s, got, want)
		}
	})
}
