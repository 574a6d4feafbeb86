// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandbox

import "os"

// openDir is os.Open outside Linux.
func openDir(p string) (*os.File, error) { return os.Open(p) }

// slowFS is not known outside Linux (where no sandbox runs anyway).
func slowFS(f *os.File) bool { return false }
