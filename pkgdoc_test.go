// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package warden_test

import (
	"go/parser"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goDirs lists the directories holding non-test Go files.
func goDirs(t *testing.T) []string {
	var dirs []string
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				if dir := filepath.Dir(p); !slices.Contains(dirs, dir) {
					dirs = append(dirs, dir)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

func TestEveryPackageHasOneDoc(t *testing.T) {
	// The module root is package warden, the Go API.
	for _, dir := range append(goDirs(t), ".") {
		var docs []string
		for _, f := range parseDir(t, dir, parser.ParseComments|parser.PackageClauseOnly) {
			if f.Doc != nil {
				docs = append(docs, f.Name.Name)
			}
		}
		if len(docs) != 1 {
			t.Errorf("%s has %d package doc comments, want exactly 1", dir, len(docs))
		}
	}
}
