// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package egress

import (
	"errors"
	"os"
	"path/filepath"

	"warden.dev/warden/internal/proxy"
)

// loadCA loads (or makes) the CA kept in dir, writes the trust bundle the
// sandbox reads where bundlePath says, and returns both.
func loadCA(dir string, bundlePath func() (string, error)) (*proxy.CA, string, error) {
	ca, err := proxy.LoadCA(dir)
	if err != nil {
		return nil, "", err
	}
	if bundlePath == nil {
		return nil, "", errors.New("no place for the trust bundle")
	}
	bundle, err := bundlePath()
	if err != nil {
		return nil, "", err
	}
	if err := os.MkdirAll(filepath.Dir(bundle), 0o755); err != nil {
		return nil, "", err
	}
	if err := ca.WriteTrustBundle(bundle); err != nil {
		return nil, "", err
	}
	return ca, bundle, nil
}
