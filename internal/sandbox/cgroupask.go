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

// PlanAsk is a run's plan begun ahead of the run ([StartPlan]), while
// the command is still judged: its run cache, init's configuration, the
// view (the project and the home walked for masks), and a root caller's
// user namespace in the making. A run given it in Spec.Plan takes it only
// if its spec is the one the plan was begun for, in every field; Close
// frees one no run took.
type PlanAsk struct {
	mu       sync.Mutex
	key      string
	prepared any // Linux: a *prepared
	taken    bool
	matched  bool // a run took it (for tests)
}
