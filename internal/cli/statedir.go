// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"os"
	"path/filepath"
)

// stateDir is Warden's state directory (DESIGN.md §13): $WARDEN_STATE_DIR,
// else $XDG_STATE_HOME/warden, else ~/.local/state/warden; "" when none
// can be named. Relative values of the variables are ignored, as the XDG
// specification asks. It is not made here: what writes into it makes it,
// mode 0700.
func stateDir() string {
	if d := os.Getenv(envStateDir); filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "warden")
	}
	if h := homeDir(); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "warden")
	}
	return ""
}

// quarantineDir is where the post-run check of run id moves what the run
// planted: <state dir>/quarantine/<id>, made (0700) only when needed.
func quarantineDir(id string) string {
	d := stateDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "quarantine", id)
}
