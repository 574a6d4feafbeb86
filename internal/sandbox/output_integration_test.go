// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

type countWriter struct{ n atomic.Int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n.Add(int64(len(p))); return len(p), nil }

// TestOutputFloodNotBlocked: 100 MiB on stdout is streamed live in full,
// captured within the cap, and does not slow the command into its timeout.
func TestOutputFloodNotBlocked(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	const size = 100 << 20
	var out, errw countWriter
	spec := Spec{
		Argv:    sh(fmt.Sprintf("head -c %d /dev/zero; echo done >&2", size)),
		Project: t.TempDir(),
		Stdin:   strings.NewReader(""),
		Stdout:  &out,
		Stderr:  &errw,
		Timeout: 60 * time.Second,
	}
	res, err := warmRun(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("100 MiB in %v", res.Duration)
	if res.TimedOut || res.Status() != 0 {
		t.Fatalf("status %d, timed out %v: the flood was blocked", res.Status(), res.TimedOut)
	}
	if out.n.Load() != size {
		t.Errorf("live stdout carried %d bytes, want %d", out.n.Load(), size)
	}
	o := res.Stdout
	if o.Total != size || len(o.Head)+len(o.Tail) != DefaultOutputCap || o.Cut != size-DefaultOutputCap {
		t.Errorf("captured total %d, kept %d, cut %d", o.Total, len(o.Head)+len(o.Tail), o.Cut)
	}
	if res.Stderr.String() != "done\n" || res.Stderr.Cut != 0 {
		t.Errorf("stderr captured %q", res.Stderr.String())
	}
}

// TestOutputCapHeadTail: a set cap keeps exactly the first and last half.
func TestOutputCapHeadTail(t *testing.T) {
	o := run(t, Spec{Limits: Limits{Output: 10}, Argv: sh("printf 'abcdefghijklmnopqrstuvwxyz'; printf 0123456789ABCDEF >&2")})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("status %d, err %v", o.res.Status(), o.err)
	}
	if o.stdout != "abcdefghijklmnopqrstuvwxyz" {
		t.Errorf("live stdout %q", o.stdout)
	}
	if got, want := o.res.Stdout.String(), "abcde\n[warden: 16 bytes cut]\nvwxyz"; got != want {
		t.Errorf("captured stdout %q, want %q", got, want)
	}
	if got, want := o.res.Stderr.String(), "01234\n[warden: 6 bytes cut]\nBCDEF"; got != want {
		t.Errorf("captured stderr %q, want %q", got, want)
	}
}
