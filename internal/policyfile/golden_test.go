// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/tools/txtar"

	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// ignorePos compares files without their source positions.
var ignorePos = cmp.Options{
	cmpopts.IgnoreFields(policy.Rule{}, "Pos"),
	cmpopts.IgnoreFields(policyfile.NetRule{}, "Pos"),
	cmpopts.IgnoreFields(policyfile.Credential{}, "Pos"),
	cmpopts.IgnoreFields(policyfile.Test{}, "Pos"),
}

// golden is one txtar case: its input policy.yaml and expected sections.
type golden struct {
	path string
	ar   *txtar.Archive
}

func readGoldens(t *testing.T, dir string) []golden {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no test cases in testdata/%s", dir)
	}
	var gs []golden
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, golden{p, ar})
	}
	return gs
}

func (g golden) section(t *testing.T, name string) []byte {
	t.Helper()
	for _, f := range g.ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	if *update {
		return nil
	}
	t.Fatalf("%s: no section %q", g.path, name)
	return nil
}

// check compares got with the golden section name, or rewrites it under
// -update.
func (g golden) check(t *testing.T, name string, got []byte) {
	t.Helper()
	if *update {
		for i := range g.ar.Files {
			if g.ar.Files[i].Name == name {
				g.ar.Files[i].Data = got
				goto write
			}
		}
		g.ar.Files = append(g.ar.Files, txtar.File{Name: name, Data: got})
	write:
		if err := os.WriteFile(g.path, txtar.Format(g.ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(string(g.section(t, name)), string(got)); diff != "" {
		t.Errorf("%s: %s mismatch (-want +got):\n%s", g.path, name, diff)
	}
}

// TestValid parses every valid case, checks its canonical form and the
// sentences of its rules, and that the canonical form is a fixed point
// that parses back to the same file.
func TestValid(t *testing.T) {
	for _, g := range readGoldens(t, "valid") {
		t.Run(strings.TrimSuffix(filepath.Base(g.path), ".txtar"), func(t *testing.T) {
			src := g.section(t, "policy.yaml")
			f, err := policyfile.Parse("policy.yaml", src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			out := policyfile.Format(f)
			g.check(t, "format.golden", out)

			var sentences strings.Builder
			for _, r := range f.Policy.Rules {
				sentences.WriteString(r.Scope.String() + ": " + policyfile.Sentence(r) + "\n")
			}
			g.check(t, "sentences.golden", []byte(sentences.String()))

			f2, err := policyfile.Parse("policy.yaml", out)
			if err != nil {
				t.Fatalf("Parse(Format(f)): %v\n%s", err, out)
			}
			if diff := cmp.Diff(f, f2, ignorePos); diff != "" {
				t.Errorf("Parse(Format(f)) mismatch (-want +got):\n%s", diff)
			}
			if out2 := policyfile.Format(f2); string(out2) != string(out) {
				t.Errorf("Format is not a fixed point:\n%s\nthen\n%s", out, out2)
			}
		})
	}
}

// TestInvalid checks the exact error of every invalid case, and that it
// comes with a nil file.
func TestInvalid(t *testing.T) {
	gs := readGoldens(t, "invalid")
	if len(gs) < 30 {
		t.Errorf("only %d invalid cases, want at least 30", len(gs))
	}
	for _, g := range gs {
		t.Run(strings.TrimSuffix(filepath.Base(g.path), ".txtar"), func(t *testing.T) {
			f, err := policyfile.Parse("policy.yaml", g.section(t, "policy.yaml"))
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
			g.check(t, "error.golden", []byte(err.Error()+"\n"))
		})
	}
}
