// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// Init's mounts: how the steps of setup build the view the parent planned
// (view.go), below newRoot, from the host tree moved to oldRoot. The rules:
//
//   - A bind or a mask of a host path is made from descriptors, never by
//     name: both ends are opened with openat2(RESOLVE_NO_SYMLINKS), and a
//     link found now means the view changed since it was planned, which
//     stops the run. A bind's source must be the file planned (device and
//     inode), and its flags are set before it is attached.
//   - No bind carries set-uid bits or devices (nosuid, nodev); the minimal
//     /dev binds only the host's devices listed in devices.
//   - /tmp, /dev/shm, /run and the exec scratch are directories of one
//     private tmpfs, so that one size and inode bound holds for all of
//     them together; all but the scratch are noexec.
//   - A mask covers a directory with an empty read-only tmpfs of mode 0000
//     and anything else with maskFile, so that a write fails with EROFS
//     and a read with EACCES instead of vanishing.
//   - /proc and /sys are fresh instances of the sandbox's namespaces; what
//     in them still describes or changes the host is masked or read-only.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

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
		// chmod, not mkdir's mode, which the umask would cut.
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
	if err := i.makeMaskFile(); err != nil {
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

func (i *initProc) makeMaskFile() error {
	if i.maskMade {
		return nil
	}
	i.maskMade = true
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

// mountProc mounts the sandbox's /proc, and caps the namespace's socket
// buffers before its /proc/sys is read-only, unless capped says a warm
// init did already (prework).
func mountProc(capped bool) error {
	p := newRoot + "/proc"
	if err := unix.Mount("proc", p, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return err
	}
	if !capped {
		if err := limitSocketBuffers(p + "/sys"); err != nil {
			return err
		}
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
// sysMasks covered. Its /sys/fs/cgroup is empty until bindCgroup.
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
	return nil
}

// bindCgroup shows the run's own cgroup v2 directory, read-only, as the
// sandbox's /sys/fs/cgroup where the run has one (config.CgroupV2). In
// the command's cgroup namespace that directory is "/".
func (i *initProc) bindCgroup() error {
	if i.cfg.CgroupV2 == "" {
		return nil
	}
	p := newRoot + "/sys"
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	cg := p + "/fs/cgroup"
	if err := unix.Mount(oldRoot+i.cfg.CgroupV2, cg, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind the run's cgroup: %w", err)
	}
	return setattr(cg, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
}
