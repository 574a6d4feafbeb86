// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/pathguard"
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
	for _, d := range c.Recursive {
		c.Requests[0].Paths = append(c.Requests[0].Paths, sensitiveBelow(d, home)...)
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

// maxBelow bounds the entries visited under a directory read recursively.
const maxBelow = 20000

// sensitiveBelow lists the sensitive files under dir (a Grep's
// directory), and files with several links (a hard link to a key is
// recognised by resolution), so the floor judges what the call reads. A
// tree too large to walk yields a path that cannot resolve: the call is
// denied rather than judged on a guess. Symbolic links are not followed,
// as ripgrep does not follow them.
func sensitiveBelow(dir, home string) []string {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil
	}
	var out []string
	n := 0
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maxBelow {
			return errTooMany
		}
		if _, ok := pathguard.SensitiveIn(p, home); ok {
			out = append(out, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && pathguard.MultiplyLinked(fi) {
				out = append(out, p)
			}
		}
		return nil
	})
	if err != nil {
		out = append(out, dir+"\x00(holds more than 20000 entries to check for secrets)")
	}
	return out
}

var errTooMany = errors.New("too many entries")
