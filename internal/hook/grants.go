// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

// --wrap's grants: a shell command the hook allowed (or that the person
// is asked about in the agent's own prompt) is rewritten to run under
// warden run with a single-use grant (package grant) that hands the run
// the hook's decision. The grant is bound to the argv the rewritten line
// gives warden run, the directory the agent runs the line in, the
// project named on it and the policy's revisions; it lives under the
// hooks' state, which every run masks. A grant that cannot be written
// only costs the run its shortcut: warden run then judges the command in
// full.

import (
	"path/filepath"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/grant"
	"warden.dev/warden/internal/policy"
)

// GrantDir is where --wrap's grants are kept, under the hooks' state
// ([StateRoot]); empty when the user has no cache directory.
func GrantDir() string {
	root := StateRoot()
	if root == "" {
		return ""
	}
	return filepath.Join(root, "grants")
}

// issueGrant writes the grant for the call c about to be wrapped by w,
// decided d under p and answered v, and returns its id; "" when there is
// none to give.
func issueGrant(o Options, c *adapter.Call, w *adapter.Wrapper, p *config.Policy, d policy.Decision, v action.Verdict) string {
	if o.Grants == "" || w.Project == "" {
		return ""
	}
	b := grant.Binding{
		Argv:    w.Argv(c.Requests[0].Command, c.Dir),
		Dir:     realPath(c.Dir),
		Project: realPath(w.Project),
		Policy:  p.Revisions(),
	}
	id, err := grant.Issue(o.Grants, b, grant.Decision{Verdict: d.Verdict.String(), Rule: d.Rule, Reason: d.Reason, Answered: v.String()}, o.Now)
	if err != nil {
		return ""
	}
	return id
}

// realPath is p with its links resolved, as warden run finds it.
func realPath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return filepath.Clean(p)
}
