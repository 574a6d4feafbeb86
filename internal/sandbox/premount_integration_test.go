// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// The mounts a warm init makes before a run takes it (premount_linux.go):
// the run's view must be the one a run that makes them itself gets, the
// host's mounts as they are when the run starts, whatever changed on the
// host in between.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// mountTable is /proc/self/mountinfo as a run's command reads it, each
// mount as its root, mount point, options, file system, source and
// super options (no ids, no device numbers), sorted.
func mountTable(t *testing.T, spec Spec) []string {
	t.Helper()
	var out, errb bytes.Buffer
	spec.Argv = []string{"cat", "/proc/self/mountinfo"}
	spec.Stdout, spec.Stderr, spec.Timeout = &out, &errb, time.Minute
	res, err := Run(context.Background(), spec)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("warm %v: %v (status %d)\n%s", spec.Warm != "", err, res.ExitCode, errb.String())
	}
	if res.Warm != (spec.Warm != "") {
		t.Fatalf("Result.Warm = %v, want %v", res.Warm, spec.Warm != "")
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		left, right, ok := strings.Cut(line, " - ")
		f := strings.Fields(left)
		if !ok || len(f) < 6 {
			t.Fatalf("mountinfo line %q", line)
		}
		rows = append(rows, strings.Join(f[3:6], " ")+" - "+right)
	}
	slices.Sort(rows)
	return rows
}

// waitPremounted waits until the init the Keeper of pid keeps has made
// its mounts ahead (the last, /sys, is in its mount table), and returns
// its pid; one other than not.
func waitPremounted(t *testing.T, keeper, not int) int {
	t.Helper()
	for range 3000 {
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if err != nil || e.Name() == strconv.Itoa(not) {
				continue
			}
			// The parent's pid is the second field after the command's ")".
			_, rest, _ := strings.Cut(string(stat), ") ")
			if f := strings.Fields(rest); len(f) < 2 || f[1] != strconv.Itoa(keeper) {
				continue
			}
			mi, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "mountinfo"))
			if bytes.Contains(mi, []byte(" "+newRoot+"/sys ")) {
				pid, _ := strconv.Atoi(e.Name())
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the Keeper kept no init with its mounts made ahead within 30 s")
	return 0
}

// TestWarmReplacedWhenMountsChange: when serve's mount table changes,
// the init it keeps ready is replaced at once by one started after the
// change, before any run asks for it.
func TestWarmReplacedWhenMountsChange(t *testing.T) {
	sandboxtest.RequireRoot(t)
	_, keeper := startKeeper(t)
	before := waitPremounted(t, keeper.Process.Pid, 0)
	dir := t.TempDir()
	if err := unix.Mount("changed", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Fatal(err)
	}
	defer unix.Unmount(dir, unix.MNT_DETACH)
	if after := waitPremounted(t, keeper.Process.Pid, before); after == before {
		t.Fatalf("the init kept ready is still %d", before)
	}
	if err := unix.Kill(before, 0); err == nil {
		t.Errorf("the init kept before the change, %d, is still alive", before)
	}
}

// TestWarmMountsAsCold: a run that takes an init whose mounts were made
// ahead sees the very mount table (each mount's flags, file system and
// options) a run that makes them itself sees: in each mode, with the
// private tmpfs bounded, with the home hidden.
func TestWarmMountsAsCold(t *testing.T) {
	sock, _ := startKeeper(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		spec Spec
	}{
		{"workspace-write", Spec{Mode: WorkspaceWrite}},
		{"read-only", Spec{Mode: ReadOnly}},
		{"full-access", Spec{Mode: FullAccess}},
		{"disk bounded", Spec{Mode: ReadOnly, Limits: Limits{Disk: 8 << 20, Inodes: 1000}}},
		{"home hidden", Spec{Mode: WorkspaceWrite, HideHome: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			project := t.TempDir()
			if tt.spec.HideHome {
				dir, err := os.MkdirTemp(home, "warden-premount-")
				if err != nil {
					t.Skipf("no project below the home: %v", err)
				}
				t.Cleanup(func() { os.RemoveAll(dir) })
				project = dir
			}
			cold := tt.spec
			cold.Project = project
			warm := cold
			warm.Warm = sock
			if diff := cmp.Diff(mountTable(t, cold), mountTable(t, warm)); diff != "" {
				t.Errorf("mount table, made by the run (-) and ahead (+):\n%s", diff)
			}
		})
	}
}

// TestWarmFollowsHostMounts attacks the mounts made ahead with the
// host's own: once the Keeper's init has made them, the host unmounts a
// file system that held a secret and mounts another. The run must not
// see the one unmounted, must see the new one, and read-only: what it
// writes there never arrives. Below a private mount the changes never
// reach the init's copy of the tree, and the Keeper must hand over an
// init started after them. Below a shared one, as systemd makes the
// host's, they do, and the init itself must follow them: a Keeper that
// keeps its init across the change (as one that has not seen it yet
// would) is attacked too. A run that makes its mounts itself is the
// control.
func TestWarmFollowsHostMounts(t *testing.T) {
	sandboxtest.RequireRoot(t)
	for _, tt := range []struct {
		name        string
		propagation uintptr
		env         []string
	}{
		{"private", unix.MS_PRIVATE, nil},
		{"shared", unix.MS_SHARED, nil},
		{"shared, the init kept", unix.MS_SHARED, []string{envKeeperStale + "=1"}},
	} {
		t.Run(tt.name, func(t *testing.T) { checkFollowsHostMounts(t, tt.propagation, tt.env) })
	}
}

func checkFollowsHostMounts(t *testing.T, propagation uintptr, env []string) {
	// Visible in the sandbox through the host's read-only tree (not
	// below /tmp, which is private there).
	dir, err := os.MkdirTemp("/var/tmp", "warden-premount-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		unix.Unmount(dir, unix.MNT_DETACH)
		os.RemoveAll(dir)
	})
	// The command's uid searches it.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount(dir, dir, "", unix.MS_BIND, ""); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("", dir, "", propagation, ""); err != nil {
		t.Fatal(err)
	}
	gone, fresh := filepath.Join(dir, "gone"), filepath.Join(dir, "new")
	for _, d := range []string{gone, fresh} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Mount("secret", gone, "tmpfs", 0, "size=64k"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gone, "secret"), []byte("s3cret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sock, keeper := startKeeper(t, env...)
	waitPremounted(t, keeper.Process.Pid, 0)
	if err := unix.Unmount(gone, 0); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("fresh", fresh, "tmpfs", 0, "size=64k"); err != nil {
		t.Fatal(err)
	}
	defer unix.Unmount(fresh, unix.MNT_DETACH)
	if err := os.WriteFile(filepath.Join(fresh, "marker"), []byte("marker\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "cat " + gone + "/secret; cat " + fresh + "/marker; echo planted > " + fresh + "/planted"
	for _, warm := range []bool{true, false} {
		var out bytes.Buffer
		spec := Spec{Project: t.TempDir(), Argv: sh(script), Stdout: &out, Stderr: &out, Timeout: time.Minute}
		if warm {
			spec.Warm = sock
		}
		res, err := Run(context.Background(), spec)
		if err != nil {
			t.Fatalf("warm %v: %v\n%s", warm, err, out.String())
		}
		if res.Warm != warm {
			t.Fatalf("Result.Warm = %v, want %v", res.Warm, warm)
		}
		if strings.Contains(out.String(), "s3cret") {
			t.Errorf("warm %v: the run read a file system the host had unmounted before it started:\n%s", warm, out.String())
		}
		if !strings.Contains(out.String(), "marker") {
			t.Errorf("warm %v: the run did not see a file system the host mounted before it started:\n%s", warm, out.String())
		}
		if !strings.Contains(out.String(), "Read-only file system") || res.ExitCode == 0 {
			t.Errorf("warm %v: writing below the host's new mount: status %d, want a read-only refusal:\n%s", warm, res.ExitCode, out.String())
		}
		if _, err := os.Stat(filepath.Join(fresh, "planted")); err == nil {
			t.Fatalf("warm %v: the run wrote into the host's new mount", warm)
		}
	}
}

// TestSetupWhateverTheUmask: what init makes for the command is usable
// whatever the caller's umask, and whatever warden serve's, which made
// part of it ahead: the exec scratch's directory in /run, the mount
// points of a project below a hidden home, the DNS stub's resolv.conf.
// The command still gets the caller's umask. Cold and warm, from a
// Keeper whose umask is 077.
func TestSetupWhateverTheUmask(t *testing.T) {
	sock, _ := startKeeper(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	below, err := os.MkdirTemp(home, "warden-umask-")
	if err != nil {
		t.Skipf("no project below the home: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(below) })
	deep := filepath.Join(below, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"exec scratch", Spec{Argv: sh(`umask; printf '#!/bin/sh\necho scratch ran\n' > /run/warden/exec/x && chmod 755 /run/warden/exec/x && /run/warden/exec/x`)},
			"%04o\nscratch ran\n"},
		{"hidden home", Spec{Project: deep, HideHome: true, Argv: sh(`umask; pwd`)}, "%04o\n" + deep + "\n"},
	}
	if _, err := os.Stat("/run"); err != nil {
		cases = cases[1:]
	}
	if rc, err := hostResolvConf(); err == nil && rc != "" {
		cases = append(cases, struct {
			name string
			spec Spec
			want string
		}{"resolv.conf", Spec{Network: &Network{Serve: func(l Listeners) { l.Close() }}, Argv: sh(`umask; grep -c 127.0.0.53 /etc/resolv.conf`)}, "%04o\n1\n"})
	}
	for _, tt := range cases {
		for _, mask := range []int{0o077, 0o022} {
			for _, warm := range []bool{false, true} {
				var out bytes.Buffer
				spec := tt.spec
				if spec.Project == "" {
					spec.Project = t.TempDir()
				}
				spec.Stdout, spec.Stderr, spec.Timeout = &out, &out, time.Minute
				if warm {
					spec.Warm = sock
				}
				old := unix.Umask(mask)
				res, err := Run(context.Background(), spec)
				unix.Umask(old)
				if err != nil || res.Warm != warm {
					t.Errorf("%s, umask %04o, warm %v: %v (warm %v)\n%s", tt.name, mask, warm, err, res.Warm, out.String())
					continue
				}
				if want := fmt.Sprintf(tt.want, mask); out.String() != want || res.ExitCode != 0 {
					t.Errorf("%s, umask %04o, warm %v: status %d, output %q, want 0 and %q", tt.name, mask, warm, res.ExitCode, out.String(), want)
				}
			}
		}
	}
}

// TestWarmMountsAsColdUnprivileged: the same for a caller that is not
// root, whose inits have no idmapped mounts and a user namespace of its
// own.
func TestWarmMountsAsColdUnprivileged(t *testing.T) {
	rerunAsNobody(t, "^TestWarmMountsAsCold$")
}
