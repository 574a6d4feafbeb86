// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"warden.dev/warden/internal/pathguard"
)

// HomeMasks returns the paths under home that the sandbox masks whatever
// exists: every entry of the sensitive set that names a fixed place in a
// home directory (.ssh/, .aws/credentials, ~/.npmrc, .kube/…). Entries with
// wildcards (id_rsa*, .cargo/credentials*) and entries anchored elsewhere
// (/proc/*/environ) are left to the layers that match patterns (see
// homeSensitive); the result does not depend on what exists.
func HomeMasks(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, e := range homeSets() {
		p := strings.TrimPrefix(e.Pattern, "~/")
		if strings.HasPrefix(p, "/") || strings.ContainsAny(p, "*?[\\") {
			continue
		}
		out = append(out, filepath.Join(home, strings.TrimSuffix(p, "/")))
	}
	// .aws as a whole: credentials and config are both in the set, and
	// SSO caches sit next to them.
	out = append(out, filepath.Join(home, ".aws"))
	return out
}

// absent reports whether nothing is at p (a link at p is something).
func absent(p string) bool {
	_, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist)
}

// Bounds of the walk of the home for sensitive names (private keys and
// every other entry of the set) outside their fixed places: entries at most
// maxHomeDepth directories below the home (~/a/b/id_rsa is at depth 3),
// breadth first, at most maxHomeEntries of them in at most maxHomeDirs
// directories read, never into homeSkipTop at the top of the home nor into
// homeSkipAny at any depth. A run pays for it on every start (beside init's
// own start, which hides most of it), so it is bounded by what a run may
// cost, a fraction of a millisecond on a developer's home, not by what a
// home may hold: what lies deeper, or past the counts, is not masked, and a
// run that stops early says so. Nor does the walk enter a network or FUSE
// filesystem (slowFS): a mount below the home (sshfs, a synced drive) can
// take seconds to list. Links to directories are followed, within the
// same bounds: what the command reads as ~/backup/id_rsa.bak is there.
const (
	maxHomeDepth   = 3
	maxHomeEntries = 4096
	maxHomeDirs    = 256
)

// homeSkipTop are directories at the top of the home that the walk does not
// enter: tools' data, caches and toolchains, with many entries and no keys
// of the user's.
var homeSkipTop = map[string]bool{
	".cache":         true, // XDG caches (and warden's run caches)
	".local":         true, // XDG data: Trash, applications' stores; fish history is a fixed place
	".npm":           true, // npm's package cache
	".cargo":         true, // crates and toolchain binaries; credentials are matched by glob
	".rustup":        true, // Rust toolchains
	".pyenv":         true, // Python builds
	".nvm":           true, // Node.js builds
	".m2":            true, // Maven repository; settings*.xml are matched by glob
	".gradle":        true, // Gradle caches and distributions
	".sdkman":        true, // JVM toolchains
	".vscode-server": true, // the VS Code server and its extensions
	".vscode":        true, // extensions
	".mozilla":       true, // browser profiles
	".var":           true, // Flatpak applications' data
	".oh-my-zsh":     true, // the framework and its plugins
	".vim":           true, // plugins
	".emacs.d":       true, // packages
	"go":             true, // GOPATH: module cache and installed binaries
	"snap":           true, // snap packages' data
	"Library":        true, // macOS application data
}

// homeSkipAny are directories the walk enters at no depth.
var homeSkipAny = map[string]bool{
	".git":         true, // git's objects
	"node_modules": true, // npm packages
	".venv":        true, // Python virtual environments
	"__pycache__":  true, // Python bytecode
	".terraform":   true, // Terraform providers
}

// homeSets are the entries of the sensitive set the home's masks are
// planned from, read once, on first use (init never plans).
var homeSets = sync.OnceValue(pathguard.SensitiveSet)

// homeSensitive lists what the sandbox masks in home: the places of
// [HomeMasks] whose top directory exists, the matches of the set's entries
// with a wildcard in a fixed directory (~/.cargo/credentials.toml,
// ~/.m2/settings-security.xml), and the sensitive names found by a bounded
// walk of the home (~/backup/id_rsa.bak, ~/src/other/.env). The project,
// walked on its own, is not entered. It reports whether the walk stopped at
// one of its bounds (maxHomeEntries, maxHomeDirs).
func homeSensitive(home, project string) (found []string, truncated bool) {
	if !filepath.IsAbs(home) || home == "/" {
		return nil, false
	}
	home = filepath.Clean(home)
	f, err := openDir(home)
	if err != nil {
		// Nothing of the home can be listed, so nothing can be
		// skipped: every fixed place is a candidate.
		return HomeMasks(home), false
	}
	top, _ := f.ReadDir(-1)
	f.Close()
	// Lower case: a case-folding home opens .SSH as .ssh.
	exists := make(map[string]bool, len(top))
	for _, d := range top {
		exists[strings.ToLower(d.Name())] = true
	}
	present := func(rel string) bool {
		first, _, _ := strings.Cut(rel, "/")
		return exists[strings.ToLower(first)]
	}
	for _, p := range HomeMasks(home) {
		// One lstat leaves out, cheaply, a fixed place that is not
		// there (most are not, below a .config or .local that is):
		// resolving each as a mask costs a system call a component.
		if present(p[len(home)+1:]) && !absent(p) {
			found = append(found, p)
		}
	}
	for _, e := range homeSets() {
		p := strings.TrimPrefix(e.Pattern, "~/")
		dir, glob := filepath.Split(p)
		if strings.HasPrefix(p, "/") || dir == "" || strings.ContainsAny(dir, "*?") || !strings.ContainsAny(glob, "*?") || !present(dir) {
			continue
		}
		ents, err := os.ReadDir(filepath.Join(home, dir))
		if err != nil {
			continue
		}
		for _, d := range ents {
			q := filepath.Join(home, dir, d.Name())
			if _, ok := pathguard.SensitiveIn(q, home); ok {
				found = append(found, q)
			}
		}
	}
	if home == project || within(home, project) {
		return found, false // the project walk sees all of the home
	}
	w := homeWalk{home: home, project: project, seen: make(map[string]bool, len(found))}
	for _, p := range found {
		w.seen[p] = true
	}
	w.walk(top)
	return append(found, w.found...), w.truncated()
}

// homeWalk is the state of one walk of the home.
type homeWalk struct {
	home, project string
	n             int // entries seen
	dirs          int // directories read
	found         []string
	seen          map[string]bool // listed already, as a fixed place or a glob's match
}

// truncated reports whether the walk stopped at one of its counts.
func (w *homeWalk) truncated() bool { return w.n > maxHomeEntries || w.dirs > maxHomeDirs }

// walk looks at the home's entries, top, and then, breadth first, at
// those of the directories below, down to maxHomeDepth.
func (w *homeWalk) walk(top []os.DirEntry) {
	type level struct {
		dir   string
		depth int
	}
	queue := []level{{w.home, 1}}
	for len(queue) > 0 && !w.truncated() {
		l := queue[0]
		queue = queue[1:]
		ents := top
		if l.dir != w.home {
			if w.dirs++; w.dirs > maxHomeDirs {
				return
			}
			f, err := openDir(l.dir)
			if err != nil {
				continue // unreadable here is unreadable inside too
			}
			if slowFS(f) {
				f.Close()
				continue
			}
			ents, _ = f.ReadDir(-1)
			f.Close()
		}
		for _, d := range ents {
			if w.n++; w.n > maxHomeEntries {
				return
			}
			name := d.Name()
			p := l.dir + "/" + name
			if mayBeSensitive(name) {
				if _, ok := pathguard.SensitiveIn(p, w.home); ok {
					if !w.seen[p] {
						w.found = append(w.found, p)
					}
					continue
				}
			}
			if l.depth >= maxHomeDepth || homeSkipAny[name] || (l.depth == 1 && homeSkipTop[name]) || p == w.project {
				continue
			}
			isDir := d.IsDir()
			if d.Type()&fs.ModeSymlink != 0 {
				// ~/backup -> /data/backup: what the command reads as
				// ~/backup/id_rsa.bak is there (its target is masked).
				// The depth bounds a loop.
				fi, err := os.Stat(p)
				isDir = err == nil && fi.IsDir()
			}
			if !isDir {
				continue
			}
			queue = append(queue, level{p, l.depth + 1})
		}
	}
}
