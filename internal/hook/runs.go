// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

// A wrapped run's execution record goes under the hook's state
// (runs/<call id>.json, named by --wrap's rewriting); the hook called
// after the call reads it, removes it, and tells the model what the
// sandbox refused. Records whose after-call hook never came are swept
// after an hour.

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/audit"
)

// StateRoot is where every agent's hook keeps its state, under the user's
// cache directory; empty when the user has none. warden run masks it.
func StateRoot() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "warden", "hook")
}

// StateDir is where agent's hook keeps its state (note limits, execution
// records of wrapped runs); empty when the user has no cache directory.
func StateDir(agent string) string {
	root := StateRoot()
	if root == "" {
		return ""
	}
	return filepath.Join(root, agent)
}

// prepareRuns makes the directory of execution records; a wrapped run
// without one simply has no record.
func prepareRuns(w *adapter.Wrapper) {
	if w.AuditDir != "" {
		if err := os.MkdirAll(w.AuditDir, 0o700); err != nil {
			w.AuditDir = ""
		}
	}
}

// sandboxNote reads (and removes) a wrapped run's execution record and
// returns the note on what the sandbox refused, within the note limits.
func sandboxNote(l *limiter, c *adapter.Call, now time.Time) string {
	defer sweepOld(filepath.Dir(c.Audit), now.Add(-time.Hour), ".json")
	rec, err := audit.ReadRun(c.Audit)
	os.Remove(c.Audit)
	if err != nil {
		return ""
	}
	text := adapter.SandboxNote(c.Subject, rec)
	if text == "" || l.allow(adapter.Key(c.Subject, "sandbox")) != noteGo {
		return ""
	}
	return text
}

// sweepOld removes files of dir with the suffix last changed before
// cutoff, looking at a bounded number of entries.
func sweepOld(dir string, cutoff time.Time, suffix string) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	entries, _ := f.ReadDir(1000)
	f.Close()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
