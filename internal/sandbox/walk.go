// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// The project walk: one pass over the project per run finds what to mask
// in it, its .git entries and its host-executed files, for the plan of the
// view (view.go, masks.go, hostexec.go). The rules:
//
//   - Directories are read by several workers at once: on a large tree
//     the walk is most of a run's set-up.
//   - Inside .git and node_modules (skipWalk) only dotenv names,
//     Spec.Hide's patterns and nested .git entries are looked for; a git
//     object store's loose-object directories are not entered.
//   - A link to a secret elsewhere has its target masked.
//   - An ASCII name that no entry of the sensitive set can end in is
//     passed over without asking package pathguard.
//   - Past walkBound (entries, or levels below the project) the walk
//     stops and says so: the run then fails closed unless [LayerWalk] is
//     degraded.

import (
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"warden.dev/warden/internal/pathguard"
)

// skipWalk are directories whose contents are tools' data, not the user's
// files: the project walk enters them for the dotenv names only (and for
// nested repositories).
var skipWalk = map[string]bool{".git": true, "node_modules": true}

// maxWalk bounds the entries the other walks of this package visit (host
// globs, the changed files of a run).
const maxWalk = 100_000

// walkBound bounds the project walk: entries visited, and directory
// levels below the project. A project past either fails closed with a
// [*SetupError], unless the run is degraded by name ([LayerWalk]). A
// variable for tests.
var walkBound = struct{ entries, depth int64 }{200_000, 64}

// projectWalk is what the project walk found.
type projectWalk struct {
	// found are the entries to mask, and for links among them the link
	// itself (resolved later to its target).
	found []string
	// gitEntries are the .git entries (directories, files, links) at any
	// depth, the top's included.
	gitEntries []string
	// hostExec are the entries of [governance.HostExecuted] and Spec.Protect.
	hostExec []string
	// dirs are the directories read: the post-run check stats each and
	// reads only those whose ctime moved.
	dirs []string
	// truncated: the walk stopped at walkBound.
	truncated bool
}

// walkProject walks the project for what to mask (sensitive names, the
// relative patterns rel), its .git entries and its host-executed entries
// (with the policy's patterns protect); the sensitive set's ~/ entries are
// anchored at home. Directories are read by as many
// workers as there are CPUs: on a large tree the walk is most of a run's
// set-up.
func walkProject(project, home string, rel, protect []string) *projectWalk {
	return (&walker{rel: rel, protect: protect, root: project, home: home}).run()
}

// run walks w.root with as many workers as there are CPUs.
func (w *walker) run() *projectWalk {
	w.queue = []walkDir{{path: w.root}}
	w.cond = sync.NewCond(&w.mu)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), 8)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work()
		}()
	}
	wg.Wait()
	slices.Sort(w.pw.found)
	slices.Sort(w.pw.gitEntries)
	slices.Sort(w.pw.hostExec)
	w.pw.truncated = w.truncated.Load()
	return &w.pw
}

// walkRoot walks a writable root other than the project (a read_write
// path) for its .git entries and its directories only.
func walkRoot(root string) *projectWalk {
	return (&walker{root: root, gitOnly: true}).run()
}

// walkDir is a directory the walk is to read.
type walkDir struct {
	path  string
	depth int64 // levels below the project
	// tools: inside .git or node_modules, where only dotenv names and
	// the policy's patterns are looked for.
	tools bool
}

// walker is the state of one project walk.
type walker struct {
	root      string
	home      string // the set's ~/ entries are anchored there
	rel       []string
	protect   []string
	gitOnly   bool         // look for .git entries only (walkRoot)
	n         atomic.Int64 // entries seen
	truncated atomic.Bool

	mu sync.Mutex
	// mu guards the fields below.
	cond  *sync.Cond
	queue []walkDir // directories to read
	busy  int       // workers reading one
	pw    projectWalk
}

func (w *walker) work() {
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && w.busy > 0 {
			w.cond.Wait()
		}
		if len(w.queue) == 0 {
			w.mu.Unlock()
			w.cond.Broadcast()
			return
		}
		dir := w.queue[len(w.queue)-1]
		w.queue = w.queue[:len(w.queue)-1]
		w.busy++
		w.mu.Unlock()

		var r walkRead
		w.read(dir, &r)

		w.mu.Lock()
		w.busy--
		w.pw.dirs = append(w.pw.dirs, dir.path)
		w.pw.found = append(w.pw.found, r.found...)
		w.pw.gitEntries = append(w.pw.gitEntries, r.git...)
		w.pw.hostExec = append(w.pw.hostExec, r.hostExec...)
		if !w.truncated.Load() {
			w.queue = append(w.queue, r.subdirs...)
		}
		w.mu.Unlock()
		w.cond.Broadcast()
	}
}

// walkRead is what reading one directory found.
type walkRead struct {
	subdirs              []walkDir
	found, git, hostExec []string
}

// read lists one directory: what to mask and protect in it, and what to
// read next.
func (w *walker) read(dir walkDir, r *walkRead) {
	f, err := openDir(dir.path)
	if err != nil {
		// A directory the walk cannot list, the command, which runs as
		// the caller, may still enter: by name if it can be searched
		// (chmod 111), or after a chmod of its own if the caller owns
		// it. What it holds is not known, so it is masked whole, as a
		// secret is (one that is gone has nothing to mask).
		if !w.gitOnly && dir.path != w.root && !errors.Is(err, fs.ErrNotExist) {
			r.found = append(r.found, dir.path)
		}
		return
	}
	ents, _ := f.ReadDir(-1)
	f.Close()
	for _, d := range ents {
		if w.n.Add(1) > walkBound.entries {
			w.truncated.Store(true)
			return
		}
		name := d.Name()
		p := dir.path + "/" + name
		rel := p[len(w.root)+1:]
		if name == ".git" {
			r.git = append(r.git, p)
		}
		if !w.gitOnly && !dir.tools && protectedRel(rel, d.IsDir(), w.protect) {
			r.hostExec = append(r.hostExec, p)
		}
		if !w.gitOnly && w.sensitive(p, rel, d, dir.tools) {
			r.found = append(r.found, p)
			continue
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0 && !w.gitOnly:
			// A link to a secret elsewhere: its target is masked.
			if t, err := filepath.EvalSymlinks(p); err == nil {
				if _, ok := pathguard.SensitiveIn(t, w.home); ok {
					r.found = append(r.found, t)
				}
			}
		case d.IsDir():
			if dir.tools && isObjectFanout(dir.path, name) {
				// Loose objects, named by their hash: never a
				// user's file, and most of a repository's entries.
				continue
			}
			if dir.depth+1 > walkBound.depth {
				w.truncated.Store(true)
				continue
			}
			r.subdirs = append(r.subdirs, walkDir{path: p, depth: dir.depth + 1, tools: dir.tools || skipWalk[name]})
		}
	}
}

// sensitive reports whether p (rel in the project) is to be masked: a
// name of the sensitive set (inside tools' directories, a dotenv name
// only), or a match of Spec.Hide.
func (w *walker) sensitive(p, rel string, d fs.DirEntry, tools bool) bool {
	name := d.Name()
	if mayBeSensitive(name) && (!tools || isDotenv(name)) {
		if _, ok := pathguard.SensitiveIn(p, w.home); ok {
			return true
		}
	}
	for _, pat := range w.rel {
		if matchPattern(pat, rel, d.IsDir()) {
			return true
		}
	}
	return false
}

// isObjectFanout reports whether name, in dir, is one of the 256
// directories of a git object store's loose objects (objects/ab).
func isObjectFanout(dir, name string) bool {
	return len(name) == 2 && isHex(name[0]) && isHex(name[1]) && strings.HasSuffix(dir, "/objects")
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

// isDotenv reports whether name is a dotenv file's (.env, .env.local…),
// the names looked for inside .git and node_modules: packages ship test
// keys there by the hundred, each of which would be a mount.
func isDotenv(name string) bool {
	return len(name) >= 4 && strings.EqualFold(name[:4], ".env") && (len(name) == 4 || name[4] == '.')
}

// sensitiveNames and sensitivePrefixes are the last components the
// entries of the sensitive set can end in, lower case: a name that is
// none of them cannot match, whatever its directory (a directory entry
// such as .ssh/ is met, and masked, before what is below it). Made on
// first use: init never walks.
var sensitiveNames = sync.OnceValues(func() (map[string]bool, []string) {
	names := map[string]bool{}
	var prefixes []string
	for _, e := range pathguard.SensitiveSet() {
		last := strings.TrimSuffix(e.Pattern, "/")
		last = strings.ToLower(last[strings.LastIndexByte(last, '/')+1:])
		if i := strings.IndexAny(last, "*?["); i >= 0 {
			prefixes = append(prefixes, last[:i])
		} else {
			names[last] = true
		}
	}
	return names, prefixes
})

// mayBeSensitive is a quick test of a name before pathguard.Sensitive:
// false only for an ASCII name that no entry of the set can end in.
func mayBeSensitive(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return true // case folding beyond ASCII: ask pathguard
		}
	}
	lower := strings.ToLower(name)
	names, prefixes := sensitiveNames()
	if names[lower] {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}
