// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// A warm init makes the mounts no view needs while it waits for a run
// (premount): those of setupBase for the base configuration a run most
// likely sends, /proc and /sys. They are made from the host's mount
// table as a run started then would see it, and the host's mounts keep
// propagating in (slave: nothing made here propagates out) until a run
// takes the init. adoptMounts then makes them private, as a run's own
// first step does, and the host's tree read-only again, mounts that came
// in since with it; so the run sees the host's mounts as they are when it
// starts, as a run that makes them then does. A run whose base
// configuration is another gets them made anew.

// likelyBase is the base configuration of a run of the default mode,
// without a terminal, whose cgroup bounds its memory: what premount
// makes the mounts for.
func likelyBase() config {
	return config{ExecScratch: hasExecScratch()}
}

// hasExecScratch says whether a run has the exec scratch: it is mounted
// in the sandbox's /run, which exists where the host has one.
func hasExecScratch() bool {
	fi, err := os.Stat("/run")
	return err == nil && fi.IsDir()
}

// premount makes, in a warm init, the mounts of setupBase for
// likelyBase, the mask file, /proc and /sys. A step that fails ends
// nothing here: the run that takes the init fails with it.
func (i *initProc) premount() {
	i.cfg = likelyBase()
	i.soft, i.propagation = true, unix.MS_SLAVE
	i.setupBase()
	i.step("mask file", i.makeMaskFile)
	i.step("mount /proc", func() error { return mountProc(i.ahead.capped) })
	i.step("mount /sys", i.mountSys)
	i.soft, i.propagation = false, 0
	b := i.cfg.base()
	i.ahead.mounted, i.ahead.failed = &b, i.failed
	i.procSys = i.failed == nil
	i.failed = nil
}

// adoptMounts takes the mounts premount made for the run whose base
// configuration init has just received: made private, the host's tree
// read-only again over whatever propagated in, and the private tmpfs
// bounded as the run asks. A run whose base configuration differs in
// anything else gets them made anew (setupBase's steps but the first
// two, which premount's are). A step premount failed in fails the run.
func (i *initProc) adoptMounts() {
	if f := i.ahead.failed; f != nil {
		fail(i.ctl, f.Error, f.Hint)
	}
	i.step("make mounts private", func() error {
		return unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, "")
	})
	want, got := *i.ahead.mounted, i.cfg.base()
	// Bounds are set by a remount; a trace only reports.
	want.TmpfsSize, want.TmpfsInodes, want.Trace = got.TmpfsSize, got.TmpfsInodes, got.Trace
	if got != want {
		i.step("prepare new root", i.remakeNewRoot)
		i.setupTree()
		return
	}
	i.step("bind / read-only", func() error {
		// Recursive, so that a host mount that propagated in since is
		// read-only as well; then init's own mounts get back the flags
		// a run that makes them has.
		if err := setattr(newRoot, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV); err != nil {
			return err
		}
		for _, m := range i.ownMounts() {
			if _, err := os.Lstat(m.path); errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err := unix.MountSetattr(unix.AT_FDCWD, m.path, 0, &unix.MountAttr{Attr_clr: m.clear}); err != nil {
				return fmt.Errorf("mount_setattr %s: %w", m.path, err)
			}
		}
		return nil
	})
	if got.TmpfsSize != 0 || got.TmpfsInodes != 0 {
		i.step("mount private tmpfs", func() error {
			return unix.Mount("", privatePool, "", unix.MS_REMOUNT|unix.MS_NOSUID|unix.MS_NODEV, strings.TrimPrefix(i.tmpfsOpts(""), ","))
		})
	}
}

// ownMount is one of the mounts premount made, and the flags the
// recursive read-only setattr of adoptMounts gave it that a run that
// makes it itself does not have.
type ownMount struct {
	path  string
	clear uint64
}

// ownMounts are premount's mounts below the new root that differ from
// the host's read-only tree: the private tmpfs's binds and /proc are
// writable, /dev allows devices, and the devices bound in it have the
// flags of the host's. (The rest premount made read-only, nosuid and
// nodev already.)
func (i *initProc) ownMounts() []ownMount {
	const ro, dev = unix.MOUNT_ATTR_RDONLY, unix.MOUNT_ATTR_NODEV
	ms := []ownMount{{newRoot + "/tmp", ro}, {newRoot + "/run", ro}, {newRoot + "/dev/shm", ro}, {newRoot + "/proc", ro}, {newRoot + "/dev", dev}}
	if i.cfg.ExecScratch {
		ms = append(ms, ownMount{newRoot + execScratch, ro})
	}
	for _, d := range devices {
		m := ownMount{newRoot + "/dev/" + d, ro | dev}
		var st unix.Statfs_t
		if unix.Statfs(oldRoot+"/dev/"+d, &st) == nil && st.Flags&unix.ST_NOSUID == 0 {
			m.clear |= unix.MOUNT_ATTR_NOSUID
		}
		ms = append(ms, m)
	}
	return ms
}

// remakeNewRoot drops what premount made below the new root, and the
// private tmpfs, for setupBase's steps to make them again.
func (i *initProc) remakeNewRoot() error {
	for _, p := range []string{newRoot, privatePool} {
		if err := unix.Unmount(p, unix.MNT_DETACH); err != nil {
			return err
		}
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	i.procSys = false
	return os.Mkdir(newRoot, 0o755)
}

// viewBelow says whether anything of the view is at or below one of
// dirs (or above it).
func (i *initProc) viewBelow(dirs ...string) bool {
	paths := append([]string{i.cfg.Home, i.cfg.Project, i.cfg.ResolvConf}, i.cfg.Masks...)
	for _, b := range i.cfg.Binds {
		paths = append(paths, b.Path)
	}
	paths = append(paths, i.cfg.Idmapped...)
	for _, p := range paths {
		if p == "" {
			continue
		}
		for _, d := range dirs {
			if p == d || within(p, d) || within(d, p) {
				return true
			}
		}
	}
	return false
}

// unmountProcSys unmounts the /proc and /sys premount made, for the view
// to be made below where they are mounted, then.
func (i *initProc) unmountProcSys() error {
	for _, p := range []string{newRoot + "/proc", newRoot + "/sys"} {
		if err := unix.Unmount(p, unix.MNT_DETACH); err != nil && err != unix.EINVAL {
			return err
		}
	}
	i.procSys = false
	return nil
}
