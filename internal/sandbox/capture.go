// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"fmt"
	"io"
	"sync"
)

// DefaultOutputCap is the number of bytes of each output stream kept in
// memory when [Limits.Output] is zero.
const DefaultOutputCap = 1 << 20

// Capture is an [io.Writer] that passes every byte through to a live
// writer and keeps, in memory, the first half and the last half of a cap
// of N bytes, counting what falls in between. It never holds more than N
// bytes, so capturing cannot stall the command: only the live writer can,
// as it would for a plain run. It is safe for concurrent use.
type Capture struct {
	mu    sync.Mutex
	live  io.Writer
	hcap  int
	tcap  int
	head  []byte
	tail  []byte // a ring once len(tail) == tcap
	pos   int    // next write position in the full ring
	total int64
}

// NewCapture returns a Capture writing through to live (nil: nowhere)
// that keeps n bytes: the first n/2 and the last n-n/2. n <= 0 means
// [DefaultOutputCap].
func NewCapture(live io.Writer, n int64) *Capture {
	if n <= 0 {
		n = DefaultOutputCap
	}
	return &Capture{live: live, hcap: int(n / 2), tcap: int(n - n/2)}
}

// Write writes p to the live writer, then keeps what the cap allows. An
// error from the live writer is returned (a closed stdout gives the
// command EPIPE, as in a plain run); what was written is kept.
func (c *Capture) Write(p []byte) (int, error) {
	n, err := len(p), error(nil)
	if c.live != nil {
		n, err = c.live.Write(p)
	}
	c.keep(p[:n])
	return n, err
}

func (c *Capture) keep(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	if room := c.hcap - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 || c.tcap == 0 {
		return
	}
	if room := c.tcap - len(c.tail); room > 0 {
		k := min(room, len(p))
		c.tail = append(c.tail, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return
	}
	// The ring is full: only the last tcap bytes of p can survive.
	if len(p) >= c.tcap {
		copy(c.tail, p[len(p)-c.tcap:])
		c.pos = 0
		return
	}
	k := copy(c.tail[c.pos:], p)
	copy(c.tail, p[k:])
	c.pos = (c.pos + len(p)) % c.tcap
}

// Output is what a Capture kept of one stream.
type Output struct {
	// Head is the first bytes of the stream, up to half the cap.
	Head []byte
	// Tail is the last bytes after Head, up to the other half; with Head
	// it is the whole stream when Cut is 0.
	Tail []byte
	// Total is the number of bytes the stream carried.
	Total int64
	// Cut is the number of bytes between Head and Tail that were not kept.
	Cut int64
}

// Output returns a copy of what was kept so far.
func (c *Capture) Output() Output {
	c.mu.Lock()
	defer c.mu.Unlock()
	o := Output{Head: append([]byte(nil), c.head...), Total: c.total}
	o.Tail = make([]byte, 0, len(c.tail))
	o.Tail = append(o.Tail, c.tail[c.pos:]...)
	o.Tail = append(o.Tail, c.tail[:c.pos]...)
	o.Cut = c.total - int64(len(o.Head)) - int64(len(o.Tail))
	return o
}

// Bytes returns the head and the tail, with the cut marked between them
// ("\n[warden: N bytes cut]\n") when there was one.
func (o Output) Bytes() []byte {
	b := append([]byte(nil), o.Head...)
	if o.Cut > 0 {
		b = fmt.Appendf(b, "\n[warden: %d bytes cut]\n", o.Cut)
	}
	return append(b, o.Tail...)
}

// String is Bytes as a string.
func (o Output) String() string { return string(o.Bytes()) }

// Bytes returns what was kept so far, the cut marked; see [Output.Bytes].
func (c *Capture) Bytes() []byte { return c.Output().Bytes() }

// String is Bytes as a string.
func (c *Capture) String() string { return string(c.Bytes()) }
