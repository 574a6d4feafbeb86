// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

// UnavailableError is returned by [New] when a run's way out cannot be
// built: the sandbox cannot be set up without it, and the run must not
// start (warden run exits 125).
type UnavailableError struct {
	// What names the part that failed: "network credentials", "egress
	// CA" or "egress proxy".
	What string
	Err  error
	// Hint says what to do about it; "" when there is nothing to say.
	Hint string
}

// Error reads "sandbox unavailable: <what>: <error>".
func (e *UnavailableError) Error() string {
	return "sandbox unavailable: " + e.What + ": " + e.Err.Error()
}

func (e *UnavailableError) Unwrap() error { return e.Err }
