// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"warden.dev/warden/internal/hook"
)

// EnvStateDir names Warden's state directory (docs/spec.md §13), which every
// sandboxed run masks.
const EnvStateDir = "WARDEN_STATE_DIR"

// StateDir is Warden's state directory (docs/spec.md §13): $WARDEN_STATE_DIR,
// else $XDG_STATE_HOME/warden, else ~/.local/state/warden; "" when none
// can be named. Relative values of the variables are ignored, as the XDG
// specification asks. It is not made here: what writes into it makes it,
// mode 0700.
func StateDir() string {
	if d := os.Getenv(EnvStateDir); filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "warden")
	}
	if h, _ := os.UserHomeDir(); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "warden")
	}
	return ""
}

// configDirs are Warden's configuration directories: $XDG_CONFIG_HOME/warden
// (default ~/.config/warden), and the one the CA is kept in where the
// platform's configuration directory is elsewhere (macOS).
func configDirs() []string {
	var out []string
	if d := UserConfigDir(); d != "" {
		out = append(out, d)
	}
	if d, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(d, "warden"))
	}
	return out
}

// UserConfigDir is Warden's configuration directory, which holds the
// user's policy (docs/spec.md §13): $XDG_CONFIG_HOME/warden, else
// ~/.config/warden; "" when neither can be named.
func UserConfigDir() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "warden")
	}
	if h, _ := os.UserHomeDir(); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "warden")
	}
	return ""
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

// HostDirs are Warden's own directories on this host, from the
// environment, as warden run and every program embedding Warden name
// them: one list, so that what a run masks and what the floor keeps
// agent tools out of ([Dirs.Places]) cannot drift apart.
func HostDirs() Dirs {
	d := Dirs{State: StateDir(), Config: configDirs(), CA: caDir(), TrustBundle: trustBundle, HookState: hook.StateRoot(), Grants: hook.GrantDir()}
	if cache, err := os.UserCacheDir(); err == nil {
		d.Cache = cache
	}
	return d
}

// Places are Warden's own directories as the floor keeps every agent
// tool out of them: the state and configuration directories, the CA, the
// cache (trust bundle, run caches, the hooks' state) and /etc/warden.
func (d Dirs) Places() []string {
	out := append([]string{d.State, d.CA, d.HookState, "/etc/warden"}, d.Config...)
	if d.Cache != "" {
		out = append(out, filepath.Join(d.Cache, "warden"))
	}
	return slices.DeleteFunc(out, func(p string) bool { return p == "" })
}
