// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// hideHome covers the home with an empty tmpfs (config.Home), makes in it
// the mount points of the binds that land there, and makes it read-only:
// the command sees what is bound back and nothing else, and cannot write
// beside it.
func (i *initProc) hideHome() error {
	if i.cfg.Home == "" {
		return nil
	}
	target := newRoot + i.cfg.Home
	fi, err := os.Lstat(target)
	if errors.Is(err, os.ErrNotExist) {
		// Below a private tmpfs made above (a home in /tmp, as on CI
		// machines): hidden already, but the binds below it need their
		// mount points there.
		if err = os.MkdirAll(target, 0o755); err == nil {
			fi, err = os.Lstat(target)
		}
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		// The parent resolved the home; anything else means the view
		// changed under us.
		return &stepError{i.cfg.Home + " is not a directory in the sandbox view", "retry the run"}
	}
	if err := unix.Mount("tmpfs", target, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=64k,mode=0755"); err != nil {
		return err
	}
	for _, b := range homeMountPoints(i.cfg.Home, i.cfg.Binds) {
		p := newRoot + b.Path
		if b.Dir {
			err = os.MkdirAll(p, 0o755)
		} else if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			var f *os.File
			f, err = os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				f.Close()
			} else if errors.Is(err, os.ErrExist) {
				err = nil
			}
		}
		if err != nil {
			return fmt.Errorf("mount point %s: %w", b.Path, err)
		}
	}
	err = unix.MountSetattr(unix.AT_FDCWD, target, 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV | unix.MOUNT_ATTR_NOEXEC})
	if err != nil {
		return fmt.Errorf("mount_setattr %s: %w", i.cfg.Home, err)
	}
	return nil
}

// openDir opens the directory at p (links followed) to list it, as
// os.Open does but without offering it to the runtime's poller, which
// refuses directories: four system calls fewer for each directory, which
// the walks of the project and the home read by the hundred before every
// run.
func openDir(p string) (*os.File, error) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	return os.NewFile(uintptr(fd), p), nil
}

// slowFS reports whether the directory f is on a network or FUSE
// filesystem, which the home walk does not list: an sshfs or a synced
// drive below the home can take seconds to answer, or hang.
func slowFS(f *os.File) bool {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &st); err != nil {
		return true // gone, or unreadable: nothing to list either
	}
	switch int64(st.Type) {
	case unix.NFS_SUPER_MAGIC, unix.SMB_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC,
		unix.FUSE_SUPER_MAGIC, unix.V9FS_MAGIC, unix.CEPH_SUPER_MAGIC, unix.AFS_FS_MAGIC, unix.AFS_SUPER_MAGIC,
		unix.CODA_SUPER_MAGIC, unix.NCP_SUPER_MAGIC, unix.OCFS2_SUPER_MAGIC:
		return true
	}
	return false
}
