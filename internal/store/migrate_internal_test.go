// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

import (
	"context"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
)

// TestMigrateOlderStore opens a store of the previous schema with a Warden
// that has one more migration: the migration is applied once, the events
// and the chain are kept.
func TestMigrateOlderStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		ev := audit.DecisionEvent(time.Now(), &audit.Decision{Surface: "explain", Tool: "Bash", Subject: string(rune('a' + i)), Verdict: "allow", Answered: "allow"})
		if _, err := s.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	old, oldVersion := migrations, SchemaVersion
	t.Cleanup(func() { migrations, SchemaVersion = old, oldVersion })
	migrations = append(migrations[:len(migrations):len(migrations)], `ALTER TABLE events ADD COLUMN note TEXT NOT NULL DEFAULT ''`)
	SchemaVersion = len(migrations)

	for range 2 { // the second open finds nothing to do
		s, err = Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		var v int
		if v, err = schemaOf(ctx, s.db); err != nil || v != SchemaVersion {
			t.Fatalf("schema %d (%v), want %d", v, err, SchemaVersion)
		}
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(note) FROM events`).Scan(&n); err != nil || n != 3 {
			t.Fatalf("the migrated table has %d events (%v), want 3", n, err)
		}
		if ver, err := s.Verify(ctx); err != nil || !ver.OK() {
			t.Fatalf("verify after the migration: %+v %v", ver, err)
		}
		s.Close()
	}
}
