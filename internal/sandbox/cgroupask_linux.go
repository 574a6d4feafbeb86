// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

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
