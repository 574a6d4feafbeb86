// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package safefile replaces a file's contents so that a reader, or a
// crash, sees the old file or the new one, never half of one: the data
// goes to a temporary file beside it, which is given its mode, synced and
// renamed over it. Warden writes the agents' settings, formatted policy
// files and its CA this way.
package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data, with permissions perm. The
// directory must exist. A failure leaves path as it was and no
// temporary file behind.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
