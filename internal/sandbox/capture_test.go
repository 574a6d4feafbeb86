// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestCaptureSmallKeepsAll(t *testing.T) {
	var live bytes.Buffer
	c := NewCapture(&live, 10)
	for _, s := range []string{"ab", "cde", "", "fghij"} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	o := c.Output()
	if got := c.String(); got != "abcdefghij" || o.Cut != 0 || o.Total != 10 {
		t.Errorf("got %q cut %d total %d, want all 10 bytes, no cut", got, o.Cut, o.Total)
	}
	if live.String() != "abcdefghij" {
		t.Errorf("live got %q", live.String())
	}
}

func TestCaptureCutMarked(t *testing.T) {
	var live bytes.Buffer
	c := NewCapture(&live, 8)
	c.Write([]byte("0123456789abcdefghij"))
	o := c.Output()
	if string(o.Head) != "0123" || string(o.Tail) != "ghij" || o.Cut != 12 || o.Total != 20 {
		t.Fatalf("head %q tail %q cut %d total %d", o.Head, o.Tail, o.Cut, o.Total)
	}
	if want := "0123\n[warden: 12 bytes cut]\nghij"; c.String() != want {
		t.Errorf("String() = %q, want %q", c.String(), want)
	}
	if live.String() != "0123456789abcdefghij" {
		t.Errorf("live stream lost bytes: %q", live.String())
	}
}

// TestCaptureExact checks head and tail byte for byte against a reference
// for random write sizes, odd and even caps.
func TestCaptureExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int64{1, 2, 7, 64, 1000, 4097} {
		for trial := 0; trial < 50; trial++ {
			var live bytes.Buffer
			c := NewCapture(&live, n)
			var all []byte
			for w := r.IntN(40); w > 0; w-- {
				p := make([]byte, r.IntN(int(3*n)+2))
				for i := range p {
					p[i] = byte(r.Uint32())
				}
				c.Write(p)
				all = append(all, p...)
			}
			o := c.Output()
			h, tl := int(n/2), int(n-n/2)
			wantHead, wantTail := all, []byte(nil)
			if len(all) > h {
				wantHead = all[:h]
				rest := all[h:]
				wantTail = rest[max(0, len(rest)-tl):]
			}
			name := fmt.Sprintf("n=%d trial=%d len=%d", n, trial, len(all))
			if !bytes.Equal(o.Head, wantHead) || !bytes.Equal(o.Tail, wantTail) {
				t.Fatalf("%s: head/tail differ", name)
			}
			if o.Total != int64(len(all)) || o.Cut != int64(len(all)-len(wantHead)-len(wantTail)) {
				t.Fatalf("%s: total %d cut %d", name, o.Total, o.Cut)
			}
			if !bytes.Equal(live.Bytes(), all) {
				t.Fatalf("%s: live stream differs", name)
			}
			if o.Cut == 0 && !bytes.Equal(o.Bytes(), all) {
				t.Fatalf("%s: uncut output differs", name)
			}
		}
	}
}

func TestCaptureDefaultCapAndNilLive(t *testing.T) {
	c := NewCapture(nil, 0)
	c.Write(bytes.Repeat([]byte("x"), 3<<20))
	o := c.Output()
	if len(o.Head)+len(o.Tail) != DefaultOutputCap || o.Cut != 3<<20-DefaultOutputCap {
		t.Errorf("kept %d, cut %d", len(o.Head)+len(o.Tail), o.Cut)
	}
	if !bytes.Contains(c.Bytes(), []byte(fmt.Sprintf("\n[warden: %d bytes cut]\n", 2<<20))) {
		t.Error("cut not marked")
	}
}

type failWriter struct{ n int }

func (f failWriter) Write(p []byte) (int, error) { return min(f.n, len(p)), errors.New("broken pipe") }

func TestCaptureLiveErrorPassedOn(t *testing.T) {
	c := NewCapture(failWriter{n: 2}, 10)
	n, err := c.Write([]byte("hello"))
	if n != 2 || err == nil {
		t.Fatalf("Write = %d, %v; want 2 and the live error", n, err)
	}
	if c.String() != "he" {
		t.Errorf("kept %q, want what reached the live stream", c.String())
	}
}
