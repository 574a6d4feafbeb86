// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter_test

import (
	"testing"

	"warden.dev/warden/internal/adapter"
)

// TestMatrixRowsAreComplete: every registered row says something about
// every capability; a level without a note explains nothing.
func TestMatrixRowsAreComplete(t *testing.T) {
	for _, h := range adapter.Matrix() {
		for name, c := range map[string]adapter.Capability{
			"filters_tools": h.FiltersTools, "intercepts_calls": h.InterceptsCalls,
			"sees_native_tools": h.SeesNativeTools, "sandboxes": h.Sandboxes,
		} {
			switch c.Level {
			case adapter.Yes, adapter.Partial, adapter.No:
			default:
				t.Errorf("%s: %s has level %q", h.Adapter, name, c.Level)
			}
			if c.Note == "" {
				t.Errorf("%s: %s has no note", h.Adapter, name)
			}
		}
	}
}
