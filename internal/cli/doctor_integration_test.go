// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// What warden doctor says about cgroups must be what warden run does. These
// tests run both, as root and as uid 65534 (through setpriv), from a copy
// of this test binary named warden, which TestMain serves as the CLI.
// Assumptions: Linux, run as root (CI does), setpriv and sh on PATH, /var/tmp
// writable. Run them with
//
//	go test -race -tags integration ./internal/cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// wardenCopy copies this test binary to a directory under /var/tmp that
// uid 65534 can read, as warden, and returns both.
func wardenCopy(t *testing.T) (bin, dir string) {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "warden-doctor-test-")
	if err != nil {
		t.Skipf("requires a writable /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(dir, "warden")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, dir
}

type result struct {
	stdout, stderr string
	code           int
}

// collect runs cmd and returns what it printed and its exit status; a
// command that cannot be started fails the test.
func collect(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{out.String(), errb.String(), 0}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%q: %v", cmd.Args, err)
	}
	return r
}

func runWarden(t *testing.T, as []string, home string, args ...string) result {
	t.Helper()
	argv := append(append([]string(nil), as...), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "TMPDIR=/tmp")
	r := collect(t, cmd)
	t.Logf("%q: status %d\nstderr: %s", argv, r.code, r.stderr)
	return r
}

// row returns doctor's row of layer for the runs whose When starts with
// when.
func row(t *testing.T, r sandbox.HostReport, layer, when string) sandbox.Coverage {
	t.Helper()
	for _, c := range r.Matrix {
		if c.Layer == layer && strings.HasPrefix(c.When, when) {
			return c
		}
	}
	t.Fatalf("doctor has no row %s (%s)", layer, when)
	return sandbox.Coverage{}
}

// varying are the parts of a cgroup error that differ between two runs:
// the run directory's name and the limit's value.
var varying = regexp.MustCompile(`run-[0-9]+-[0-9a-f]+|^cgroup memory [^:]+:`)

func TestDoctorAgreesWithRun(t *testing.T) {
	sandboxtest.RequireRoot(t)
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	bin, dir := wardenCopy(t)
	policy := filepath.Join(dir, "limits.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\nsandbox:\n  limits:\n    memory: 1GiB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nobodyHome := filepath.Join(dir, "home-65534")
	if err := os.Mkdir(nobodyHome, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(nobodyHome, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	nobody := []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", bin}
	for _, u := range []struct {
		name string
		as   []string
		home string
	}{
		{"root", []string{bin}, dir},
		{"uid 65534", nobody, nobodyHome},
	} {
		t.Run(u.name, func(t *testing.T) {
			project := filepath.Join(dir, strings.ReplaceAll(u.name, " ", "-"))
			if err := os.Mkdir(project, 0o777); err != nil {
				t.Fatal(err)
			}
			os.Chmod(project, 0o777)

			d := runWarden(t, u.as, u.home, "doctor", "--json")
			var rep sandbox.HostReport
			if err := json.Unmarshal([]byte(d.stdout), &rep); err != nil {
				t.Fatalf("doctor --json: %v\n%s", err, d.stdout)
			}
			if want := map[bool]int{true: 1, false: 0}[len(rep.Findings()) > 0]; d.code != want {
				t.Errorf("doctor exited %d with %d findings, want %d", d.code, len(rep.Findings()), want)
			}
			if !rep.Trial.OK {
				t.Fatalf("doctor's trial run failed on the test host: %+v", rep.Trial)
			}
			limit, def := row(t, rep, "memory", "limits.memory"), row(t, rep, "memory", "default ")

			// A run whose policy sets limits.memory.
			record := filepath.Join(u.home, "cgroup-run.json")
			uid := map[bool]int{true: 0, false: 65534}[u.name == "root"]
			r := runWarden(t, u.as, u.home, append([]string{"run", "--policy", policy, "--project", project, "--audit-json", record, "--"},
				scriptIn(t, project, uid, "cat /proc/self/cgroup; echo ran > ran")...)...)
			_, ranErr := os.Stat(filepath.Join(project, "ran"))
			switch limit.Status {
			case sandbox.Enforced:
				if r.code != 0 || ranErr != nil {
					t.Errorf("doctor says limits.memory is enforced (%s), but the run exited %d (ran: %v)", limit.Mechanism, r.code, ranErr == nil)
				}
				// The command's cgroup namespace shows its run's cgroup
				// as /; the record says which hierarchies it had.
				rooted := r.stdout != ""
				for _, l := range strings.Fields(r.stdout) {
					rooted = rooted && strings.HasSuffix(l, ":/")
				}
				if b, _ := os.ReadFile(record); !strings.Contains(string(b), `"cgroup": "v`) || !rooted {
					t.Errorf("the run was not in a warden cgroup:\n%s\n%s", r.stdout, b)
				}
			case sandbox.FailsClosed:
				if r.code != 125 || ranErr == nil {
					t.Errorf("doctor says limits.memory fails closed, but the run exited %d (ran: %v)", r.code, ranErr == nil)
				}
				var tr sandbox.CgroupTrial
				for _, l := range rep.Facts.Cgroups.Limits {
					if l.Limit == "memory" {
						tr = l
					}
				}
				want := "sandbox unavailable: " + varying.ReplaceAllString(tr.Error, "X") + " (" + tr.Hint + ")"
				got := varying.ReplaceAllString(strings.TrimPrefix(strings.TrimSpace(r.stderr), "warden: error: sandbox unavailable: "), "X")
				if "sandbox unavailable: "+got != want {
					t.Errorf("the run failed otherwise than doctor said:\nrun:    sandbox unavailable: %s\ndoctor: %s", got, want)
				}
			default:
				t.Errorf("doctor did not decide limits.memory: %s: %s", limit.Status, limit.Detail)
			}
			if u.name == "root" && limit.Status != sandbox.Enforced {
				// CI runs as root with cgroups, as run.txtar assumes.
				t.Errorf("as root, doctor says limits.memory is %s: %s", limit.Status, limit.Detail)
			}

			// A run with the defaults says what doctor said it would:
			// nothing when the cgroup is there, else one line naming
			// the limits that fall back and warden doctor, and in its
			// record the same note as doctor's.
			defaults := filepath.Join(u.home, "defaults-run.json")
			r = runWarden(t, u.as, u.home, "run", "--project", project, "--audit-json", defaults, "--", "true")
			var said []string
			for _, line := range strings.Split(r.stderr, "\n") {
				if strings.HasPrefix(line, "warden: warning: ") {
					said = append(said, line)
				}
			}
			var rec struct{ Unenforced []string }
			if b, err := os.ReadFile(defaults); err != nil || json.Unmarshal(b, &rec) != nil {
				t.Fatalf("the run's record: %v\n%s", err, b)
			}
			var recorded, note string
			for _, n := range rec.Unenforced {
				if strings.HasPrefix(n, "default memory ") {
					recorded = n
				}
			}
			for _, n := range rep.Trial.Unenforced {
				if strings.HasPrefix(n, "default memory ") {
					note = n
				}
			}
			switch def.Status {
			case sandbox.Enforced:
				if r.code != 0 || len(said) != 0 || recorded != "" {
					t.Errorf("doctor says the default memory limit is enforced; the run exited %d, said %q and recorded %q", r.code, said, recorded)
				}
			case sandbox.FallbackOnly, sandbox.NotEnforced:
				if r.code != 0 || varying.ReplaceAllString(recorded, "X") != varying.ReplaceAllString(note, "X") {
					t.Errorf("doctor says the default memory limit is %s:\ndoctor: %s\nrun:    %s (status %d)", def.Status, note, recorded, r.code)
				}
				if def.Status == sandbox.FallbackOnly && !strings.Contains(recorded, def.Fallback) {
					t.Errorf("the run's note %q does not name doctor's fallback %q", recorded, def.Fallback)
				}
				// One line, not a wall: the limits by name, and where
				// the details are.
				if len(said) != 1 || !strings.Contains(said[0], "default memory ") || !strings.Contains(said[0], "warden doctor") {
					t.Errorf("the run warned %d lines, want one naming the default memory limit and warden doctor:\n%s", len(said), r.stderr)
				}
			default:
				t.Errorf("doctor did not decide the default memory limit: %s: %s", def.Status, def.Detail)
			}
		})
	}
}

// TestDoctorWithoutRunCache: a user whose home cannot hold the run cache
// still runs, with build caches read-only and a note saying so; doctor's
// trial, which keeps its cache where runs keep theirs, agrees.
func TestDoctorWithoutRunCache(t *testing.T) {
	sandboxtest.RequireRoot(t)
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	bin, dir := wardenCopy(t) // owned by root: uid 65534 cannot make .cache in it
	as := []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", bin}
	// The store is not what this is about: a state directory of the
	// user's own, elsewhere (a run that cannot be recorded does not start).
	state := filepath.Join(dir, "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(state, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARDEN_STATE_DIR", state)
	d := runWarden(t, as, dir, "doctor", "--json")
	var rep sandbox.HostReport
	if err := json.Unmarshal([]byte(d.stdout), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, d.stdout)
	}
	if !rep.Trial.OK {
		t.Errorf("doctor's trial failed: %+v", rep.Trial)
	}
	project := filepath.Join(dir, "project")
	if err := os.Mkdir(project, 0o777); err != nil {
		t.Fatal(err)
	}
	r := runWarden(t, as, dir, "run", "--project", project, "--", "true")
	if r.code != 0 || !strings.Contains(r.stderr, "no run cache (") {
		t.Errorf("the run exited %d with %q; want 0 and a note that there is no run cache", r.code, r.stderr)
	}
}
