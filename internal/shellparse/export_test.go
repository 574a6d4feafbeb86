// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// Claimed reports whether some family classifies the program name.
func Claimed(name string) bool { _, ok := table().programs[canonical(name)]; return ok }
