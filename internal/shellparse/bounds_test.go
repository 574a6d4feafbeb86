// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import (
	"runtime"
	"strings"
	"testing"

	"warden.dev/warden/internal/shellparse"
)

// analysisBudget is what one analysis may allocate, whatever the command:
// the hook's memory bound (internal/hook) counts on it.
const analysisBudget = 32 << 20

// allocated returns the bytes f allocates. The test must not run in
// parallel with others: TotalAlloc is the process's.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestAnalysisMemoryBounded: commands shaped to make the parser and the
// walk allocate the most per byte — one word after another, brace
// expansions that multiply fields, the same text parsed again at every
// level of eval or sh -c — cost at most analysisBudget, and those past
// the bounds are unresolved (so never allowed unseen) rather than
// analysed at length.
func TestAnalysisMemoryBounded(t *testing.T) {
	for _, tt := range []struct {
		name       string
		cmd        string
		unresolved bool
	}{
		{"words", "echo " + strings.Repeat("a ", 8000), false},
		{"home paths", "ls " + strings.Repeat("~/a ", 8000), false},
		{"options", strings.Repeat("ls -la; ", 600), false},
		{"words at the bound", "echo " + strings.Repeat("a ", 32000), true},
		{"home paths at the bound", "ls " + strings.Repeat("~/a ", 32000), true},
		{"options at the bound", "ls " + strings.Repeat("-la ", 32000), true},
		{"commands at the bound", strings.Repeat("ls -la; ", 10000), true},
		{"substitutions", strings.Repeat("$(a)", 8000), true},
		{"too many words", "echo " + strings.Repeat("a ", 40000), true},
		{"too many tokens, few bytes", strings.Repeat("a;", 20000), true},
		{"brace expansion", "echo " + strings.Repeat("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p} ", 1300), true},
		{"eval per level", "eval eval eval eval eval " + strings.Repeat("a ", 30000), true},
		{"sh -c per level", `bash -c "bash -c \"bash -c 'echo ` + strings.Repeat("a ", 15000) + `'\""`, true},
	} {
		var an *shellparse.Analysis
		got := allocated(func() { an = shellparse.Analyze(tt.cmd, corpusOpts) })
		t.Logf("%s: %d bytes of command, %d bytes allocated", tt.name, len(tt.cmd), got)
		if got > analysisBudget {
			t.Errorf("%s: Analyze allocated %d bytes, want at most %d", tt.name, got, analysisBudget)
		}
		if tt.unresolved && an.Unresolved == "" {
			t.Errorf("%s: analysed as resolved, want unresolved past the bound", tt.name)
		}
	}
}

// TestLargeHeredocAnalysed: the bound on words leaves room for what
// agents write: a 60 KB file through a heredoc is still analysed.
func TestLargeHeredocAnalysed(t *testing.T) {
	body := strings.Repeat("The quick brown fox jumps over the lazy dog, again and again.\n", 1000)
	an := shellparse.Analyze("cat > notes.txt <<'EOF'\n"+body+"EOF\n", corpusOpts)
	if an.Unresolved != "" {
		t.Errorf("a %d-byte heredoc: unresolved (%s), want analysed", len(body), an.Unresolved)
	}
}
