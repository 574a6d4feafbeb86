// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import "warden.dev/warden/internal/yamldoc"

// ParseError is an error in a policy file, with the position of the node
// that caused it: a [yamldoc.ParseError], printing file:line:col: msg.
// Line and Col are 1-based and always at least 1.
type ParseError = yamldoc.ParseError
