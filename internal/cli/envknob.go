// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import "os"

// Every environment variable Warden reads is named here.
const (
	// envManagedPolicy names the managed-tier policy file; when set it
	// replaces the stored managed rules entirely (DESIGN.md §8).
	envManagedPolicy = "WARDEN_MANAGED_POLICY"
)

func managedPolicyPath() string { return os.Getenv(envManagedPolicy) }

func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
