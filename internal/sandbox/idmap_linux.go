// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file gives a root caller's command an unprivileged host identity.
//
// A caller that is not root runs the command as its own uid outside the
// sandbox: the kernel lets it map nothing else, and the command can read
// no more than the caller could. A root caller's command, mapped to host
// uid 0 as before, would read every file only root may read (its
// capabilities are gone, but as the owner it needs none). So, for a root
// caller, the sandbox's uid and gid 65534 are mapped to [hostID], an id no
// host user, group, file or process has, and the project (and every other
// writable bind) is an idmapped mount (mount_setattr MOUNT_ATTR_IDMAP)
// that shows its owner's files as the command's own and writes the files
// the command creates as the owner's on disk.
//
// The parent, root in the initial user namespace, makes each such mount
// detached: open_tree(OPEN_TREE_CLONE|AT_RECURSIVE) of the host path,
// then mount_setattr with the user namespace of a helper process whose
// uid and gid maps send the path's owner to hostID (the idmapping of a
// mount is that namespace's maps). The descriptors go to init with its
// configuration (SCM_RIGHTS); init attaches each one with move_mount in
// its bind step. Idmapped mounts need CAP_SYS_ADMIN in the user namespace
// that owns the filesystem, which only the parent has.
//
// Init keeps the caller's identity (0 maps to 0 in its namespace too) to
// build the view, and switches its own thread to 65534, groups dropped,
// just before it starts the command (becomeSandboxID). A directory above
// a bind that the command could not search is covered with a tmpfs that
// holds only the binds below it (coverAbove), and the toolchains on PATH
// there are bound back read-only (bindToolchains). Where any of this
// cannot be had the run stops (125) unless [LayerHostUID] is degraded.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hostID is the host uid and gid of a root caller's command. It is chosen
// where nothing else lives:
//
//   - not 65534 ("nobody"), which host daemons run as and NFS squashes
//     to: sharing it would let the command signal, ptrace or read what
//     they own wherever the namespaces and Landlock's scopes do not keep
//     them apart;
//   - not in root's /etc/subuid range, which LXD and podman hand out to
//     their containers' processes and files;
//   - in the gap that systemd's allocation (systemd.io/UIDS-GIDS) leaves
//     unused, above the container ranges (524288–1879048191) and below its
//     foreign range (2147352576 and up), above the subordinate ranges that
//     shadow (from 100000, 65536 a user) and LXD (1000000–1000999999)
//     allocate by default, and below 2^31 for tools that print ids signed.
//
// [checkHostID] refuses it at run time when /etc/passwd, /etc/group,
// /etc/subuid or /etc/subgid gives it to anyone. Every root run shares it:
// runs are kept apart by their own namespaces, not by their uid.
const hostID = 0x7ffd0000 // 2147287040

// hostIDFiles are where checkHostID looks for hostID in use; tests point
// them elsewhere.
var hostIDFiles = struct{ passwd, group, subuid, subgid string }{
	"/etc/passwd", "/etc/group", "/etc/subuid", "/etc/subgid",
}

// degradedHostIDHint is how a root caller gets past a host where the
// unprivileged identity cannot be had.
const degradedHostIDHint = "run warden as a non-root user; or, by choice, run with --degraded=" + string(LayerHostUID) +
	" to run the command as host uid 0 without capabilities, which can read every file only root may read"

// checkHostID reports whether hostID is free on this host: no user or
// group has it, and no subordinate id range covers it.
func checkHostID() error {
	id := strconv.Itoa(hostID)
	for _, f := range []struct{ path, what string }{{hostIDFiles.passwd, "user"}, {hostIDFiles.group, "group"}} {
		b, err := os.ReadFile(f.path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("read %s: %w", f.path, err)
		}
		for line := range bytes.Lines(b) {
			// name:password:id:...
			fields := strings.SplitN(string(line), ":", 4)
			if len(fields) >= 3 && strings.TrimSpace(fields[2]) == id {
				return fmt.Errorf("%s %s in %s has id %d, the unprivileged id warden gives a root caller's command", f.what, fields[0], f.path, hostID)
			}
		}
	}
	for _, path := range []string{hostIDFiles.subuid, hostIDFiles.subgid} {
		b, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("read %s: %w", path, err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			// owner:first:count
			fields := strings.Split(strings.TrimSpace(sc.Text()), ":")
			if len(fields) != 3 {
				continue
			}
			first, err1 := strconv.ParseUint(fields[1], 10, 32)
			count, err2 := strconv.ParseUint(fields[2], 10, 32)
			if err1 == nil && err2 == nil && first <= hostID && hostID < first+count {
				return fmt.Errorf("%s gives %s the range %s-%d, which holds id %d, the unprivileged id warden gives a root caller's command",
					path, fields[0], fields[1], first+count-1, hostID)
			}
		}
	}
	return nil
}

// testOnlyRefuseIdmap, when set, makes idmapped mounts fail as on a
// kernel or filesystem without them.
var testOnlyRefuseIdmap bool

// idmapped is one detached idmapped mount for init to attach.
type idmapped struct {
	path string
	fd   int
}

// owner is the uid and gid that own a host path.
type owner struct{ uid, gid uint32 }

// idmapRoot is a bind attached from an idmapped mount of its own, and
// the owner its idmapping maps to hostID.
type idmapRoot struct {
	bind
	owner owner
}

// idmapRoots returns, for a root caller, which binds are attached from
// an idmapped mount of their own: the project (binds[0] is not assumed)
// and every writable bind, except those inside another such root with
// the same owner, which init binds from that root's mount and so share
// its idmapping.
func idmapRoots(binds []bind, project string) ([]idmapRoot, error) {
	var roots []idmapRoot
	for _, b := range binds {
		if !b.Writable && b.Path != project {
			continue
		}
		var st unix.Stat_t
		if err := unix.Stat(b.Path, &st); err != nil {
			return nil, fmt.Errorf("stat %s: %w", b.Path, err)
		}
		o := owner{st.Uid, st.Gid}
		inside := false
		for _, r := range roots {
			// A writable bind in a read-only root is a root of its own:
			// a bind from the root's mount would be read-only too.
			inside = inside || (within(b.Path, r.Path) && r.owner == o && (r.Writable || !b.Writable))
		}
		if !inside {
			roots = append(roots, idmapRoot{b, o})
		}
	}
	return roots, nil
}

// makeIdmapped makes the idmapped mounts of roots: each shows files
// owned by its owner as hostID's, nosuid, nodev, and read-only where the
// bind is. Each root is opened without following a link and must be the
// file planned. On error nothing is left open.
func makeIdmapped(roots []idmapRoot, early *earlyUserns) (out []idmapped, err error) {
	defer func() {
		if err != nil {
			for _, m := range out {
				unix.Close(m.fd)
			}
			out = nil
		}
	}()
	userns := map[owner]int{}
	if early != nil {
		r := early.wait()
		if r.err == nil {
			userns[r.owner] = r.fd
		}
	}
	defer func() {
		for _, fd := range userns {
			unix.Close(fd)
		}
	}()
	for _, r := range roots {
		p, o := r.Path, r.owner
		ns, ok := userns[o]
		if !ok {
			if ns, err = mappingUserns(o); err != nil {
				return out, fmt.Errorf("user namespace mapping %d:%d to %d: %w", o.uid, o.gid, hostID, err)
			}
			userns[o] = ns
		}
		src, err := openNoLinks(p, p)
		if err != nil {
			return out, err
		}
		fd, err := unix.OpenTree(src, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH|unix.AT_RECURSIVE)
		unix.Close(src)
		if err != nil {
			return out, fmt.Errorf("open_tree %s: %w", p, err)
		}
		out = append(out, idmapped{path: p, fd: fd})
		// The owner of what was opened, not of what the name says now.
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return out, fmt.Errorf("stat %s: %w", p, err)
		}
		if r.Ino != 0 && (st.Dev != r.Dev || st.Ino != r.Ino) {
			return out, fmt.Errorf("%s was replaced after the run was planned; retry the run", p)
		}
		if (owner{st.Uid, st.Gid}) != o {
			return out, fmt.Errorf("%s changed owner while the sandbox was set up (%d:%d, then %d:%d); retry the run", p, o.uid, o.gid, st.Uid, st.Gid)
		}
		flags := uint64(unix.MOUNT_ATTR_IDMAP | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV)
		if !r.Writable {
			flags |= unix.MOUNT_ATTR_RDONLY
		}
		err = unix.MountSetattr(fd, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: flags, Userns_fd: uint64(ns)})
		if testOnlyRefuseIdmap {
			err = unix.EINVAL
		}
		if err != nil {
			return out, fmt.Errorf("idmapped mount of %s: mount_setattr: %w", p, err)
		}
	}
	return out, nil
}

// recheckIdmapped checks, just before init gets them, that each idmapped
// mount's path still names the file it was made from, as init checks its
// other binds: a path replaced after the run was planned stops the run.
func recheckIdmapped(idm []idmapped) error {
	for _, m := range idm {
		var was, now unix.Stat_t
		if err := unix.Fstat(m.fd, &was); err != nil {
			return &SetupError{What: fmt.Sprintf("bind project: %s: stat: %v", m.path, err)}
		}
		if fi, err := os.Lstat(m.path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return &SetupError{What: "bind project: " + m.path + " is a symbolic link in the sandbox view", Hint: "retry the run"}
		}
		fd, err := openNoLinks(m.path, m.path)
		if err == nil {
			err = unix.Fstat(fd, &now)
			unix.Close(fd)
		}
		var se *stepError
		switch {
		case errors.As(err, &se):
			return &SetupError{What: "bind project: " + se.what, Hint: se.hint}
		case err != nil:
			return &SetupError{What: fmt.Sprintf("bind project: %s: %v", m.path, err), Hint: "retry the run"}
		case now.Dev != was.Dev || now.Ino != was.Ino:
			return &SetupError{What: fmt.Sprintf("bind project: %s was replaced after the run was planned (device %d inode %d, planned %d %d)", m.path, now.Dev, now.Ino, was.Dev, was.Ino),
				Hint: "retry the run; if it happens again, something on the host keeps replacing this path"}
		}
	}
	return nil
}

// idmapError is the setup error of a root run whose idmapped mounts
// could not be made.
func idmapError(err error) *SetupError {
	what := "unprivileged identity for a root caller: " + err.Error()
	hint := degradedHostIDHint
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		hint = "idmapped mounts need Linux 5.12 or newer and a filesystem that supports them " +
			"(ext4, xfs, btrfs, overlayfs, tmpfs from Linux 6.3; not NFS or most FUSE); " + hint
	}
	return &SetupError{What: what, Hint: hint}
}

// mappingUserns returns a descriptor of a new user namespace whose uid
// and gid maps send o to hostID: the idmapping of a mount made with it.
//
// A user namespace is made by a process; this one is a child that exits
// at once (forkNewUserns), and the namespace outlives it: the parent,
// root, writes its maps and opens it while the child is unreaped, which
// /proc allows (a zombie keeps its credentials, and its namespace with
// them). That costs a fork, half of what runc's way costs (a traced exec
// that stops before running anything), for a part of every root run.
func mappingUserns(o owner) (int, error) {
	usernsForked.Add(1)
	pid, err := forkNewUserns()
	if err != nil {
		return -1, fmt.Errorf("clone: %w", err)
	}
	defer func() {
		for {
			if _, err := unix.Wait4(pid, nil, 0, nil); err != unix.EINTR {
				break
			}
		}
	}()
	proc := "/proc/" + strconv.Itoa(pid) + "/"
	for _, f := range []struct{ name, body string }{
		{"uid_map", fmt.Sprintf("%d %d 1\n", o.uid, hostID)},
		// No setgroups in it: nothing runs there anyway.
		{"setgroups", "deny"},
		{"gid_map", fmt.Sprintf("%d %d 1\n", o.gid, hostID)},
	} {
		if err := os.WriteFile(proc+f.name, []byte(f.body), 0); err != nil {
			return -1, err
		}
	}
	return unix.Open(proc+"ns/user", unix.O_RDONLY|unix.O_CLOEXEC, 0)
}

// forkNewUserns forks a child in a new user namespace that exits at
// once, and returns its pid. The child is a copy of this process with one
// thread, which must not run Go code that could touch the runtime: it
// returns from the raw clone into cloneExit, which only makes the raw
// exit call (nosplit, norace: no stack growth, no race detector, no
// allocation). Every signal is blocked on this thread meanwhile, so the
// child takes none before it is gone. Without CLONE_VM it writes only its
// own copy of the stack.
func forkNewUserns() (int, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var all, old unix.Sigset_t
	for i := range all.Val {
		all.Val[i] = ^uint64(0)
	}
	if err := unix.PthreadSigmask(unix.SIG_SETMASK, &all, &old); err != nil {
		return -1, err
	}
	pid, errno := cloneExit()
	if err := unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil); err != nil {
		panic("internal error: restore the signal mask: " + err.Error())
	}
	if errno != 0 {
		return -1, errno
	}
	return pid, nil
}

// cloneExit is the clone of forkNewUserns: the child exits, the parent
// gets its pid.
//
//go:nosplit
//go:norace
func cloneExit() (int, syscall.Errno) {
	r1, _, errno := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(unix.CLONE_NEWUSER|unix.SIGCHLD), 0, 0, 0, 0, 0)
	if errno == 0 && r1 == 0 {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
	}
	return int(r1), errno
}

// usernsForked counts the user namespaces this process made
// (mappingUserns), for the tests.
var usernsForked atomic.Int64

// maxIdmapped bounds the idmapped mounts of one run: the descriptors go
// in one control message.
const maxIdmapped = 64

// earlyUserns is the user namespace for the project's owner, made while
// the view is planned: it takes a process, the dearest part of an
// idmapped mount.
type earlyUserns struct {
	done chan struct{}
	res  earlyResult
	// hostIDErr is checkHostID's answer, asked meanwhile too.
	hostIDErr error
}

type earlyResult struct {
	owner owner
	fd    int
	err   error
}

// startUserns starts making the user namespace that maps the owner of
// project to hostID, or takes the one warden serve sends with its init
// (warm, when asked) when it maps that owner.
func startUserns(project string, warm *WarmAsk) *earlyUserns {
	e := &earlyUserns{done: make(chan struct{})}
	go func() {
		defer close(e.done)
		e.hostIDErr = checkHostID()
		var st unix.Stat_t
		if e.res.err = unix.Stat(project, &st); e.res.err != nil {
			return
		}
		e.res.owner = owner{st.Uid, st.Gid}
		if warm != nil {
			if fd := warm.answer().takeUserns(e.res.owner); fd >= 0 {
				e.res.fd = fd
				return
			}
		}
		e.res.fd, e.res.err = mappingUserns(e.res.owner)
	}()
	return e
}

// wait returns the result once, then nothing: the descriptor has one
// owner.
func (e *earlyUserns) wait() earlyResult {
	<-e.done
	r := e.res
	e.res = earlyResult{err: errors.New("taken")}
	return r
}

// discard closes the namespace's descriptor unless it was taken; nil
// does nothing.
func (e *earlyUserns) discard() {
	if e == nil {
		return
	}
	if r := e.wait(); r.err == nil {
		unix.Close(r.fd)
	}
}

// prepareIdmapped checks that hostID is free and makes the idmapped
// mounts of a root caller's run, as setup errors. early, when set, is the
// project owner's user namespace in the making.
func prepareIdmapped(binds []bind, project string, early *earlyUserns) ([]idmapped, error) {
	// Taken on every path, so that its descriptor is never left open.
	defer early.discard()
	var hostIDErr error
	if early != nil {
		<-early.done
		hostIDErr = early.hostIDErr
	} else {
		hostIDErr = checkHostID()
	}
	if err := hostIDErr; err != nil {
		return nil, &SetupError{What: "unprivileged identity for a root caller: " + err.Error(),
			Hint: "give that id back (warden needs it unused), " + degradedHostIDHint}
	}
	roots, err := idmapRoots(binds, project)
	if err != nil {
		return nil, idmapError(err)
	}
	if len(roots) > maxIdmapped {
		return nil, &SetupError{What: fmt.Sprintf("unprivileged identity for a root caller: %d writable paths with different owners, more than %d", len(roots), maxIdmapped),
			Hint: "list fewer sandbox.filesystem.read_write paths, or paths inside one another"}
	}
	m, err := makeIdmapped(roots, early)
	if err != nil {
		return nil, idmapError(err)
	}
	return m, nil
}

// v2Dir is the run's cgroup v2 directory, or "" when it has none.
func (cg *runCgroup) v2Dir() string {
	if cg == nil {
		return ""
	}
	for _, d := range []struct {
		dir string
		v2  bool
	}{{cg.memDir, cg.memV2}, {cg.pidsDir, cg.pidsV2}, {cg.cpuDir, cg.cpuV2}} {
		if d.v2 && d.dir != "" {
			return d.dir
		}
	}
	return ""
}

// In init.

// coverAbove makes a bind of a root caller's run reachable by the
// command: the directory above it that the command could not search
// (root's 0700 home above a project in it, warden's 0700 cache above the
// run cache; an id that owns nothing searches only what others may) is
// covered with an empty tmpfs, in which the bind step makes the mount
// point. What a cover hides was out of the command's reach anyway.
// Directories inside an idmapped root are the command's own and need
// none. It looks at the view as the binds made so far left it (binds
// come parents first), and returns the cover above p, or "" when p is
// reachable.
func (i *initProc) coverAbove(p string) (string, error) {
	for a := nextAncestor(p, p); a != ""; a = nextAncestor(p, a) {
		if slices.Contains(i.covers, a) {
			return a, nil
		}
		for _, r := range i.attached {
			if a == r || within(a, r) {
				return "", nil
			}
		}
		fi, err := os.Lstat(newRoot + a)
		if errors.Is(err, os.ErrNotExist) {
			return "", nil // below a tmpfs of the sandbox: made searchable
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&0o001 != 0 {
			continue
		}
		if err := unix.Mount("tmpfs", newRoot+a, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=64k,mode=0755"); err != nil {
			return "", fmt.Errorf("cover %s: %w", a, err)
		}
		i.covers = append(i.covers, a)
		return a, nil
	}
	return "", nil
}

// bindToolchains keeps the toolchains on the command's PATH (the
// caller's) reachable: for a PATH entry below a directory the command
// cannot search, the directory just below the cover on the way to it
// (root's ~/.pyenv, ~/.cargo, ~/go) is bound read-only with its host
// ownership, so that its files only root may read stay unreadable.
func (i *initProc) bindToolchains() error {
	for _, d := range pathEntries(i.cfg.Env) {
		c, err := i.coverAbove(d)
		if err != nil {
			return err
		}
		if c == "" {
			continue
		}
		top := nextAncestor(d, c)
		if top == "" {
			top = d
		}
		bound := false
		for _, b := range i.cfg.Binds {
			bound = bound || top == b.Path || within(top, b.Path)
		}
		fi, err := os.Lstat(oldRoot + top)
		if bound || err != nil || !fi.IsDir() {
			continue // bound already, or no toolchain there (links are not followed)
		}
		if err := bindOne(bind{Path: top, Dir: true}); err != nil {
			return fmt.Errorf("toolchain %s: %w", top, err)
		}
	}
	return nil
}

// pathEntries are the absolute directories of env's PATH.
func pathEntries(env []string) []string {
	var out []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(v) {
				if filepath.IsAbs(d) {
					out = append(out, filepath.Clean(d))
				}
			}
		}
	}
	return out
}

// nextAncestor walks the ancestors of p from the top, / excluded: the one
// below prev (the first when prev is p), or "" after the last.
func nextAncestor(p, prev string) string {
	start := 1
	if prev != p {
		start = len(prev) + 1
	}
	j := strings.IndexByte(p[start:], '/')
	if j < 0 {
		return ""
	}
	return p[:start+j]
}

// readOnlyCovers makes the covers read-only once their mount points are
// made.
func readOnlyCovers(covers []string) error {
	for _, c := range covers {
		err := unix.MountSetattr(unix.AT_FDCWD, newRoot+c, 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY})
		if err != nil {
			return fmt.Errorf("mount_setattr %s: %w", c, err)
		}
	}
	return nil
}

// bindIdmapped is bindOne for a root caller's run: a bind the parent made
// an idmapped mount for is attached from it, a bind inside one already
// attached is bound from the view (and so shares its idmapping), any
// other as bindOne does.
func (i *initProc) bindIdmapped(b bind) error {
	if _, err := i.coverAbove(b.Path); err != nil {
		return err
	}
	for k, p := range i.cfg.Idmapped {
		if p == b.Path {
			if k >= len(i.idmapFDs) {
				return &stepError{"init did not get the idmapped mount of " + p, "this is a bug in warden; please report it"}
			}
			return i.attachIdmapped(b, i.idmapFDs[k])
		}
	}
	for _, r := range i.attached {
		if within(b.Path, r) {
			return bindFrom(newRoot, b)
		}
	}
	return bindOne(b)
}

// attachIdmapped moves the parent's detached idmapped mount fd, its
// flags set already, to b's place in the view, opened without following
// a link.
func (i *initProc) attachIdmapped(b bind, fd int) error {
	defer unix.Close(fd)
	target := newRoot + b.Path
	if err := makeMountPoint(b, target); err != nil {
		return err
	}
	dst, err := openNoLinks(target, b.Path)
	if err != nil {
		return err
	}
	defer unix.Close(dst)
	if err := unix.MoveMount(fd, "", dst, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	i.attached = append(i.attached, b.Path)
	return nil
}

// makeMountPoint makes b's mount point where the view has nothing (below
// a tmpfs of the sandbox, or a cover) and refuses a link there.
func makeMountPoint(b bind, target string) error {
	fi, err := os.Lstat(target)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if b.Dir {
			return os.MkdirAll(target, 0o755)
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|unix.O_NOFOLLOW, 0o644)
		if err != nil {
			return err
		}
		return f.Close()
	case err != nil:
		return err
	case fi.Mode()&os.ModeSymlink != 0:
		// The parent resolved every link; one here means the view
		// changed under us.
		return &stepError{b.Path + " is a symbolic link in the sandbox view", "retry the run"}
	}
	return nil
}

// becomeSandboxID switches this thread to uid and gid 65534, [hostID]
// outside, with no supplementary group (a root caller's, 0 among them,
// would still open group-0 files). Raw calls, on this thread only, as
// the capabilities: the command is forked from it; init's other threads
// keep the caller's identity, and being non-dumpable, are out of reach.
// It needs CAP_SETUID and CAP_SETGID, so it comes before capset.
func becomeSandboxID() error {
	if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, 0, 0, 0); e != 0 {
		return fmt.Errorf("setgroups: %w", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SETRESGID, sandboxID, sandboxID, sandboxID); e != 0 {
		return fmt.Errorf("setresgid: %w", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, sandboxID, sandboxID, sandboxID); e != 0 {
		return fmt.Errorf("setresuid: %w", e)
	}
	// Check, rather than trust, the result.
	var r, e, s uint32
	if _, _, errno := unix.RawSyscall(unix.SYS_GETRESUID, uintptr(unsafe.Pointer(&r)), uintptr(unsafe.Pointer(&e)), uintptr(unsafe.Pointer(&s))); errno != 0 {
		return fmt.Errorf("getresuid: %w", errno)
	}
	if r != sandboxID || e != sandboxID || s != sandboxID {
		return fmt.Errorf("still uid %d/%d/%d after setresuid", r, e, s)
	}
	return nil
}
