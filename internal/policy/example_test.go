// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy_test

import (
	"fmt"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

// Compile the built-in defaults (no policy file) and decide two actions:
// a push, which the defaults ask about, and a commit, which they allow.
func ExampleEngine_Evaluate() {
	eng, err := policy.Compile(nil, policy.Options{})
	if err != nil {
		panic(err)
	}
	for _, a := range []*action.Action{
		{Tool: "git_push", Classes: []action.Class{action.GitPush}, Refs: []string{"main"}},
		{Tool: "git_commit", Classes: []action.Class{action.GitCommit}},
	} {
		d, _ := eng.Evaluate(a, policy.Env{})
		fmt.Printf("%s: %s by %s\n", a.Tool, d.Verdict, d.Rule)
	}
	// Output:
	// git_push: prompt by builtin:gitPush
	// git_commit: allow by builtin:gitCommit
}
