// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/store"
)

var now = time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)

func TestParseQuery(t *testing.T) {
	for _, tt := range []struct {
		name string
		vals map[string]string
		want store.Query
		err  string
	}{
		{"nothing", nil, store.Query{}, ""},
		{"a duration", map[string]string{"since": "24h"}, store.Query{Since: now.Add(-24 * time.Hour)}, ""},
		{"days", map[string]string{"since": "7d", "until": "1d"}, store.Query{Since: now.AddDate(0, 0, -7), Until: now.AddDate(0, 0, -1)}, ""},
		{"a time", map[string]string{"since": "2026-12-01T10:00:00Z"}, store.Query{Since: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}, ""},
		{"every filter", map[string]string{"kind": "network", "verdict": "deny", "agent": "codex", "limit": "10"},
			store.Query{Kinds: []audit.Kind{audit.KindNetwork}, Verdict: "deny", Agent: "codex", Limit: 10}, ""},
		{"a kind that is none", map[string]string{"kind": "everything"}, store.Query{}, `kind "everything": want one of`},
		{"a verdict that is none", map[string]string{"verdict": "maybe"}, store.Query{}, `verdict "maybe"`},
		{"a negative limit", map[string]string{"limit": "-1"}, store.Query{}, `limit "-1"`},
		{"a negative duration", map[string]string{"since": "-5m"}, store.Query{}, "neither a duration"},
		{"words", map[string]string{"until": "last week"}, store.Query{}, "neither a duration"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := store.ParseQuery(func(k string) string { return tt.vals[k] }, now)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParseQuery: any input is a query or an error, never a panic.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"24h", "7d", "2026-12-06", "2026-12-06T10:00:00Z", "", "-1d", "99999999999d", "1e9h"} {
		f.Add(s, "decision", "deny", "5")
	}
	f.Fuzz(func(t *testing.T, when, kind, verdict, limit string) {
		vals := map[string]string{"since": when, "until": when, "kind": kind, "verdict": verdict, "limit": limit}
		store.ParseQuery(func(k string) string { return vals[k] }, now)
	})
}
