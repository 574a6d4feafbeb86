// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration

package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// hookTimes times every hook call a real client makes, through
// testdata/hooktime put in front of Warden's hook command, and keeps
// what each call was: the real-client tests check from it that the
// client called the hook for every scripted call (a client that stops
// calling hooks, after an upgrade say, fails them), and bench/hooks.sh
// reads the times from WARDEN_TEST_HOOK_TIMES. No test asserts a time.
type hookTimes struct {
	bin, log string
}

var (
	hooktimeOnce sync.Once
	hooktimeBin  string
	hooktimeErr  error
)

// newHookTimes builds the wrapper once per test binary and gives the
// test a log of its own.
func newHookTimes(t *testing.T) *hookTimes {
	t.Helper()
	hooktimeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "warden-hooktime-")
		if err != nil {
			hooktimeErr = err
			return
		}
		hooktimeBin = filepath.Join(dir, "hooktime")
		out, err := exec.Command("go", "build", "-o", hooktimeBin, "./testdata/hooktime").CombinedOutput()
		if err != nil {
			hooktimeErr = fmt.Errorf("go build ./testdata/hooktime: %v\n%s", err, out)
		}
	})
	if hooktimeErr != nil {
		t.Fatal(hooktimeErr)
	}
	return &hookTimes{bin: hooktimeBin, log: filepath.Join(t.TempDir(), "hooks.jsonl")}
}

// wrapFile puts the wrapper in front of every hook command of the JSON
// settings file at path (Codex's hooks.json, Gemini CLI's or Claude
// Code's settings.json): each "command" string under "hooks".
func (h *hookTimes) wrapFile(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "command" {
					v[k] = h.bin + " " + h.log + " " + s
					n++
					continue
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc["hooks"])
	if n == 0 {
		t.Fatalf("%s has no hook command to time:\n%s", path, b)
	}
	out, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// hookCall is one call the wrapper timed.
type hookCall struct {
	Event   string  `json:"event"`
	Tool    string  `json:"tool"`
	MS      float64 `json:"ms"`
	TotalMS float64 `json:"total_ms"`
	Status  int     `json:"status"`
	Payload string  `json:"payload"`
	Answer  string  `json:"answer"`
}

// calls returns the calls timed so far, in order.
func (h *hookTimes) calls(t *testing.T) []hookCall {
	t.Helper()
	f, err := os.Open(h.log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []hookCall
	s := bufio.NewScanner(f)
	for s.Scan() {
		var c hookCall
		if err := json.Unmarshal(s.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", h.log, err)
		}
		out = append(out, c)
	}
	return out
}

// count is how many calls of event were timed, by tool.
func (h *hookTimes) count(t *testing.T, event string) map[string]int {
	n := map[string]int{}
	for _, c := range h.calls(t) {
		if c.Event == event {
			n[c.Tool]++
		}
	}
	return n
}

// report logs the calls' median and slowest, and appends them, named
// by client, to WARDEN_TEST_HOOK_TIMES when it names a file.
func (h *hookTimes) report(t *testing.T, client string) {
	t.Helper()
	calls := h.calls(t)
	if len(calls) == 0 {
		return
	}
	ms := make([]float64, len(calls))
	for i, c := range calls {
		ms[i] = c.MS
	}
	slices.Sort(ms)
	t.Logf("%s: %d hook calls, median %.1f ms, slowest %.1f ms", client, len(ms), ms[len(ms)/2], ms[len(ms)-1])
	path := os.Getenv("WARDEN_TEST_HOOK_TIMES")
	if path == "" {
		return
	}
	var b strings.Builder
	for _, c := range calls {
		line, _ := json.Marshal(map[string]any{"client": client, "test": t.Name(), "event": c.Event, "tool": c.Tool, "ms": c.MS, "total_ms": c.TotalMS})
		b.Write(append(line, '\n'))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(b.String()); err != nil {
		t.Fatal(err)
	}
}

// realClient is an agent CLI a real-client test drives, pinned: test.sh
// installs pkg from npm and names the binary in env, or says in
// env+"_MISSING" why it could not.
type realClient struct {
	name, env, pkg, version string
}

// require returns the client's binary, skipping the test only when
// test.sh said why it could not install it; a client of another
// version fails it.
func (c realClient) require(t *testing.T) string {
	t.Helper()
	if why := os.Getenv(c.env + "_MISSING"); why != "" {
		t.Skipf("no %s: %s", c.name, why)
	}
	path := os.Getenv(c.env)
	if path == "" {
		t.Fatalf("%s names no %s: test.sh installs %s and sets it", c.env, c.name, c.pkg)
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil || !strings.Contains(string(out), c.version) {
		t.Fatalf("%s --version: %q, %v; want %s", path, out, err, c.version)
	}
	return path
}

// plantedFile is one file a real-client scenario plants.
type plantedFile struct {
	path, body string
	mode       os.FileMode
}

// plantFiles writes files, making their directories.
func plantFiles(t *testing.T, files ...plantedFile) {
	t.Helper()
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.body), f.mode); err != nil {
			t.Fatal(err)
		}
	}
}

// gitWithOrigin makes project a git repository on main whose origin is
// remote, a path nothing is at: a push would make it.
func gitWithOrigin(t *testing.T, project, remote string) {
	t.Helper()
	gitInit(t, project)
	if out, err := exec.Command("git", "-C", project, "remote", "add", "origin", remote).CombinedOutput(); err != nil {
		t.Fatalf("git remote add: %v\n%s", err, out)
	}
}

// shortStateDir is a Warden state directory with a short path: its
// sockets' paths must fit in 108 bytes.
func shortStateDir(t *testing.T, prefix string) string {
	t.Helper()
	state, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(state) })
	return state
}
