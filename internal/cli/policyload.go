// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/contain"
)

// systemManaged is the system's managed tier, taken when
// WARDEN_MANAGED_POLICY is not set and the file is there. It is a
// variable for tests only: no user setting moves it.
var systemManaged = config.ManagedDefault

// policyOptions are where every command finds the managed tier and the
// home.
func policyOptions() config.Options {
	o, _ := policyOptionsWhy()
	return o
}

func policyOptionsWhy() (config.Options, string) {
	o := config.Options{Home: homeDir(), Own: ownPlaces(), PATH: os.Getenv("PATH"), AgentHomes: agentHomes()}
	why := o.FindManaged(managedPolicyPath(), systemManaged)
	return o, why
}

// agentHomeVars are the variables by which an agent CLI is told where its
// settings are, instead of its directory in the home.
var agentHomeVars = []string{"CODEX_HOME", "CLAUDE_CONFIG_DIR"}

// agentHomes are the agents' settings directories this process's
// environment names: a hook inherits the agent's.
func agentHomes() []string {
	var dirs []string
	for _, v := range agentHomeVars {
		if d := os.Getenv(v); filepath.IsAbs(d) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	return dirs
}

// policyWhere is where discovery looks: the current directory's project,
// the user's configuration directory, and the trust records in the state
// directory.
func policyWhere() config.Where {
	return config.Where{Dir: cwd(), Home: homeDir(), ConfigDir: contain.UserConfigDir(), StateDir: stateDir()}
}

// loadPolicy loads the policy at path, or the one discovery finds when
// path is empty (docs/spec.md §13), with the managed tier, and compiles
// them. Any error leaves nothing loaded.
func loadPolicy(path string) (*config.Policy, error) {
	lp, _, err := findPolicy(path)
	return lp, err
}

// loadPolicyNoting is [loadPolicy] for the commands a person reads
// (explain, net check, run): a project policy that is there but not in
// force is said on stderr, so that an edit made since it was trusted is
// not silently without effect.
func loadPolicyNoting(path string) (*config.Policy, error) {
	lp, src, err := findPolicy(path)
	if src != nil {
		for _, s := range src.Skipped {
			if s.Kind == config.FromProject && s.Why != "absent" {
				fmt.Fprintf(Stderr, "warden: note: %s is not in force: %s ('warden policy show' says which policy is)\n", s.Path, s.Why)
			}
		}
	}
	return lp, err
}

// findPolicy is [loadPolicy] that also says where the policy came from.
func findPolicy(path string) (*config.Policy, *config.Source, error) {
	o, why := policyOptionsWhy()
	if path == "" {
		lp, src, err := config.Discover(policyWhere(), o)
		src.ManagedWhy = why
		return lp, src, err
	}
	src := &config.Source{Kind: config.FromFlag, Path: path, Why: "named by --policy", Managed: o.Managed, ManagedWhy: why}
	lp, err := config.Load(path, o)
	if err != nil {
		return nil, src, err
	}
	src.Revision, src.ManagedRevision = lp.Revision, lp.ManagedRevision
	return lp, src, nil
}

func now() time.Time { return time.Now() }

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	return d
}
