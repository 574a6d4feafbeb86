// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"warden.dev/warden/internal/action"
)

func TestHasWord(t *testing.T) {
	for _, tt := range []struct {
		list, w string
		want    bool
	}{
		{"a b c", "b", true}, {"a b c", "a", true}, {"a b c", "c", true}, {"aa a", "a", true},
		{"aa ab", "a", false}, {"--ab --a", "--a", true}, {"--ab", "--a", false}, {"", "a", false},
		{"a", "", false}, {"x-ab -ab", "-ab", true}, {"-v --verbose", "-", false},
	} {
		if got := hasWord(tt.list, tt.w); got != tt.want {
			t.Errorf("hasWord(%q, %q) = %v, want %v", tt.list, tt.w, got, tt.want)
		}
	}
}

// TestWrapperGrammars checks the option grammars: an option with a value
// takes it attached or as the next word, an optional value only attached,
// and an unknown option is reported.
func TestWrapperGrammars(t *testing.T) {
	w := wrapper{flags: "a b --all", vals: "n --num", optional: "t --timing"}
	for _, tt := range []struct {
		args []string
		opts []string
		cmd  []string
		bad  string
	}{
		{[]string{"-ab", "-n", "5", "cmd", "-x"}, []string{"-a", "-b", "-n=5"}, []string{"cmd", "-x"}, ""},
		{[]string{"-n5", "--all", "cmd"}, []string{"-n=5", "--all"}, []string{"cmd"}, ""},
		{[]string{"--num=5", "--timing", "cmd"}, []string{"--num=5", "--timing"}, []string{"cmd"}, ""},
		{[]string{"-tfile", "-t", "cmd"}, []string{"-t=file", "-t"}, []string{"cmd"}, ""},
		{[]string{"--timing=f", "--", "-a"}, []string{"--timing=f"}, []string{"-a"}, ""},
		{[]string{"-z", "cmd"}, nil, nil, "-z"},
		{[]string{"--all=x", "cmd"}, nil, nil, "--all=x"},
	} {
		var args []field
		for _, s := range tt.args {
			args = append(args, field{s: s})
		}
		opts, cmd, bad := peelArgs(w, args)
		var gotOpts, gotCmd []string
		for _, o := range opts {
			s := o.name
			if o.has {
				s += "=" + o.val.s
			}
			gotOpts = append(gotOpts, s)
		}
		for _, f := range cmd {
			gotCmd = append(gotCmd, f.s)
		}
		if bad != tt.bad {
			t.Errorf("peelArgs(%q) unknown option %q, want %q", tt.args, bad, tt.bad)
			continue
		}
		if bad != "" {
			continue
		}
		if diff := cmp.Diff([][]string{tt.opts, tt.cmd}, [][]string{gotOpts, gotCmd}, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("peelArgs(%q) options, command (-want +got):\n%s", tt.args, diff)
		}
	}
}

// TestWrappersOddArguments runs every wrapper with short, odd argument
// lists, which none may panic on; where git push follows the wrapper's
// own words it is found (a push taken as an option's value, timeout 'git
// push', runs nothing).
func TestWrappersOddArguments(t *testing.T) {
	words := []string{"", "-", "--", "-x", "--x=", "-c", "'git push'", "git", "push", ";", ":::", "Enter"}
	// Wrappers whose first operands are not the command.
	skips := map[string]int{"timeout": 1, "faketime": 1, "chrt": 1, "taskset": 1, "chroot": 1, "flock": 1, "direnv": 1, "sg": 1}
	var names []string
	for n := range wrapperPrograms() {
		names = append(names, n)
	}
	var args func(n int, pre []string)
	args = func(n int, pre []string) {
		for _, name := range names {
			cmd := strings.Join(append([]string{name}, pre...), " ")
			an := Analyze(cmd, Options{Cwd: "/w", Home: "/h"})
			if strings.HasSuffix(cmd, " git push") && skips[name] == 0 && an.ReadOnly && !slices.Contains(an.Classes, action.GitPush) {
				t.Errorf("Analyze(%q) is read-only without the push", cmd)
			}
		}
		if n == 0 {
			return
		}
		for _, w := range words {
			args(n-1, append(slices.Clip(pre), w))
		}
	}
	args(3, nil)
}
