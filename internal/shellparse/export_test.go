// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// Claimed reports whether some family classifies the program name.
func Claimed(name string) bool { return claimed(canonical(name)) }
