// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/store"
)

// The test binary is also the writer process of the concurrency and
// SIGKILL tests: WARDEN_STORE_TEST_WRITER=DIR,NAME,N appends N decisions
// (N 0: until killed) whose subject is NAME-I, printing each committed
// sequence number.
func TestMain(m *testing.M) {
	if spec := os.Getenv("WARDEN_STORE_TEST_WRITER"); spec != "" {
		os.Exit(writer(spec))
	}
	if spec := os.Getenv("WARDEN_STORE_TEST_SPOOLER"); spec != "" {
		os.Exit(spooler(spec))
	}
	if dir := os.Getenv("WARDEN_STORE_TEST_SERVE"); dir != "" {
		os.Exit(serveRecords(dir))
	}
	os.Exit(m.Run())
}

func writer(spec string) int {
	f := strings.Split(spec, ",")
	n, _ := strconv.Atoi(f[2])
	ctx := context.Background()
	s, err := store.Open(ctx, f[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	out := bufio.NewWriter(os.Stdout)
	for i := 0; n == 0 || i < n; i++ {
		r, err := s.Append(ctx, decision(f[1], fmt.Sprintf("%s-%d", f[1], i), "allow"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintf(out, "%d %s-%d\n", r.Seq, f[1], i)
		if n == 0 {
			out.Flush() // the parent must see every commit before it kills
		}
	}
	out.Flush()
	return 0
}

func decision(agent, subject, verdict string) audit.Event {
	return audit.DecisionEvent(time.Now(), &audit.Decision{
		Surface: "hook claude-code", Agent: agent, Tool: "Bash", Subject: subject,
		Verdict: verdict, Answered: verdict, Rule: "test",
	})
}

func open(t *testing.T, dir string) *store.SQLite {
	t.Helper()
	s, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// subjects lists the subjects of the events q selects.
func subjects(t *testing.T, s store.Store, q store.Query) []string {
	t.Helper()
	var out []string
	err := s.Events(context.Background(), q, func(r store.Record) error {
		switch {
		case r.Event.Decision != nil:
			out = append(out, r.Event.Decision.Subject)
		case r.Event.Network != nil:
			out = append(out, r.Event.Network.Host)
		case r.Event.Syscall != nil:
			out = append(out, r.Event.Syscall.Syscall)
		default:
			out = append(out, string(r.Event.Kind))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAppendAndQuery(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	evs := []audit.Event{
		decision("claude-code", "git status", "allow"),
		decision("codex", "git push origin main", "prompt"),
		audit.NetworkEvent(&audit.NetworkAttempt{Time: t0.Add(2 * time.Second), Via: "connect", Host: "evil.example", Port: 443, Verdict: "deny", Rule: "default"}),
		audit.SyscallEvent(t0.Add(3*time.Second), &audit.Syscall{Syscall: "ptrace", Errno: "EPERM", Count: 1}),
		decision("claude-code", "cat ~/.ssh/id_rsa", "deny"),
	}
	evs[0].Time, evs[1].Time, evs[4].Time = t0, t0.Add(time.Second), t0.Add(4*time.Second)
	for i, ev := range evs {
		r, err := s.Append(ctx, ev)
		if err != nil {
			t.Fatal(err)
		}
		if r.Seq != int64(i+1) {
			t.Errorf("event %d got number %d", i+1, r.Seq)
		}
	}
	for _, tt := range []struct {
		name string
		q    store.Query
		want []string
	}{
		{"all", store.Query{}, []string{"git status", "git push origin main", "evil.example", "ptrace", "cat ~/.ssh/id_rsa"}},
		{"denied", store.Query{Verdict: "deny"}, []string{"evil.example", "ptrace", "cat ~/.ssh/id_rsa"}},
		{"one agent", store.Query{Agent: "claude-code"}, []string{"git status", "cat ~/.ssh/id_rsa"}},
		{"decisions", store.Query{Kinds: []audit.Kind{audit.KindDecision}}, []string{"git status", "git push origin main", "cat ~/.ssh/id_rsa"}},
		{"network and syscalls", store.Query{Kinds: []audit.Kind{audit.KindNetwork, audit.KindSyscall}}, []string{"evil.example", "ptrace"}},
		{"since", store.Query{Since: t0.Add(2 * time.Second)}, []string{"evil.example", "ptrace", "cat ~/.ssh/id_rsa"}},
		{"until", store.Query{Until: t0.Add(2 * time.Second)}, []string{"git status", "git push origin main"}},
		{"last two", store.Query{Limit: 2}, []string{"ptrace", "cat ~/.ssh/id_rsa"}},
		{"prompted", store.Query{Verdict: "prompt"}, []string{"git push origin main"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, subjects(t, s, tt.q)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
	v, err := s.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() || v.Events != 5 || v.HeadSeq != 5 {
		t.Errorf("verify: %+v", v)
	}
	// Reopened, the chain goes on.
	s.Close()
	s2 := open(t, filepath.Dir(s.Path()))
	r, err := s2.Append(ctx, decision("gemini", "ls", "allow"))
	if err != nil || r.Seq != 6 {
		t.Fatalf("append after reopening: %+v %v", r, err)
	}
	if v, _ := s2.Verify(ctx); !v.OK() {
		t.Errorf("verify after reopening: %+v", v)
	}
}

// raw opens the store's file directly, as someone who bypasses Warden
// would.
func raw(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, store.DBName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestVerifyFindsTampering changes a store behind Warden's back each way
// the chain must catch, and checks that verify names the first event
// that does not hold.
func TestVerifyFindsTampering(t *testing.T) {
	for _, tt := range []struct {
		name   string
		tamper func(t *testing.T, dir string, db *sql.DB)
		bad    int64
		want   string
	}{
		{"a body changed", func(t *testing.T, _ string, db *sql.DB) {
			exec1(t, db, `UPDATE events SET body = replace(body, '"deny"', '"allow"') WHERE seq = 4`)
		}, 4, "event 4 was changed"},
		{"a time changed", func(t *testing.T, _ string, db *sql.DB) {
			exec1(t, db, `UPDATE events SET time = time + 1 WHERE seq = 2`)
		}, 2, "event 2 was changed"},
		{"an event removed", func(t *testing.T, _ string, db *sql.DB) {
			exec1(t, db, `DELETE FROM events WHERE seq = 3`)
		}, 3, "event 3 is missing"},
		{"an event removed, the rest renumbered", func(t *testing.T, _ string, db *sql.DB) {
			exec1(t, db, `DELETE FROM events WHERE seq = 3`)
			exec1(t, db, `UPDATE events SET seq = seq - 1 WHERE seq > 3`)
		}, 3, "event 3 does not follow event 2"},
		{"the last events removed", func(t *testing.T, _ string, db *sql.DB) {
			exec1(t, db, `DELETE FROM events WHERE seq > 3`)
		}, 0, "the store ends at event 3, but the head says 5 were recorded"},
		{"the last events removed, the head file too", func(t *testing.T, dir string, db *sql.DB) {
			exec1(t, db, `DELETE FROM events WHERE seq > 3`)
			os.Remove(filepath.Join(dir, store.HeadName))
		}, 0, "the chain's head file is missing"},
		{"an event replaced with a whole new chain end", func(t *testing.T, dir string, db *sql.DB) {
			// The last event rewritten with a hash computed right:
			// the head still names the old one.
			exec1(t, db, `DELETE FROM events WHERE seq = 5`)
			s := open(t, dir)
			if _, err := s.Append(context.Background(), decision("claude-code", "forged", "allow")); err != nil {
				t.Fatal(err)
			}
		}, 5, "event 5 is not the one the head recorded"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := open(t, dir)
			for i := range 5 {
				if _, err := s.Append(context.Background(), decision("a", fmt.Sprint(i), "deny")); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
			tt.tamper(t, dir, raw(t, dir))
			v, err := open(t, dir).Verify(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if v.OK() || v.BadSeq != tt.bad || !strings.Contains(v.Problem, tt.want) {
				t.Errorf("verify: %+v, want problem %q at event %d", v, tt.want, tt.bad)
			}
		})
	}
}

func exec1(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentWriters: 8 processes append 1,000 events each at once;
// every event is there once, numbered without a gap, and the chain holds.
func TestConcurrentWriters(t *testing.T) {
	const writers, each = 8, 1000
	dir := t.TempDir()
	open(t, dir).Close() // made once, so that the writers race on appends
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for w := range writers {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("WARDEN_STORE_TEST_WRITER=%s,w%d,%d", dir, w, each))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", i, err, outs[i])
		}
	}
	s := open(t, dir)
	seen := map[string]int{}
	var n int64
	var seqs []int64
	err := s.Events(context.Background(), store.Query{}, func(r store.Record) error {
		n++
		seqs = append(seqs, r.Seq)
		seen[r.Event.Decision.Subject]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Listed in time order; numbered 1 to n without a gap or a repeat.
	slices.Sort(seqs)
	for i, seq := range seqs {
		if seq != int64(i+1) {
			t.Fatalf("the %dth number is %d", i+1, seq)
		}
	}
	if n != writers*each {
		t.Errorf("%d events, want %d", n, writers*each)
	}
	for w := range writers {
		for i := range each {
			if c := seen[fmt.Sprintf("w%d-%d", w, i)]; c != 1 {
				t.Fatalf("w%d-%d recorded %d times", w, i, c)
			}
		}
	}
	v, err := s.Verify(context.Background())
	if err != nil || !v.OK() || v.HeadSeq != writers*each {
		t.Errorf("verify: %+v %v", v, err)
	}
}

// TestKilledWriter: a writer killed with SIGKILL in the middle of its
// appends leaves every event it saw committed, and a whole chain.
func TestKilledWriter(t *testing.T) {
	dir := t.TempDir()
	open(t, dir).Close()
	committed := map[int64]string{}
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("WARDEN_STORE_TEST_WRITER=%s,k%d,0", dir, round))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		for got := 0; got < 300 && sc.Scan(); got++ {
			f := strings.Fields(sc.Text())
			seq, _ := strconv.ParseInt(f[0], 10, 64)
			committed[seq] = f[1]
		}
		// Killed while it appends: between, or in the middle of, two
		// transactions.
		cmd.Process.Signal(syscall.SIGKILL)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			seq, _ := strconv.ParseInt(f[0], 10, 64)
			committed[seq] = f[1]
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("writer %d ended with %v, not killed\n%s", round, err, stderr.String())
		}
	}
	s := open(t, dir)
	stored := map[int64]string{}
	err := s.Events(context.Background(), store.Query{}, func(r store.Record) error {
		stored[r.Seq] = r.Event.Decision.Subject
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for seq, subj := range committed {
		if stored[seq] != subj {
			t.Fatalf("event %d (%s) was committed, and the store has %q", seq, subj, stored[seq])
		}
	}
	v, err := s.Verify(context.Background())
	if err != nil || !v.OK() {
		t.Errorf("verify after the kills: %+v %v", v, err)
	}
	t.Logf("%d events seen committed by the killed writers; the store has %d", len(committed), len(stored))
	// The next writer goes on from the chain's end.
	if r, err := s.Append(context.Background(), decision("a", "after", "allow")); err != nil || r.Seq != int64(len(stored))+1 {
		t.Errorf("append after the kills: %+v %v", r, err)
	}
}

// TestNewerSchemaRefused: a store made by a later Warden is refused with
// a hint, and left as it is.
func TestNewerSchemaRefused(t *testing.T) {
	dir := t.TempDir()
	open(t, dir).Close()
	db := raw(t, dir)
	exec1(t, db, `UPDATE meta SET value = '99' WHERE key = 'schema'`)
	_, err := store.Open(context.Background(), dir)
	var se *store.Error
	if !errors.As(err, &se) || !strings.Contains(se.What, "schema version 99, newer than this warden's") || se.Hint == "" {
		t.Fatalf("open: %v, want a refusal naming schema 99 with a hint", err)
	}
	var v string
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'schema'`).Scan(&v); err != nil || v != "99" {
		t.Errorf("the schema version is now %q (%v): the store was touched", v, err)
	}
}

// TestDamagedStore: a file that is not a database is a clear error, and
// is left byte for byte as it was.
func TestDamagedStore(t *testing.T) {
	dir := t.TempDir()
	junk := bytes.Repeat([]byte("not a database, but an agent's idea of one\n"), 200)
	p := filepath.Join(dir, store.DBName)
	if err := os.WriteFile(p, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(context.Background(), dir)
	var se *store.Error
	if !errors.As(err, &se) || !strings.Contains(se.Error(), p) || !strings.Contains(se.Hint, "damaged") {
		t.Fatalf("open: %v (%+v), want an error naming %s with a hint", err, se, p)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, junk) {
		t.Error("the damaged file was changed")
	}
}

func TestRelativeStateDirRefused(t *testing.T) {
	if _, err := store.Open(context.Background(), "state"); err == nil {
		t.Fatal("a relative state directory was taken")
	}
}

func TestModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := open(t, dir)
	if _, err := s.Append(context.Background(), decision("a", "x", "allow")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, s.Path(): 0o600, filepath.Join(dir, store.HeadName): 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
}

// BenchmarkAppend appends from 8 writers at once, each with its own
// connection as each hook process has, and reports the median and 99th
// percentile of one append.
//
//	go test -run '^$' -bench Append -benchtime 8000x ./internal/store
func BenchmarkAppend(b *testing.B) {
	const writers = 8
	dir := b.TempDir()
	ss := make([]*store.SQLite, writers)
	for i := range ss {
		s, err := store.Open(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		ss[i] = s
	}
	lat := make([][]time.Duration, writers)
	b.ResetTimer()
	done := make(chan error, writers)
	for w := range writers {
		go func() {
			for i := w; i < b.N; i += writers {
				t0 := time.Now()
				if _, err := ss[w].Append(context.Background(), decision("bench", strconv.Itoa(i), "allow")); err != nil {
					done <- err
					return
				}
				lat[w] = append(lat[w], time.Since(t0))
			}
			done <- nil
		}()
	}
	for range writers {
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	}
}

func TestApprovals(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	mk := func(id string, ttl time.Duration) {
		t.Helper()
		err := s.CreateApproval(ctx, store.Approval{ID: id, Created: now, Expires: now.Add(ttl),
			Request: store.ApprovalRequest{Surface: "hook claude-code", Tool: "Bash", Subject: "git push origin feature", Preview: []string{"pushes 3 commits"}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	mk("a1", 15*time.Minute)
	mk("a2", 15*time.Minute)
	mk("a3", time.Minute)
	later := now.Add(2 * time.Minute)
	pending, err := s.Approvals(ctx, true, later)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range pending {
		ids = append(ids, a.ID+":"+a.State)
	}
	if diff := cmp.Diff([]string{"a1:pending", "a2:pending"}, ids); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
	a, err := s.AnswerApproval(ctx, "a1", store.ApprovalAnswer{Answer: "allow"}, later)
	if err != nil || a.State != store.Allowed || a.Answer == nil || a.Answer.Answer != "allow" {
		t.Errorf("allow a1: %+v %v", a, err)
	}
	// Answered once: a second answer changes nothing.
	if a, err := s.AnswerApproval(ctx, "a1", store.ApprovalAnswer{Answer: "deny"}, later); !errors.Is(err, store.ErrAnswered) || a.State != store.Allowed {
		t.Errorf("deny a1 again: %+v %v, want ErrAnswered and still allowed", a, err)
	}
	// Expired: a deny, and no answer takes.
	if a, err := s.AnswerApproval(ctx, "a3", store.ApprovalAnswer{Answer: "allow"}, later); !errors.Is(err, store.ErrAnswered) || a.State != store.Expired {
		t.Errorf("allow a3 after its expiry: %+v %v, want ErrAnswered and expired", a, err)
	}
	if _, err := s.AnswerApproval(ctx, "nope", store.ApprovalAnswer{Answer: "allow"}, later); !errors.Is(err, store.ErrNoApproval) {
		t.Errorf("answer an unknown id: %v", err)
	}
	if _, err := s.AnswerApproval(ctx, "a2", store.ApprovalAnswer{Answer: "maybe"}, later); err == nil {
		t.Error("an answer that is none was taken")
	}
	a, err = s.AnswerApproval(ctx, "a2", store.ApprovalAnswer{Answer: "deny", Reason: "not on a Friday"}, later)
	if err != nil || a.State != store.Denied || a.Answer.Reason != "not on a Friday" || a.Request.Preview[0] != "pushes 3 commits" {
		t.Errorf("deny a2: %+v %v", a, err)
	}
}

func TestRevisions(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	for i, c := range []string{"version: 1\n", "version: 1\nrules: []\n"} {
		if err := s.AddRevision(ctx, store.Revision{Time: time.Now(), Path: "/p.yaml", Content: []byte(c), Why: fmt.Sprint("r", i)}); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := s.Revisions(ctx, "/p.yaml")
	if err != nil || len(rs) != 2 || string(rs[1].Content) != "version: 1\nrules: []\n" || rs[0].Why != "r0" || len(rs[0].SHA256) != 64 {
		t.Errorf("revisions: %+v %v", rs, err)
	}
}
