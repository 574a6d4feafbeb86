// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build linux

package sandbox

import "testing"

// The matrix, built on every system, names the uid a command has inside;
// Linux runs define it.
func TestRunUIDIsSandboxID(t *testing.T) {
	if runUID != sandboxID {
		t.Errorf("runUID = %d, sandboxID = %d", runUID, sandboxID)
	}
}
