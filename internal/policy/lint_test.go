// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

// TestLintInterpreterWide checks that lint reports every allow rule whose
// command prefix is interpreter-wide — it cannot allow the code that
// prefix runs uncontained — and no rule that names its command, denies or
// is advisory.
func TestLintInterpreterWide(t *testing.T) {
	ws := policy.Scope{Kind: policy.WorkspaceScope}
	rule := func(id, cmd string, d action.Verdict, l policy.Level) *policy.Rule {
		return &policy.Rule{ID: id, Scope: ws, Command: strings.Fields(cmd), Decision: d, Level: l}
	}
	set := &policy.Set{Rules: []*policy.Rule{
		rule("python", "python", action.Allow, policy.Hard),
		rule("node-e", "node -e", action.Allow, policy.Hard),
		rule("bash-c", "bash -c", action.Allow, policy.Soft),
		rule("make", "make", action.Allow, policy.Hard),
		rule("npx", "npx", action.Allow, policy.Hard),
		rule("make-test", "make test", action.Allow, policy.Hard),
		rule("npm-test", "npm test", action.Allow, policy.Hard),
		rule("gen", "python3 tools/gen.py", action.Allow, policy.Hard),
		rule("deny-python", "python2", action.Deny, policy.Hard),
		rule("advise-perl", "perl", action.Allow, policy.Advisory),
		rule("ls", "ls", action.Allow, policy.Hard),
	}}
	var got []string
	for _, f := range policy.Lint(set, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)) {
		if strings.Contains(f.Msg, "interpreter-wide") {
			got = append(got, f.Rule)
		}
	}
	if diff := cmp.Diff([]string{"python", "node-e", "bash-c", "make", "npx"}, got); diff != "" {
		t.Errorf("Lint: rules reported as interpreter-wide (-want +got):\n%s", diff)
	}
}
