// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLineReader: lines are split on newlines and bounded; a longer line
// is skipped up to its newline and reported, never buffered whole, and
// the lines after it are read as usual.
func TestLineReader(t *testing.T) {
	type got struct {
		Line    string
		TooLong bool
	}
	for _, tt := range []struct {
		name, in string
		want     []got
	}{
		{"lines", "a\nbb\n\nccc\n", []got{{"a", false}, {"bb", false}, {"", false}, {"ccc", false}}},
		{"last without newline", "a\nbb", []got{{"a", false}, {"bb", false}}},
		{"exactly the bound", "12345678\nx\n", []got{{"12345678", false}, {"x", false}}},
		{"too long", "123456789\nx\n", []got{{"", true}, {"x", false}}},
		{"much too long", strings.Repeat("y", 100) + "\nx\n", []got{{"", true}, {"x", false}}},
		{"too long at the end", strings.Repeat("y", 100), []got{{"", true}}},
		{"CRLF kept for JSON", "a\r\n", []got{{"a\r", false}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// A 16-byte buffer: long lines arrive in several chunks.
			lr := &lineReader{r: bufio.NewReaderSize(strings.NewReader(tt.in), 16), max: 8}
			var out []got
			for {
				line, tooLong, err := lr.next()
				if line != nil || tooLong {
					out = append(out, got{string(line), tooLong})
				}
				if err != nil {
					if !errors.Is(err, io.EOF) {
						t.Fatal(err)
					}
					break
				}
			}
			if diff := cmp.Diff(tt.want, out); diff != "" {
				t.Errorf("lines of %q (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
