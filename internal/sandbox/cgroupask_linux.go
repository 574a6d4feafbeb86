// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// StartCgroup begins making a run's cgroup for limits l, as Run would
// once it starts: the directories swept, made and set while the caller
// still judges the command. Pass it in Spec.Cgroup; Close it whether or
// not a run took it.
func StartCgroup(l Limits) *CgroupAsk {
	c := &CgroupAsk{limits: l, made: make(chan any, 1)}
	go func() {
		cg, err := newCgroup(l)
		c.made <- cgroupMade{cg, err}
	}()
	return c
}

// Close removes the cgroup unless a run took it, once it is made.
func (c *CgroupAsk) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	taken := c.taken
	c.taken = true
	c.mu.Unlock()
	if taken || c.made == nil {
		return
	}
	if m := (<-c.made).(cgroupMade); m.cg != nil {
		m.cg.remove()
	}
}

// StartUserns begins making the user namespace that maps the owner of
// project to the unprivileged identity a root caller's command runs as,
// as Run would once it plans the view. Nil when the run will make none:
// a caller that is not root, or degraded names host-uid. Pass it in
// Spec.Userns; Close it whether or not a run took it.
func StartUserns(project string, degraded []Layer) *UsernsAsk {
	if os.Getuid() != 0 || slices.Contains(degraded, LayerHostUID) || project == "" {
		return nil
	}
	return &UsernsAsk{early: startUserns(project)}
}

// take hands the namespace in the making over to a run, once.
func (u *UsernsAsk) take() *earlyUserns {
	if u == nil {
		return nil
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.taken {
		return nil
	}
	u.taken = true
	return u.early.(*earlyUserns)
}

// Close closes the namespace unless a run took it.
func (u *UsernsAsk) Close() {
	if e := u.take(); e != nil {
		if r := e.wait(); r.err == nil {
			unix.Close(r.fd)
		}
	}
}
