// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

import (
	"strings"
	"testing"
)

func TestSegGlob(t *testing.T) {
	for _, tt := range []struct {
		pat, v string
		d      byte
		want   bool
	}{
		{"*.x.com", "a.x.com", '.', true},
		{"*.x.com", "x.com", '.', false},
		{"*.x.com", "a.b.x.com", '.', false},
		{"**.x.com", "a.b.x.com", '.', true},
		{"**.x.com", "a.x.com", '.', true},
		{"**.x.com", "x.com", '.', false},
		{"/a/**", "/a", '/', false},
		{"/a/**", "/a/", '/', true},
		{"/a/**", "/a/b/c", '/', true},
		{"/a/**/b", "/a/b", '/', true},
		{"/a/**/b", "/a/x/y/b", '/', true},
		{"**/b", "b", '/', true},
		{"/a/*", "/a/b/c", '/', false},
		{"/a/foo**", "/a/foob", '/', true},
		{"/a/foo**", "/a/foo/b", '/', false},
		{"v1.*", "v1.2", '.', true},
		{"v1.*", "v1.2.3", '.', false},
		{"a*", "a/b", '.', true},
		{"/usr/bin/python3*", "/usr/bin/python3.11", '/', true},
		{"/{a,b}/c", "/b/c", '/', true},
		{"/[ab]/c", "/b/c", '/', true},
		{"/[!ab]/c", "/b/c", '/', false},
	} {
		g, err := compileSeg(tt.pat, tt.d)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.match(tt.v); got != tt.want {
			t.Errorf("%q %q = %v", tt.pat, tt.v, got)
		}
	}
}

// FuzzSegGlob checks that the component-by-component walk used for
// patterns without ** agrees with the general matcher, for both
// delimiters, and that neither panics.
func FuzzSegGlob(f *testing.F) {
	f.Add("*.x.com", "a.x.com")
	f.Add("/a/*/c", "/a/b/c")
	f.Add("v1.*", "v1.2.3")
	f.Add("/a/[!b]?/c*", "/a/xy/cd")
	f.Fuzz(func(t *testing.T, pattern, value string) {
		for _, d := range []byte{'/', '.'} {
			g, err := compileSeg(pattern, d)
			if err != nil {
				continue
			}
			parts := strings.Split(value, string(d))
			for _, comps := range g.alts {
				if hasRec(comps) {
					continue
				}
				if a, b := matchFlat(comps, value, d), matchComps(comps, parts, d == '/'); a != b {
					t.Fatalf("pattern %q value %q delim %c: flat %v, general %v", pattern, value, d, a, b)
				}
			}
			g.match(value)
		}
	})
}
