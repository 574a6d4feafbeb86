// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import "sync"

// CgroupAsk is a run's cgroup being made ahead of the run
// ([StartCgroup]), while the command is still judged: its directories
// made and set for limits. A run given it in Spec.Cgroup with the same
// limits takes it; Close removes one no run took.
type CgroupAsk struct {
	mu     sync.Mutex
	limits Limits
	made   chan any // the cgroup, once made (Linux: a cgroupMade)
	taken  bool
}

// take hands the cgroup over to a run with limits l, once; nil when it
// was taken already or was made for other limits.
func (c *CgroupAsk) take(l Limits) chan any {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.taken || c.limits != l || c.made == nil {
		return nil
	}
	c.taken = true
	return c.made
}

// UsernsAsk is the user namespace a root caller's idmapped mounts need,
// being made ahead of the run ([StartUserns]) while the command is still
// judged: it takes a process, the dearest part of an idmapped mount. A
// run given it in Spec.Userns takes it, and uses it only for paths whose
// owner it maps; Close closes one no run took.
type UsernsAsk struct {
	mu    sync.Mutex
	early any // Linux: an *earlyUserns
	taken bool
}
