// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"os"
	"time"

	"warden.dev/warden/internal/config"
)

// policyOptions are where every command finds the managed tier and the
// home.
func policyOptions() config.Options {
	return config.Options{Managed: managedPolicyPath(), Home: homeDir(), Own: ownPlaces(), PATH: os.Getenv("PATH")}
}

// loadPolicy reads the policy at path (the embedded default when empty)
// and the managed tier named by WARDEN_MANAGED_POLICY, and compiles them.
// Any error leaves nothing loaded.
func loadPolicy(path string) (*config.Policy, error) {
	return config.Load(path, policyOptions())
}

func now() time.Time { return time.Now() }

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	return d
}
