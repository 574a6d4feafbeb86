// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/shellparse"
)

// FuzzAnalyze checks, for any input: Analyze does not panic; it is
// deterministic; an opaque flag or an unresolved analysis never comes
// with an allow verdict; unresolved and the unresolvable flag go together;
// processSpawn is always a class; a read-only analysis has no other class.
// Seeds are the corpus.
func FuzzAnalyze(f *testing.F) {
	for _, e := range readCorpus(f) {
		f.Add(e.cmd)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		an := shellparse.Analyze(cmd, corpusOpts)
		again := shellparse.Analyze(cmd, corpusOpts)
		if !reflect.DeepEqual(an, again) {
			t.Fatalf("Analyze(%q) is not deterministic:\n%+v\n%+v", cmd, an, again)
		}
		opaque := an.Unresolved != ""
		for _, fl := range an.Flags {
			opaque = opaque || fl.Opaque()
		}
		if opaque && verdict(an) == "allow" {
			t.Fatalf("Analyze(%q): opaque analysis allowed: %+v", cmd, an)
		}
		if (an.Unresolved != "") != an.HasFlag(action.FlagUnresolvable) {
			t.Fatalf("Analyze(%q): unresolved %q but flags %v", cmd, an.Unresolved, an.Flags)
		}
		if !slices.Contains(an.Classes, action.ProcessSpawn) {
			t.Fatalf("Analyze(%q): classes %v lack processSpawn", cmd, an.Classes)
		}
		if an.ReadOnly && (len(an.Classes) != 1 || an.Unresolved != "" || an.HasFlag(action.FlagRunsCode)) {
			t.Fatalf("Analyze(%q): read-only with classes %v, flags %v", cmd, an.Classes, an.Flags)
		}
		for _, inv := range an.Invocations {
			if len(inv.Argv) == 0 {
				t.Fatalf("Analyze(%q): an invocation with an empty argv", cmd)
			}
		}
	})
}

// BenchmarkAnalyze measures parse and classify of a 200-character
// pipeline.
func BenchmarkAnalyze(b *testing.B) {
	benchAnalyze(b, `cd internal && git log --oneline -n 20 | grep -v fixup | awk '{print $1}' | xargs -n1 git show --stat | sort | uniq -c | sort -rn | head -n 10 > /tmp/report.txt && echo "done: $(wc -l < /tmp/report.txt)"`)
}

// BenchmarkAnalyzeInline measures a 200-character pipeline whose inline
// python program spawns a literal command, which the scan analyses.
func BenchmarkAnalyzeInline(b *testing.B) {
	benchAnalyze(b, `git diff --stat | python3 -c 'import sys, subprocess; n = len(sys.stdin.read().splitlines()); subprocess.run(["git", "log", "-n", str(n)]); print("lines:", n)' | tee /tmp/inline-out.txt | sort | wc -l`)
}

func benchAnalyze(b *testing.B, cmd string) {
	if len(cmd) < 190 || len(cmd) > 210 {
		b.Fatalf("pipeline is %d characters, want about 200", len(cmd))
	}
	b.ReportAllocs()
	durs := make([]time.Duration, 0, 1<<16)
	for b.Loop() {
		t0 := time.Now()
		shellparse.Analyze(cmd, corpusOpts)
		if len(durs) < cap(durs) {
			durs = append(durs, time.Since(t0))
		}
	}
	if len(durs) > 0 {
		slices.Sort(durs)
		b.ReportMetric(float64(durs[len(durs)/2].Nanoseconds()), "p50-ns")
		b.ReportMetric(float64(durs[len(durs)*99/100].Nanoseconds()), "p99-ns")
	}
}
