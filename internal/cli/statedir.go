// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"warden.dev/warden/internal/contain"
)

// stateDir is Warden's state directory ([contain.StateDir]).
func stateDir() string { return contain.StateDir() }

// ownDirs are Warden's own directories, which no run may see
// ([contain.HostDirs]).
func ownDirs() contain.Dirs { return contain.HostDirs() }

// ownPlaces are Warden's own directories as the floor keeps every agent
// tool out of them ([contain.Dirs.Places]).
func ownPlaces() []string { return contain.HostDirs().Places() }
