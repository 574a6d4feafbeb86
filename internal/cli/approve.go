// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// The person a run's approval policy asks (package contain says when): a
// person at the caller's controlling terminal (/dev/tty). Without a
// terminal, or with --no-approver, there is none, and every question is
// answered no: a prompt with no approver is a deny.

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"

	"warden.dev/warden/internal/approval"
)

// approver asks a person at the terminal (a contain.Approver).
type approver struct {
	tty *os.File
	in  *bufio.Reader
}

// openApprover opens the controlling terminal, or returns nil when there is
// none (or asking is off).
func openApprover(off bool) *approver {
	if off {
		return nil
	}
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	if !isTerminal(f.Fd()) {
		f.Close()
		return nil
	}
	return &approver{tty: f, in: bufio.NewReader(f)}
}

func (a *approver) close() {
	if a != nil {
		a.tty.Close()
	}
}

// Tell writes a line on the terminal. Like every text written there, it
// is made printable first: a value of the command's (a path, a reason
// quoting its words) could otherwise carry an escape sequence or a
// carriage return that redraws the question being answered.
func (a *approver) Tell(text string) { fmt.Fprintf(a.tty, "warden: %s\n", approval.Printable(text)) }

// Ask writes the question on the terminal and reads one line of answer.
func (a *approver) Ask(question string) string {
	fmt.Fprintf(a.tty, "warden: %s ", approval.Printable(question))
	line, _ := a.in.ReadString('\n')
	return strings.TrimSpace(line)
}

// forwardedSignals are the signals warden passes on to the command.
var forwardedSignals = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGWINCH,
}
