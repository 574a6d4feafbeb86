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
		// Standard input and directories have a test of their own.
		if diff := cmp.Diff(&tt.want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(shellparse.Invocation{}, "Stdin", "StdinKnown", "Dirs")); diff != "" {
			t.Errorf("Analyze(%q) (-want +got):\n%s", tt.cmd, diff)
		}
	}
}

// TestInvocationStdinAndDirs: what a program reads on standard input is
// known when bash feeds it static text, as bash feeds it; where it starts
// follows cd.
func TestInvocationStdinAndDirs(t *testing.T) {
	type inv struct {
		Argv  []string
		Stdin string
		Known bool
		Dirs  []string
	}
	for _, tt := range []struct {
		cmd  string
		want inv // of the last invocation
	}{
		{"apply_patch <<'EOF'\nA $x \\$\nEOF\n", inv{[]string{"apply_patch"}, "A $x \\$\n", true, []string{"/p"}}},
		{"apply_patch<<'EOF'\nA\nEOF", inv{[]string{"apply_patch"}, "A\n", true, []string{"/p"}}},
		{"cat <<EOF\nplain\nEOF", inv{[]string{"cat"}, "plain\n", true, []string{"/p"}}},
		// bash expands an unquoted body, and removes a backslash there.
		{"cat <<EOF\n$HOME\nEOF", inv{Argv: []string{"cat"}, Dirs: []string{"/p"}}},
		{"cat <<EOF\na\\$b\nEOF", inv{Argv: []string{"cat"}, Dirs: []string{"/p"}}},
		// <<- removes the leading tabs of every line.
		{"cat <<-EOF\n\t\tx\n\ty\n\tEOF\n", inv{[]string{"cat"}, "x\ny\n", true, []string{"/p"}}},
		{"cat <<< 'here'", inv{[]string{"cat"}, "here\n", true, []string{"/p"}}},
		{"printf 'x' | apply_patch", inv{[]string{"apply_patch"}, "x", true, []string{"/p"}}},
		{"cat f | apply_patch", inv{Argv: []string{"apply_patch"}, Dirs: []string{"/p"}}},
		{"cd sub && apply_patch x", inv{Argv: []string{"apply_patch", "x"}, Dirs: []string{"/p/sub"}}},
		{"bash -lc 'cd /a && apply_patch x'", inv{Argv: []string{"apply_patch", "x"}, Dirs: []string{"/a"}}},
	} {
		an := shellparse.Analyze(tt.cmd, shellparse.Options{Cwd: "/p"})
		if len(an.Invocations) == 0 {
			t.Errorf("Analyze(%q) found no invocation (%s)", tt.cmd, an.Unresolved)
			continue
		}
		last := an.Invocations[len(an.Invocations)-1]
		got := inv{last.Argv, last.Stdin, last.StdinKnown, last.Dirs}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Analyze(%q) last invocation (-want +got):\n%s", tt.cmd, diff)
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
