// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode

import "warden.dev/warden/internal/adapter"

// Wrapper rewrites an allowed Bash command to run under `warden run`
// (--wrap); see [adapter.Wrapper].
type Wrapper = adapter.Wrapper
