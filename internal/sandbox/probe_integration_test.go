// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Probe's trials must leave the host as runs do: no trial cgroup and no
// project directory behind. Assumptions as in attack_integration_test.go;
// run as root, which reruns them as uid 65534.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// wardenDirs are the warden directories runs make their cgroups in.
func wardenDirs(t *testing.T) []string {
	t.Helper()
	host, err := discoverCgroups()
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, d := range host.v1 {
		dirs = append(dirs, filepath.Join(d, "warden"))
	}
	if host.v2 != "" {
		dirs = append(dirs, filepath.Join(host.v2, "warden"))
	}
	return dirs
}

func TestProbeCleansUp(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	r := Probe(context.Background(), ProbeOptions{Home: t.TempDir()})
	t.Logf("trial %+v", r.Trial)
	if !r.Trial.OK {
		t.Fatalf("the trial run failed: %+v", r.Trial)
	}
	if _, err := os.Stat(r.Trial.Project); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the trial's project %s is still there: %v", r.Trial.Project, err)
	}
	mine := fmt.Sprintf("%s%d-", cgroupPrefix, os.Getpid())
	for _, d := range wardenDirs(t) {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), mine) {
				t.Errorf("a trial cgroup was left behind: %s", filepath.Join(d, e.Name()))
			}
		}
	}
}

func TestProbeFacts(t *testing.T) {
	r := Probe(context.Background(), ProbeOptions{})
	f := r.Facts
	if f.UID != os.Getuid() || f.Kernel == "" {
		t.Errorf("facts: uid %d kernel %q", f.UID, f.Kernel)
	}
	// The namespace trial agrees with a run.
	if f.Namespaces.Created == strings.HasPrefix(r.Trial.Error, "cannot create the sandbox namespaces") {
		t.Errorf("namespaces created: %v, but the trial run: %+v", f.Namespaces.Created, r.Trial)
	}
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		abi = 0
	}
	if f.Landlock.ABI != abi {
		t.Errorf("Landlock ABI %d, the kernel says %d", f.Landlock.ABI, abi)
	}
	if !f.Seccomp.Filter || len(f.Seccomp.Missing) != 0 {
		t.Errorf("seccomp: %+v", f.Seccomp)
	}
	// A cgroup trial that worked means a run with that limit works.
	for _, l := range f.Cgroups.Limits {
		res, err := warmRun(context.Background(), Spec{Argv: []string{"true"}, Project: t.TempDir(),
			Limits: map[string]Limits{"memory": {Memory: 1 << 30}, "pids": {Pids: 100}, "cpu": {CPU: 1}}[l.Limit]})
		var se *SetupError
		switch {
		case l.OK && err != nil:
			t.Errorf("doctor made the %s cgroup, but a run with it failed: %v", l.Limit, err)
		case !l.OK && !errors.As(err, &se):
			t.Errorf("doctor could not make the %s cgroup (%s), but a run with it: %v, %+v", l.Limit, l.Error, err, res)
		}
	}
	if os.Getuid() == 0 {
		for _, c := range r.Matrix {
			if c.Finding() {
				t.Errorf("as root on the test host: %s (%s) is %s: %s", c.Layer, c.When, c.Status, c.Detail)
			}
		}
	}
}

// TestProbeTrialFailsClosed makes each setup step of the trial run fail
// and checks that the matrix names the failure on a row that fails closed
// and claims no layer enforced.
func TestProbeTrialFailsClosed(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	facts := Probe(context.Background(), ProbeOptions{}).Facts
	for _, step := range append(failSteps, "landlock", "seccomp filter") {
		t.Run(step, func(t *testing.T) {
			testOnlyFailAt = step
			defer func() { testOnlyFailAt = "" }()
			tr := trialRun(context.Background(), ProbeOptions{})
			if !tr.SetupFailed || !strings.HasPrefix(tr.Error, step+": ") {
				t.Fatalf("trial %+v, want a setup error at %q", tr, step)
			}
			named := false
			for _, c := range Assess(facts, tr) {
				if c.Status == Enforced {
					t.Errorf("%s (%s) is enforced although the trial failed at %q", c.Layer, c.When, step)
				}
				named = named || (c.Status == FailsClosed && strings.Contains(c.Detail, tr.Error))
			}
			if !named {
				t.Errorf("no row fails closed with %q", tr.Error)
			}
		})
	}
}

// TestProbeAsUnprivilegedUser reruns the tests above as uid 65534.
func TestProbeAsUnprivilegedUser(t *testing.T) {
	if os.Getenv(envNested) != "" {
		t.Skip("already running as the unprivileged user")
	}
	rerunAsNobody(t, "^TestProbe(CleansUp|Facts|TrialFailsClosed)$")
}
