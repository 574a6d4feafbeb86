// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file plans the filesystem view of a run on the host, before init
// builds it. The rules:
//
//   - Every path is resolved on the host first (links followed, but for
//     a link in a directory the run can write, which is refused: see
//     hostpath.go), so init mounts on real paths and a link cannot
//     redirect a mount.
//   - Binds are applied parents first: the project, the extra writable
//     paths (Spec.ReadWrite, the run's cache), then the read-only ones
//     (Spec.ReadOnly and the protected paths of the project), so that a
//     read-only path inside a writable one stays read-only. Every
//     directory between such a path and the writable bind around it is
//     bound onto itself as well: mount points cannot be renamed away.
//   - Masks come after every bind and cover it: the sensitive set can be
//     named writable, never visible.
//   - The protected paths of the project are kept read-only even in
//     workspace-write mode, because the host runs what they hold after the
//     sandbox is gone: git hooks and config (core.hooksPath, core.fsmonitor,
//     aliases), agent settings that could remove Warden's own hook, editor
//     tasks that run when the folder is opened. Naming one of them exactly
//     in Spec.ReadWrite lifts that protection.
//   - Sensitive files inside the project (a .env, a private key) and the
//     entries of Spec.Hide are found by walking the project once per run;
//     .git and node_modules are not entered, and the walk stops after
//     maxWalk entries (the rest of the tree is listed as unmasked).

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"warden.dev/warden/internal/pathguard"
)

// ProtectedPaths are the project entries kept read-only in every mode but
// full-access, relative to the project. Only those that exist when the run
// starts are protected: one the command creates is not.
var ProtectedPaths = []string{
	".git/hooks",  // hooks run by the caller's git
	".git/config", // core.hooksPath, core.fsmonitor, aliases, filters
	".claude",     // Claude Code settings and hooks
	".codex",      // Codex settings
	".gemini",     // Gemini CLI settings
	".mcp.json",   // MCP servers the agent CLI starts
	".vscode",     // tasks that run when the folder is opened
	".idea",       // the same for JetBrains IDEs
}

// skipWalk are directories the sensitive walk does not enter: their
// contents are tools' data, not the user's files.
var skipWalk = map[string]bool{".git": true, "node_modules": true}

// maxWalk bounds the entries the sensitive walk visits in the project.
const maxWalk = 100_000

// bind is one host path bound into the view at the same place.
type bind struct {
	Path     string `json:"path"`
	Writable bool   `json:"writable,omitempty"`
	// Dir tells init whether to make a directory or a file to mount on
	// where the view has nothing at Path (under its own tmpfs).
	Dir bool `json:"dir,omitempty"`
	// Dev and Ino are the device and inode numbers of Path as planned:
	// init checks that what it opens to bind is that file.
	Dev uint64 `json:"dev,omitempty"`
	Ino uint64 `json:"ino,omitempty"`
}

// view is the planned filesystem view of one run.
type view struct {
	binds []bind
	masks []string
	// notes say what the plan could not cover.
	notes []string
	// cache is the resolved Spec.Cache.
	cache string
}

// writableRoots are the writable binds but the cache, without those inside
// another: where the command's changes to the host can be.
func (v view) writableRoots() []string {
	var roots []string
	for _, b := range v.binds {
		if !b.Writable || b.Path == v.cache {
			continue
		}
		inside := false
		for _, r := range roots {
			inside = inside || within(b.Path, r)
		}
		if !inside {
			roots = append(roots, b.Path)
		}
	}
	return roots
}

// planView resolves the spec's paths on the host and lists the binds and
// masks of the run. project is the resolved project directory.
func planView(spec Spec, project string) (view, error) {
	var v view
	r := planResolver(spec, project)
	defer r.close()
	writable := spec.Mode == WorkspaceWrite || spec.Mode == FullAccess
	v.binds = append(v.binds, bind{Path: project, Writable: writable, Dir: true})
	rw := map[string]bool{}
	for _, p := range spec.ReadWrite {
		real, fi, err := r.resolveHost(p, true)
		if se := linkSetupError("read_write", p, err); se != nil {
			return v, se
		}
		if err != nil {
			return v, &SetupError{What: fmt.Sprintf("read_write path %s: %v", p, err), Hint: "list existing absolute paths (or paths whose parent exists) in sandbox.filesystem.read_write"}
		}
		if real == "/" {
			return v, &SetupError{What: "read_write path / would make the whole host writable", Hint: "use sandbox.mode full-access to lift the filesystem boundary on purpose"}
		}
		rw[real] = true
		v.binds = append(v.binds, bind{Path: real, Writable: true, Dir: fi.IsDir()})
	}
	if spec.Cache != "" {
		// Made and resolved by Run (see makeCache).
		rw[spec.Cache] = true
		v.cache = spec.Cache
		v.binds = append(v.binds, bind{Path: spec.Cache, Writable: true, Dir: true})
	}
	readOnly := slices.Clone(spec.ReadOnly)
	if spec.Mode != FullAccess {
		for _, p := range ProtectedPaths {
			readOnly = append(readOnly, filepath.Join(project, p))
		}
	}
	for _, p := range readOnly {
		real, fi, err := r.resolveHost(p, false)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if se := linkSetupError("read_only", p, err); se != nil {
			return v, se
		}
		if err != nil {
			return v, &SetupError{What: fmt.Sprintf("read_only path %s: %v", p, err), Hint: "make the path resolvable or remove it"}
		}
		if rw[real] {
			continue // named writable: the caller lifted it
		}
		v.binds = append(v.binds, bind{Path: real, Dir: fi.IsDir()})
	}
	v.binds = append(v.binds, homeBind(r, spec.Home, v.binds)...)
	v.binds = pinParents(v.binds)
	// Parents first; for the same path the later entry wins, so sort
	// stably by depth and drop all but the last of each path.
	slices.SortStableFunc(v.binds, func(a, b bind) int { return depth(a.Path) - depth(b.Path) })
	v.binds = lastOfEach(v.binds)
	if err := r.identify(v.binds); err != nil {
		return v, err
	}

	masks, notes, err := planMasks(spec, project)
	v.masks, v.notes = masks, append(v.notes, notes...)
	return v, err
}

// makeCache makes the run cache, spec.Cache, and resolves it. The cache
// is a convenience, not a boundary: a run without it has its caches
// read-only, as the rest of the home. It is made as mkdir -p would, but
// one checked directory at a time: a link in the project or a read_write
// path on the way (a run could have planted it) is refused, and nothing
// is made at a link's target.
func makeCache(spec Spec) (string, error) {
	r := runRoots(spec)
	defer r.close()
	f, err := r.stat(spec.Cache, resolveHow{create: createAll})
	if err == nil && !f.isDir() {
		err = fmt.Errorf("%s is not a directory", f.path)
	}
	return f.path, err
}

// planMasks lists the real paths to mask: the fixed places of the
// sensitive set in the home, sensitive names at the top of the home and
// anywhere in the project, and Spec.Hide.
func planMasks(spec Spec, project string) ([]string, []string, error) {
	var candidates, notes []string
	candidates = append(candidates, HomeMasks(spec.Home)...)
	if spec.Home != "" {
		if ents, err := os.ReadDir(spec.Home); err == nil {
			for _, e := range ents {
				p := filepath.Join(spec.Home, e.Name())
				if _, ok := pathguard.Sensitive(p); ok {
					candidates = append(candidates, p)
				}
			}
		}
	}
	var rel []string // project-relative patterns of Spec.Hide
	for _, h := range spec.Hide {
		switch {
		case !filepath.IsAbs(h):
			if err := checkPattern(h); err != nil {
				return nil, nil, &SetupError{What: fmt.Sprintf("hide pattern %q: %v", h, err), Hint: "write hide entries as paths or globs (*, ?, [...], **)"}
			}
			rel = append(rel, strings.TrimPrefix(h, "./"))
		case hasGlob(h):
			ms, err := globHost(h)
			if err != nil {
				return nil, nil, &SetupError{What: fmt.Sprintf("hide pattern %q: %v", h, err), Hint: "write hide entries as paths or globs (*, ?, [...], **)"}
			}
			candidates = append(candidates, ms...)
		default:
			candidates = append(candidates, h)
		}
	}
	found, truncated := walkProject(project, rel)
	candidates = append(candidates, found...)
	if truncated {
		notes = append(notes, fmt.Sprintf("sensitive files of the project past its first %d entries are not masked", maxWalk))
	}

	var masks []string
	seen := map[string]bool{}
	mr := planResolver(spec, project)
	defer mr.close()
	for _, p := range candidates {
		real, err := mr.maskTarget(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			// Fail closed: a path we cannot resolve is a path we
			// cannot mask.
			return nil, nil, &SetupError{What: fmt.Sprintf("mask %s: %v", p, err), Hint: "make the path resolvable or remove it"}
		}
		if real == "/" || real == project {
			return nil, nil, &SetupError{What: fmt.Sprintf("hide %s would mask the whole view or the project", p), Hint: "hide the files inside it instead"}
		}
		if !seen[real] {
			seen[real] = true
			masks = append(masks, real)
		}
	}
	slices.SortStableFunc(masks, func(a, b string) int { return depth(a) - depth(b) })
	return masks, notes, nil
}

// walkProject returns the project's entries that are sensitive or match
// one of the relative patterns, and for links among them the link itself
// (resolved later to its target). It reports whether it stopped early.
// Directories are read by as many workers as there are CPUs: on a large
// tree the walk is most of a run's set-up.
func walkProject(project string, rel []string) (found []string, truncated bool) {
	w := &walker{rel: rel, root: project, queue: []string{project}}
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
	slices.Sort(w.found)
	return w.found, w.n.Load() > maxWalk
}

// walker is the state of one project walk.
type walker struct {
	root string
	rel  []string
	n    atomic.Int64 // entries seen

	mu sync.Mutex
	// mu guards the fields below.
	cond  *sync.Cond
	queue []string // directories to read
	busy  int      // workers reading one
	found []string
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

		subdirs, found := w.read(dir)

		w.mu.Lock()
		w.busy--
		w.found = append(w.found, found...)
		if w.n.Load() <= maxWalk {
			w.queue = append(w.queue, subdirs...)
		}
		w.mu.Unlock()
		w.cond.Broadcast()
	}
}

// read lists one directory: what to mask in it, and what to read next.
func (w *walker) read(dir string) (subdirs, found []string) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, nil // unreadable here is unreadable inside too
	}
	ents, _ := f.ReadDir(-1)
	f.Close()
	for _, d := range ents {
		if w.n.Add(1) > maxWalk {
			return subdirs, found
		}
		p := dir + "/" + d.Name()
		if w.sensitive(p, d) {
			found = append(found, p)
			continue
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			// A link to a secret elsewhere: its target is masked.
			if t, err := filepath.EvalSymlinks(p); err == nil {
				if _, ok := pathguard.Sensitive(t); ok {
					found = append(found, t)
				}
			}
		case d.IsDir() && !skipWalk[d.Name()]:
			subdirs = append(subdirs, p)
		}
	}
	return subdirs, found
}

func (w *walker) sensitive(p string, d fs.DirEntry) bool {
	if mayBeSensitive(d.Name()) {
		if _, ok := pathguard.Sensitive(p); ok {
			return true
		}
	}
	if len(w.rel) == 0 {
		return false
	}
	r := p[len(w.root)+1:]
	for _, pat := range w.rel {
		if matchPattern(pat, r, d.IsDir()) {
			return true
		}
	}
	return false
}

// sensitiveNames and sensitivePrefixes are the last components the
// entries of the sensitive set can end in, lower case: a name that is
// none of them cannot match, whatever its directory (a directory entry
// such as .ssh/ is met, and masked, before what is below it).
var sensitiveNames, sensitivePrefixes = func() (map[string]bool, []string) {
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
}()

// mayBeSensitive is a quick test of a name before pathguard.Sensitive:
// false only for an ASCII name that no entry of the set can end in.
func mayBeSensitive(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return true // case folding beyond ASCII: ask pathguard
		}
	}
	lower := strings.ToLower(name)
	if sensitiveNames[lower] {
		return true
	}
	for _, p := range sensitivePrefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

// resolveHost resolves p on the host, refusing any link in a directory
// the run can write (see hostResolver): a link there could have been
// planted by an earlier run, and following it would bind, or make, what
// it points to. With create, a missing directory whose parent exists is
// made (an extra writable path the caller asked for, like a cache), with
// mkdirat in its checked parent, and the result becomes a writable root.
// The project's protected paths are the exception: links there are
// followed (binding their target read-only protects more, and never
// makes anything writable); and a pinned path (Spec.Pinned) must be, and
// not link to, the very file the caller opened.
func (r *hostResolver) resolveHost(p string, create bool) (string, fs.FileInfo, error) {
	if !filepath.IsAbs(p) {
		return "", nil, fmt.Errorf("not an absolute path")
	}
	how := resolveHow{follow: !create && r.protected[p]}
	if create {
		how.create = createLast
	}
	pin, pinned := r.pinned[filepath.Clean(p)]
	how.noLink = pinned
	f, err := r.stat(p, how)
	if pinned {
		switch {
		case isLinkError(err):
		case err != nil:
			return "", nil, fmt.Errorf("%s is gone since warden read it: %v", p, err)
		case f.dev != pin.Dev || f.ino != pin.Ino:
			return "", nil, fmt.Errorf("%s was replaced since warden read it", p)
		}
	}
	if err != nil {
		return "", nil, err
	}
	if create {
		r.addRoot(f.path)
	}
	r.seen[f.path] = f
	return f.path, statInfo{f}, nil
}

// pinParents adds, for each read-only bind inside a writable one, a
// writable bind of every directory between them, placed before it. A mount
// point cannot be renamed or removed (EBUSY), so the command cannot move
// .git aside and put a .git with hooks of its own in its place.
func pinParents(bs []bind) []bind {
	out := slices.Clone(bs)
	for _, b := range bs {
		if b.Writable {
			continue
		}
		var outer string // the deepest writable bind above b
		for _, w := range bs {
			if w.Writable && within(b.Path, w.Path) && len(w.Path) > len(outer) {
				outer = w.Path
			}
		}
		if outer == "" {
			continue
		}
		var pins []bind
		for d := filepath.Dir(b.Path); d != outer && within(d, outer); d = filepath.Dir(d) {
			pins = append(pins, bind{Path: d, Writable: true, Dir: true})
		}
		// Before every other bind: a later entry for the same path (an
		// explicit read_only one) wins.
		out = append(slices.Clone(pins), out...)
	}
	return out
}

// within reports whether p is below dir (not dir itself).
func within(p, dir string) bool {
	return strings.HasPrefix(p, dir+"/") || (dir == "/" && p != "/")
}

func depth(p string) int { return strings.Count(filepath.Clean(p), "/") }

// lastOfEach keeps, for each path, its last entry, in the order of the
// first.
func lastOfEach(bs []bind) []bind {
	last := map[string]int{}
	for i, b := range bs {
		last[b.Path] = i
	}
	var out []bind
	for i, b := range bs {
		if last[b.Path] == i {
			out = append(out, b)
		}
	}
	return out
}

func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// maxDoubleStars bounds the "**" segments of a pattern: matching costs
// grow with the path's depth to the power of their number.
const maxDoubleStars = 4

// checkPattern reports whether a hide pattern is well formed.
func checkPattern(p string) error {
	stars := 0
	for _, seg := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if seg == "**" {
			if stars++; stars > maxDoubleStars {
				return fmt.Errorf("more than %d ** segments", maxDoubleStars)
			}
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

// matchPattern reports whether the slash-separated relative path rel
// matches pat, whose segments are path.Match globs or "**" (any number of
// segments). A pattern without a slash matches the name at any depth, as
// in .gitignore; a trailing slash matches directories only.
func matchPattern(pat, rel string, dir bool) bool {
	if strings.HasSuffix(pat, "/") {
		if !dir {
			return false
		}
		pat = strings.TrimSuffix(pat, "/")
	}
	if !strings.Contains(pat, "/") {
		pat = "**/" + pat
	}
	return matchSegs(strings.Split(pat, "/"), strings.Split(rel, "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// globHost expands an absolute pattern on the host: its fixed leading
// directories, then a walk of the rest (bounded like the project walk).
func globHost(pat string) ([]string, error) {
	if err := checkPattern(pat); err != nil {
		return nil, err
	}
	segs := strings.Split(strings.TrimPrefix(pat, "/"), "/")
	i := 0
	for i < len(segs) && !hasGlob(segs[i]) {
		i++
	}
	root := "/" + strings.Join(segs[:i], "/")
	rest := strings.Join(segs[i:], "/")
	var out []string
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		if n++; n > maxWalk {
			return fs.SkipAll
		}
		r := strings.TrimPrefix(p[len(root):], "/")
		if matchSegs(strings.Split(strings.TrimSuffix(rest, "/"), "/"), strings.Split(r, "/")) {
			out = append(out, p)
			if d.IsDir() {
				return fs.SkipDir
			}
		}
		return nil
	})
	return out, nil
}
