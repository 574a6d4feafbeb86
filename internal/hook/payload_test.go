// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"warden.dev/warden/internal/hook"
)

// countingReader counts what was read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestReadPayload: a payload up to the cap is read whole, in about twice
// its size; one byte more is refused with the cap named, after the rest
// was read (and dropped), so that the agent's write does not fail.
func TestReadPayload(t *testing.T) {
	for _, n := range []int{0, 1, 4 << 10, 4<<10 + 1, 3 << 20, hook.MaxPayload} {
		in := bytes.Repeat([]byte("x"), n)
		var got []byte
		var err error
		alloc := allocated(func() { got, err = hook.ReadPayload(bytes.NewReader(in)) })
		if err != nil || !bytes.Equal(got, in) {
			t.Errorf("ReadPayload(%d bytes) = %d bytes, %v; want them all", n, len(got), err)
		}
		if limit := uint64(2*n + 320<<10); alloc > limit {
			t.Errorf("ReadPayload(%d bytes) allocated %d, want at most %d", n, alloc, limit)
		}
	}
	for _, n := range []int{hook.MaxPayload + 1, 3 * hook.MaxPayload} {
		r := &countingReader{r: strings.NewReader(strings.Repeat("x", n))}
		var got []byte
		var err error
		alloc := allocated(func() { got, err = hook.ReadPayload(r) })
		if err == nil || got != nil || !strings.Contains(err.Error(), "larger than 16 MiB (16777216 bytes)") {
			t.Errorf("ReadPayload(%d bytes) = %d bytes, %v; want a refusal naming the cap", n, len(got), err)
		}
		if r.n != n {
			t.Errorf("ReadPayload(%d bytes) read %d of them, want all (the rest dropped)", n, r.n)
		}
		if limit := uint64(hook.MaxPayload + 2<<20); alloc > limit {
			t.Errorf("ReadPayload(%d bytes) allocated %d, want at most the cap and a little (%d)", n, alloc, limit)
		}
	}
}
