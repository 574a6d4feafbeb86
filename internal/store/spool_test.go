// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/store"
)

// active is the spool's file that hooks append to.
const active = "active.part"

func spoolNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, store.SpoolName))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestSpool: a hook's recorder spools its events without opening the
// store; the next open takes them in, in the order they were spooled,
// each once, the chain whole, the spool emptied.
func TestSpool(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		r := &store.Recorder{Dir: dir, Spool: true}
		if err := r.Write(decision("a", fmt.Sprintf("s%d", i), "allow")); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, store.DBName)); !os.IsNotExist(err) {
		t.Fatalf("a spooling recorder opened the store: %v", err)
	}
	// One file, appended to: a file each would cost a new inode each.
	if diff := cmp.Diff([]string{active}, spoolNames(t, dir)); diff != "" {
		t.Fatalf("the spool (-want +got):\n%s", diff)
	}
	if b, err := os.ReadFile(filepath.Join(dir, store.SpoolName, active)); err != nil || strings.Count(string(b), "\n") != 5 {
		t.Fatalf("the active file holds %q (%v), want 5 lines", b, err)
	}
	s := open(t, dir)
	if diff := cmp.Diff([]string{"s0", "s1", "s2", "s3", "s4"}, subjects(t, s, store.Query{})); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if names := spoolNames(t, dir); len(names) != 0 {
		t.Errorf("the spool still holds %v", names)
	}
	if v, err := s.Verify(context.Background()); err != nil || !v.OK() || v.HeadSeq != 5 {
		t.Errorf("verify: %+v %v", v, err)
	}
	// An event appended after follows them.
	if r, err := s.Append(context.Background(), decision("a", "after", "allow")); err != nil || r.Seq != 6 {
		t.Errorf("append after the spool: %+v %v", r, err)
	}
}

// TestSpoolOnce: a crash between the commit that took spool files in and
// their deletion leaves them behind; the next open deletes them without
// taking them in again. A file cut short (a crash of the machine) is
// set aside, the others taken in.
func TestSpoolOnce(t *testing.T) {
	dir := t.TempDir()
	sd := filepath.Join(dir, store.SpoolName)
	// Spool, the active file made a file of its own as an open does
	// first, and keep copies of the files.
	for i := range 3 {
		r := &store.Recorder{Dir: dir, Spool: true}
		if err := r.Write(decision("a", fmt.Sprintf("s%d", i), "allow")); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(filepath.Join(sd, active), filepath.Join(sd, "00000000000000000000-1-taken.jsonl")); err != nil {
		t.Fatal(err)
	}
	copies := map[string][]byte{}
	for _, n := range spoolNames(t, dir) {
		b, err := os.ReadFile(filepath.Join(sd, n))
		if err != nil {
			t.Fatal(err)
		}
		copies[n] = b
	}
	open(t, dir).Close()
	// The deletes "did not happen".
	for n, b := range copies {
		if err := os.WriteFile(filepath.Join(sd, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A FIFO and a link where spool files go: set aside, never
	// waited on or followed.
	if err := unix.Mkfifo(filepath.Join(sd, "00000000000000000002-1-fifo.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(sd, "00000000000000000003-1-link.jsonl")); err != nil {
		t.Fatal(err)
	}
	// A file cut short, and a later whole one.
	short := "00000000000000000001-1-cut.jsonl"
	if err := os.WriteFile(filepath.Join(sd, short), []byte(`{"Schema":1,"Kind":"decis`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &store.Recorder{Dir: dir, Spool: true}
	if err := r.Write(decision("a", "s3", "allow")); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	if diff := cmp.Diff([]string{"s0", "s1", "s2", "s3"}, subjects(t, s, store.Query{})); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{short + ".bad", "00000000000000000002-1-fifo.jsonl", "00000000000000000003-1-link.jsonl"}, spoolNames(t, dir)); diff != "" {
		t.Errorf("the spool after (-want +got):\n%s", diff)
	}
	if v, err := s.Verify(context.Background()); err != nil || !v.OK() {
		t.Errorf("verify: %+v %v", v, err)
	}
}

// TestSpoolConcurrent: hook processes spool while others open the store
// and take the spool in: every event is in the chain exactly once.
func TestSpoolConcurrent(t *testing.T) {
	const spoolers, each, openers = 6, 100, 2
	dir := t.TempDir()
	open(t, dir).Close()
	var cmds []*exec.Cmd
	for w := range spoolers + openers {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		mode := "spool"
		if w >= spoolers {
			mode = "open"
		}
		cmd.Env = append(os.Environ(), fmt.Sprintf("WARDEN_STORE_TEST_SPOOLER=%s,%s,w%d,%d", dir, mode, w, each))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v", i, err)
		}
	}
	s := open(t, dir)
	seen := map[string]int{}
	for _, subj := range subjects(t, s, store.Query{}) {
		seen[subj]++
	}
	var missing, twice []string
	for w := range spoolers {
		for i := range each {
			k := fmt.Sprintf("w%d-%d", w, i)
			switch seen[k] {
			case 0:
				missing = append(missing, k)
			case 1:
			default:
				twice = append(twice, k)
			}
		}
	}
	if len(missing)+len(twice) > 0 {
		t.Errorf("missing %v, more than once %v", missing, twice)
	}
	if v, err := s.Verify(context.Background()); err != nil || !v.OK() || v.HeadSeq != spoolers*each {
		t.Errorf("verify: %+v %v", v, err)
	}
	if names := spoolNames(t, dir); len(names) != 0 {
		t.Errorf("the spool still holds %d files", len(names))
	}
}

// spooler is a child process of TestSpoolConcurrent: "spool" records N
// events, each as a hook does (a recorder of its own, spooling); "open"
// opens and closes the store N/4 times, taking the spool in.
func spooler(spec string) int {
	f := strings.Split(spec, ",")
	var n int
	fmt.Sscan(f[3], &n)
	for i := range n {
		switch f[1] {
		case "spool":
			r := &store.Recorder{Dir: f[0], Spool: true}
			if err := r.Write(decision("a", fmt.Sprintf("%s-%d", f[2], i), "allow")); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			r.Close()
		case "open":
			if i%4 != 0 {
				continue
			}
			s, err := store.Open(context.Background(), f[0])
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			s.Close()
		}
	}
	return 0
}

// TestSpoolLong: a hook that finds the spool long (256 KiB) opens the
// store and takes it in.
func TestSpoolLong(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 1500 {
		r := &store.Recorder{Dir: dir, Spool: true}
		subj := fmt.Sprintf("s%04d", i)
		want = append(want, subj)
		if err := r.Write(decision("a", subj, "allow")); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, store.DBName)); err != nil {
		t.Errorf("the spool was never taken in: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(dir, store.SpoolName, active)); err == nil && fi.Size() >= 256<<10 {
		t.Errorf("the active file holds %d bytes: a long spool was not taken in", fi.Size())
	}
	got := subjects(t, open(t, dir), store.Query{})
	if !slices.Equal(got, want) {
		t.Errorf("events: %d, want %d in order", len(got), len(want))
	}
}

// TestSpoolTornLine: a hook that died in the middle of its write left
// its line unended in the active file; the next hook's line still
// stands alone, the open takes in every whole line, in order, and sets
// the torn one aside. What is not a regular file where the active file
// goes is set aside too, never waited on or followed, and spooling goes
// on.
func TestSpoolTornLine(t *testing.T) {
	dir := t.TempDir()
	sd := filepath.Join(dir, store.SpoolName)
	r := &store.Recorder{Dir: dir, Spool: true}
	if err := r.Write(decision("a", "before", "allow")); err != nil {
		t.Fatal(err)
	}
	torn := `{"Schema":1,"Kind":"decis`
	f, err := os.OpenFile(filepath.Join(sd, active), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(torn)
	f.Close()
	r = &store.Recorder{Dir: dir, Spool: true}
	if err := r.Write(decision("a", "after", "allow")); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	if diff := cmp.Diff([]string{"before", "after"}, subjects(t, s, store.Query{})); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	names := spoolNames(t, dir)
	if len(names) != 1 || !strings.HasSuffix(names[0], ".jsonl.bad") {
		t.Fatalf("the spool after: %v, want the torn line's file set aside", names)
	}
	if b, _ := os.ReadFile(filepath.Join(sd, names[0])); string(b) != torn+"\n" {
		t.Errorf("set aside: %q, want the torn line", b)
	}
	s.Close()

	for _, plant := range []func(string) error{
		func(p string) error { return unix.Mkfifo(p, 0o600) },
		func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		os.RemoveAll(sd)
		os.Mkdir(sd, 0o700)
		if err := plant(filepath.Join(sd, active)); err != nil {
			t.Fatal(err)
		}
		r := &store.Recorder{Dir: dir, Spool: true}
		if err := r.Write(decision("a", "refused", "allow")); err == nil {
			t.Errorf("spooled into %v", spoolNames(t, dir))
		}
		open(t, dir).Close()
		if diff := cmp.Diff([]string{active + ".bad"}, spoolNames(t, dir)); diff != "" {
			t.Errorf("the spool after (-want +got):\n%s", diff)
		}
		r = &store.Recorder{Dir: dir, Spool: true}
		if err := r.Write(decision("a", "again", "allow")); err != nil {
			t.Errorf("spooling once the file was set aside: %v", err)
		}
	}
}

// TestSpoolLockHeld: a process stopped while it holds the active file's
// lock stops neither the hooks nor the opens of the store: a hook's
// events then go to a file of their own, which the open takes in; the
// active file's are taken in by an open once the lock is let go (each
// event once; the two files are not in the order their events were
// spooled).
func TestSpoolLockHeld(t *testing.T) {
	dir := t.TempDir()
	sd := filepath.Join(dir, store.SpoolName)
	r := &store.Recorder{Dir: dir, Spool: true}
	if err := r.Write(decision("a", "held", "allow")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(sd, active))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	r = &store.Recorder{Dir: dir, Spool: true}
	if err := r.Write(decision("a", "beside", "allow")); err != nil {
		t.Fatalf("spooling beside a held lock: %v", err)
	}
	s := open(t, dir)
	if diff := cmp.Diff([]string{"beside"}, subjects(t, s, store.Query{})); diff != "" {
		t.Errorf("events while the lock is held (-want +got):\n%s", diff)
	}
	s.Close()
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	s = open(t, dir)
	got := subjects(t, s, store.Query{})
	slices.Sort(got)
	if diff := cmp.Diff([]string{"beside", "held"}, got); diff != "" {
		t.Errorf("events once it is let go, each once (-want +got):\n%s", diff)
	}
	if names := spoolNames(t, dir); len(names) != 0 {
		t.Errorf("the spool still holds %v", names)
	}
}
