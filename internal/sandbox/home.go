// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// HomeCaches are the toolchain caches and installations, relative to the
// home, that a run with [Spec.HideHome] still sees, read-only, where they
// exist: what builds need to find their compilers and dependencies without
// the network. Build outputs go to the run cache (XDG_CACHE_HOME), not here.
var HomeCaches = []string{
	"go/pkg/mod",           // Go module cache (GOMODCACHE's default)
	".cache/go-build",      // Go build cache of the host (GOCACHE's default outside)
	"go/bin",               // binaries go install put on PATH
	".cargo/registry",      // crates downloaded by cargo
	".cargo/git",           // git dependencies checked out by cargo
	".cargo/bin",           // cargo, rustc and the rustup proxies
	".rustup",              // Rust toolchains (rustup)
	".npm/_cacache",        // npm's content-addressed package cache
	".cache/yarn",          // Yarn 1 package cache
	".local/share/pnpm",    // pnpm's content-addressed store
	".m2/repository",       // Maven artifacts
	".gradle/caches",       // Gradle dependencies
	".gradle/wrapper",      // Gradle distributions the wrapper downloaded
	".cache/pip",           // pip's wheel and HTTP cache
	".cache/uv",            // uv's package cache
	".local/share/uv",      // Pythons and tools installed by uv
	".pyenv",               // Pythons built by pyenv
	".nvm",                 // Node.js versions installed by nvm
	".local/bin",           // binaries of pipx, uv tool and installers (uv itself, often)
	".cache/ms-playwright", // browsers Playwright downloaded
}

// planHome, for a run with Spec.HideHome, records the home to replace in v
// and binds each of [HomeCaches] that exists back, read-only. The project,
// Spec.ReadWrite, Spec.ReadOnly and the cache are binds already: init
// makes their mount points in the empty home (see config.Home).
func planHome(r *hostResolver, spec Spec, project string, v *view) error {
	if !spec.HideHome || spec.Home == "" {
		return nil
	}
	home, fi, err := r.resolveHost(spec.Home, false)
	if err != nil {
		return &SetupError{What: fmt.Sprintf("home %s: %v", spec.Home, err), Hint: "set HOME to an existing directory, or use sandbox.filesystem.home: visible"}
	}
	if !fi.IsDir() || home == "/" {
		return &SetupError{What: fmt.Sprintf("home %s is not a directory that can be hidden", spec.Home), Hint: "set HOME to the user's home directory, or use sandbox.filesystem.home: visible"}
	}
	if project == home || within(home, project) {
		return &SetupError{What: fmt.Sprintf("the home %s is hidden but the project %s shows all of it", home, project), Hint: "run from a project directory inside the home, or use sandbox.filesystem.home: visible"}
	}
	v.home = home
	for _, c := range HomeCaches {
		real, fi, err := r.resolveHost(filepath.Join(home, c), false)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return &SetupError{What: fmt.Sprintf("toolchain cache %s: %v", filepath.Join(home, c), err), Hint: "make the path resolvable or remove it"}
		}
		if slices.ContainsFunc(v.binds, func(b bind) bool { return b.Path == real }) {
			continue // bound already, as the policy or the project asks
		}
		v.binds = append(v.binds, bind{Path: real, Dir: fi.IsDir()})
	}
	return nil
}

// homeMountPoints are the binds of binds that land in the hidden home, but
// for those inside another of them (its own view provides their mount
// points): init makes their mount points there before it makes the home
// read-only.
func homeMountPoints(home string, binds []bind) []bind {
	var out []bind
	for _, b := range binds {
		if !within(b.Path, home) {
			continue
		}
		if slices.ContainsFunc(binds, func(o bind) bool { return within(b.Path, o.Path) && within(o.Path, home) }) {
			continue
		}
		out = append(out, b)
	}
	return out
}
