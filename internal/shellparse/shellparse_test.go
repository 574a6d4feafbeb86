// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/shellparse"
)

func TestAnalyzeFacets(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want shellparse.Analysis
	}{
		{"FOO=1 git -C sub push origin HEAD:main 2>/dev/null", shellparse.Analysis{
			Invocations: []shellparse.Invocation{
				{Argv: []string{"git", "-C", "sub", "push", "origin", "HEAD:main"}, Env: map[string]string{"FOO": "1"}, Redirects: []shellparse.Redirect{{Op: "2>", Target: "/dev/null"}}},
				{Argv: []string{"git", "push", "origin", "HEAD:main"}},
			},
			Classes: []action.Class{action.GitPush, action.ProcessSpawn},
			Refs:    []string{"HEAD:main"},
		}},
		{"cd /tmp && echo x > ~/.aws/credentials", shellparse.Analysis{
			Invocations: []shellparse.Invocation{{Argv: []string{"cd", "/tmp"}}, {Argv: []string{"echo", "x"}, Redirects: []shellparse.Redirect{{Op: ">", Target: "/home/u/.aws/credentials"}}}},
			Classes:     []action.Class{action.ProcessSpawn},
			Paths:       []shellparse.Path{{Path: "/home/u/.aws/credentials", Access: action.Write}},
		}},
		{"scp -r dir deploy@Prod.Example.com:/srv", shellparse.Analysis{
			Invocations: []shellparse.Invocation{{Argv: []string{"scp", "-r", "dir", "deploy@Prod.Example.com:/srv"}}},
			Classes:     []action.Class{action.NetworkEgress, action.ProcessSpawn},
			Paths:       []shellparse.Path{{Path: "/work/p/dir", Access: action.Read, Recursive: true}},
			Hosts:       []string{"prod.example.com"},
		}},
		// A detached process outlives the command: never read-only.
		{"ls &", shellparse.Analysis{
			Invocations: []shellparse.Invocation{{Argv: []string{"ls"}}},
			Classes:     []action.Class{action.ProcessSpawn},
			Flags:       []action.Flag{action.FlagBackground},
		}},
		{"ls -la >/dev/null 2>&1 </dev/null", shellparse.Analysis{
			Invocations: []shellparse.Invocation{{Argv: []string{"ls", "-la"}, Redirects: []shellparse.Redirect{{Op: ">", Target: "/dev/null"}, {Op: "2>&", Target: "1"}, {Op: "<", Target: "/dev/null"}}}},
			Classes:     []action.Class{action.ProcessSpawn},
			ReadOnly:    true,
		}},
		{"echo 'a", shellparse.Analysis{
			Classes:    []action.Class{action.ProcessSpawn},
			Flags:      []action.Flag{action.FlagUnresolvable},
			Unresolved: "1:6: reached EOF without closing quote `'`",
		}},
	} {
		got := shellparse.Analyze(tt.cmd, corpusOpts)
		if diff := cmp.Diff(&tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Analyze(%q) (-want +got):\n%s", tt.cmd, diff)
		}
	}
}

func TestMaxDepth(t *testing.T) {
	cmd := `sh -c 'sh -c "sh -c \"rm x\""'`
	if an := shellparse.Analyze(cmd, shellparse.Options{MaxDepth: 2}); an.Unresolved == "" {
		t.Errorf("Analyze(%q, MaxDepth 2) resolved a third level: %+v", cmd, an)
	}
	if an := shellparse.Analyze(cmd, shellparse.Options{}); an.Unresolved != "" || len(an.Invocations) != 4 {
		t.Errorf("Analyze(%q) = %+v, want 4 invocations, resolved", cmd, an)
	}
}
