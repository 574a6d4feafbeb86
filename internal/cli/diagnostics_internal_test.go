// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bytes"
	"testing"
)

// TestDiagnosticsEscaped: warden's own messages name paths, hosts and
// errors a sandboxed command chose; none reaches the person's terminal
// as a control sequence or a byte that is not UTF-8 (clear the screen,
// colour a line, set the clipboard, the 8-bit CSI).
func TestDiagnosticsEscaped(t *testing.T) {
	var buf bytes.Buffer
	saved := Stderr
	Stderr = &buf
	defer func() { Stderr = saved }()
	errorWithHint("post-run check: /p/a\x1b[2J\x1b[31mFAKE/.envrc", "look at \x1b]52;c;cm0gLXJmIH4=\x07")
	warningf("8-bit CSI \x9b2J and C1 \u009b, a carriage return\rover the line")
	stderrReporter{}.Say("note: DEL \x7f, two\nlines\tand a tab, é")
	want := `warden: error: post-run check: /p/a\x1b[2J\x1b[31mFAKE/.envrc
warden: hint: look at \x1b]52;c;cm0gLXJmIH4=\a
warden: warning: 8-bit CSI \x9b2J and C1 \u009b, a carriage return\rover the line
warden: note: DEL \x7f, two
lines	and a tab, é
`
	if got := buf.String(); got != want {
		t.Errorf("stderr:\n%q\nwant\n%q", got, want)
	}
}
