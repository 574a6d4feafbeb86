// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package warden_test

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLicenceHeaders(t *testing.T) {
	const want = "// SPDX-License-Identifier: Apache-2.0"
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || (strings.HasPrefix(d.Name(), ".") && p != ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		if !sc.Scan() || sc.Text() != want {
			t.Errorf("%s: first line is not %q", p, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
