// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

import (
	"errors"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/policy"
)

// Judge decides every request of a call with the engine of warden
// explain, at now, and returns the strictest decision (deny, then
// prompt, then allow; the first of equals) with its action. The
// sensitive files below the call's recursive directories are added to
// the first request, so that the floor judges what the call really
// reads.
func Judge(p *config.Policy, c *adapter.Call, now time.Time, home string) (*action.Action, policy.Decision, error) {
	if len(c.Requests) == 0 {
		return nil, policy.Decision{}, errors.New("internal error: a call with no action")
	}
	var worst *action.Action
	var wd policy.Decision
	for i := range c.Requests {
		a, d, err := p.Decide(&c.Requests[i], c.Cwd, policy.Env{Now: now})
		if err != nil {
			return nil, policy.Decision{}, err
		}
		if worst == nil || strictness(d.Verdict) > strictness(wd.Verdict) {
			worst, wd = a, d
		}
	}
	return worst, wd, nil
}

func strictness(v action.Verdict) int {
	switch v {
	case action.Allow:
		return 0
	case action.Prompt:
		return 1
	}
	return 2
}
