// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHookFailsClosed: a decision that panics or never comes exits 2
// with a reason, never 0 without an answer and never another status.
func TestHookFailsClosed(t *testing.T) {
	for _, tt := range []struct {
		name   string
		decide func(*hookOptions, []byte) ([]byte, error)
		want   string
	}{
		{"panic", func(*hookOptions, []byte) ([]byte, error) { panic("boom") }, "internal error: boom"},
		{"stall", func(*hookOptions, []byte) ([]byte, error) { time.Sleep(time.Hour); return nil, nil }, "no decision within 50ms"},
		{"not json", func(*hookOptions, []byte) ([]byte, error) { return []byte("allow"), nil }, "the answer is not JSON"},
		{"nil map deref", func(*hookOptions, []byte) ([]byte, error) { var m map[string]*int; return []byte{byte(*m["x"])}, nil }, "internal error"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func(d time.Duration) { hookDeadline = d }(hookDeadline)
			hookDeadline = 50 * time.Millisecond
			var stdout, stderr bytes.Buffer
			defer func() { Stdin, Stdout, Stderr = os.Stdin, os.Stdout, os.Stderr }()
			Stdin, Stdout, Stderr = strings.NewReader("{}"), &stdout, &stderr
			code := exitCode(runHookAdapter(hookAdapter{name: "test", decide: tt.decide}, nil))
			if code != exitBadInput || stdout.Len() != 0 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no stdout, %q", code, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}

func TestNoteLimiter(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *noteLimiter { return &noteLimiter{dir: dir, session: "s", now: t0.Add(d)} }
	steps := []struct {
		after time.Duration
		key   string
		want  noteVerdict
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
	if got := (&noteLimiter{dir: dir, session: "other", now: t0.Add(6 * time.Minute)}).allow("f"); got != noteGo {
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
	(&noteLimiter{dir: dir, session: "other", now: t0.Add(7 * time.Minute)}).allow("g")
	for i := 0; i < 200; i++ {
		(&noteLimiter{dir: dir, session: "s", now: t0.Add(time.Duration(i) * 61 * time.Second)}).allow(strings.Repeat("k", i%7) + string(rune('a'+i%26)))
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Size() > 4096 {
			t.Errorf("state %s: %v, %d bytes", f, err, fi.Size())
		}
	}
	// No state directory: every note goes.
	if got := (&noteLimiter{session: "s", now: t0}).allow("a"); got != noteGo {
		t.Errorf("no state dir: allow = %d, want go", got)
	}
}

func TestIsWardenClaudeHook(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want bool
	}{
		{"/usr/local/bin/warden hook claude-code", true},
		{"warden hook claude-code --wrap --policy '/etc/w.yaml'", true},
		{"'/opt/my tools/warden' hook claude-code", true},
		{"/usr/local/bin/warden hook codex", false},
		{"/usr/local/bin/warden hook claude-codex", false},
		{"/usr/local/bin/other-guard hook claude-code", false},
		{"python3 rec.py --shell 'warden hook claude-code'", false},
		{"", false},
	} {
		if got := isWardenClaudeHook(tt.cmd); got != tt.want {
			t.Errorf("isWardenClaudeHook(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestIsWardenHook: install recognises its own adapter's entries and no
// other's, so installing one agent's hook never removes another's.
func TestIsWardenHook(t *testing.T) {
	for _, tt := range []struct {
		cmd, adapter string
		want         bool
	}{
		{"/usr/local/bin/warden hook codex", "codex", true},
		{"'/opt/w d/warden' hook codex --wrap", "codex", true},
		{"/usr/local/bin/warden hook codex", "gemini", false},
		{"/usr/local/bin/warden hook gemini --headless", "gemini", true},
		{"/usr/local/bin/warden hook geminix", "gemini", false},
		{"/usr/local/bin/warden hook claude-code", "codex", false},
	} {
		if got := isWardenHook(tt.cmd, tt.adapter); got != tt.want {
			t.Errorf("isWardenHook(%q, %s) = %v, want %v", tt.cmd, tt.adapter, got, tt.want)
		}
	}
}

func TestFindProject(t *testing.T) {
	root := t.TempDir()
	real, _ := filepath.EvalSymlinks(root)
	mk := func(p string) { os.MkdirAll(filepath.Join(real, p), 0o755) }
	mk("repo/.git/objects")
	os.WriteFile(filepath.Join(real, "repo/.git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	mk("repo/a/b")
	mk("stray/.git") // empty: not a repository
	mk("stray/x")
	mk("linked/sub")
	os.WriteFile(filepath.Join(real, "linked/.git"), []byte("gitdir: /elsewhere/.git/worktrees/l\n"), 0o644)
	for _, tt := range []struct{ cwd, want string }{
		{"repo/a/b", "repo"},
		{"repo", "repo"},
		{"stray/x", "stray/x"},
		{"linked/sub", "linked"},
	} {
		if got := findProject(filepath.Join(real, tt.cwd)); got != filepath.Join(real, tt.want) {
			t.Errorf("findProject(%s) = %s, want %s", tt.cwd, got, filepath.Join(real, tt.want))
		}
	}
}

func TestSensitiveBelow(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src/a.go"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "src/id_ed25519"), nil, 0o600)
	got := sensitiveBelow(dir)
	if len(got) != 2 {
		t.Errorf("sensitiveBelow = %q, want .env and src/id_ed25519", got)
	}
	if got := sensitiveBelow(filepath.Join(dir, "src/a.go")); got != nil {
		t.Errorf("sensitiveBelow(a file) = %q, want nothing", got)
	}
}

func TestParseSettingsRefuses(t *testing.T) {
	for _, in := range []string{`[]`, `{"a":1,}`, `{"a":1} {}`, `{"a":1,"a":2}`, `// comment` + "\n{}", `"x"`} {
		if _, err := parseSettings([]byte(in)); err == nil {
			t.Errorf("parseSettings(%q) = nil error", in)
		}
	}
	o, err := parseSettings([]byte("  \n"))
	if err != nil || len(o.keys) != 0 {
		t.Errorf("parseSettings(blank) = %v, %v; want {}", o, err)
	}
}
