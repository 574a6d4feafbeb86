// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/hook"
)

// stateDir is Warden's state directory (docs/spec.md §13): $WARDEN_STATE_DIR,
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

// configDirs are Warden's configuration directories: $XDG_CONFIG_HOME/warden
// (default ~/.config/warden), and the one the CA is kept in where the
// platform's configuration directory is elsewhere (macOS).
func configDirs() []string {
	var out []string
	if d := userConfigDir(); d != "" {
		out = append(out, d)
	}
	if d, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(d, "warden"))
	}
	return out
}

// caDir is where this installation's CA lives: the user's config
// directory, which every run masks: the key is 0600 to the user, and the
// command runs as the user outside its namespace, so the mode alone would
// not keep it out.
func caDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = filepath.Join(os.TempDir(), "warden-"+strconv.Itoa(os.Getuid()))
	}
	return filepath.Join(dir, "warden", "ca")
}

// trustBundle is where the trust bundle the sandbox reads is written: the
// user's cache directory.
func trustBundle() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the trust bundle: %v", err)
	}
	return filepath.Join(cache, "warden", "ca-bundle.pem"), nil
}

// ownDirs are Warden's own directories, which no run may see.
func ownDirs() contain.Dirs {
	d := contain.Dirs{State: stateDir(), Config: configDirs(), CA: caDir(), TrustBundle: trustBundle, HookState: hook.StateRoot(), Grants: hook.GrantDir()}
	if cache, err := os.UserCacheDir(); err == nil {
		d.Cache = cache
	}
	return d
}

// ownPlaces are Warden's own directories as the floor keeps every agent
// tool out of them: the state and configuration directories, the CA, the
// cache (trust bundle, run caches, the hooks' state) and /etc/warden.
func ownPlaces() []string {
	out := append([]string{stateDir(), caDir(), hook.StateRoot(), "/etc/warden"}, configDirs()...)
	if cache, err := os.UserCacheDir(); err == nil {
		out = append(out, filepath.Join(cache, "warden"))
	}
	return slices.DeleteFunc(out, func(d string) bool { return d == "" })
}
