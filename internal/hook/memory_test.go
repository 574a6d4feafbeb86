// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"warden.dev/warden/internal/hook"
)

// What a hook may allocate for one payload of n bytes, reading it
// included: 10 times its size, plus, for a shell command, its analysis,
// whose work is bounded whatever the payload (shellparse's
// TestAnalysisMemoryBounded pins it below 32 MiB).
const (
	memRatio      = 10
	shellAnalysis = 32 << 20
)

// shape is a payload of about n bytes that makes one agent's hook do
// the most copying for its size: a file's content, a shell command, a
// patch, one name after another.
type shape struct {
	name, agent string
	shell       bool // the payload holds shell code that is analysed
	payload     func(dir string, n int) []byte
}

func hookPayload(agent, dir, tool string, input any) []byte {
	ev := "PreToolUse"
	if agent == "gemini" {
		ev = "BeforeTool"
	}
	in, ok := input.(json.RawMessage)
	if !ok {
		in, _ = json.Marshal(input)
	}
	p, _ := json.Marshal(map[string]any{"hook_event_name": ev, "session_id": "s", "tool_use_id": "toolu_1",
		"tool_name": tool, "cwd": dir, "permission_mode": "default", "tool_input": in})
	return p
}

// manyNames is a tool input holding command and then n bytes of other
// names, which a map would copy one by one.
func manyNames(command string, n int) json.RawMessage {
	var b strings.Builder
	b.Grow(n + 64)
	fmt.Fprintf(&b, `{"command":%q`, command)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `,"%x":0`, i)
	}
	b.WriteString("}")
	return json.RawMessage(b.String())
}

func shapes() []shape {
	var out []shape
	for _, ag := range []struct{ name, bash, write, read string }{
		{"claude-code", "Bash", "Write", "Read"}, {"codex", "Bash", "", ""}, {"gemini", "run_shell_command", "write_file", "read_file"},
	} {
		out = append(out,
			shape{"long command", ag.name, false, func(dir string, n int) []byte {
				return hookPayload(ag.name, dir, ag.bash, map[string]string{"command": "echo " + strings.Repeat("a ", n/2)})
			}},
			shape{"many names", ag.name, false, func(dir string, n int) []byte {
				return hookPayload(ag.name, dir, ag.bash, manyNames("ls", n))
			}},
			// A command with as many words as the analysis takes, the
			// rest of the payload in another field.
			shape{"command at the analysis bound", ag.name, true, func(dir string, n int) []byte {
				return hookPayload(ag.name, dir, ag.bash, map[string]string{"command": "ls " + strings.Repeat("~/a ", 16000), "description": strings.Repeat("x", n-80<<10)})
			}},
		)
		if ag.read != "" {
			out = append(out, shape{"long path", ag.name, false, func(dir string, n int) []byte {
				return hookPayload(ag.name, dir, ag.read, map[string]string{"file_path": dir + "/" + strings.Repeat("a/", n/2)})
			}})
		}
		if ag.write != "" {
			out = append(out, shape{"file content", ag.name, false, func(dir string, n int) []byte {
				return hookPayload(ag.name, dir, ag.write, map[string]string{"file_path": dir + "/notes.txt", "content": strings.Repeat("é\"\n", n/6)})
			}})
		}
	}
	out = append(out,
		shape{"patch", "codex", false, func(dir string, n int) []byte {
			return hookPayload("codex", dir, "apply_patch", map[string]string{"command": "*** Begin Patch\n*** Add File: notes.txt\n" +
				strings.Repeat("+a line of the new file\n", n/26) + "*** End Patch\n"})
		}},
		shape{"patch of a long path", "codex", false, func(dir string, n int) []byte {
			return hookPayload("codex", dir, "apply_patch", map[string]string{"command": "*** Begin Patch\n*** Add File: " +
				strings.Repeat("a/", n/2) + "x\n+line\n*** End Patch\n"})
		}},
		shape{"many files", "gemini", false, func(dir string, n int) []byte {
			return hookPayload("gemini", dir, "read_many_files", map[string]any{"include": []string{strings.Repeat("src/x/", n/6)}})
		}},
	)
	return out
}

// allocated returns the bytes f allocates. The tests that call it do
// not run in parallel: TotalAlloc is the process's.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDecideMemory: reading and deciding a payload of 1 MiB, 8 MiB or
// just under the cap allocates at most 10 times its size (plus the
// bounded shell analysis for a payload that holds shell code), for every
// agent, with and without --wrap: a hook cannot be made to use memory
// out of proportion to what it was given, and so be killed, which
// would fail open.
func TestDecideMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("decides payloads up to 16 MiB; skipped with -short")
	}
	if raceEnabled {
		t.Skip("the race detector allocates what a normal build does not; the bound is measured without it")
	}
	dir := t.TempDir()
	for _, wrap := range []bool{false, true} {
		o := options(t, nil)
		o.Wrap = wrap
		if _, err := o.Policy(); err != nil {
			t.Fatal(err)
		}
		for _, sh := range shapes() {
			for _, size := range []int{1 << 20, 8 << 20, hook.MaxPayload - 64<<10} {
				p := sh.payload(dir, size)
				if len(p) > hook.MaxPayload {
					t.Fatalf("%s: the %d-byte payload is over the cap", sh.name, len(p))
				}
				ag := agent(t, sh.agent)
				var out []byte
				var err error
				got := allocated(func() {
					var in []byte
					if in, err = hook.ReadPayload(bytes.NewReader(p)); err == nil {
						out, err = hook.Decide(ag, in, o)
					}
				})
				if err != nil || !json.Valid(out) {
					t.Fatalf("%s %s (%d bytes, wrap %v): %v, %.80s", sh.agent, sh.name, len(p), wrap, err, out)
				}
				limit := uint64(memRatio * len(p))
				if sh.shell {
					limit += shellAnalysis
				}
				t.Logf("%s %s, wrap %v: %d bytes of payload, %d allocated (%.1f×)", sh.agent, sh.name, wrap, len(p), got, float64(got)/float64(len(p)))
				if got > limit {
					t.Errorf("%s %s (%d bytes, wrap %v): allocated %d bytes (%.1f× the payload), want at most %d", sh.agent, sh.name, len(p), wrap, got, float64(got)/float64(len(p)), limit)
				}
			}
		}
	}
}

// BenchmarkDecideMemory reports, for Claude Code payloads of each shape
// and size, with and without --wrap, the bytes reading and deciding the
// payload allocate per byte of payload (alloc/payload):
//
//	go test ./internal/hook -run '^$' -bench DecideMemory -benchtime 3x
func BenchmarkDecideMemory(b *testing.B) {
	dir := b.TempDir()
	for _, wrap := range []bool{false, true} {
		o := options(b, nil)
		o.Wrap = wrap
		for _, sh := range shapes() {
			if sh.agent != "claude-code" {
				continue
			}
			for _, size := range []int{1 << 20, 8 << 20, hook.MaxPayload - 64<<10} {
				p := sh.payload(dir, size)
				ag := agent(b, sh.agent)
				name := fmt.Sprintf("%s/%dMiB", strings.ReplaceAll(sh.name, " ", "_"), (len(p)+1<<19)>>20)
				if wrap {
					name += "/wrap"
				}
				b.Run(name, func(b *testing.B) {
					var total uint64
					for range b.N {
						total += allocated(func() {
							in, err := hook.ReadPayload(bytes.NewReader(p))
							if err == nil {
								_, err = hook.Decide(ag, in, o)
							}
							if err != nil {
								b.Fatal(err)
							}
						})
					}
					b.ReportMetric(float64(total)/float64(b.N)/float64(len(p)), "alloc/payload")
					b.ReportMetric(float64(len(p)), "payload-bytes")
				})
			}
		}
	}
}
