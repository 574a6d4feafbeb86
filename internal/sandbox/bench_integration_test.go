// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// The cost of one sandboxed run, every layer on, measured from a
// long-lived caller (no CLI start-up). Assumptions: as for the attack
// tests (user namespaces allowed; as root, runs also get a cgroup). Run it
// with
//
//	go test -tags integration -run '^$' -bench RunTrue -benchtime 50x ./internal/sandbox
//
// bench/sandbox.sh compares the whole `warden run` with its peers.

import (
	"context"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// BenchmarkRunTrue runs /bin/true in a workspace-write sandbox and reports,
// besides ns/op, the median and 99th percentile of single runs.
func BenchmarkRunTrue(b *testing.B) {
	sandboxtest.RequireUserNS(b)
	null, err := os.Open(os.DevNull)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	spec := Spec{
		Argv:    []string{"/bin/true"},
		Project: b.TempDir(),
		Mode:    WorkspaceWrite,
		Stdin:   null,
		Stdout:  io.Discard,
		Stderr:  io.Discard,
	}
	ctx := context.Background()
	var runs []time.Duration
	for b.Loop() {
		t0 := time.Now()
		res, err := Run(ctx, spec)
		runs = append(runs, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		if res.Status() != 0 {
			b.Fatalf("/bin/true exited with status %d", res.Status())
		}
	}
	slices.Sort(runs)
	b.ReportMetric(float64(runPercentile(runs, 50).Nanoseconds()), "p50-ns/op")
	b.ReportMetric(float64(runPercentile(runs, 99).Nanoseconds()), "p99-ns/op")
}

// runPercentile is the p-th percentile of sorted d, by nearest rank.
func runPercentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[max((p*len(d)+99)/100-1, 0)]
}
