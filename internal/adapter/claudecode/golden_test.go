// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode_test

import (
	"testing"

	"warden.dev/warden/internal/adapter/adaptertest"
	"warden.dev/warden/internal/adapter/claudecode"
)

// TestGolden runs Claude Code 2.1.197 recorded payloads (testdata/payloads) and constructed ones (testdata/constructed) through translation, the hook's decision on a
// bare policy and the answer, and compares each step with
// testdata/golden/NAME.txtar; the payloads of testdata/refused must be
// refused.
func TestGolden(t *testing.T) {
	adaptertest.Run(t, adaptertest.Golden{
		Agent: claudecode.Agent{},
		Home:  "/tmp/cc-harness-EXAMPLE/home",
		Sets: []adaptertest.Set{
			{Glob: "testdata/payloads/*.json"},
			{Glob: "testdata/constructed/*.json", Prefix: "constructed-"},
			{Glob: "testdata/refused/*.json", Prefix: "refused-", Refused: true},
		},
		Min: 17,
	})
}
