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
