// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// What a run records about itself: the system calls seccomp refused (seen
// through its user notification) and the files it changed. Same
// assumptions as attack_integration_test.go; rerun as uid 65534 with them.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
)

func blockedNamed(res Result, name string) (audit.Syscall, bool) {
	for _, c := range res.BlockedSyscalls {
		if c.Syscall == name {
			return c, true
		}
	}
	return audit.Syscall{}, false
}

func TestAttackBlockedSyscallsRecorded(t *testing.T) {
	if !haveCmd("unshare") {
		t.Skip("requires unshare (util-linux) on PATH")
	}
	o := run(t, Spec{Argv: sh("unshare -U true; unshare -U true; unshare -n true; echo done")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if !strings.Contains(o.stdout, "done") {
		t.Fatalf("the command did not run to its end: %q", o.stdout)
	}
	if o.res.BlockedHow != "seccomp user notification" {
		t.Fatalf("BlockedHow = %q, want seccomp user notification", o.res.BlockedHow)
	}
	c, ok := blockedNamed(o.res, "unshare")
	if !ok || c.Count != 3 || c.Errno != "EPERM" || c.Command != "unshare" {
		t.Errorf("unshare recorded as %+v (all: %+v), want 3 refusals by unshare", c, o.res.BlockedSyscalls)
	}
	// Refused, still: the namespace was not made.
	if !strings.Contains(o.stderr, "Operation not permitted") {
		t.Errorf("unshare was not refused with EPERM: %s", o.stderr)
	}
	// A run without refusals records none.
	o = run(t, Spec{Argv: []string{"true"}})
	if o.err != nil || len(o.res.BlockedSyscalls) != 0 {
		t.Errorf("a plain run recorded %+v (err %v)", o.res.BlockedSyscalls, o.err)
	}
}

func TestAttackBlockedSyscallsRecordedWhenKilled(t *testing.T) {
	if !haveCmd("unshare") {
		t.Skip("requires unshare (util-linux) on PATH")
	}
	o := run(t, Spec{Timeout: 2 * time.Second, Argv: sh("unshare -U true; exec sleep 1000")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if !o.res.TimedOut {
		t.Fatalf("not timed out: %+v", o.res)
	}
	if _, ok := blockedNamed(o.res, "unshare"); !ok {
		t.Errorf("a refusal before the timeout was lost: %+v (%s)", o.res.BlockedSyscalls, o.res.BlockedHow)
	}
}

func TestChangesRecorded(t *testing.T) {
	project := openProject(t)
	writeFiles(t, project, map[string]string{"old.txt": "old", "keep.txt": "keep", "gone.txt": "gone", "sub/deep.txt": "d"})
	os.Chmod(filepath.Join(project, "sub"), 0o777)
	// Old files look old whatever the clock's granularity.
	past := time.Now().Add(-time.Hour)
	for _, n := range []string{"old.txt", "keep.txt", "gone.txt", "sub/deep.txt", "sub"} {
		os.Chtimes(filepath.Join(project, n), past, past)
	}
	// Chtimes stamps ctime now, and on kernels with multigrain
	// timestamps (6.13 and newer) that stamp can be finer than, and so
	// after, the coarse clock the run starts from: the run would rightly
	// count these files as changed. Let the coarse clock pass them.
	time.Sleep(50 * time.Millisecond)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, RecordChanges: true, Argv: sh(
		"echo new > new.txt; echo more >> old.txt; rm gone.txt; mkdir -p a/b && echo x > a/b/c; touch -d 2001-01-01 sub/deep.txt")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	var got []string
	for _, c := range o.res.Changes {
		got = append(got, strings.TrimPrefix(c.Path, project+"/")+":"+c.Kind)
	}
	slices.Sort(got)
	// touch -d moves mtime back but stamps ctime now: still seen. The
	// removed file shows as its directory (the project root itself is
	// not listed, its entries are).
	want := []string{"a:dir", "a/b:dir", "a/b/c:file", "new.txt:file", "old.txt:file", "sub/deep.txt:file"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("changes = %q, want %q", got, want)
	}
	if o.res.ChangesTotal != len(want) {
		t.Errorf("ChangesTotal = %d, want %d", o.res.ChangesTotal, len(want))
	}
}
