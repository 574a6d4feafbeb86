// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package yamldoc

import "fmt"

// ParseError is an error in a YAML file, with the position of the node
// that caused it. Line and Col are 1-based and always at least 1.
type ParseError struct {
	File      string
	Line, Col int
	Msg       string
}

// Error returns the error as file:line:col: msg.
func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}
