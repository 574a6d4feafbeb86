// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy

import "errors"

// Errors of [Policy.Remember].
var (
	// ErrRememberAllowed is returned for a destination the rules allow
	// already: there is nothing to remember.
	ErrRememberAllowed = errors.New("the destination is allowed already")
	// ErrRememberDenied is returned for a destination a written rule
	// denies, or that no rule can open: a deny is not remembered away.
	ErrRememberDenied = errors.New("a denied destination is not remembered away")
	// ErrRememberWidens is returned for a destination an allow rule names
	// already with narrower matchers (some methods, one protocol): a
	// remembered rule for the whole destination would widen it.
	ErrRememberWidens = errors.New("a remembered rule would widen the rule that names this destination")
)
