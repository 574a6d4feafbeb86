// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package store keeps what Warden decided and observed, on one timeline:
// an append-only, hash-chained log of [audit.Event]s, in the state
// directory (docs/spec.md §13).
//
// # The chain
//
// Events get consecutive sequence numbers from 1. Each carries the
// SHA-256 of the one before it and its own hash over that, its number,
// its time and its body exactly as stored ([chainHash]), so that an event
// changed, removed or put in between breaks the chain at that event.
// Removing the tail leaves a shorter chain that is whole, so the chain's
// head (the last number and hash) is also kept in a file beside the
// store, updated after every commit; [Store.Verify] compares the two.
// Both are in the state directory, which a contained agent cannot reach
// (warden run masks it) and an uncontained one may not touch (the
// engine's floor): the chain shows tampering by anything that cannot
// also rewrite every later event and the head, not by an owner who can.
//
// # Writers
//
// Many short-lived processes append at once. Each append is one
// transaction that takes the database's write lock first (BEGIN
// IMMEDIATE), reads the last event, and inserts the next: no event is
// lost or numbered twice, and a writer killed at any point leaves every
// committed event whole (SQLite's write-ahead log). A hook call, one per
// tool call of an agent, does not open the store: it spools its events
// (spool.go), and [Open] takes the spool into the chain before anything
// reads or appends, so that every reader sees every event.
//
// # Schema
//
// The schema is versioned; [Open] applies the migrations a store lacks,
// in one transaction each, and refuses a store made by a later Warden
// rather than touch it.
package store

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"warden.dev/warden/internal/audit"
)

// Record is one stored event and its place in the chain.
type Record struct {
	Seq int64
	// Prev is the hash of the event before (zero for the first), Hash
	// this one's.
	Prev, Hash Hash
	Event      audit.Event
	// Body is the event as stored (its JSON form), set by a raw query
	// ([Query.Raw]) instead of Event.
	Body []byte
}

// AppendJSON appends r's event as stored, as one JSON object with its
// number and hash first: {"seq":N,"hash":"…",…the event's fields}. r must
// come from a raw query (Body set).
func (r Record) AppendJSON(b []byte) []byte {
	b = fmt.Appendf(b, `{"seq":%d,"hash":"%s",`, r.Seq, r.Hash)
	return append(b, r.Body[1:]...)
}

// Hash is a SHA-256 of the chain.
type Hash [32]byte

func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// Query selects events; zero fields select everything.
type Query struct {
	// Since and Until bound the event's time: Since ≤ time < Until.
	Since, Until time.Time
	Kinds        []audit.Kind
	// Verdict is "allow", "prompt" or "deny": a decision's as answered
	// (a prompt nobody could answer is a deny), an MCP call's, a network
	// attempt's; a refused system call is a deny.
	Verdict string
	Agent   string
	// Limit keeps the last Limit events matching; 0 is no limit.
	Limit int
	// Raw gives each record's Body, undecoded, and no Event.
	Raw bool
}

// Verification is what [Store.Verify] found.
type Verification struct {
	// Events is how many events were checked.
	Events int64
	// Head is the last event's number and hash.
	HeadSeq  int64
	HeadHash Hash
	// Problem says where the chain first fails to hold; "" when whole.
	// BadSeq is the event it names (0 for the head file).
	Problem string
	BadSeq  int64
}

// OK reports whether the chain holds.
func (v Verification) OK() bool { return v.Problem == "" }

// Error is a store that cannot be used, with what to do about it.
type Error struct {
	What string
	Hint string
	Err  error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.What, e.Err)
	}
	return e.What
}

func (e *Error) Unwrap() error { return e.Err }

// Store is the log. The SQLite store ([Open]) is the one there is; a
// PostgreSQL one will satisfy the same interface.
type Store interface {
	// Append records ev as the next event, its secrets redacted, and
	// returns its record.
	Append(ctx context.Context, ev audit.Event) (Record, error)
	// Events calls fn with each event q selects, in the order of their
	// times (then of their numbers: a run's network attempts carry their
	// own, earlier, times), until fn returns an error, which Events
	// returns.
	Events(ctx context.Context, q Query, fn func(Record) error) error
	// Verify walks the whole chain and compares its end with the head
	// file.
	Verify(ctx context.Context) (Verification, error)
	Close() error
}

var _ audit.Sink = Sink{}

// Sink writes events to a store: an [audit.Sink] whose Write fails when
// the event was not committed.
type Sink struct {
	Store Store
}

// Write appends ev.
func (s Sink) Write(ev audit.Event) error {
	_, err := s.Store.Append(context.Background(), ev)
	return err
}

// Recorder is an [audit.Sink] for a process that records now and then
// (a hook call, a run): it opens the store in Dir at its first event and
// keeps it until Close. Dir "" (no state directory can be named) makes
// every write fail, so that the caller decides what an unrecorded event
// means.
//
// While warden serve runs, a Recorder records through it instead
// (remote.go), and opens the store itself only when serve stops
// answering, or when Store asks for it.
type Recorder struct {
	Dir string
	// Spool is for a process that records a few events and exits (a
	// hook call, a run): its events are spooled (spool.go), for the next
	// open of the store, or warden serve, to take in; the store is
	// opened only when the spool is long or the events are many.
	Spool  bool
	mu     sync.Mutex // guards the fields below
	s      *SQLite
	remote *remote
}

var _ audit.Sink = (*Recorder)(nil)

// Ready opens the store, if it is not open yet; for a spooling
// recorder, it makes sure the spool can be written.
func (r *Recorder) Ready() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Spool && r.Dir != "" {
		return spoolReady(r.Dir)
	}
	return r.open()
}

// open readies the recorder: through warden serve if it answers, else
// with the store opened here.
func (r *Recorder) open() error {
	if r.s != nil || r.remote != nil {
		return nil
	}
	if r.Dir == "" {
		return &Error{What: "no state directory: neither WARDEN_STATE_DIR, XDG_STATE_HOME nor a home directory is set",
			Hint: "set WARDEN_STATE_DIR to an absolute path"}
	}
	if r.Spool {
		// Spooling costs less than a round trip to warden serve,
		// which takes the spool in too.
		return nil
	}
	if r.remote = dialRecords(r.Dir); r.remote != nil {
		return nil
	}
	return r.openLocal()
}

// openLocal opens the store here.
func (r *Recorder) openLocal() error {
	if r.s != nil {
		return nil
	}
	s, err := Open(context.Background(), r.Dir)
	if err != nil {
		return err
	}
	r.s = s
	return nil
}

// Write appends ev, opening the store first if needed.
func (r *Recorder) Write(ev audit.Event) error {
	return r.WriteBatch([]audit.Event{ev})
}

// WriteBatch appends evs in one transaction, in order.
func (r *Recorder) WriteBatch(evs []audit.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.open(); err != nil {
		return err
	}
	if r.remote != nil {
		err := r.remote.send(evs)
		var se *Error
		if err == nil || errors.As(err, &se) {
			// Recorded, or refused by the store itself.
			return err
		}
		// Serve went away: the store is opened here.
		r.remote.close()
		r.remote = nil
		if err := r.openLocal(); err != nil {
			return err
		}
	}
	if r.s == nil {
		// r.Spool: the next open of the store takes the events in;
		// this one, when the spool has grown long.
		long, err := Spool(r.Dir, evs)
		if errors.Is(err, errSpoolLarge) {
			if err := r.openLocal(); err != nil {
				return err
			}
			_, err := r.s.AppendBatch(context.Background(), evs)
			return err
		}
		if err != nil || !long {
			return err
		}
		// Recorded either way: a store that does not open now is
		// reported by the next open, which takes the spool in.
		r.openLocal()
		return nil
	}
	_, err := r.s.AppendBatch(context.Background(), evs)
	return err
}

// Store opens the store, if it is not open yet, and returns it.
func (r *Recorder) Store() (*SQLite, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Dir == "" {
		return nil, r.open()
	}
	if err := r.openLocal(); err != nil {
		return nil, err
	}
	return r.s, nil
}

// Close closes the store, if it was opened.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.remote != nil {
		r.remote.close()
		r.remote = nil
	}
	if r.s == nil {
		return nil
	}
	err := r.s.Close()
	r.s = nil
	return err
}
