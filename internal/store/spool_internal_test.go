// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
)

// FuzzReadSpoolFile checks, for any file in the spool, that reading it
// does not panic, and that what it accepts is events that encode again
// (what the chain stores).
func FuzzReadSpoolFile(f *testing.F) {
	ev := audit.DecisionEvent(time.Unix(1, 0), &audit.Decision{Surface: "hook claude-code", Tool: "Bash", Subject: "ls", Verdict: "allow"})
	line, _ := json.Marshal(ev)
	f.Add(append(line, '\n'))
	f.Add([]byte(`{"Schema":1,"Kind":"decis`))
	f.Add([]byte("{}\n{}\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "f.jsonl")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		evs, bad, err := readSpoolFile(p)
		if err != nil {
			return
		}
		if len(bad) > 0 && bad[len(bad)-1] != '\n' {
			t.Fatalf("the lines set aside end unended: %q", bad)
		}
		for _, ev := range evs {
			if _, err := json.Marshal(audit.Redact(ev)); err != nil {
				t.Fatalf("an accepted event does not encode: %v", err)
			}
		}
	})
}
