// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
)

// ignorePos compares files without their source positions.
var ignorePos = cmp.Options{
	cmpopts.IgnoreFields(policy.Rule{}, "Pos"),
	cmpopts.IgnoreFields(policyfile.NetRule{}, "Pos"),
	cmpopts.IgnoreFields(policyfile.Credential{}, "Pos"),
	cmpopts.IgnoreFields(policyfile.Test{}, "Pos"),
}

// TestValid parses every valid case, checks its canonical form and the
// sentences of its rules, and that the canonical form is a fixed point
// that parses back to the same file.
func TestValid(t *testing.T) {
	goldentest.Run(t, "testdata/valid/*.txtar", func(t *testing.T, _ string, in goldentest.Sections) goldentest.Sections {
		f, err := policyfile.Parse("policy.yaml", policyYAML(t, in))
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		out := policyfile.Format(f)
		var sentences strings.Builder
		for _, r := range f.Policy.Rules {
			sentences.WriteString(r.Scope.String() + ": " + policyfile.Sentence(r) + "\n")
		}
		if f2, err := policyfile.Parse("policy.yaml", out); err != nil {
			t.Errorf("Parse(Format(f)): %v\n%s", err, out)
		} else {
			if diff := cmp.Diff(f, f2, ignorePos); diff != "" {
				t.Errorf("Parse(Format(f)) mismatch (-want +got):\n%s", diff)
			}
			if out2 := policyfile.Format(f2); string(out2) != string(out) {
				t.Errorf("Format is not a fixed point:\n%s\nthen\n%s", out, out2)
			}
		}
		return goldentest.Sections{"format.golden": out, "sentences.golden": []byte(sentences.String())}
	})
}

// TestInvalid checks the exact error of every invalid case, and that it
// comes with a nil file.
func TestInvalid(t *testing.T) {
	const pattern = "testdata/invalid/*.txtar"
	if files, _ := filepath.Glob(pattern); len(files) < 30 {
		t.Errorf("only %d invalid cases, want at least 30", len(files))
	}
	goldentest.Run(t, pattern, func(t *testing.T, _ string, in goldentest.Sections) goldentest.Sections {
		f, err := policyfile.Parse("policy.yaml", policyYAML(t, in))
		if err == nil {
			t.Fatalf("Parse succeeded, want an error; formatted:\n%s", policyfile.Format(f))
		}
		if f != nil {
			t.Errorf("Parse returned a file with its error")
		}
		var pe *policyfile.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %T is not a *ParseError: %v", err, err)
		}
		return goldentest.Sections{"error.golden": []byte(err.Error() + "\n")}
	})
}

// policyYAML is the policy.yaml section of a case, which every case has.
func policyYAML(t *testing.T, in goldentest.Sections) []byte {
	t.Helper()
	src, ok := in["policy.yaml"]
	if !ok {
		t.Fatal("no section policy.yaml")
	}
	return src
}
