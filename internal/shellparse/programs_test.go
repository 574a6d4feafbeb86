// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProgramsClaimedOnce checks that every program name is classified
// by exactly one family, so that no family can shadow another by being
// checked first (bun read as an interpreter before its package verbs).
func TestProgramsClaimedOnce(t *testing.T) {
	owner := map[string][]string{}
	for _, f := range families() {
		for n := range f.programs {
			owner[n] = append(owner[n], f.name)
		}
	}
	var dup []string
	for n, fs := range owner {
		if len(fs) > 1 {
			dup = append(dup, n+": "+strings.Join(fs, ", "))
		}
	}
	sort.Strings(dup)
	for _, d := range dup {
		t.Errorf("claimed more than once: %s", d)
	}
	for n, fs := range owner {
		if _, family := lookup(n); family != fs[0] {
			t.Errorf("lookup(%q) finds family %q, claimed by %q", n, family, fs[0])
		}
	}
	// A versioned name stands for a program some family claims.
	for _, v := range versioned {
		if !claimed(v) {
			t.Errorf("versioned name %q is claimed by no family", v)
		}
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"python3.12": "python", "python3": "python", "pythonw": "python", "pypy3": "pypy", "php8.2": "php",
		"php8": "php", "ruby3.1": "ruby", "perl5.36": "perl", "lua5.4": "lua", "luajit": "luajit",
		"gcc-13": "gcc", "clang++-17": "clang++", "pip3.11": "pip", "node20": "node",
		"phpunit": "phpunit", "sha256sum": "sha256sum", "cat2": "cat2", "perldoc": "perldoc", "git": "git",
	} {
		if got := canonical(in); got != want {
			t.Errorf("canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestManagerNames: the dispatch table's list of package managers is the
// table's own.
func TestManagerNames(t *testing.T) {
	var got []string
	for n := range managers() {
		got = append(got, n)
	}
	want := slices.Clone(managerNames)
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("managerNames and managers differ (-names +table):\n%s", diff)
	}
}
