// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"os"

	"warden.dev/warden/internal/contain"
)

// Every environment variable Warden reads is named here.
const (
	// envManagedPolicy names the managed-tier policy file; when set it
	// replaces the stored managed rules entirely (docs/spec.md §8).
	envManagedPolicy = "WARDEN_MANAGED_POLICY"
	// envSandboxTrace, when set to 1, makes warden run print the time of
	// each stage of building the sandbox on stderr.
	envSandboxTrace = "WARDEN_SANDBOX_TRACE"
	// envHookHeadless, when 1, tells every hook that nobody can answer a
	// prompt (the agent runs headless, e.g. claude -p): a prompt is a deny.
	// The --headless flag says the same.
	envHookHeadless = "WARDEN_HOOK_HEADLESS"
	// envStateDir names Warden's state directory (docs/spec.md §13), which
	// every sandboxed run masks.
	envStateDir = contain.EnvStateDir
)

func sandboxTrace() bool { return os.Getenv(envSandboxTrace) == "1" }

func managedPolicyPath() string { return os.Getenv(envManagedPolicy) }

func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
