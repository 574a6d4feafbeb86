// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandbox

// deviceOf is not known outside Linux: the home walk then stays on no
// particular filesystem (and no sandbox runs there anyway).
func deviceOf(p string) (uint64, bool) { return 0, false }
