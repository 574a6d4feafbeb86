// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// privatePlaces are the host directories the sandbox replaces with its own
// private tmpfs: what is below them on the host is not seen through the
// read-only root.
var privatePlaces = []string{"/tmp", "/dev/shm", "/run"}

// homeBind returns the read-only bind that keeps a home below one of the
// privatePlaces visible (a HOME under /tmp, common on CI machines), as a
// home elsewhere is through the read-only root; its masks apply as
// anywhere. None when the home is elsewhere, is one of those places
// itself (then it is the private tmpfs), or is already inside another
// bind (the project, a read_write path), which shows it.
func homeBind(r *hostResolver, home string, binds []bind) []bind {
	if home == "" {
		return nil
	}
	real, fi, err := r.resolveHost(home, false)
	if err != nil || !fi.IsDir() {
		return nil // a home that is not there is not shown
	}
	private := false
	for _, p := range privatePlaces {
		private = private || within(real, p)
	}
	if !private {
		return nil
	}
	for _, b := range binds {
		if b.Path == real || within(real, b.Path) {
			return nil
		}
	}
	return []bind{{Path: real, Dir: true}}
}
