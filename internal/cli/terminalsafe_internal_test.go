// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTerminalSafe(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain text, é and 漢字", "plain text, é and 漢字"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab"},
		{"/p/a\x1b[2J\x1b[31mFAKE/.envrc", `/p/a\x1b[2J\x1b[31mFAKE/.envrc`},
		{"osc 52: \x1b]52;c;cm0gLXJmIH4=\x07", `osc 52: \x1b]52;c;cm0gLXJmIH4=\x07`},
		{"8-bit CSI \x9b2J and C1 \u009b", `8-bit CSI \x9b2J and C1 \x9b`},
		{"a carriage return\rover the line", `a carriage return\x0dover the line`},
		{"DEL \x7f", `DEL \x7f`},
		{"U+FFFD itself, valid UTF-8: \ufffd", "U+FFFD itself, valid UTF-8: \ufffd"},
	} {
		if got := terminalSafe(tt.in); got != tt.want {
			t.Errorf("terminalSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzTerminalSafe: whatever a message holds, what reaches the terminal
// holds no control character but the newline and the tab, and is UTF-8.
func FuzzTerminalSafe(f *testing.F) {
	for _, s := range []string{"", "x", "\x1b[2J", "\x9b", "\xff\xfe", "\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := terminalSafe(s)
		if !utf8.ValidString(got) {
			t.Fatalf("terminalSafe(%q) = %q: not UTF-8", s, got)
		}
		if i := strings.IndexFunc(got, func(r rune) bool {
			return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f
		}); i >= 0 {
			t.Fatalf("terminalSafe(%q) = %q: a control character at %d", s, got, i)
		}
	})
}
