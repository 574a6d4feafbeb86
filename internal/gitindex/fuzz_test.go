// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex_test

import (
	"bytes"
	"crypto/sha1"
	"strings"
	"testing"

	"warden.dev/warden/internal/gitindex"
)

// FuzzIndex feeds arbitrary bytes to Parse, with the checksum made right
// half of the time so the fuzzer reaches the entries. The corpus under
// testdata/fuzz/FuzzIndex holds index files written by git (versions 2,
// 3 and 4, SHA-1 and SHA-256, split). Parse must never panic, must return
// an index or an error and never both, and every path it returns is one
// the data holds.
func FuzzIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"), true)
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"+strings.Repeat("\x00", 60)+"\x00\x01\x00a\x00"), true)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix && len(data) >= 12 {
			sum := sha1.Sum(data)
			data = append(bytes.Clone(data), sum[:]...)
		}
		for _, format := range []gitindex.Format{gitindex.SHA1, gitindex.SHA256} {
			ix, err := gitindex.Parse(data, format)
			if (ix == nil) == (err == nil) {
				t.Fatalf("Parse = %v, %v: want exactly one", ix, err)
			}
			if err != nil {
				continue
			}
			if ix.Version < 2 || ix.Version > 4 {
				t.Fatalf("version %d accepted", ix.Version)
			}
			for _, e := range ix.Entries {
				if e == "" || strings.Contains(e, "\x00") {
					t.Fatalf("entry %q", e)
				}
				if !ix.Has(e) {
					t.Fatalf("Has(%q) = false for an entry", e)
				}
				// v4 builds paths from pieces; the last one is in the data.
				if ix.Version < 4 && !bytes.Contains(data, []byte(e)) {
					t.Fatalf("entry %q is not in the data", e)
				}
			}
		}
	})
}
