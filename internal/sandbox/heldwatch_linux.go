// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file stops a run as soon as the host replaces a protected file
// of a writable root. Its read-only protection is a mount on the host's
// file, and Linux takes such a mount away, in every namespace, with its
// file once that file is renamed over or removed outside (an editor's
// save, git config writing .git/config anew, a git checkout): from then
// on the command could write the new one, which a host tool may run. The
// post-run check takes back what was written once the run is over; this
// ends the run at once, so that a long one (a server) does not go on with
// the file open to it, and the check comes within moments. The command
// cannot set it off itself: within the sandbox a mount point cannot be
// renamed over or removed (EBUSY). Masks are not watched: what a command
// reads of a secret the host rewrote it reads at once, before any watch
// could stop it, and histories and agents' state files in the home are
// rewritten all the time; the run says afterwards which masks did not
// hold (view.masksGone).

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// replacedReason begins the reason a run was stopped for when the host
// replaced one of its watched files; the path follows.
const replacedReason = "replaced "

// replacedOne returns the first of ws that is no longer the file planned
// (another file at its name, or none), or "".
func replacedOne(ws []held) string {
	for _, w := range ws {
		if id, err := identity(w.path); err != nil || id != w.id {
			return w.path
		}
	}
	return ""
}

// watchReplaced watches the directories that hold ws, the run's held
// entries, and sends, once, the path of the first of them the host
// replaces; close stops it. Without inotify (no descriptor, no watch
// left) it says so in note, and what it could not watch is left to the
// post-run check.
func watchReplaced(ws []held) (replaced <-chan string, close func(), note string) {
	if len(ws) == 0 {
		return nil, func() {}, ""
	}
	unwatched := func(err error) string {
		return fmt.Sprintf("the files the run is kept from are not all watched (inotify: %v): one the host replaces during the run stays open to it until the run ends, when the post-run check takes back what was written", err)
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, func() {}, unwatched(err)
	}
	// The names to look at in each watched directory.
	names := map[int32]map[string]bool{}
	for _, w := range ws {
		wd, err := unix.InotifyAddWatch(fd, filepath.Dir(w.path), unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|
			unix.IN_MOVED_TO|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_ONLYDIR|unix.IN_DONT_FOLLOW)
		if err != nil {
			if note == "" {
				note = unwatched(err)
			}
			continue
		}
		if names[int32(wd)] == nil {
			names[int32(wd)] = map[string]bool{}
		}
		names[int32(wd)][filepath.Base(w.path)] = true
	}
	f := os.NewFile(uintptr(fd), "inotify")
	ch := make(chan string, 1)
	go func() {
		// What the host did between the plan and the watches.
		if p := replacedOne(ws); p != "" {
			ch <- p
			return
		}
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			if err != nil {
				return // closed: the run is over
			}
			look := false
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				if i := bytes.IndexByte(name, 0); i >= 0 {
					name = name[:i]
				}
				switch {
				case ev.Mask&(unix.IN_Q_OVERFLOW|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_IGNORED) != 0:
					look = true // events lost, or a directory itself moved
				case names[ev.Wd][string(name)]:
					look = true
				}
				off += unix.SizeofInotifyEvent + int(ev.Len)
			}
			if look {
				if p := replacedOne(ws); p != "" {
					ch <- p
					return
				}
			}
		}
	}()
	// Closed aside: a close waits for the reading goroutine to let go of
	// the descriptor, and the run's end need not.
	return ch, func() { go f.Close() }, note
}
