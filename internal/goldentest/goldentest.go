// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package goldentest runs golden tests, txtar tables and plain golden
// files alike, under the one -update flag that rewrites them.
package goldentest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// update is the one -update flag of every test binary that imports this
// package: with it the goldens are rewritten instead of compared.
// `go test ./... -update` rewrites them all; the test binaries of
// packages without goldens do not know the flag and stop at once with
// "flag provided but not defined", which changes nothing. Name the
// packages (`go test ./internal/policy/... -update`) for a clean run.
var update = flag.Bool("update", false, "rewrite golden files and the golden sections of txtar tables")

// Sections are the sections of a txtar archive, by name.
type Sections map[string][]byte

// Run runs check as a subtest for every file matching the glob pattern,
// named after the file without its .txtar suffix; it fails the test when
// no file matches. check gets the file's path and sections and returns
// the golden sections it computed from them.
//
// Run compares each returned section with the file's section of the
// same name, reporting differences as cmp.Diff (-want +got); a section
// missing from the file is a failure. With -update it instead writes the
// returned sections into the file: an existing section is replaced where
// it stands, a new one is appended (in name order), and the comment and
// every other section are kept. The file is written only when its bytes
// change.
//
// If check stops its test (t.Fatal), nothing is compared or written.
func Run(t *testing.T, pattern string, check func(t *testing.T, file string, in Sections) Sections) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatalf("goldentest: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("goldentest: no files match %s", pattern)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			in := make(Sections, len(ar.Files))
			for _, f := range ar.Files {
				in[f.Name] = f.Data
			}
			got := check(t, file, in)
			names := make([]string, 0, len(got))
			for name := range got {
				names = append(names, name)
			}
			slices.Sort(names)
			if *update {
				rewrite(t, file, data, ar, names, got)
				return
			}
			for _, name := range names {
				want, ok := in[name]
				if !ok {
					t.Errorf("%s: no section %q (rerun with -update to add it)", file, name)
					continue
				}
				if diff := cmp.Diff(string(want), string(got[name])); diff != "" {
					t.Errorf("%s: section %s differs (-want +got); rerun with -update if intended:\n%s", file, name, diff)
				}
			}
		})
	}
}

// rewrite writes the sections names of got into the archive ar, read
// from file as data, and the archive back to file if it changed.
func rewrite(t *testing.T, file string, data []byte, ar *txtar.Archive, names []string, got Sections) {
	t.Helper()
	for _, name := range names {
		i := slices.IndexFunc(ar.Files, func(f txtar.File) bool { return f.Name == name })
		if i < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: name})
			i = len(ar.Files) - 1
		}
		ar.Files[i].Data = got[name]
	}
	if out := txtar.Format(ar); !bytes.Equal(out, data) {
		if err := os.WriteFile(file, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Check compares got with the golden file path, reporting differences as
// cmp.Diff (-want +got), or with -update writes got there, creating the
// file's directory if need be. It is for goldens that are whole files
// computed from other inputs rather than sections of a table.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(path)
	if *update {
		if err == nil && bytes.Equal(want, got) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v (rerun with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); rerun with -update if intended:\n%s", path, diff)
	}
}

// Cases decodes a decision table's cases section: one JSON object a
// line, each into a C, in order. Blank lines and lines starting with #
// are skipped. A line that is not exactly one object, a field C does not
// have, or a section without a case fails the test.
func Cases[C any](t testing.TB, section []byte) []C {
	t.Helper()
	var cases []C
	for i, line := range strings.Split(string(section), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var c C
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("cases:%d: %v", i+1, err)
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			t.Fatalf("cases:%d: more than one JSON value on the line", i+1)
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatal("cases: no case")
	}
	return cases
}
