// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxytest

import (
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// Pipe returns the two ends of an in-memory connection. Unlike net.Pipe,
// writes never wait for the reader (bytes are buffered without bound),
// each end can CloseWrite (the other end then reads io.EOF after the
// buffered bytes), and deadlines work as on a TCP connection. Addresses
// are 127.0.0.1 ports 1 (a) and 2 (b).
func Pipe() (a, b *Conn) {
	ab, ba := newBuf(), newBuf()
	a = &Conn{r: ba, w: ab, local: addr(1), remote: addr(2)}
	b = &Conn{r: ab, w: ba, local: addr(2), remote: addr(1)}
	return a, b
}

func addr(port int) net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port} }

// Conn is one end of a [Pipe].
type Conn struct {
	r, w          *buf
	local, remote net.Addr
	rd, wd        deadline
	once          sync.Once
}

type buf struct {
	mu     sync.Mutex // mu guards the fields below
	data   []byte
	eof    bool          // the writer closed
	closed bool          // the reader closed
	signal chan struct{} // closed and replaced on every change
}

func newBuf() *buf { return &buf{signal: make(chan struct{})} }

func (b *buf) changed() {
	close(b.signal)
	b.signal = make(chan struct{})
}

// Read reads what the other end wrote.
func (c *Conn) Read(p []byte) (int, error) {
	for {
		c.r.mu.Lock()
		switch {
		case c.r.closed:
			c.r.mu.Unlock()
			return 0, net.ErrClosed
		case len(c.r.data) > 0:
			n := copy(p, c.r.data)
			c.r.data = c.r.data[n:]
			c.r.mu.Unlock()
			return n, nil
		case c.r.eof:
			c.r.mu.Unlock()
			return 0, io.EOF
		}
		sig := c.r.signal
		c.r.mu.Unlock()
		select {
		case <-sig:
		case <-c.rd.wait():
			return 0, os.ErrDeadlineExceeded
		}
	}
}

// Write buffers p for the other end.
func (c *Conn) Write(p []byte) (int, error) {
	select {
	case <-c.wd.wait():
		return 0, os.ErrDeadlineExceeded
	default:
	}
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.w.eof || c.w.closed {
		return 0, net.ErrClosed
	}
	c.w.data = append(c.w.data, p...)
	c.w.changed()
	return len(p), nil
}

// CloseWrite ends what this end sends: the other end reads io.EOF.
func (c *Conn) CloseWrite() error {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if !c.w.eof {
		c.w.eof = true
		c.w.changed()
	}
	return nil
}

// Close closes both directions.
func (c *Conn) Close() error {
	c.once.Do(func() {
		c.CloseWrite()
		c.r.mu.Lock()
		c.r.closed = true
		c.r.data = nil
		c.r.changed()
		c.r.mu.Unlock()
	})
	return nil
}

func (c *Conn) LocalAddr() net.Addr  { return c.local }
func (c *Conn) RemoteAddr() net.Addr { return c.remote }

func (c *Conn) SetDeadline(t time.Time) error {
	c.rd.set(t)
	c.wd.set(t)
	return nil
}
func (c *Conn) SetReadDeadline(t time.Time) error  { c.rd.set(t); return nil }
func (c *Conn) SetWriteDeadline(t time.Time) error { c.wd.set(t); return nil }

// deadline is a settable deadline: wait returns a channel closed when it
// passes (as net.Pipe's pipeDeadline).
type deadline struct {
	mu     sync.Mutex // mu guards the fields below
	timer  *time.Timer
	cancel chan struct{}
}

func (d *deadline) set(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil && !d.timer.Stop() {
		<-d.cancel // wait for the timer's function to close it
	}
	d.timer = nil
	closed := false
	if d.cancel != nil {
		select {
		case <-d.cancel:
			closed = true
		default:
		}
	}
	if t.IsZero() {
		if closed || d.cancel == nil {
			d.cancel = make(chan struct{})
		}
		return
	}
	if dur := time.Until(t); dur > 0 {
		if closed || d.cancel == nil {
			d.cancel = make(chan struct{})
		}
		c := d.cancel
		d.timer = time.AfterFunc(dur, func() { close(c) })
		return
	}
	if !closed {
		if d.cancel == nil {
			d.cancel = make(chan struct{})
		}
		close(d.cancel)
	}
}

func (d *deadline) wait() chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancel == nil {
		d.cancel = make(chan struct{})
	}
	return d.cancel
}

// Listener is an in-memory listener whose Dial returns one end of a
// [Pipe] and Accept the other.
type Listener struct {
	ch   chan net.Conn
	once sync.Once
	done chan struct{}
}

// NewListener returns an in-memory listener.
func NewListener() *Listener {
	return &Listener{ch: make(chan net.Conn), done: make(chan struct{})}
}

// Dial connects to the listener; it fails once the listener is closed.
func (l *Listener) Dial() (*Conn, error) {
	a, b := Pipe()
	select {
	case l.ch <- b:
		return a, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *Listener) Addr() net.Addr { return addr(1) }
