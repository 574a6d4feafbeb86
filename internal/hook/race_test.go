// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build race

package hook_test

// raceEnabled: the race detector moves values to the heap that a normal
// build keeps on the stack, so allocation bounds are not measured under
// it.
const raceEnabled = true
