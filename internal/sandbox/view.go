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
//   - What the host executes later from the project is kept read-only in
//     every mode but full-access: the entries of [HostExecuted] and
//     Spec.Protect, the directories core.hooksPath names, and every entry
//     of each git directory but its data (see hostexec.go). Git discovery
//     (gitdir.go) follows .git files to the real git directory and its
//     common directory, and binds writable the data of those outside the
//     project, so that git commit works in a linked worktree. Naming one
//     of them exactly in Spec.ReadWrite lifts that protection. What the
//     run creates there is the post-run check's (quarantine_linux.go).
//   - Sensitive files inside the project (a .env, a private key), the
//     entries of Spec.Hide, the project's .git entries and its
//     host-executed files are found by walking the project once per run;
//     .git and node_modules are entered for the dotenv names only, and a
//     project past walkBound (entries, or levels of directories) fails
//     closed unless the run is degraded by name ([LayerWalk]). Other
//     names of a masked file (hard links in the project) are masked too.

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
	// home, when set, is the resolved home that init replaces with an
	// empty directory (Spec.HideHome).
	home string
	// post is the post-run check of what the host executes later; nil
	// in full-access mode.
	post *postCheck
}

// writableRoots are the writable binds but the cache and the git data
// bound outside the project, without those inside another: where the
// command's changes to the host can be.
func (v view) writableRoots() []string {
	var roots []string
	for _, b := range v.binds {
		if !b.Writable || b.Path == v.cache || v.post != nil && v.post.gitBinds[b.Path] {
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
	masks, notes, pw, err := planMasks(spec, project)
	if err != nil {
		return v, err
	}
	v.masks, v.notes = masks, notes
	r := planResolver(spec, project)
	defer r.close()
	writable := spec.Mode == WorkspaceWrite || spec.Mode == FullAccess
	v.binds = append(v.binds, bind{Path: project, Writable: writable, Dir: true})
	rw := map[string]bool{}
	var roots []string // writable roots, for git discovery
	if spec.Mode == WorkspaceWrite {
		roots = append(roots, project)
	}
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
		roots = append(roots, real)
		v.binds = append(v.binds, bind{Path: real, Writable: true, Dir: fi.IsDir()})
	}
	if spec.Cache != "" {
		// Made and resolved by Run (see makeCache).
		rw[spec.Cache] = true
		v.cache = spec.Cache
		v.binds = append(v.binds, bind{Path: spec.Cache, Writable: true, Dir: true})
	}
	readOnly := slices.Clone(spec.ReadOnly)
	var protect []string // host-executed paths, which may be links
	if spec.Mode != FullAccess {
		pc, ro, binds, err := planHostExec(spec, project, roots, pw, rw)
		if err != nil {
			return v, err
		}
		v.post = pc
		protect = ro
		v.binds = append(v.binds, binds...)
	}
	for _, p := range protect {
		// Followed: binding a link's target read-only protects more,
		// and never makes anything writable.
		r.protected[p] = true
	}
	for i, p := range append(readOnly, protect...) {
		real, fi, err := r.resolveHost(p, false)
		if errors.Is(err, os.ErrNotExist) {
			if i >= len(readOnly) && v.post != nil {
				// A link to nothing among the protected paths: the
				// link is restored if replaced, and its target may
				// not be created.
				v.post.keepDangling(p)
			}
			continue
		}
		if se := linkSetupError("read_only", p, err); se != nil {
			return v, se
		}
		if err != nil {
			return v, &SetupError{What: fmt.Sprintf("read_only path %s: %v", p, err), Hint: "make the path resolvable or remove it"}
		}
		if rw[real] || rw[p] {
			continue // named writable: the caller lifted it
		}
		if i >= len(readOnly) && v.post != nil {
			// A link among the protected paths: its target is bound
			// read-only, and the link itself, in a writable
			// directory, is restored after the run if replaced.
			v.post.keepLink(p)
		}
		v.binds = append(v.binds, bind{Path: real, Dir: fi.IsDir()})
	}
	if err := planHome(r, spec, project, &v); err != nil {
		return v, err
	}
	if v.home == "" {
		// A hidden home is a tmpfs of its own: nothing binds the real
		// one back over it.
		v.binds = append(v.binds, homeBind(r, spec.Home, v.binds)...)
	}
	v.binds = pinParents(v.binds)
	// Parents first; for the same path the later entry wins, so sort
	// stably by depth and drop all but the last of each path.
	slices.SortStableFunc(v.binds, func(a, b bind) int { return depth(a.Path) - depth(b.Path) })
	v.binds = lastOfEach(v.binds)
	if err := r.identify(v.binds); err != nil {
		return v, err
	}
	return v, nil
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
// sensitive set in the home, Spec.Mask, sensitive names in the home (a
// bounded walk, see homeSensitive) and anywhere in the project, Spec.Hide,
// and the other names (hard links) in the project of what is masked. It
// returns the project walk too.
func planMasks(spec Spec, project string) ([]string, []string, *projectWalk, error) {
	var candidates, notes []string
	inHome, truncated := homeSensitive(spec.Home, project)
	candidates = append(append(candidates, inHome...), spec.Mask...)
	if truncated {
		notes = append(notes, fmt.Sprintf("sensitive names in the home past its first %d entries or %d directories are not masked (sandbox.filesystem.home: hidden hides them all)", maxHomeEntries, maxHomeDirs))
	}
	var rel []string // project-relative patterns of Spec.Hide
	for _, h := range spec.Hide {
		switch {
		case !filepath.IsAbs(h):
			if err := checkPattern(h); err != nil {
				return nil, nil, nil, &SetupError{What: fmt.Sprintf("hide pattern %q: %v", h, err), Hint: "write hide entries as paths or globs (*, ?, [...], **)"}
			}
			rel = append(rel, strings.TrimPrefix(h, "./"))
		case hasGlob(h):
			ms, err := globHost(h)
			if err != nil {
				return nil, nil, nil, &SetupError{What: fmt.Sprintf("hide pattern %q: %v", h, err), Hint: "write hide entries as paths or globs (*, ?, [...], **)"}
			}
			candidates = append(candidates, ms...)
		default:
			candidates = append(candidates, h)
		}
	}
	for _, pat := range spec.Protect {
		if filepath.IsAbs(pat) || checkPattern(pat) != nil {
			return nil, nil, nil, &SetupError{What: fmt.Sprintf("protect pattern %q: not a pattern relative to the project", pat), Hint: "write protect entries as project-relative paths or globs (*, ?, [...], **), as hide entries"}
		}
	}
	pw := walkProject(project, spec.Home, rel, spec.Protect)
	candidates = append(candidates, pw.found...)
	if pw.truncated {
		what := fmt.Sprintf("the project walk stopped at its bound (%d entries, %d levels): files past it are neither masked nor protected", walkBound.entries, walkBound.depth)
		if !slices.Contains(spec.Degraded, LayerWalk) {
			return nil, nil, nil, &SetupError{What: what, Hint: "hide or remove what makes the project this large (a vendored tree, generated files), run in a smaller directory, or accept it by name with --degraded=" + string(LayerWalk)}
		}
		notes = append(notes, what)
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
			return nil, nil, nil, &SetupError{What: fmt.Sprintf("mask %s: %v", p, err), Hint: "make the path resolvable or remove it"}
		}
		if real == "/" || real == project {
			return nil, nil, nil, &SetupError{What: fmt.Sprintf("hide %s would mask the whole view or the project", p), Hint: "hide the files inside it instead"}
		}
		if !seen[real] {
			seen[real] = true
			masks = append(masks, real)
		}
	}
	masks = append(masks, otherNames(masks, project, seen)...)
	slices.SortStableFunc(masks, func(a, b string) int { return depth(a) - depth(b) })
	return masks, notes, pw, nil
}

// projectWalk is what the project walk found.
type projectWalk struct {
	// found are the entries to mask, and for links among them the link
	// itself (resolved later to its target).
	found []string
	// gitEntries are the .git entries (directories, files, links) at any
	// depth, the top's included.
	gitEntries []string
	// hostExec are the entries of [HostExecuted] and Spec.Protect.
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

// otherNames returns the other names in the project of the masked files
// (hard links): only a regular file with more than one link can have one,
// on the project's own device, so the project is walked again, statting
// its files, only when a masked file is such (the common case costs one
// lstat a mask). seen are the masks already listed.
func otherNames(masks []string, project string, seen map[string]bool) []string {
	pfi, err := os.Stat(project)
	if err != nil {
		return nil
	}
	pdev, _, _ := inodeOf(pfi)
	want := map[[2]uint64]bool{}
	add := func(fi fs.FileInfo) {
		if pathguard.MultiplyLinked(fi) {
			if dev, ino, ok := inodeOf(fi); ok && dev == pdev {
				want[[2]uint64{dev, ino}] = true
			}
		}
	}
	for _, m := range masks {
		fi, err := os.Lstat(m)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			add(fi)
			continue
		}
		if dev, _, ok := inodeOf(fi); !ok || dev != pdev {
			continue // no hard link crosses devices
		}
		n := 0
		filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if n++; n > maxWalk {
				return fs.SkipAll
			}
			if d.Type().IsRegular() {
				if fi, err := d.Info(); err == nil {
					add(fi)
				}
			}
			return nil
		})
	}
	if len(want) == 0 {
		return nil
	}
	var out []string
	var n int64
	filepath.WalkDir(project, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > walkBound.entries {
			return fs.SkipAll
		}
		if seen[p] {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && pathguard.MultiplyLinked(fi) {
				if dev, ino, ok := inodeOf(fi); ok && want[[2]uint64{dev, ino}] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
		return nil
	})
	return out
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
	f, err := os.Open(dir.path)
	if err != nil {
		return // unreadable here is unreadable inside too
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
