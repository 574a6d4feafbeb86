// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
)

var t0 = time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)

func events() []audit.Event {
	return []audit.Event{
		audit.DecisionEvent(t0, &audit.Decision{Surface: "hook claude-code", Agent: "claude-code", Tool: "Bash", Subject: "git push", Classes: []string{"gitPush"}, Verdict: "prompt", Answered: "deny", Rule: "builtin:gitPush"}),
		audit.RunEvent(t0, &audit.Run{ID: "r1", Command: []string{"true"}, Status: 0, NetworkAttempts: []audit.NetworkAttempt{{RunID: "r1", Time: t0, Via: audit.ViaDNS, Host: "example.com", Verdict: audit.VerdictDeny, Rule: "default: deny"}}}),
		audit.NetworkEvent(&audit.NetworkAttempt{RunID: "r1", Time: t0.Add(time.Second), Via: audit.ViaConnect, Host: "example.com", Port: 443, Verdict: audit.VerdictAllow, Rule: "r"}),
		audit.SyscallEvent(t0, &audit.Syscall{RunID: "r1", Syscall: "ptrace", Errno: "EPERM", Count: 2, Command: "strace"}),
		audit.MCPEvent(t0, &audit.MCPCall{Server: "filesystem", ID: json.RawMessage(`7`), Tool: "write_file", Decision: "deny", Status: "refused"}),
	}
}

// TestRoundTrip: every kind reads back as it was written.
func TestRoundTrip(t *testing.T) {
	for _, ev := range events() {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("%s: %v", ev.Kind, err)
		}
		var got audit.Event
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v in %s", ev.Kind, err, b)
		}
		if diff := cmp.Diff(ev, got); diff != "" {
			t.Errorf("%s: round trip (-want +got):\n%s", ev.Kind, diff)
		}
	}
}

// TestFlat: a record is one flat object, the header first, each key once.
func TestFlat(t *testing.T) {
	want := map[audit.Kind]string{
		audit.KindDecision: `{"schema":1,"kind":"decision","time":"2026-12-06T12:00:00Z","surface":"hook claude-code",`,
		audit.KindRun:      `{"schema":1,"kind":"run","time":"2026-12-06T12:00:00Z","id":"r1",`,
		audit.KindNetwork:  `{"schema":1,"kind":"network","run_id":"r1","time":"2026-12-06T12:00:01Z",`,
		audit.KindSyscall:  `{"schema":1,"kind":"syscall","time":"2026-12-06T12:00:00Z","run_id":"r1",`,
		audit.KindMCP:      `{"schema":1,"kind":"mcp","time":"2026-12-06T12:00:00Z","server":"filesystem","id":7,`,
	}
	for _, ev := range events() {
		b, _ := json.Marshal(ev)
		if !strings.HasPrefix(string(b), want[ev.Kind]) {
			t.Errorf("%s: %s\nwant it to start %s", ev.Kind, b, want[ev.Kind])
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		seen := map[string]bool{}
		dec.Token()
		for dec.More() {
			k, _ := dec.Token()
			if seen[k.(string)] {
				t.Errorf("%s: key %q twice in %s", ev.Kind, k, b)
			}
			seen[k.(string)] = true
			var v json.RawMessage
			dec.Decode(&v)
		}
	}
}

func TestRefused(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		sentinel error
	}{
		{"later schema", `{"schema":2,"kind":"run","id":"x"}`, audit.ErrSchema},
		{"unknown kind", `{"schema":1,"kind":"launch"}`, nil},
		{"no kind", `{"schema":1}`, nil},
	} {
		var ev audit.Event
		err := json.Unmarshal([]byte(tt.in), &ev)
		if err == nil || tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
			t.Errorf("%s: Unmarshal(%s) = %v, want an error (%v)", tt.name, tt.in, err, tt.sentinel)
		}
	}
	if _, err := json.Marshal(audit.Event{Schema: 1, Kind: audit.KindRun}); err == nil {
		t.Error("Marshal of a run event without its body succeeded")
	}
}

// TestJSONLConcurrent: lines of concurrent writers never interleave and
// none is lost.
func TestJSONLConcurrent(t *testing.T) {
	var buf bytes.Buffer
	s := audit.NewJSONL(&buf)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				ev := audit.MCPEvent(t0, &audit.MCPCall{Server: strings.Repeat("s", 100*i+1), Tool: "t", Decision: "allow", Status: "ok"})
				if err := s.Write(ev); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1600 {
		t.Fatalf("%d lines, want 1600", len(lines))
	}
	for _, l := range lines {
		var ev audit.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestJSONLError: a refused write is the event's error, never a drop.
func TestJSONLError(t *testing.T) {
	if err := audit.NewJSONL(failing{}).Write(events()[4]); err == nil {
		t.Error("Write to a failing writer returned nil")
	}
}

// TestFileReplacesLink: a link planted at the record's name is replaced,
// never written through.
func TestFileReplacesLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("untouched"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "record.json")); err != nil {
		t.Fatal(err)
	}
	s := &audit.File{Dir: func() (*os.File, error) { return os.Open(dir) }, Name: "record.json"}
	ev := events()[1]
	if err := s.Write(ev); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "untouched" {
		t.Errorf("the link's target was written: %q", b)
	}
	run, err := audit.ReadRun(filepath.Join(dir, "record.json"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ev.Run, run); diff != "" {
		t.Errorf("ReadRun (-want +got):\n%s", diff)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d entries left in the directory, want the record alone", len(ents))
	}
}

// TestReadRunSchema0: a record written before the schema field existed
// is a run's.
func TestReadRunSchema0(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(p, []byte(`{"id":"old","status":125,"error":"sandbox unavailable: x","network_attempts":[]}`), 0o600)
	r, err := audit.ReadRun(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "old" || r.Status != 125 || r.Error == "" {
		t.Errorf("ReadRun = %+v", r)
	}
	os.WriteFile(p, []byte(`{"schema":9,"kind":"run","id":"new"}`), 0o600)
	if _, err := audit.ReadRun(p); !errors.Is(err, audit.ErrSchema) {
		t.Errorf("ReadRun of schema 9 = %v, want ErrSchema", err)
	}
	ev, _ := json.Marshal(events()[4])
	os.WriteFile(p, ev, 0o600)
	if _, err := audit.ReadRun(p); err == nil {
		t.Error("ReadRun of an MCP event succeeded")
	}
}
