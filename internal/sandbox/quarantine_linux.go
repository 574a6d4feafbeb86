// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// The post-run check: once the run's pid namespace is gone (init reaped,
// so no process of the run is left to race it), what the run created or
// changed that the host would execute later is moved into the quarantine
// directory. The read-only binds keep what existed at start unchangeable;
// this check is the catch-all for what was created. It is proportional to
// what the run wrote: a new entry shows as a directory whose ctime moved
// (ctime cannot be set from inside), so the directories of the writable
// roots at start are statted and only those whose ctime is at or after
// the start are read, and new directories below them walked.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/governance"
)

func statID(fi fs.FileInfo) fileID {
	id := fileID{mode: fi.Mode().Type(), size: fi.Size()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.ino = st.Ino
		id.ctime = st.Ctim.Nano()
	}
	return id
}

// inodeOf returns the device and inode of fi.
func inodeOf(fi fs.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Dev, st.Ino, true
}

// after reports whether fi's ctime is at or after since.
func after(fi fs.FileInfo, since unix.Timespec) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Ctim.Sec > since.Sec || st.Ctim.Sec == since.Sec && st.Ctim.Nsec >= since.Nsec
}

// maxPostRun bounds the entries the post-run check reads in directories
// the run changed or made; past it the run is reported as refused.
const maxPostRun = 2_000_000

// quarantiner moves entries into one run's quarantine directory.
type quarantiner struct {
	dir  string
	list []audit.Quarantined
	// copied is what the run's entries that had to be copied (from
	// another filesystem) took so far.
	copied copyBudget
	// linkOnTheWay is postCheck.linkOnTheWay, or nil.
	linkOnTheWay func(dir string) string
}

// copyBudget bounds what one run's quarantine copies from another
// filesystem, where a move is a copy: a sparse file of a terabyte, or a
// million empty files, cost the command nothing, and would cost the
// host's disk their size and the post-run check the time to write it,
// with the caller waiting. What does not fit is removed, not kept.
type copyBudget struct {
	bytes   int64
	entries int
}

// The budget of one run.
const (
	quarantineCopyBytes   = 64 << 20
	quarantineCopyEntries = 10_000
)

// errTooLarge is copyTree's when the budget runs out.
var errTooLarge = fmt.Errorf("more than %d MiB or %d entries to copy from another filesystem", quarantineCopyBytes>>20, quarantineCopyEntries)

// take moves p (not following it) into the quarantine, under its host
// path, or removes it when there is no quarantine or it cannot be moved.
func (q *quarantiner) take(p, why string) {
	e := audit.Quarantined{Path: p, Why: why}
	if q.linkOnTheWay != nil {
		if link := q.linkOnTheWay(filepath.Dir(p)); link != "" {
			// The run left a link where a directory of the start was
			// (mv sub sub2; ln -s ~/other sub): what it names is not
			// the run's, and is not touched. The link is taken.
			q.take(link, "a link the run left in place of a directory")
			e.Error = "reached through " + link + ", a link the run left, which was taken: what it named was left as it is"
			q.list = append(q.list, e)
			return
		}
	}
	if q.dir != "" {
		dst := filepath.Join(q.dir, "files", p)
		for i := 1; ; i++ {
			if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
				break
			}
			dst = filepath.Join(q.dir, "files", p) + "." + strconv.Itoa(i)
		}
		err := os.MkdirAll(filepath.Dir(dst), 0o700)
		if err == nil {
			err = openedFor(filepath.Dir(p), func() error {
				err := os.Rename(p, dst)
				if errors.Is(err, fs.ErrPermission) {
					// A directory moved elsewhere has its ".." written.
					openToOwner(p, 0o700)
					err = os.Rename(p, dst)
				}
				return err
			})
			if errors.Is(err, unix.EXDEV) {
				before := q.copied
				if err = copyTree(p, dst, &q.copied); err == nil {
					err = removeTree(p)
				} else {
					// Nothing half kept: what was copied goes, and
					// counts no more.
					os.RemoveAll(dst)
					q.copied = before
				}
			}
		}
		if err == nil {
			// Kept, but removable by its owner: the run's modes (a
			// directory at 555) would make rm -r of the quarantine fail.
			openTree(dst)
			e.MovedTo = dst
			q.list = append(q.list, e)
			return
		}
		e.Error = fmt.Sprintf("not moved to the quarantine (%v): removed", err)
	}
	if err := removeTree(p); err != nil {
		e.Error = fmt.Sprintf("could not be removed: %v", err)
	}
	q.list = append(q.list, e)
}

// removeTree removes p and all below it, whatever modes the run gave its
// directories (chmod 555 .vscode after planting .vscode/tasks.json), and
// whatever the mode of the directory that holds it.
func removeTree(p string) error {
	return openedFor(filepath.Dir(p), func() error {
		openTree(p)
		return os.RemoveAll(p)
	})
}

// openedFor runs op, and once more with the directory dir opened to its
// owner if op was refused for want of permission; dir gets its mode back
// after. The run may have closed a directory that holds what the check
// takes; the check runs as the owner of all the run made.
func openedFor(dir string, op func() error) error {
	err := op()
	if !errors.Is(err, fs.ErrPermission) {
		return err
	}
	if restore, ok := openToOwner(dir, 0o700); ok {
		defer restore()
		err = op()
	}
	return err
}

// openToOwner gives the directory p the owner's permissions need (0o500
// to list it, 0o700 to change it too) if it lacks any of them, and
// returns what gives it its mode back; ok is false when there was nothing
// to open (not a directory, open already, or not this user's to change).
func openToOwner(p string, need uint32) (restore func(), ok bool) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || st.Mode&need == need {
		return nil, false
	}
	mode := st.Mode & 0o7777
	if unix.Chmod(p, mode|need) != nil {
		return nil, false
	}
	return func() { unix.Chmod(p, mode) }, true
}

// openTree opens every directory of the tree at p to its owner, so that
// all of it can be removed.
func openTree(p string) {
	// Neither does anything to what is not a directory.
	openToOwner(p, 0o700)
	eachEntry(p, func(e fs.DirEntry) bool {
		if e.IsDir() {
			openTree(p + "/" + e.Name())
		}
		return true
	})
}

// maxHeldFile bounds the protected file a run keeps a copy of to put
// back: configuration files, a few KiB each.
const maxHeldFile = 256 << 10

// hold records the read-only binds of bs inside the run's writable roots,
// with what is needed to put each back. Read without following a link,
// and kept only if it is the very file planned.
func (pc *postCheck) hold(bs []bind) {
	for _, b := range bs {
		if root := pc.rootOf(b.Path); b.Writable || root == "" || root == b.Path {
			continue
		}
		h := held{path: b.Path, id: [2]uint64{b.Dev, b.Ino}}
		if !b.Dir {
			h.data, h.perm = readHeld(b)
		}
		pc.held = append(pc.held, h)
	}
}

// readHeld returns the content and mode of the regular file b, or nil if
// it is not the file planned, not regular, or larger than maxHeldFile.
func readHeld(b bind) ([]byte, fs.FileMode) {
	f, err := os.OpenFile(b.Path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxHeldFile {
		return nil, 0
	}
	if dev, ino, ok := inodeOf(fi); !ok || dev != b.Dev || ino != b.Ino {
		return nil, 0
	}
	data, err := io.ReadAll(io.LimitReader(f, maxHeldFile+1))
	if err != nil || len(data) > maxHeldFile {
		return nil, 0
	}
	if data == nil {
		data = []byte{}
	}
	return data, fi.Mode().Perm()
}

// linkOnTheWay returns the first symbolic link on the way from the
// writable root that holds p down to p, p itself included, or "" if there
// is none (nor anything missing: what is gone has nothing below it to act
// on). A path in no writable root, the run could not change on the way.
// Checked one component at a time, each from a prefix found free of
// links: no process of the run is left to change them meanwhile.
func (pc *postCheck) linkOnTheWay(p string) string {
	root := pc.rootOf(p)
	if root == "" || p == root {
		return ""
	}
	cur := root
	for _, c := range strings.Split(p[len(root)+1:], "/") {
		cur += "/" + c
		fi, err := os.Lstat(cur)
		if err != nil {
			return ""
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return cur
		}
	}
	return ""
}

// rootOf is the writable root of the run (the project, a read_write path,
// a writable bind of git data) that holds p, the deepest, or "".
func (pc *postCheck) rootOf(p string) string {
	root := ""
	for _, r := range pc.roots {
		if (p == r || within(p, r)) && len(r) > len(root) {
			root = r
		}
	}
	for r := range pc.gitBinds {
		if (p == r || within(p, r)) && len(r) > len(root) {
			root = r
		}
	}
	return root
}

// restore puts back the protected link or .git file k, which the run
// removed or replaced (and which was taken away): created anew in its
// directory, reached from the writable root that holds it without
// following any link, since the run could have put one anywhere on the
// way, or left one at k's own name that could not be taken away. Warden
// must never write through a link a run planted.
func (pc *postCheck) restore(k kept) error {
	root := pc.rootOf(k.path)
	if root == "" || root == k.path {
		return fmt.Errorf("%s is in no writable root", k.path)
	}
	rootFD, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: root, Err: err}
	}
	defer unix.Close(rootFD)
	dir, name := filepath.Split(k.path[len(root)+1:])
	dirFD := rootFD
	if dir != "" {
		dirFD, err = unix.Openat2(rootFD, filepath.Clean(dir), &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err != nil {
			return &os.PathError{Op: "open", Path: filepath.Join(root, dir), Err: err}
		}
		defer unix.Close(dirFD)
	}
	if k.data == nil {
		return unix.Symlinkat(k.link, dirFD, name)
	}
	// O_EXCL: never through a link, nor over anything left at the name.
	fd, err := unix.Openat(dirFD, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(k.perm))
	if err != nil {
		return &os.PathError{Op: "create", Path: k.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), k.path)
	if _, err := f.Write(k.data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// putBack restores k once what was at its path is listed in q, last:
// through restore, and with its directory opened to its owner if the run
// closed it (chmod 555 sub). What could not be put back is said on that
// entry of q; it reports whether k is back.
func (pc *postCheck) putBack(q *quarantiner, k kept) bool {
	err := pc.restore(k)
	if errors.Is(err, fs.ErrPermission) && pc.linkOnTheWay(filepath.Dir(k.path)) == "" {
		err = openedFor(filepath.Dir(k.path), func() error { return pc.restore(k) })
	}
	if err != nil {
		e := &q.list[len(q.list)-1]
		e.Error = strings.TrimPrefix(e.Error+"; not restored: "+err.Error(), "; ")
	}
	return err == nil
}

// copyTree copies src to dst without following links, within what is
// left of b.
func copyTree(src, dst string, b *copyBudget) error {
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	b.entries++
	if fi.Mode().IsRegular() {
		b.bytes += fi.Size()
	}
	if b.entries > quarantineCopyEntries || b.bytes > quarantineCopyBytes {
		return errTooLarge
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(t, dst)
	case fi.IsDir():
		if err := os.Mkdir(dst, 0o700); err != nil {
			return err
		}
		var cerr error
		err := eachEntry(src, func(e fs.DirEntry) bool {
			cerr = copyTree(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()), b)
			return cerr == nil
		})
		if cerr != nil {
			return cerr
		}
		return err
	case fi.Mode().IsRegular():
		in, err := os.Open(src)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		// No more than the size counted: the run is over, nothing
		// grows it, and a file is never read past what was allowed.
		if _, err := io.Copy(out, io.LimitReader(in, fi.Size())); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	}
	return nil // a device node, a fifo or a socket is not kept, only removed
}

// eachEntry calls fn with the entries of the directory dir, a few
// hundred read at a time, until fn returns false: a directory of millions
// of entries is never held whole. dir is not followed if it is a link.
// A dir that does not exist has no entries.
func eachEntry(dir string, fn func(fs.DirEntry) bool) error {
	// A directory the run closed to its owner, the caller (chmod 111 d
	// after planting d/.envrc, which the host's shell still reads on
	// cd d), is opened to the owner for the check, then given its mode
	// back: entries read, looked at and moved out of it.
	if restore, ok := openToOwner(dir, 0o500); ok {
		defer restore()
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return &os.PathError{Op: "open", Path: dir, Err: err}
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	for {
		ents, err := f.ReadDir(256)
		for _, e := range ents {
			if !fn(e) {
				return nil
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// run performs the check after a run that started at since, moving what
// it finds into quarantine (or removing it when that is empty). notes say
// what it could not check.
func (pc *postCheck) run(quarantine string, since unix.Timespec) ([]audit.Quarantined, []string) {
	if pc == nil {
		return nil, nil
	}
	q := &quarantiner{dir: quarantine, linkOnTheWay: pc.linkOnTheWay}
	var notes []string
	// Protected entries the host replaced while the run went on: their
	// read-only mount went with the file it was on, and the run could
	// write what took its place. Taken, and a file put back as it was at
	// start: the host's own change is in the quarantine too.
	for _, h := range pc.held {
		if id, err := identity(h.path); err != nil || id == h.id {
			continue // still the file the mount held, or gone
		}
		q.take(h.path, "protected entry replaced on the host during the run: its read-only mount went with the file it was on, so the run could write the new one")
		if h.data != nil && pc.putBack(q, kept{path: h.path, data: h.data, perm: h.perm}) {
			q.list[len(q.list)-1].Why += "; the file as it was at the run's start is back in its place"
		}
	}
	// Links and .git files that a mount could not hold: restored.
	keptSet := map[string]bool{}
	for _, k := range pc.kept {
		keptSet[k.path] = true
		fi, err := os.Lstat(k.path)
		if err == nil && statID(fi) == k.id {
			continue
		}
		if err == nil {
			q.take(k.path, "replaced a protected link or .git file")
		} else {
			q.list = append(q.list, audit.Quarantined{Path: k.path, Why: "removed a protected link or .git file"})
		}
		pc.putBack(q, k)
	}
	// The git directories the run could write: every entry that is not
	// git's data and was not there at start. Only a directory whose
	// ctime moved can have a new entry.
	changed := func(dir string) bool {
		fi, err := os.Lstat(dir)
		return err == nil && after(fi, since) && pc.linkOnTheWay(dir) == ""
	}
	// What could not be read is not passed: each is a refusal.
	var unchecked []error
	for _, g := range pc.gitDirs {
		if !g.infoOnly && changed(g.dir) {
			err := eachEntry(g.dir, func(e fs.DirEntry) bool {
				p := filepath.Join(g.dir, e.Name())
				if !g.top[e.Name()] && !governance.IsGitData(e.Name()) && !pc.lifted[p] && !keptSet[p] {
					q.take(p, "host-executed entry of a git directory (git reads it: config, hooks, commondir...)")
				}
				return true
			})
			if err != nil {
				unchecked = append(unchecked, err)
			}
		}
		info := filepath.Join(g.dir, "objects", "info")
		if !changed(info) {
			continue
		}
		for _, name := range governance.GitObjectsInfoExec {
			p := filepath.Join(info, name)
			if _, err := os.Lstat(p); err == nil && !g.info[name] && !pc.lifted[p] {
				q.take(p, "alternate object store of a git directory")
			}
		}
	}
	for _, p := range pc.paths {
		if _, err := os.Lstat(p); err == nil && !pc.lifted[p] {
			q.take(p, "protected path that did not exist at start (a core.hooksPath directory, protected like .git/hooks, or a protected link's target)")
		}
	}
	// New entries in the writable roots: a .git anywhere, a
	// host-executed name of the project.
	var walked int64
	var scan func(dir string)
	scan = func(dir string) {
		err := eachEntry(dir, func(e fs.DirEntry) bool {
			if walked++; walked > maxPostRun {
				return false
			}
			p := dir + "/" + e.Name()
			if pc.lifted[p] {
				return true
			}
			if e.Name() == ".git" {
				// A .git dir is a mount point, a .git file is kept:
				// one with another identity is the run's.
				id, known := pc.gitIDs[p]
				if fi, err := e.Info(); err == nil && (!known || e.IsDir() && statID(fi).ino != id.ino) {
					if err := pc.takeNewGit(q, p, e); err != nil {
						unchecked = append(unchecked, err)
					}
				}
				return true
			}
			if !pc.known[p] && within(p, pc.project) && !inTools(p[len(pc.project)+1:]) && protectedRel(p[len(pc.project)+1:], e.IsDir(), pc.protect) {
				if fi, err := e.Info(); err == nil && after(fi, since) {
					q.take(p, "host-executed file of the project (agent settings, editor tasks, direnv...), created or replaced by the run")
					return true
				}
			}
			if e.IsDir() && !pc.dirSet[p] {
				scan(p) // new: all of it is the run's
			}
			return true
		})
		if err != nil {
			unchecked = append(unchecked, err)
		}
	}
	for _, d := range pc.dirs {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() || !after(fi, since) {
			continue
		}
		// A directory of the start the run replaced by a link (or that
		// is reached through one) is not followed: the link itself is
		// an entry of the directory above, scanned as such. Asked only
		// of the few whose ctime moved.
		if pc.linkOnTheWay(d) != "" {
			continue
		}
		scan(d)
	}
	if walked > maxPostRun {
		// Not a silent pass: the run is reported as refused.
		q.list = append(q.list, audit.Quarantined{Path: pc.project, Why: fmt.Sprintf(
			"the post-run check stopped after %d new entries: what the run created past them was not checked", maxPostRun),
			Error: "not checked"})
	}
	for _, err := range unchecked {
		// A directory the run made that cannot be read (a path too long
		// to open, no descriptor left for one so deep): refused too.
		where := pc.project
		var pe *os.PathError
		if errors.As(err, &pe) {
			where = pe.Path
		}
		q.list = append(q.list, audit.Quarantined{Path: where, Why: "the post-run check could not read what the run created here: " + err.Error(),
			Error: "not checked"})
	}
	return q.list, notes
}

// takeNewGit quarantines what the host would honour of a .git entry the
// run created: a .git file or link whole; of a git directory, every entry
// that is not git's data (its config, hooks, info, commondir...) but what
// git clone and git init make and runs nothing (see benignNewGitEntry), so
// that a repository the run cloned or committed to stays on the host,
// with nothing planted in it.
func (pc *postCheck) takeNewGit(q *quarantiner, p string, e fs.DirEntry) error {
	if !e.IsDir() {
		q.take(p, "a .git file or link created by the run")
		return nil
	}
	err := eachEntry(p, func(e fs.DirEntry) bool {
		ep := filepath.Join(p, e.Name())
		if !governance.IsGitData(e.Name()) && !benignNewGitEntry(ep, e.Name()) {
			q.take(ep, "host-executed entry of a git directory created by the run (a config that runs commands, a hook, or an entry git init does not make)")
		}
		return true
	})
	for _, name := range governance.GitObjectsInfoExec {
		ap := filepath.Join(p, "objects", "info", name)
		if _, err := os.Lstat(ap); err == nil {
			q.take(ap, "alternate object store of a git directory created by the run")
		}
	}
	return err
}

// inTools reports whether rel is inside a .git or node_modules directory.
func inTools(rel string) bool {
	for d := filepath.Dir(rel); d != "." && d != "/"; d = filepath.Dir(d) {
		if skipWalk[filepath.Base(d)] {
			return true
		}
	}
	return false
}
