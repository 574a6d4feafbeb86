// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"path/filepath"
	"strings"

	"warden.dev/warden/internal/pathguard"
)

// HomeMasks returns the paths under home that the sandbox masks: every
// entry of the sensitive set that names a fixed place in a home directory
// (.ssh/, .aws/credentials, .netrc…). Entries with wildcards (id_rsa*) and
// entries anchored elsewhere (/proc/*/environ) are left to the layers that
// match patterns; the result does not depend on what exists.
func HomeMasks(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, e := range pathguard.SensitiveSet() {
		p := e.Pattern
		if strings.HasPrefix(p, "/") || strings.ContainsAny(p, "*?[\\") {
			continue
		}
		out = append(out, filepath.Join(home, strings.TrimSuffix(p, "/")))
	}
	// .aws as a whole: credentials and config are both in the set, and
	// SSO caches sit next to them.
	out = append(out, filepath.Join(home, ".aws"))
	return out
}
