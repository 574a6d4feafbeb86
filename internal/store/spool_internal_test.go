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

// BenchmarkSpool measures one hook's spooling of one decision: appended
// to the active file (what Spool does), against a file of its own,
// renamed into place (what it did before, and still does beside a stuck
// lock). The second makes a new inode each time, which on ext4 grows
// with the inodes of the group deleted in the last minute or more: the
// benchmark deletes what it spooled every 256 calls, as the store's
// opens do. Run it on the file system of the state directory.
func BenchmarkSpool(b *testing.B) {
	ev := audit.DecisionEvent(time.Unix(1, 0), &audit.Decision{Surface: "hook claude-code", Tool: "Bash", Subject: "git status", Verdict: "allow"})
	line, _ := json.Marshal(ev)
	line = append(line, '\n')
	for _, c := range []struct {
		name  string
		spool func(sd string) error
	}{
		{"active", func(sd string) error { _, _, err := appendActive(sd, line); return err }},
		{"own-file", func(sd string) error { return spoolOwn(sd, line) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			sd, err := spoolDir(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				if err := c.spool(sd); err != nil {
					b.Fatal(err)
				}
				if i++; i%256 == 0 {
					b.StopTimer()
					ents, _ := os.ReadDir(sd)
					for _, e := range ents {
						os.Remove(filepath.Join(sd, e.Name()))
					}
					b.StartTimer()
				}
			}
		})
	}
}
