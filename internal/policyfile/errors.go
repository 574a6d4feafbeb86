// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"errors"

	"warden.dev/warden/internal/yamldoc"
)

// ParseError is an error in a policy file, with the position of the node
// that caused it: a [yamldoc.ParseError], printing file:line:col: msg.
// Line and Col are 1-based and always at least 1.
type ParseError = yamldoc.ParseError

// ErrNotReformatted is returned by [Reformat] when the file cannot be
// laid out again without losing a comment or changing its meaning; the
// text is then returned as it was.
var ErrNotReformatted = errors.New("kept as written: reformatting would lose a comment or change the policy")
