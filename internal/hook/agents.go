// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

// The agent CLIs whose hooks Warden answers. Each package registers its
// [adapter.Agent] (and its honesty row) from an init function; adding an
// agent is its package and one line here.
import (
	_ "warden.dev/warden/internal/adapter/claudecode"
	_ "warden.dev/warden/internal/adapter/codex"
	_ "warden.dev/warden/internal/adapter/gemini"
)
