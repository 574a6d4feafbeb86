// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandbox

import "testing"

// helperMode is Linux's only.
func helperMode(m *testing.M) (int, bool) { return 0, false }
