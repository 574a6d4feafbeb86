// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex_test

import (
	"testing"

	"warden.dev/warden/internal/adapter/adaptertest"
	"warden.dev/warden/internal/adapter/codex"
)

// TestGolden runs the payloads constructed from Codex's source and the
// shapes the real client sent (testdata/README.md) through translation,
// the hook's decision on a bare policy and the answer, and compares each step with
// testdata/golden/NAME.txtar; the payloads of testdata/refused must be
// refused.
func TestGolden(t *testing.T) {
	adaptertest.Run(t, adaptertest.Golden{
		Agent: codex.Agent{},
		Home:  "/tmp/codex-EXAMPLE/home",
		Sets: []adaptertest.Set{
			{Glob: "testdata/payloads/*.json"},
			{Glob: "testdata/refused/*.json", Prefix: "refused-", Refused: true},
		},
		Min: 15,
	})
}
