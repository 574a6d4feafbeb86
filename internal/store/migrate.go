// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// migrations are the schema's versions: migrations[i] takes a store from
// version i to i+1. Append only; a shipped migration is never changed.
var migrations = []string{
	// 1: the chained events, approvals, and the policy's revisions.
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
	CREATE TABLE events (
		seq     INTEGER PRIMARY KEY,
		time    INTEGER NOT NULL,
		kind    TEXT NOT NULL,
		verdict TEXT NOT NULL DEFAULT '',
		agent   TEXT NOT NULL DEFAULT '',
		session TEXT NOT NULL DEFAULT '',
		project TEXT NOT NULL DEFAULT '',
		body    TEXT NOT NULL,
		prev    BLOB NOT NULL,
		hash    BLOB NOT NULL
	);
	CREATE INDEX events_time ON events (time);
	CREATE INDEX events_kind_time ON events (kind, time);
	CREATE TABLE approvals (
		id       TEXT PRIMARY KEY,
		created  INTEGER NOT NULL,
		expires  INTEGER NOT NULL,
		state    TEXT NOT NULL,
		request  TEXT NOT NULL,
		answer   TEXT NOT NULL DEFAULT '',
		answered INTEGER NOT NULL DEFAULT 0
	);
	CREATE INDEX approvals_state ON approvals (state, expires);
	CREATE TABLE revisions (
		id      INTEGER PRIMARY KEY,
		time    INTEGER NOT NULL,
		path    TEXT NOT NULL,
		sha256  TEXT NOT NULL,
		content TEXT NOT NULL,
		why     TEXT NOT NULL DEFAULT ''
	);`,
	// 2: indexes for warden audit's selections, each ending in time so
	// that a selection comes out in time order (then seq, the rowid
	// every index ends with) without a sort.
	`CREATE INDEX events_verdict_time ON events (verdict, time);
	CREATE INDEX events_agent_time ON events (agent, time);`,
	// 3: the spool files whose events are in the chain, until they are
	// deleted (spool.go).
	`CREATE TABLE spooled (name TEXT PRIMARY KEY);`,
}

// SchemaVersion is the schema this Warden writes.
var SchemaVersion = len(migrations)

// migrate brings the schema up to date, one transaction a version, and
// refuses a store of a later schema.
func (s *SQLite) migrate(ctx context.Context) error {
	target := SchemaVersion
	// Most opens find the schema current: read without the write lock
	// (every transaction here takes it), so that hook processes opening
	// the store do not queue behind each other's appends for this.
	if v, err := schemaOf(ctx, s.db); err == nil && v == target {
		return nil
	}
	for {
		done, err := s.migrateOne(ctx, target)
		if err != nil || done {
			return err
		}
	}
}

// migrateOne applies the next migration, if any, in a transaction that
// holds the write lock, so that two processes opening a new store do not
// both apply it.
func (s *SQLite) migrateOne(ctx context.Context, target int) (done bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, s.fail("open", err)
	}
	defer tx.Rollback()
	v, err := schemaOf(ctx, tx)
	if err != nil {
		return false, s.fail("read the schema version", err)
	}
	if v > SchemaVersion {
		return false, &Error{What: fmt.Sprintf("store %s has schema version %d, newer than this warden's %d", s.path, v, SchemaVersion),
			Hint: "use the warden that made it, or a newer one; a store is never downgraded"}
	}
	if v >= target {
		return true, nil
	}
	if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
		return false, s.fail(fmt.Sprintf("migrate to schema %d", v+1), err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('schema', ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.Itoa(v+1)); err != nil {
		return false, s.fail("record the schema version", err)
	}
	if err := tx.Commit(); err != nil {
		return false, s.fail(fmt.Sprintf("migrate to schema %d", v+1), err)
	}
	return false, nil
}

// querier is a database or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// schemaOf is the store's schema version: 0 for an empty file.
func schemaOf(ctx context.Context, tx querier) (int, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).Scan(&n); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	var v string
	err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("the meta table has no schema version")
	}
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(v)
}
