// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether fd is a terminal.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}

// isTerminalFile reports whether s is a file that is a terminal.
func isTerminalFile(s any) bool {
	f, ok := s.(*os.File)
	return ok && f != nil && isTerminal(f.Fd())
}
