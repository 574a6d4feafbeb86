// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"errors"
	"os"
	"path/filepath"
)

// stateDir is Warden's state directory (DESIGN.md §13): $WARDEN_STATE_DIR,
// else $XDG_STATE_HOME/warden, else ~/.local/state/warden. Relative values
// of the variables are ignored, as the XDG specification asks. It is not
// made here: what writes into it makes it, mode 0700 (see makeStateDir).
func stateDir() (string, error) {
	if d := os.Getenv(envStateDir); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d), nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "warden"), nil
	}
	h := homeDir()
	if h == "" {
		return "", errors.New("no home directory and neither WARDEN_STATE_DIR nor XDG_STATE_HOME set")
	}
	return filepath.Join(h, ".local", "state", "warden"), nil
}

// quarantineDir is where the post-run check of run id moves what the run
// planted: <state dir>/quarantine/<id>, made (0700) only when needed.
func quarantineDir(id string) string {
	d, err := stateDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "quarantine", id)
}
