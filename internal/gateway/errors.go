// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway

import "fmt"

// Error is a setting the gateway cannot start with. Msg names the setting
// as warden mcp's flag does (--tools, --name, --audit-json, --listen,
// --upstream), so that it reads the same wherever it is printed.
type Error struct {
	Msg  string
	Hint string
}

func (e *Error) Error() string { return e.Msg }

// Hints says what to do about it.
func (e *Error) Hints() []string {
	if e.Hint == "" {
		return nil
	}
	return []string{e.Hint}
}

// ExitError is the server's exit with a status other than 0: Status is
// its exit status, or 128+signal when a signal killed it, which the
// gateway's caller exits with.
type ExitError struct {
	Status int
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("the server exited with status %d", e.Status)
}
