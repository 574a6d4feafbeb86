// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"warden.dev/warden/internal/cli"
	"warden.dev/warden/internal/sandbox"
)

// TestMain registers warden as a command the scripts can exec, run in
// process, as shfmt and age do.
func TestMain(m *testing.M) {
	// warden run re-executes /proc/self/exe, this test binary, as the
	// sandbox init.
	if len(os.Args) > 1 && os.Args[1] == sandbox.InitArg {
		sandbox.Init()
	}
	testscript.Main(m, map[string]func(){
		"warden": func() { os.Exit(cli.Run(context.Background(), os.Args[1:])) },
	})
}

// TestScript runs the CLI scripts in testdata/script: each is a txtar with
// the commands a user types and what they must print.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Getuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			// The home is beside the work directory, not in it: a
			// directory holding the home is never a project. $WORK/home
			// links to it for scripts that name it relatively.
			home := env.WorkDir + ".home"
			env.Setenv("HOME", home)
			env.Defer(func() { os.RemoveAll(home) })
			if err := os.MkdirAll(home+"/.ssh", 0o700); err != nil {
				return err
			}
			return os.Symlink(home, env.WorkDir+"/home")
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"ttyrun": ttyRun,
		},
	})
}
