// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import "fmt"

// StartCgroup begins making a run's cgroup for limits l, as Run would
// once it starts: the directories swept, made and set while the caller
// still judges the command. With warm, the warden serve asked for its
// init, a run of the default limits takes the cgroup serve made ahead
// with it, when serve is in this process's cgroups. Pass it in
// Spec.Cgroup; Close it whether or not a run took it.
func StartCgroup(l Limits, warm *WarmAsk) *CgroupAsk {
	c := &CgroupAsk{limits: l, made: make(chan any, 1)}
	go func() {
		if warm != nil && l == (Limits{}) {
			if cg := warm.answer().takeCgroup(); cg != nil {
				c.made <- cgroupMade{cg, nil}
				return
			}
		}
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

// StartPlan begins planning a run of spec, as Run would once it starts:
// the run cache made, init's configuration built, the view planned and a
// root caller's user namespace begun while the caller still judges the
// command. Pass it in Spec.Plan of the very same spec; Close it whether
// or not a run took it.
func StartPlan(spec Spec) *PlanAsk {
	spec.Plan = nil
	return &PlanAsk{key: planKey(spec), prepared: prepare(spec)}
}

// planKey is spec in full, every field, so that a plan is taken only by
// the spec it was begun for.
func planKey(spec Spec) string {
	spec.Plan = nil
	return fmt.Sprintf("%#v", spec)
}

// take hands the plan over to a run of spec, once; nil when it was taken
// already or begun for another spec (it is then dropped).
func (a *PlanAsk) take(spec Spec) *prepared {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.taken {
		return nil
	}
	a.taken = true
	pr := a.prepared.(*prepared)
	if planKey(spec) != a.key {
		pr.drop()
		return nil
	}
	a.matched = true
	return pr
}

// Close frees the plan unless a run took it.
func (a *PlanAsk) Close() {
	if a == nil {
		return
	}
	a.mu.Lock()
	taken := a.taken
	a.taken = true
	a.mu.Unlock()
	if !taken {
		a.prepared.(*prepared).drop()
	}
}
