// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bufio"
	"io"
	"os"
	"strings"
	"testing"
)

// TestApproverShowsWhatRuns: text written on the terminal cannot redraw
// the question: a carriage return or an escape sequence in a value of
// the command's is shown escaped, and the answer still read.
func TestApproverShowsWhatRuns(t *testing.T) {
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	a := &approver{tty: w, in: bufio.NewReader(strings.NewReader("n\n"))}
	a.Tell("the sandbox blocked:\n  1. writing \"/p/x\"")
	got := a.Ask("run rm -rf ~ (it cannot be analysed statically: \r\x1b[2Kapproval untrusted: run ls\u202e) [y/N]?")
	w.Close()
	shown, _ := io.ReadAll(out)
	if got != "n" {
		t.Errorf("Ask = %q, want the line answered", got)
	}
	want := "warden: the sandbox blocked:\n  1. writing \"/p/x\"\n" +
		`warden: run rm -rf ~ (it cannot be analysed statically: \r\x1b[2Kapproval untrusted: run ls\u202e) [y/N]? `
	if string(shown) != want {
		t.Errorf("the terminal shows\n%q\nwant\n%q", shown, want)
	}
}
