// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/sandbox/seccomp"
)

// ctlFD is the control socket init inherits.
const ctlFD = 3

// Init is the sandbox init: the process the parent started in fresh
// namespaces. It never returns. Call it only when os.Args[1] is [InitArg].
func Init() {
	// Capabilities, no_new_privs and the bounding set are per thread:
	// everything from here to starting the command happens on this one.
	runtime.LockOSThread()
	// Descriptors inherited from whoever started warden must not reach
	// the command; this also marks the control socket close-on-exec.
	if err := unix.CloseRange(ctlFD, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		os.Exit(125)
	}
	// The signals in caught are taken from here on: one for the command
	// (from the parent, the terminal, or the command's own kill of pid 1)
	// is passed on once it runs, and none ends init early.
	// Registering each signal is a round trip to the runtime's signal
	// thread: done beside the setup, and waited for before the command
	// starts.
	sigs, sigsReady := make(chan os.Signal, 16), make(chan struct{})
	go func() {
		signal.Notify(sigs, caught...)
		close(sigsReady)
	}()
	ctl := os.NewFile(ctlFD, "sandbox-control")
	buf := make([]byte, 1<<20)
	// A root caller's idmapped mounts come with the configuration.
	oob := make([]byte, unix.CmsgSpace(maxIdmapped*4))
	var n, oobn int
	var err error
	for {
		n, oobn, _, _, err = unix.Recvmsg(ctlFD, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil || n == 0 {
		os.Exit(125)
	}
	var cfg config
	if err := json.Unmarshal(buf[:n], &cfg); err != nil {
		fail(ctl, "decode configuration: "+err.Error(), "")
	}
	i := &initProc{cfg: cfg, ctl: ctl, sigs: sigs, sigsReady: sigsReady, idmapFDs: rightsIn(oob[:oobn])}
	i.setup()
	i.runCommand()
}

type initProc struct {
	cfg       config
	ctl       *os.File
	sigs      chan os.Signal
	sigsReady chan struct{}
	blocked   blockedLog
	tty       *os.File // the command's terminal (config.Terminal), or nil
	// idmapFDs are the idmapped mounts of cfg.Idmapped, in order, and
	// attached the roots init has attached them at.
	idmapFDs []int
	attached []string
	// covers are the tmpfs mounts over directories the command could
	// not search (coverAbove).
	covers []string
}

// forwarded are the signals passed on to the command: those a shell or a
// supervisor sends to ask a program to stop, reload or redraw. Job
// control stops (SIGTSTP, SIGTTIN, SIGTTOU) are not: stopping the
// command alone would leave warden waiting on it.
var forwarded = map[syscall.Signal]bool{
	syscall.SIGHUP: true, syscall.SIGINT: true, syscall.SIGQUIT: true, syscall.SIGTERM: true,
	syscall.SIGUSR1: true, syscall.SIGUSR2: true, syscall.SIGWINCH: true, syscall.SIGCONT: true,
	syscall.SIGALRM: true,
}

// caught are the signals init takes rather than die of: the forwarded
// ones, and those the command could send init (pid 1 of its namespace, so
// only signals it handles reach it) to end the run. Handled, not ignored,
// so that the command starts with default dispositions.
var caught = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGWINCH, syscall.SIGCONT, syscall.SIGALRM,
	// Sent with kill, these would crash the Go runtime: taken and
	// dropped (a fault of init's own is still one).
	syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGILL, syscall.SIGTRAP,
	syscall.SIGABRT, syscall.SIGSYS, syscall.SIGPIPE, syscall.SIGVTALRM, syscall.SIGPROF,
}

// stepError is a failed setup step with a hint.
type stepError struct{ what, hint string }

func (e *stepError) Error() string { return e.what }

func fail(ctl *os.File, what, hint string) {
	send(ctl, report{Error: what, Hint: hint})
	os.Exit(125)
}

func send(ctl *os.File, r report) {
	b, _ := json.Marshal(r)
	ctl.Write(b)
}

func jsonReport(r report) ([]byte, error) { return json.Marshal(r) }

// step runs one setup step; any error stops init (fail closed).
func (i *initProc) step(name string, f func() error) {
	var t0 time.Time
	if i.cfg.Trace {
		t0 = time.Now()
	}
	err := error(nil)
	if i.cfg.FailAt == name {
		err = errors.New("injected failure")
	} else {
		err = f()
	}
	if err == nil {
		if i.cfg.Trace {
			send(i.ctl, report{Step: name, Micros: time.Since(t0).Microseconds()})
		}
		return
	}
	var se *stepError
	if errors.As(err, &se) {
		fail(i.ctl, name+": "+se.what, se.hint)
	}
	fail(i.ctl, name+": "+err.Error(), hintFor(err))
}

func hintFor(err error) string {
	switch {
	case errors.Is(err, unix.EPERM), errors.Is(err, unix.EACCES):
		return "the kernel refused the operation inside a user namespace; check that user namespaces are allowed and no LSM (AppArmor, SELinux) restricts them"
	case errors.Is(err, unix.ENOSYS):
		return "the kernel is too old: Linux 5.12 or newer is needed"
	}
	return "this host does not support a layer of the sandbox"
}

// testWritableRoot, as config.FailAt, leaves / writable (still nosuid,
// nodev) instead of failing a step, so that tests can show Landlock
// holding by itself.
const testWritableRoot = "test: writable root"

const (
	newRoot = "/newroot"
	oldRoot = "/oldroot"
)

func (i *initProc) setup() {
	i.step("make mounts private", func() error {
		return unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, "")
	})
	i.step("prepare new root", func() error {
		// bubblewrap's double pivot: a small tmpfs becomes / while the
		// host tree, moved to /oldroot, is the source of every bind.
		if err := unix.Mount("warden", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=64k,mode=0755"); err != nil {
			return err
		}
		for _, d := range []string{"/tmp/newroot", "/tmp/oldroot"} {
			if err := os.Mkdir(d, 0o755); err != nil {
				return err
			}
		}
		if err := unix.Chdir("/tmp"); err != nil {
			return err
		}
		if err := unix.PivotRoot(".", "oldroot"); err != nil {
			return fmt.Errorf("pivot_root: %w", err)
		}
		return unix.Chdir("/")
	})
	i.step("bind / read-only", func() error {
		if err := unix.Mount(oldRoot, newRoot, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return err
		}
		flags := uint64(unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV)
		if i.cfg.FullAccess || i.cfg.FailAt == testWritableRoot {
			flags &^= unix.MOUNT_ATTR_RDONLY
		}
		return setattr(newRoot, flags)
	})
	i.step("mount private tmpfs", i.mountPrivate)
	i.step("mount /dev", i.mountDev)
	i.step("mount /tmp", func() error { return bindPrivate("tmp", newRoot+"/tmp", false) })
	i.step("mount /run", func() error {
		if _, err := os.Lstat(newRoot + "/run"); errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return bindPrivate("run", newRoot+"/run", false)
	})
	i.step("mount exec scratch", func() error {
		if !i.cfg.ExecScratch {
			return nil
		}
		p := newRoot + execScratch
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		// Executable, unlike /tmp: toolchains that run what they just
		// linked (go test, via GOTMPDIR) need one such place.
		return bindPrivate("exec", p, true)
	})
	i.step("hide home", i.hideHome)
	i.step("bind project", i.bindAll)
	if i.cfg.Network {
		i.step("point DNS at the stub", i.pointResolver)
	}
	i.step("bound private tmpfs", i.boundPrivate)
	i.step("mask sensitive paths", i.mask)
	i.step("mount /proc", mountProc)
	i.step("mount /sys", i.mountSys)
	i.step("enter new root", func() error {
		if err := unix.Unmount(oldRoot, unix.MNT_DETACH); err != nil {
			return err
		}
		old, err := unix.Open("/", unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(old)
		if err := unix.Chdir(newRoot); err != nil {
			return err
		}
		// runc's pivot_root(".", "."): the old root ends up on top of
		// the new one and is detached at once.
		if err := unix.PivotRoot(".", "."); err != nil {
			return fmt.Errorf("pivot_root: %w", err)
		}
		if err := unix.Fchdir(old); err != nil {
			return err
		}
		if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
			return err
		}
		return unix.Chdir("/")
	})
	i.step("set hostname", func() error { return unix.Sethostname([]byte("warden")) })
	i.step("bring up loopback", loopbackUp)
	if i.cfg.Network {
		i.step("make network listeners", i.makeListeners)
	}
	if i.cfg.Terminal != nil {
		i.step("make the terminal", i.makeTerminal)
	}
	i.step("enter project", func() error { return unix.Chdir(i.cfg.Project) })
	// Privileges are dropped in runCommand, once init has its cgroup
	// namespace.
}

// setattr adds flags to the mount at path and every mount below it.
func setattr(path string, flags uint64) error {
	err := unix.MountSetattr(unix.AT_FDCWD, path, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: flags})
	if err != nil {
		return fmt.Errorf("mount_setattr %s: %w", path, err)
	}
	return nil
}

// The private writable places of the view (/tmp, /dev/shm, /run and the
// exec scratch) are directories of one tmpfs, mounted at privatePool in
// the set-up root (gone with it once the new root is entered) and bound
// into the view: a size or inode bound on it holds for all of them
// together, not for each.
const privatePool = "/private"

// privateDirs are the directories of the private tmpfs and their modes.
var privateDirs = []struct {
	name string
	mode uint32
}{
	{"tmp", 0o1777},
	{"shm", 0o1777},  // /dev/shm
	{"run", 0o755},   // /run, where the scratch is mounted
	{"exec", 0o1777}, // the exec scratch
}

// privateReserved is the room in the private tmpfs's inode bound for
// what init makes in it (its root, privateDirs, /run/warden, the
// resolver's file and its directories) until boundPrivate sets the bounds
// exactly.
const privateReserved = 16

// mountPrivate mounts the private tmpfs and makes its directories.
func (i *initProc) mountPrivate() error {
	if err := os.Mkdir(privatePool, 0o700); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", privatePool, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, i.tmpfsOpts("mode=0755")); err != nil {
		return err
	}
	for _, d := range privateDirs {
		p := privatePool + "/" + d.name
		if err := unix.Mkdir(p, 0o700); err != nil {
			return fmt.Errorf("mkdir %s: %w", p, err)
		}
		// chmod, not mkdir's mode: the umask (the command's) stays as it is.
		if err := unix.Chmod(p, d.mode); err != nil {
			return fmt.Errorf("chmod %s: %w", p, err)
		}
	}
	return nil
}

// boundPrivate sets the private tmpfs's bounds, once init has made what
// it needs in it, to what that uses plus what the command may use: the
// command may then write exactly limits.disk bytes and create exactly
// limits.inodes entries there.
func (i *initProc) boundPrivate() error {
	if i.cfg.TmpfsSize == 0 && i.cfg.TmpfsInodes == 0 {
		return nil
	}
	var st unix.Statfs_t
	if err := unix.Statfs(privatePool, &st); err != nil {
		return err
	}
	var opts []string
	if i.cfg.TmpfsSize > 0 {
		used := (st.Blocks - st.Bfree) * uint64(st.Bsize)
		opts = append(opts, fmt.Sprintf("size=%d", used+uint64(i.cfg.TmpfsSize)))
	}
	if i.cfg.TmpfsInodes > 0 {
		opts = append(opts, fmt.Sprintf("nr_inodes=%d", st.Files-st.Ffree+uint64(i.cfg.TmpfsInodes)))
	}
	// Through the tmpfs's own mount, whose flags (nosuid, nodev) a
	// remount sets again.
	return unix.Mount("", privatePool, "", unix.MS_REMOUNT|unix.MS_NOSUID|unix.MS_NODEV, strings.Join(opts, ","))
}

// tmpfsOpts adds the bounds of the private tmpfs to opts: its size (the
// smaller of the memory limit of a run without a memory cgroup, which
// would not see it, and limits.disk) and inodes (limits.inodes).
func (i *initProc) tmpfsOpts(opts string) string {
	if i.cfg.TmpfsSize > 0 {
		opts += fmt.Sprintf(",size=%d", i.cfg.TmpfsSize)
	}
	if i.cfg.TmpfsInodes > 0 {
		opts += fmt.Sprintf(",nr_inodes=%d", i.cfg.TmpfsInodes+privateReserved)
	}
	return opts
}

// bindPrivate binds the private tmpfs's directory name at target, nosuid
// and nodev, and noexec unless exec.
func bindPrivate(name, target string, exec bool) error {
	if err := os.MkdirAll(target, 0o755); err != nil {
		return err
	}
	if err := unix.Mount(privatePool+"/"+name, target, "", unix.MS_BIND, ""); err != nil {
		return err
	}
	flags := uint64(unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV)
	if !exec {
		flags |= unix.MOUNT_ATTR_NOEXEC
	}
	if err := unix.MountSetattr(unix.AT_FDCWD, target, 0, &unix.MountAttr{Attr_set: flags}); err != nil {
		return fmt.Errorf("mount_setattr %s: %w", target, err)
	}
	return nil
}

// devices are bound from the host's /dev into the minimal one.
var devices = []string{"null", "zero", "full", "random", "urandom", "tty"}

func (i *initProc) mountDev() error {
	dev := newRoot + "/dev"
	if err := unix.Mount("tmpfs", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755"); err != nil {
		return err
	}
	for _, d := range devices {
		p := dev + "/" + d
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o666)
		if err != nil {
			return err
		}
		f.Close()
		if err := unix.Mount(oldRoot+"/dev/"+d, p, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind /dev/%s: %w", d, err)
		}
	}
	for name, target := range map[string]string{
		"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2",
	} {
		if err := os.Symlink(target, dev+"/"+name); err != nil {
			return err
		}
	}
	if err := bindPrivate("shm", dev+"/shm", false); err != nil {
		return fmt.Errorf("mount /dev/shm: %w", err)
	}
	if err := i.mountPTS(dev); err != nil {
		return err
	}
	// Read-only for /dev itself only: /dev/shm stays writable.
	err := unix.MountSetattr(unix.AT_FDCWD, dev, 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID})
	if err != nil {
		return fmt.Errorf("mount_setattr %s: %w", dev, err)
	}
	return nil
}

// bindAll binds the project and the extra paths, parents first, each
// writable or read-only as planned, never with set-uid bits or devices.
func (i *initProc) bindAll() error {
	if i.cfg.Project == "/" {
		return &stepError{"the project is /", "pass a project directory with --project"}
	}
	for _, b := range i.cfg.Binds {
		var err error
		if i.cfg.HostID {
			err = i.bindIdmapped(b)
		} else {
			err = bindOne(b)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", b.Path, err)
		}
	}
	if i.cfg.HostID {
		if err := i.bindToolchains(); err != nil {
			return err
		}
		return readOnlyCovers(i.covers)
	}
	return nil
}

// bindOne binds b.Path of the host onto the same path of the view. Both
// ends are opened with openat2(RESOLVE_NO_SYMLINKS): the parent resolved
// every link, so the real paths have none, and one found now means the
// view changed under us. The source must be the file the parent planned
// (device and inode), and the mount is made and set up from the
// descriptors (open_tree, mount_setattr, move_mount), never by name.
func bindOne(b bind) error { return bindFrom(oldRoot, b) }

// bindFrom is bindOne with the source below root: oldRoot (the host), or
// newRoot for a path inside an idmapped mount already attached there,
// whose bind then shares its idmapping.
func bindFrom(root string, b bind) error {
	target := newRoot + b.Path
	fi, err := os.Lstat(target)
	switch {
	case errors.Is(err, os.ErrNotExist):
		// Below a tmpfs made above (/tmp): make the mount point.
		if b.Dir {
			err = os.MkdirAll(target, 0o755)
		} else if err = os.MkdirAll(filepath.Dir(target), 0o755); err == nil {
			var f *os.File
			if f, err = os.OpenFile(target, os.O_CREATE|os.O_WRONLY|unix.O_NOFOLLOW, 0o644); err == nil {
				f.Close()
			}
		}
		if err != nil {
			return err
		}
	case err != nil:
		return err
	case fi.Mode()&os.ModeSymlink != 0:
		// The parent resolved every link; one here means the view
		// changed under us.
		return &stepError{b.Path + " is a symbolic link in the sandbox view", "retry the run"}
	}
	src, err := openNoLinks(root+b.Path, b.Path)
	if err != nil {
		return err
	}
	defer unix.Close(src)
	var st unix.Stat_t
	if err := unix.Fstat(src, &st); err != nil {
		return fmt.Errorf("stat: %w", err)
	}
	if b.Ino != 0 && (st.Dev != b.Dev || st.Ino != b.Ino) {
		return &stepError{fmt.Sprintf("%s was replaced after the run was planned (device %d inode %d, planned %d %d)", b.Path, st.Dev, st.Ino, b.Dev, b.Ino),
			"retry the run; if it happens again, something on the host keeps replacing this path"}
	}
	if (st.Mode&unix.S_IFMT == unix.S_IFDIR) != b.Dir {
		return &stepError{b.Path + " changed type after the run was planned", "retry the run"}
	}
	dst, err := openNoLinks(target, b.Path)
	if err != nil {
		return err
	}
	defer unix.Close(dst)
	tree, err := unix.OpenTree(src, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH|unix.AT_RECURSIVE)
	if err != nil {
		return fmt.Errorf("open_tree: %w", err)
	}
	defer unix.Close(tree)
	flags := uint64(unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV)
	if !b.Writable {
		flags |= unix.MOUNT_ATTR_RDONLY
	}
	// Set before the tree is attached: it is never in the view without
	// its flags.
	if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: flags}); err != nil {
		return fmt.Errorf("mount_setattr %s: %w", b.Path, err)
	}
	if root == newRoot && b.Writable {
		// A clone from the view carries the flags of the view's mount
		// there, a read-only bind of the plan above it: writable is
		// the plan's word for this path. Its own mount only: what is
		// mounted below it keeps its flags.
		if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
			return fmt.Errorf("mount_setattr %s: %w", b.Path, err)
		}
	}
	if err := unix.MoveMount(tree, "", dst, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	return nil
}

// openNoLinks opens p as O_PATH without following any link on the way
// (RESOLVE_NO_SYMLINKS, RESOLVE_NO_MAGICLINKS). name is the path in the
// view, for errors.
func openNoLinks(p, name string) (int, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	switch {
	case err == unix.ELOOP:
		// The parent resolved every link; one here means the view
		// changed under us.
		return -1, &stepError{name + " is reached through a symbolic link in the sandbox view, which the plan had none of", "retry the run; if it happens again, something is replacing the path with a link"}
	case err == unix.ENOSYS:
		return -1, &stepError{"openat2: " + err.Error(), "the kernel is too old: Linux 5.12 or newer is needed"}
	case err != nil:
		return -1, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return fd, nil
}

// fdPath names the open file fd for a mount(2) argument: the magic link
// of init's own descriptor in the host's /proc (the view has no /proc
// yet), which the kernel follows to the file itself, not by its name.
func fdPath(fd int) string { return fmt.Sprintf("%s/proc/self/fd/%d", oldRoot, fd) }

func (i *initProc) mask() error {
	if err := makeMaskFile(); err != nil {
		return fmt.Errorf("mask file: %w", err)
	}
	for _, p := range i.cfg.Masks {
		fd, err := openNoLinks(newRoot+p, p)
		if errors.Is(err, os.ErrNotExist) {
			continue // not visible in the sandbox at all
		}
		if err != nil {
			return err
		}
		var st unix.Stat_t
		err = unix.Fstat(fd, &st)
		if err == nil {
			err = maskPath(fdPath(fd), st.Mode&unix.S_IFMT == unix.S_IFDIR)
		}
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

// maskFile is what covers a masked file: an empty regular file of mode
// 0000 on a tmpfs of its own, read-only, in the set-up root. A write to a
// masked file fails (EROFS, the read-only file system, whatever the
// opening flags; truncate, chmod and utimes too), and so does a read
// (EACCES): nothing is written into /dev/null, and the program says it
// failed. Renaming over or removing it fails with EBUSY, as for any mount
// point.
const maskFile = "/mask/file"

func makeMaskFile() error {
	dir := filepath.Dir(maskFile)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,nr_inodes=2,mode=0700"); err != nil {
		return err
	}
	fd, err := unix.Open(maskFile, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	unix.Close(fd)
	if err := unix.Fchmodat(unix.AT_FDCWD, maskFile, 0, 0); err != nil {
		return err
	}
	return unix.Mount("", dir, "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
}

// maskPath covers a directory with an empty read-only tmpfs of mode 0000
// (nothing can be read or created in it) and anything else with
// maskFile.
func maskPath(target string, dir bool) error {
	if dir {
		if err := unix.Mount("tmpfs", target, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=0,mode=0000"); err != nil {
			return err
		}
		return nil
	}
	return unix.Mount(maskFile, target, "", unix.MS_BIND, "")
}

// procMasks are covered with maskFile (reading one fails with EACCES);
// procReadOnly become read-only.
var (
	procMasks    = []string{"kcore", "sysrq-trigger", "timer_list", "keys", "kallsyms"}
	procReadOnly = []string{"sys", "irq", "bus", "fs", "sysrq-trigger"}
)

func mountProc() error {
	p := newRoot + "/proc"
	if err := unix.Mount("proc", p, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return err
	}
	// Before /proc/sys is read-only.
	if err := limitSocketBuffers(p + "/sys"); err != nil {
		return err
	}
	for _, name := range procReadOnly {
		sub := p + "/" + name
		if _, err := os.Lstat(sub); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err := unix.Mount(sub, sub, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", sub, err)
		}
		if err := setattr(sub, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC); err != nil {
			return err
		}
	}
	for _, name := range procMasks {
		sub := p + "/" + name
		if _, err := os.Lstat(sub); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err := maskPath(sub, false); err != nil {
			return fmt.Errorf("mask %s: %w", sub, err)
		}
	}
	return nil
}

// sysMasks are the parts of the sandbox's own sysfs that still describe
// the host rather than the sandbox, covered as procMasks are. Its network
// entries (/sys/class/net, /sys/devices/virtual/net) need none: a sysfs
// mounted in the sandbox's network namespace lists that namespace's
// interfaces only (loopback). Nor do debugfs, securityfs, tracefs, the
// cgroup hierarchies and the other filesystems the host mounts below /sys:
// a fresh sysfs has none of them, only their empty mount points.
var sysMasks = []string{
	"firmware",            // ACPI tables, DMI entries, EFI variables, the device tree: serial numbers, board and platform ids
	"devices/virtual/dmi", // /sys/class/dmi/id: the machine's vendor, model, serial numbers and uuid
	"hypervisor",          // the guest's uuid and the hypervisor's properties (Xen)
}

// mountSys replaces the host's /sys with a fresh read-only sysfs of the
// sandbox's network namespace (init's user namespace owns it, so it may),
// sysMasks covered, and the run's own cgroup v2 directory, read-only, as
// /sys/fs/cgroup where the run has one; else /sys/fs/cgroup is empty. In
// the command's cgroup namespace that directory is "/".
func (i *initProc) mountSys() error {
	p := newRoot + "/sys"
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := unix.Mount("sysfs", p, "sysfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return &stepError{"sysfs: " + err.Error(),
			"the kernel gives a user namespace a sysfs only where the host's /sys is fully visible: " +
				"a container that masks parts of /sys or /proc (Docker's default) refuses it and /proc alike; run warden outside it, or with those paths unmasked"}
	}
	for _, name := range sysMasks {
		sub := p + "/" + name
		fi, err := os.Lstat(sub)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := maskPath(sub, fi.IsDir()); err != nil {
			return fmt.Errorf("mask %s: %w", sub, err)
		}
	}
	if i.cfg.CgroupV2 == "" {
		return nil
	}
	cg := p + "/fs/cgroup"
	if err := unix.Mount(oldRoot+i.cfg.CgroupV2, cg, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind the run's cgroup: %w", err)
	}
	return setattr(cg, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
}

func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// dropPrivileges leaves this thread, and so the command it starts, with no
// capability at all and no way to gain one; with hostID, also as uid and
// gid 65534 ([hostID] outside) with no supplementary group.
func dropPrivileges(hostID bool) error {
	// Other threads of init keep their capabilities until init exits;
	// non-dumpable keeps the command from ptracing or reading them.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_DUMPABLE: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_NO_NEW_PRIVS: %w", err)
	}
	last, err := lastCap()
	if err != nil {
		return err
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			return fmt.Errorf("PR_CAPBSET_DROP %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_CAP_AMBIENT_CLEAR_ALL: %w", err)
	}
	if hostID {
		if err := becomeSandboxID(); err != nil {
			return err
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	// Check, rather than trust, the result.
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	for _, d := range data {
		if d.Effective != 0 || d.Permitted != 0 || d.Inheritable != 0 {
			return errors.New("capabilities still present after capset")
		}
	}
	return nil
}

// installSeccomp loads package seccomp's filter. It needs the
// no_new_privs that dropPrivileges set on this thread. Refused calls go
// through a listener served by init, which records them; on a kernel
// without user notification the kernel refuses them itself, unrecorded.
func (i *initProc) installSeccomp() error {
	opts := seccomp.Options{Notify: true, Allow: i.cfg.AllowSyscalls}
	listener, err := seccomp.Install(opts)
	if errors.Is(err, seccomp.ErrNoListener) {
		opts.Notify = false
		_, err = seccomp.Install(opts)
		i.blocked.how = "not recorded: " + seccomp.ErrNoListener.Error()
	}
	if err != nil {
		return &stepError{err.Error(), "the kernel must support seccomp filters (CONFIG_SECCOMP_FILTER, Linux 4.14 or newer) on x86_64; or run with --degraded=seccomp"}
	}
	if listener < 0 {
		return nil
	}
	// Never the command's.
	if _, err := unix.FcntlInt(uintptr(listener), unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
		return fmt.Errorf("listener close-on-exec: %w", err)
	}
	i.blocked.how = "seccomp user notification"
	i.blocked.notify = func(c audit.Syscall) { send(i.ctl, report{Blocked: []audit.Syscall{c}, BlockedPartial: true}) }
	go seccomp.Serve(listener, i.blocked.add)
	return nil
}

// awaitGo waits for the parent's go: until then the command must not
// start, as init may not be in its cgroup yet. Anything else (the parent
// gone, a stray message) stops the run.
func (i *initProc) awaitGo() error {
	buf := make([]byte, 64)
	n, err := i.ctl.Read(buf)
	if err != nil {
		return fmt.Errorf("read from the parent: %w", err)
	}
	if string(buf[:n]) != string(goMessage) {
		return fmt.Errorf("unexpected message from the parent: %q", buf[:n])
	}
	return nil
}

// maxBlocked bounds the distinct refused calls a run records.
const maxBlocked = 64

// blockedLog aggregates the calls the filter refused, by name.
type blockedLog struct {
	how    string
	notify func(audit.Syscall) // called for each new entry
	mu     sync.Mutex          // guards the fields below
	byName map[string]int      // index in calls
	calls  []audit.Syscall
	// dropped counts refusals of calls not recorded past maxBlocked.
	dropped int
}

func (b *blockedLog) add(e seccomp.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	name := e.Syscall
	if name == "" {
		name = fmt.Sprintf("syscall %d", e.Nr)
	}
	if i, ok := b.byName[name]; ok {
		b.calls[i].Count++
		return
	}
	if len(b.calls) == maxBlocked {
		b.dropped++
		return
	}
	if b.byName == nil {
		b.byName = map[string]int{}
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", e.PID))
	b.byName[name] = len(b.calls)
	c := audit.Syscall{
		Syscall: name, Errno: "EPERM", Count: 1, PID: e.PID,
		Command: strings.TrimSpace(string(comm)), Args: e.Args[:argCount(name)],
	}
	b.calls = append(b.calls, c)
	// Told at once, so that a run the timeout kills still has it.
	if b.notify != nil {
		b.notify(c)
	}
}

func (b *blockedLog) list() []audit.Syscall {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]audit.Syscall(nil), b.calls...)
}

// argCount is how many arguments of a refused call are worth recording:
// the ones rules look at, and the first two otherwise.
func argCount(name string) int {
	switch name {
	case "socket", "socketpair", "clone", "unshare", "personality":
		return 2
	case "ioctl":
		return 2
	}
	return 1
}

func lastCap() (int, error) {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 0, err
	}
	var n int
	if _, err := fmt.Sscanf(string(b), "%d", &n); err != nil {
		return 0, fmt.Errorf("cap_last_cap: %w", err)
	}
	return n, nil
}

// runCommand starts the command, reaps every process until it exits and
// reports its status. It never returns.
func (i *initProc) runCommand() {
	env := i.cfg.Env
	for _, kv := range env {
		if len(kv) > 5 && kv[:5] == "PATH=" {
			os.Setenv("PATH", kv[5:])
		}
	}
	path, err := exec.LookPath(i.cfg.Argv[0])
	if err != nil {
		status := 127
		if !errors.Is(err, exec.ErrNotFound) {
			status = 126
		}
		send(i.ctl, report{StartError: fmt.Sprintf("%s: %v", i.cfg.Argv[0], err), Exit: status})
		os.Exit(status)
	}
	if !filepath.IsAbs(path) {
		path, _ = filepath.Abs(path)
	}
	// Close everything from 3 up (the control socket included) in the
	// command; init's own descriptors are close-on-exec already.
	if err := unix.CloseRange(ctlFD, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		fail(i.ctl, "close descriptors: "+err.Error(), "")
	}
	if !i.cfg.NoLandlock {
		i.step("landlock", func() error { return installLandlock(&i.cfg) })
	}
	<-i.sigsReady
	i.step("wait for the cgroup", i.awaitGo)
	// Init is in the run's cgroups now: they become the root of the
	// command's cgroup namespace, which takes CAP_SYS_ADMIN, so before
	// privileges go, and unshare, so before seccomp refuses it.
	i.step("enter cgroup namespace", func() error { return unix.Unshare(unix.CLONE_NEWCGROUP) })
	i.step("drop privileges", func() error { return dropPrivileges(i.cfg.HostID) })
	// Last, so that no setup step runs under it; TSYNC covers every
	// thread of init, and the command inherits it.
	if !i.cfg.NoSeccomp {
		i.step("seccomp filter", i.installSeccomp)
	}
	if err := setCommandRlimits(i.cfg.CommandRlimits); err != nil {
		fail(i.ctl, err.Error(), "the hard limit of this user is lower; lower the limit in the policy")
	}
	t0 := time.Now()
	// syscall.ForkExec, not os.StartProcess: init reaps with wait4 and
	// needs no pidfd, whose first use costs a probing fork.
	files, sys := i.commandStdio()
	pid, err := syscall.ForkExec(path, i.cfg.Argv, &syscall.ProcAttr{
		Dir:   i.cfg.Project,
		Env:   env,
		Files: files,
		Sys:   sys,
	})
	if err != nil {
		status := 126
		if errors.Is(err, os.ErrNotExist) {
			status = 127
		}
		send(i.ctl, report{StartError: fmt.Sprintf("%s: %v", i.cfg.Argv[0], err), Exit: status})
		os.Exit(status)
	}
	if i.cfg.Trace {
		send(i.ctl, report{Step: "start command", Micros: time.Since(t0).Microseconds()})
	}
	send(i.ctl, report{Started: true})
	go func() {
		for sig := range i.sigs {
			if s, ok := sig.(syscall.Signal); ok && forwarded[s] {
				syscall.Kill(pid, s)
			}
		}
	}()
	for {
		var ws syscall.WaitStatus
		reaped, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			fail(i.ctl, "wait: "+err.Error(), "")
		}
		if reaped != pid {
			continue // an orphan, reaped
		}
		r := report{Done: true, Exit: ws.ExitStatus(), Blocked: i.blocked.list(), BlockedHow: i.blocked.how, BlockedDropped: i.blocked.dropped}
		if ws.Signaled() {
			r.Signal = int(ws.Signal())
		}
		send(i.ctl, r)
		// Exiting kills whatever the command left behind.
		os.Exit(0)
	}
}
