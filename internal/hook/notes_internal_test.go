// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNoteLimiter(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *limiter { return &limiter{dir: dir, session: "s", now: t0.Add(d)} }
	steps := []struct {
		after time.Duration
		key   string
		want  noteOutcome
	}{
		{0, "a", noteGo},
		{time.Second, "a", noteRepeated},
		{4*time.Minute + 59*time.Second, "a", noteRepeated},
		{5 * time.Minute, "a", noteGo}, // the window passed
		{5*time.Minute + time.Second, "b", noteGo},
		{5*time.Minute + 2*time.Second, "c", noteGo},
		{5*time.Minute + 3*time.Second, "d", noteGo},
		{5*time.Minute + 4*time.Second, "e", noteGo},
		{5*time.Minute + 5*time.Second, "f", noteHeld}, // 5 this minute
		{6*time.Minute + 1*time.Second, "f", noteGo},
	}
	for _, s := range steps {
		if got := at(s.after).allow(s.key); got != s.want {
			t.Errorf("at +%v allow(%q) = %d, want %d", s.after, s.key, got, s.want)
		}
	}
	// Another session has its own limits.
	if got := (&limiter{dir: dir, session: "other", now: t0.Add(6 * time.Minute)}).allow("f"); got != noteGo {
		t.Errorf("another session: allow = %d, want go", got)
	}
	// A corrupt state file starts afresh; a huge one too; the hook never fails.
	files, _ := filepath.Glob(filepath.Join(dir, "notes-*.json"))
	for _, f := range files {
		os.WriteFile(f, []byte("{\"notes\":[{\"k\":"), 0o600)
	}
	if got := at(6*time.Minute + 2*time.Second).allow("f"); got != noteGo {
		t.Errorf("after corruption: allow = %d, want go", got)
	}
	for _, f := range files {
		os.WriteFile(f, bytes.Repeat([]byte(" "), maxStateSize+10), 0o600)
	}
	if got := at(6*time.Minute + 3*time.Second).allow("f"); got != noteGo {
		t.Errorf("after an oversized state: allow = %d, want go", got)
	}
	// The state stays bounded.
	(&limiter{dir: dir, session: "other", now: t0.Add(7 * time.Minute)}).allow("g")
	for i := 0; i < 200; i++ {
		(&limiter{dir: dir, session: "s", now: t0.Add(time.Duration(i) * 61 * time.Second)}).allow(strings.Repeat("k", i%7) + string(rune('a'+i%26)))
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Size() > 4096 {
			t.Errorf("state %s: %v, %d bytes", f, err, fi.Size())
		}
	}
	// No state directory: every note goes.
	if got := (&limiter{session: "s", now: t0}).allow("a"); got != noteGo {
		t.Errorf("no state dir: allow = %d, want go", got)
	}
}
