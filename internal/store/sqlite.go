// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	_ "modernc.org/sqlite" // the "sqlite" driver

	"warden.dev/warden/internal/audit"
)

// File names in the state directory.
const (
	DBName   = "warden.db"
	HeadName = "head"
)

// SQLite is the store in one SQLite file, in write-ahead-log mode.
type SQLite struct {
	db   *sql.DB
	path string
	head *headFile
	// lock is the writers' lock file: see Append.
	lock *os.File
}

var _ Store = (*SQLite)(nil)

// busyTimeout is how long a writer waits for another's write lock: hook
// processes hold it for well under a millisecond each.
const busyTimeout = 10 * time.Second

// Open opens (making it, mode 0700, if needed) the store in the state
// directory dir, and brings its schema up to date.
func Open(ctx context.Context, dir string) (*SQLite, error) {
	if !filepath.IsAbs(dir) {
		return nil, &Error{What: fmt.Sprintf("state directory %q is not absolute", dir), Hint: "set WARDEN_STATE_DIR to an absolute path"}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, &Error{What: "state directory", Err: err, Hint: "make " + dir + " writable by this user, or set WARDEN_STATE_DIR"}
	}
	path := filepath.Join(dir, DBName)
	// WAL: readers do not block the writer, a commit is one append to
	// the log; synchronous NORMAL: a commit survives any crash of the
	// process (SIGKILL included), the last commits may not survive a
	// crash of the machine. _txlock=immediate: every transaction takes
	// the write lock at BEGIN, so two appends never read the same last
	// event.
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, &Error{What: "open the store " + path, Err: err}
	}
	// One connection: a process appends one event at a time, and a
	// single connection keeps the pragmas above in force.
	db.SetMaxOpenConns(1)
	lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		db.Close()
		return nil, &Error{What: "store lock", Err: err, Hint: "make " + dir + " writable by this user"}
	}
	s := &SQLite{db: db, path: path, head: &headFile{dir: dir}, lock: lock}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.ingest(ctx); err != nil {
		s.Close()
		return nil, err
	}
	// The file is made by SQLite with the umask's mode; the state
	// directory is 0700 anyway, the file is kept 0600 as well.
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.Close()
			return nil, &Error{What: "store permissions", Err: err}
		}
	}
	return s, nil
}

// Close closes the database.
func (s *SQLite) Close() error {
	s.lock.Close()
	s.head.close()
	return s.db.Close()
}

// exclusive takes the writers' lock. SQLite's own lock, when contended,
// is retried after sleeps of 1, 2, 5, 10… ms: eight hook processes
// appending at once waited up to 20 ms each. Writers queue on this
// kernel lock first, which wakes the next at once, so SQLite's lock is
// never contended between them (readers need neither: WAL). The lock is
// released when the process ends, however it ends.
func (s *SQLite) exclusive() (unlock func(), err error) {
	for {
		err = unix.Flock(int(s.lock.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &Error{What: "store lock", Err: err}
	}
	return func() { unix.Flock(int(s.lock.Fd()), unix.LOCK_UN) }, nil
}

// Path is the database file.
func (s *SQLite) Path() string { return s.path }

// Append records ev as the next event, its secrets redacted first
// (audit.Redact): no secret an agent typed or a command printed is ever
// stored.
func (s *SQLite) Append(ctx context.Context, ev audit.Event) (Record, error) {
	rs, err := s.AppendBatch(ctx, []audit.Event{ev})
	if len(rs) == 0 {
		return Record{}, err
	}
	return rs[0], err
}

// AppendBatch records evs as the next events, in one transaction: all
// of them or none (an import, a run's record with its attempts).
func (s *SQLite) AppendBatch(ctx context.Context, evs []audit.Event) ([]Record, error) {
	unlock, err := s.exclusive()
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.appendLocked(ctx, evs, nil)
}

// appendLocked is AppendBatch for a caller that holds the writers' lock,
// with also, when given, more statements of the same transaction (the
// spool's names: spool.go).
func (s *SQLite) appendLocked(ctx context.Context, evs []audit.Event, also func(tx *sql.Tx) error) ([]Record, error) {
	type row struct {
		ev   audit.Event
		body []byte
		cols indexed
	}
	rows := make([]row, len(evs))
	// The kind column is what --kind selects: a person's answer to an
	// approval is a decision of the surface "approval ID", selected as
	// kind approval.
	for i, ev := range evs {
		ev = audit.Redact(ev)
		if ev.Time.IsZero() {
			ev.Time = time.Now()
		}
		body, err := json.Marshal(ev)
		if err != nil {
			return nil, fmt.Errorf("store: encode the event: %w", err)
		}
		rows[i] = row{ev, body, columnsOf(ev)}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.fail("begin", err)
	}
	defer tx.Rollback()
	var last Record
	var prev []byte
	err = tx.QueryRowContext(ctx, `SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1`).Scan(&last.Seq, &prev)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, s.fail("read the chain's end", err)
	default:
		copy(last.Hash[:], prev)
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO events (seq, time, kind, verdict, agent, session, project, body, prev, hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, s.fail("append", err)
	}
	defer ins.Close()
	out := make([]Record, len(rows))
	for i, rw := range rows {
		r := Record{Seq: last.Seq + 1, Prev: last.Hash, Event: rw.ev}
		nanos := rw.ev.Time.UnixNano()
		r.Hash = chainHash(r.Prev, r.Seq, nanos, rw.body)
		if _, err := ins.ExecContext(ctx, r.Seq, nanos, kindOf(rw.ev), rw.cols.verdict, rw.cols.agent, rw.cols.session,
			rw.cols.project, string(rw.body), r.Prev[:], r.Hash[:]); err != nil {
			return nil, s.fail("append", err)
		}
		out[i], last = r, r
	}
	if also != nil {
		if err := also(tx); err != nil {
			return nil, s.fail("append", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, s.fail("commit", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	// After the commit: a head ahead of the chain would look like a
	// truncation. A writer killed here leaves the head behind, which
	// the next append moves on.
	if err := s.head.advance(last.Seq, last.Hash); err != nil {
		return out, &Error{What: "the events were recorded, but the chain's head was not kept", Err: err,
			Hint: "make " + s.head.dir + " writable by this user"}
	}
	return out, nil
}

func (s *SQLite) fail(what string, err error) error {
	return &Error{What: fmt.Sprintf("store %s: %s", s.path, what), Err: err, Hint: hintFor(err)}
}

// chainHash is an event's hash: SHA-256 over the previous hash, the
// event's number and time (8 bytes each, big-endian) and its body as
// stored.
func chainHash(prev Hash, seq, nanos int64, body []byte) Hash {
	h := sha256.New()
	h.Write(prev[:])
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(seq))
	binary.BigEndian.PutUint64(b[8:], uint64(nanos))
	h.Write(b[:])
	h.Write(body)
	var out Hash
	h.Sum(out[:0])
	return out
}

// indexed are the columns a query selects on, taken from the event.
type indexed struct {
	verdict, agent, session, project string
}

func columnsOf(ev audit.Event) indexed {
	switch {
	case ev.Decision != nil:
		// The verdict answered, which is what happened: a prompt
		// nobody could answer is a deny.
		d := ev.Decision
		v := d.Answered
		if v == "" {
			v = d.Verdict
		}
		return indexed{verdict: v, agent: d.Agent, session: d.Session, project: d.Project}
	case ev.MCP != nil:
		return indexed{verdict: ev.MCP.Decision}
	case ev.Network != nil:
		return indexed{verdict: ev.Network.Verdict}
	case ev.Syscall != nil:
		return indexed{verdict: "deny"}
	case ev.Run != nil:
		return indexed{agent: ev.Run.Agent, project: ev.Run.Project}
	}
	return indexed{}
}

// Events calls fn with each event q selects, oldest first.
func (s *SQLite) Events(ctx context.Context, q Query, fn func(Record) error) error {
	var where []string
	var args []any
	if !q.Since.IsZero() {
		where, args = append(where, "time >= ?"), append(args, q.Since.UnixNano())
	}
	if !q.Until.IsZero() {
		where, args = append(where, "time < ?"), append(args, q.Until.UnixNano())
	}
	if len(q.Kinds) > 0 {
		marks := strings.TrimSuffix(strings.Repeat("?,", len(q.Kinds)), ",")
		where = append(where, "kind IN ("+marks+")")
		for _, k := range q.Kinds {
			args = append(args, string(k))
		}
	}
	if q.Verdict != "" {
		where, args = append(where, "verdict = ?"), append(args, q.Verdict)
	}
	if q.Agent != "" {
		where, args = append(where, "agent = ?"), append(args, q.Agent)
	}
	sel := "SELECT seq, time, body, prev, hash FROM events"
	if len(where) > 0 {
		sel += " WHERE " + strings.Join(where, " AND ")
	}
	// In time order, then seq: what every index gives without a sort
	// (events_time, and each (column, time) index, end in the rowid).
	if q.Limit > 0 {
		// The last Limit, given oldest first.
		sel = "SELECT * FROM (" + sel + " ORDER BY time DESC, seq DESC LIMIT ?) ORDER BY time, seq"
		args = append(args, q.Limit)
	} else {
		sel += " ORDER BY time, seq"
	}
	return s.each(ctx, sel, args, q.Raw, fn)
}

// each calls fn with each event a query of seq, time, body, prev and
// hash selects, decoded, or as stored when raw.
func (s *SQLite) each(ctx context.Context, sel string, args []any, raw bool, fn func(Record) error) error {
	rows, err := s.db.QueryContext(ctx, sel, args...)
	if err != nil {
		return s.fail("query", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Record
		var nanos int64
		var body string
		var prev, hash []byte
		if err := rows.Scan(&r.Seq, &nanos, &body, &prev, &hash); err != nil {
			return s.fail("read", err)
		}
		copy(r.Prev[:], prev)
		copy(r.Hash[:], hash)
		if raw {
			r.Body = []byte(body)
		} else if err := json.Unmarshal([]byte(body), &r.Event); err != nil {
			return &Error{What: fmt.Sprintf("store %s: event %d does not decode", s.path, r.Seq), Err: err,
				Hint: "warden audit verify says whether the store was changed"}
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return s.fail("read", err)
	}
	return nil
}

// Verify walks the chain from the first event and compares its end
// with the head file.
func (s *SQLite) Verify(ctx context.Context) (Verification, error) {
	var v Verification
	rows, err := s.db.QueryContext(ctx, `SELECT seq, time, body, prev, hash FROM events ORDER BY seq`)
	if err != nil {
		return v, s.fail("query", err)
	}
	defer rows.Close()
	var last Hash
	for rows.Next() {
		var seq, nanos int64
		var body string
		var prev, hash []byte
		if err := rows.Scan(&seq, &nanos, &body, &prev, &hash); err != nil {
			return v, s.fail("read", err)
		}
		want := v.HeadSeq + 1
		switch {
		case seq != want:
			v.Problem, v.BadSeq = fmt.Sprintf("event %d is missing: the next event is %d", want, seq), want
		case !sameHash(prev, last):
			v.Problem, v.BadSeq = fmt.Sprintf("event %d does not follow event %d: its previous hash is not %d's", seq, seq-1, seq-1), seq
		case !sameHash(hash, chainHash(last, seq, nanos, []byte(body))):
			v.Problem, v.BadSeq = fmt.Sprintf("event %d was changed: its hash does not match its content", seq), seq
		}
		if v.Problem != "" {
			return v, nil
		}
		v.Events++
		v.HeadSeq = seq
		copy(last[:], hash)
	}
	if err := rows.Err(); err != nil {
		return v, s.fail("read", err)
	}
	v.HeadHash = last
	seq, hash, ok, err := s.head.read()
	switch {
	case err != nil:
		v.Problem = fmt.Sprintf("the chain's head file cannot be read: %v", err)
	case !ok && v.HeadSeq > 0:
		v.Problem = "the chain's head file is missing"
	case seq > v.HeadSeq:
		v.Problem = fmt.Sprintf("the store ends at event %d, but the head says %d were recorded: events were removed from the end", v.HeadSeq, seq)
	case ok && seq > 0:
		// The head may lag (a writer killed after its commit), never
		// disagree with the event it names.
		var stored []byte
		if err := s.db.QueryRowContext(ctx, `SELECT hash FROM events WHERE seq = ?`, seq).Scan(&stored); err != nil {
			return v, s.fail("read", err)
		}
		if !sameHash(stored, hash) {
			v.Problem, v.BadSeq = fmt.Sprintf("event %d is not the one the head recorded: its hash differs", seq), seq
		}
	}
	return v, nil
}

func sameHash(b []byte, h Hash) bool { return string(b) == string(h[:]) }

// hintFor says what to do about a database error.
func hintFor(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "not a database"), strings.Contains(msg, "malformed"):
		return "the store file is damaged: move it aside (warden keeps a new one) and keep the old one for inspection"
	case strings.Contains(msg, "locked"), strings.Contains(msg, "busy"):
		return "another warden process held the store for too long"
	case strings.Contains(msg, "readonly"), strings.Contains(msg, "permission"):
		return "make the state directory and its store writable by this user"
	}
	return ""
}

// ErrNoStore is [OpenExisting]'s error for a state directory without a
// store: nothing was recorded there yet.
var ErrNoStore = errors.New("no store yet: nothing was recorded")

// OpenExisting is [Open] for a reader: a state directory without a store
// or a spool (spool.go) is [ErrNoStore], and nothing is made.
func OpenExisting(ctx context.Context, dir string) (*SQLite, error) {
	if dir == "" {
		return nil, &Error{What: "no state directory: neither WARDEN_STATE_DIR, XDG_STATE_HOME nor a home directory is set",
			Hint: "set WARDEN_STATE_DIR to an absolute path"}
	}
	if _, err := os.Stat(filepath.Join(dir, DBName)); errors.Is(err, os.ErrNotExist) && !Spooled(dir) {
		return nil, ErrNoStore
	}
	return Open(ctx, dir)
}

// After calls fn with each event numbered after seq, in their order, as
// stored (Record.Body).
func (s *SQLite) After(ctx context.Context, seq int64, fn func(Record) error) error {
	return s.each(ctx, `SELECT seq, time, body, prev, hash FROM events WHERE seq > ? ORDER BY seq`, []any{seq}, true, fn)
}

// Last is the number of the chain's last event, 0 when there is none.
func (s *SQLite) Last(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM events`).Scan(&n); err != nil {
		return 0, s.fail("read the chain's end", err)
	}
	return n, nil
}

// kindOf is the kind an event is selected by.
func kindOf(ev audit.Event) string {
	if ev.Decision != nil && strings.HasPrefix(ev.Decision.Surface, "approval ") {
		return "approval"
	}
	return string(ev.Kind)
}
