// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/policy"
)

// Note limits (docs/spec.md §10): the same block once per window, at most
// burst notes a minute; the state keeps at most maxNotes entries.
const (
	noteWindow = 5 * time.Minute
	noteBurst  = 5
	maxNotes   = 64
	// maxStateSize bounds the state file read; a larger one is corrupt.
	maxStateSize = 64 << 10
)

// limiter keeps, per session, the notes given recently. The state is a
// small file under the hook's state directory; one that is corrupt or
// cannot be written never breaks the hook (notes then go out unlimited).
type limiter struct {
	dir     string
	session string
	now     time.Time
}

type limiterState struct {
	Notes []limiterEntry `json:"notes"`
}

type limiterEntry struct {
	Key  string `json:"k"`
	Unix int64  `json:"t"`
}

// noteOutcome says whether a note may go out.
type noteOutcome int

const (
	noteGo       noteOutcome = iota
	noteRepeated             // the same block was explained within noteWindow
	noteHeld                 // noteBurst notes went out within the minute
)

// allow says whether the note identified by key may go out now, and
// records it when it may. Every failure to keep state answers go: the
// limit saves the agent's attention, it guards nothing.
func (l *limiter) allow(key string) noteOutcome {
	if l.dir == "" {
		return noteGo
	}
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return noteGo
	}
	sum := sha256.Sum256([]byte(l.session))
	path := filepath.Join(l.dir, "notes-"+hex.EncodeToString(sum[:8])+".json")
	_, statErr := os.Lstat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return noteGo
	}
	defer f.Close()
	if errors.Is(statErr, os.ErrNotExist) {
		// A new session: the state of sessions idle for a day goes.
		sweepOld(l.dir, l.now.Add(-24*time.Hour), ".json")
	}
	// Parallel tool calls run their hooks at once: take the file's lock,
	// but never wait long for it.
	for i := 0; i < 20; i++ {
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	var st limiterState
	data, err := io.ReadAll(io.LimitReader(f, maxStateSize+1))
	if err != nil || len(data) > maxStateSize || json.Unmarshal(data, &st) != nil {
		st = limiterState{} // corrupt or unreadable: start afresh
	}
	now := l.now.Unix()
	recent := 0
	kept := st.Notes[:0]
	for _, n := range st.Notes {
		if n.Unix > now || now-n.Unix >= int64(noteWindow/time.Second) {
			continue
		}
		kept = append(kept, n)
		if n.Key == key {
			return noteRepeated
		}
		if now-n.Unix < 60 {
			recent++
		}
	}
	if recent >= noteBurst {
		return noteHeld
	}
	st.Notes = append(kept, limiterEntry{key, now})
	if len(st.Notes) > maxNotes {
		st.Notes = st.Notes[len(st.Notes)-maxNotes:]
	}
	out, _ := json.Marshal(st)
	if _, err := f.Seek(0, io.SeekStart); err == nil && f.Truncate(0) == nil {
		f.Write(out)
	}
	return noteGo
}

// reason is the reason of a deny within the note limits: the full note,
// or the short one of a repeated or held-back block.
func (l *limiter) reason(s adapter.Subject, d policy.Decision, note string) string {
	switch l.allow(adapter.Key(s, d.Rule)) {
	case noteRepeated:
		return adapter.Repeat(s, d)
	case noteHeld:
		return adapter.Held(s, d)
	}
	return note
}
