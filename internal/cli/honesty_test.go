// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/adapter"
	_ "warden.dev/warden/internal/cli" // the adapters' rows
)

// TestHonestyProofsExist: a row of warden doctor's adapter matrix that
// says it was proven against a real client names tests that exist, in
// this package, where the real-client tests are; a row without one says
// unverified (report.WriteAdapters).
func TestHonestyProofsExist(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	rows := adapter.Matrix()
	if len(rows) == 0 {
		t.Fatal("no adapter row is registered")
	}
	for _, h := range rows {
		p := h.Proven
		if p == nil {
			continue
		}
		if p.Client == "" || p.What == "" || len(p.Tests) == 0 {
			t.Errorf("%s: proven, but the proof is incomplete: %+v", h.Adapter, *p)
		}
		for _, name := range p.Tests {
			fn, ok := strings.CutPrefix(name, "cli.")
			if !ok || !strings.Contains(src.String(), "\nfunc "+fn+"(t *testing.T) {") {
				t.Errorf("%s: proven by %s, which is no test of internal/cli", h.Adapter, name)
			}
		}
	}
}
