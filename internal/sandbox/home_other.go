// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandbox

// slowFS is not known outside Linux (where no sandbox runs anyway).
func slowFS(p string) bool { return false }
