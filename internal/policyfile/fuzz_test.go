// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"warden.dev/warden/internal/policyfile"
)

// FuzzParse checks, for any input, that Parse does not panic; that an
// error comes alone and is a *ParseError with a position; and that a file
// it accepts survives Format and Parse unchanged but for positions, with
// Format a fixed point. Seeds are the policies in testdata.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		pf, err := policyfile.Parse("fuzz.yaml", src)
		if err != nil {
			if pf != nil {
				t.Fatalf("Parse returned a file with error %v", err)
			}
			var pe *policyfile.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if pe.Line < 1 || pe.Col < 1 || pe.File != "fuzz.yaml" {
				t.Fatalf("error has a bad position: %#v", pe)
			}
			return
		}
		out := policyfile.Format(pf)
		pf2, err := policyfile.Parse("fuzz.yaml", out)
		if err != nil {
			t.Fatalf("Parse(Format(f)): %v\ninput:\n%s\nformatted:\n%s", err, src, out)
		}
		if diff := cmp.Diff(pf, pf2, ignorePos); diff != "" {
			t.Fatalf("Parse(Format(f)) mismatch (-want +got):\n%s\ninput:\n%s\nformatted:\n%s", diff, src, out)
		}
		if out2 := policyfile.Format(pf2); string(out2) != string(out) {
			t.Fatalf("Format is not a fixed point:\n%s\nthen\n%s", out, out2)
		}
	})
}

// addSeeds adds the policies in testdata to f's corpus.
func addSeeds(f *testing.F) {
	paths, err := filepath.Glob("testdata/*/*.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if file.Name == "policy.yaml" || file.Name == "format.golden" {
				f.Add(file.Data)
			}
		}
	}
	f.Add([]byte(commented))
}

// FuzzComments checks, for any file that parses, that Reformat either
// keeps it as written or returns text that parses to the same file,
// holds its comments in order and is a fixed point, and that Append either refuses or returns
// text that parses to the file plus the rules added. Both may refuse;
// neither may panic, lose a comment or change a rule. Seeds are
// FuzzParse's.
func FuzzComments(f *testing.F) {
	addSeeds(f)
	rules, net := added(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		pf, err := policyfile.Parse("fuzz.yaml", src)
		if err != nil {
			return
		}
		out, err := policyfile.Reformat("fuzz.yaml", src)
		switch {
		case errors.Is(err, policyfile.ErrNotReformatted):
			if string(out) != string(src) {
				t.Fatalf("Reformat refused but changed the text:\n%s\nto\n%s", src, out)
			}
		case err != nil:
			t.Fatalf("Reformat of a file that parses: %v", err)
		default:
			pf2, err := policyfile.Parse("fuzz.yaml", out)
			if err != nil {
				t.Fatalf("Parse(Reformat(src)): %v\ninput:\n%s\nformatted:\n%s", err, src, out)
			}
			if diff := cmp.Diff(pf, pf2, ignorePos); diff != "" {
				t.Fatalf("Parse(Reformat(src)) mismatch (-want +got):\n%s\ninput:\n%s\nformatted:\n%s", diff, src, out)
			}
			if again, err := policyfile.Reformat("fuzz.yaml", out); err != nil || string(again) != string(out) {
				t.Fatalf("Reformat is not a fixed point (%v):\n%s\nthen\n%s", err, out, again)
			}
		}
		out, err = policyfile.Append("fuzz.yaml", src, rules, net)
		if err != nil {
			return
		}
		pf3, err := policyfile.Parse("fuzz.yaml", out)
		if err != nil {
			t.Fatalf("Parse(Append(src)): %v\ninput:\n%s\nappended:\n%s", err, src, out)
		}
		pf.Policy.Rules = append(pf.Policy.Rules, rules...)
		pf.Network.Rules = append(pf.Network.Rules, net...)
		pf.Network.Set = true
		if diff := cmp.Diff(pf, pf3, ignorePos); diff != "" {
			t.Fatalf("Parse(Append(src)) mismatch (-want +got):\n%s\ninput:\n%s\nappended:\n%s", diff, src, out)
		}
	})
}
