// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpandBraces(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"src/**/*.go", []string{"src/**/*.go"}},
		{"*.{ts,tsx}", []string{"*.ts", "*.tsx"}},
		{"{../home/.ssh/*,x}", []string{"../home/.ssh/*", "x"}},
		{"{a,{b,c}}/d", []string{"a/d", "b/d", "c/d"}},
		{"{a,b}/{c,d}", []string{"a/c", "a/d", "b/c", "b/d"}},
		// A dot and a dot make "..": the alternative climbs.
		{".{.,x}/y", []string{"../y", ".x/y"}},
		// A sequence makes letters and digits only: a wildcard.
		{"f{1..3}.txt", []string{"f*.txt"}},
		{"{a..c}/x", []string{"*/x"}},
		// A group with no comma is kept as written.
		{"{x}/y", []string{"{x}/y"}},
		{"{}x", []string{"{}x"}},
		// …unless a comma and a } follow: its } is a literal and the {
		// closes there (brace-expansion's re-expansion).
		{"{x}/,../../home/*}", []string{"x}/", "../../home/*"}},
		// Escaped braces and commas stand for themselves.
		{`\{a,b}`, []string{`{a,b}`}},
		{`{a\,b,c}`, []string{"a,b", "c"}},
		// Unbalanced: literal, a later group expanded.
		{"{a{b,c}", []string{"{ab", "{ac"}},
	} {
		got, ok := expandBraces(tt.in, maxAlternatives)
		if !ok {
			t.Errorf("expandBraces(%q): too many", tt.in)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("expandBraces(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestExpandBracesBound: a pattern of many alternatives is refused, not
// expanded: 2^12 from twelve groups.
func TestExpandBracesBound(t *testing.T) {
	if got, ok := expandBraces(strings.Repeat("{a,b}", 12), maxAlternatives); ok {
		t.Errorf("expandBraces(2^12 alternatives) = %d alternatives, want refused", len(got))
	}
	if _, ok := expandBraces(strings.Repeat("{a,b}", 10), maxAlternatives); !ok {
		t.Error("expandBraces(2^10 alternatives) refused, want expanded")
	}
	if _, err := GlobReach("/p", strings.Repeat("{a,b}", 12)); err == nil {
		t.Error("GlobReach(2^12 alternatives): no error")
	}
	// Long alternatives are fewer: 2^8 of 4 KB each are refused.
	if _, err := GlobReach("/p", strings.Repeat("{a,b}", 8)+strings.Repeat("x", 4000)); err == nil {
		t.Error("GlobReach(2^8 alternatives of 4 KB): no error")
	}
	if _, err := GlobReach("/p", "{"+strings.Repeat("x", maxPattern)); err == nil {
		t.Error("GlobReach(a pattern with a brace over maxPattern): no error")
	}
	// Without braces there is nothing to expand: any length is one
	// alternative.
	if got, err := GlobReach("/p", strings.Repeat("x/", 1<<20)+"*"); err != nil || len(got) != 1 {
		t.Errorf("GlobReach(a 2 MiB pattern without braces) = %d reaches, %v; want one", len(got), err)
	}
	// Unbalanced braces are scanned once per brace: a pattern of them
	// is no trap.
	if _, err := GlobReach("/p", strings.Repeat("{", maxPattern)); err != nil {
		t.Errorf("GlobReach(%d unbalanced braces): %v", maxPattern, err)
	}
}

func TestGlobReach(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		want    []Reach
	}{
		{"src/**/*.go", []Reach{{Dir: "/p/src"}}},
		{"**/.env*", []Reach{{Dir: "/p"}}},
		{"*.{ts,tsx}", []Reach{{Dir: "/p"}}},
		{"README.md", []Reach{{Dir: "/p", File: "/p/README.md"}}},
		{"/etc/*.conf", []Reach{{Dir: "/etc"}}},
		{"/*", []Reach{{Dir: "/"}}},
		{"/etc", []Reach{{Dir: "/", File: "/etc"}}},
		// Literal ".." is cleaned as written.
		{"../home/.ssh/*", []Reach{{Dir: "/home/.ssh"}}},
		{"../home/.ssh/id_rsa", []Reach{{Dir: "/home/.ssh", File: "/home/.ssh/id_rsa"}}},
		// A ".." after a wildcard climbs, as far as the segments
		// before it went down: one wildcard and two .. is one level
		// above the literal directory, whatever follows.
		{"*/../../home/.ssh/*", []Reach{{Dir: "/", Above: true}}},
		{"src/*/../../.env.local", []Reach{{Dir: "/p", Above: true}}},
		{"**/../x", []Reach{{Dir: "/", Above: true}}},
		// …and back below it, nothing above.
		{"*/../*.go", []Reach{{Dir: "/p"}}},
		{"src/**/../*.go", []Reach{{Dir: "/p", Above: true}}},
		// Each brace alternative on its own.
		{"{../home/.ssh/*,x}", []Reach{{Dir: "/home/.ssh"}, {Dir: "/p", File: "/p/x"}}},
		{"src/{../.env.local,x}", []Reach{{Dir: "/p", File: "/p/.env.local"}, {Dir: "/p/src", File: "/p/src/x"}}},
		{".{.,x}/*", []Reach{{Dir: "/"}, {Dir: "/p/.x"}}},
		{"{x}/,../../home/*}", []Reach{{Dir: "/p"}, {Dir: "/home"}}},
		// An extglob is a wildcard.
		{"@(src|lib)/*.go", []Reach{{Dir: "/p"}}},
		// ~ is the home to Warden (node-glob would look for a
		// directory named ~: judging the home is the safe side).
		{"~/.ssh/*", []Reach{{Dir: "~/.ssh"}}},
		{"~/*/../.ssh/*", []Reach{{Dir: "~"}}},
		{"~/.ssh/*/../../x", []Reach{{Dir: "~", Above: true}}},
		// Above ~, which Warden cannot resolve here: the root.
		{"~/*/../../x", []Reach{{Dir: "/", Above: true}}},
	} {
		got, err := GlobReach("/p", tt.pattern)
		if err != nil {
			t.Errorf("GlobReach(/p, %q): %v", tt.pattern, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(Reach{})); diff != "" {
			t.Errorf("GlobReach(/p, %q) (-want +got):\n%s", tt.pattern, diff)
		}
	}
}

// FuzzGlobReach: any pattern either is refused or yields reaches that are
// absolute (or at ~, ~user included), one per alternative at most, and a wildcard-free
// pattern with no brace is the one path it names.
func FuzzGlobReach(f *testing.F) {
	for _, s := range []string{"src/**/*.go", "{../home/.ssh/*,x}", "*/../../home/.ssh/*", ".{.,x}/y", `{a\,b,c}`, "{x}/,../../home/*}", "f{1..3}.txt", "~/*/../../x", "/etc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		got, err := GlobReach("/p", pattern)
		if err != nil {
			return
		}
		if len(got) == 0 || len(got) > maxAlternatives {
			t.Fatalf("GlobReach(%q) = %d reaches", pattern, len(got))
		}
		for _, r := range got {
			if !strings.HasPrefix(r.Dir, "/") && !strings.HasPrefix(r.Dir, "~") {
				t.Errorf("GlobReach(%q): reach %q is neither absolute nor at ~", pattern, r.Dir)
			}
		}
		if !strings.ContainsAny(pattern, "*?[{}(") && !strings.Contains(pattern, "\\") {
			if want := JoinDir("/p", pattern); len(got) != 1 || got[0].File != want {
				t.Errorf("GlobReach(%q) = %+v, want the one path %q", pattern, got, want)
			}
		}
	})
}
