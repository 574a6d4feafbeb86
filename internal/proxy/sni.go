// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

import (
	"bufio"
	"crypto/tls"
	"errors"
	"net"
	"time"
)

// maxHelloBytes bounds what is buffered to read a ClientHello: a whole
// handshake message may span several records, and with post-quantum key
// shares a browser's hello is about 2 KiB; anything past this is refused.
const maxHelloBytes = 16 << 10

// peekBufSize is the size of the buffer a stream's first bytes are peeked
// into.
const peekBufSize = maxHelloBytes + 512

var (
	errHelloRead   = errors.New("not a readable TLS ClientHello")
	errHelloParsed = errors.New("ClientHello read")
)

// clientHelloSNI reads the TLS ClientHello at the start of br without
// consuming anything, and returns the server name it asks for ("" when it
// names none). The parsing is crypto/tls's own server handshake, stopped
// as soon as the hello is parsed, so that the name judged here is the name
// a Go TLS server would see; a hello crypto/tls refuses is refused here
// (errHelloRead). Reading is bounded by maxHelloBytes and by the deadline
// of the connection under br, which the caller sets.
func clientHelloSNI(br *bufio.Reader) (string, error) {
	var sni string
	var parsed bool
	c := &sniffConn{r: &peekReader{br: br, max: maxHelloBytes}}
	err := tls.Server(c, &tls.Config{
		GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
			sni, parsed = h.ServerName, true
			return nil, errHelloParsed
		},
	}).Handshake()
	if !parsed {
		if c.r.err != nil {
			return "", c.r.err
		}
		return "", errHelloRead
	}
	_ = err // errHelloParsed, by construction
	return sni, nil
}

// peekReader reads what br holds, peeking, never consuming, and never
// more than max bytes.
type peekReader struct {
	br  *bufio.Reader
	off int
	max int
	err error // the first error from below, not from the parser
}

func (r *peekReader) Read(p []byte) (int, error) {
	if r.off >= r.max {
		r.err = errHelloRead
		return 0, r.err
	}
	if r.br.Buffered() <= r.off {
		if _, err := r.br.Peek(r.off + 1); err != nil {
			r.err = err
			return 0, err
		}
	}
	b, _ := r.br.Peek(min(r.br.Buffered(), r.max))
	n := copy(p, b[r.off:])
	r.off += n
	return n, nil
}

// sniffConn is the connection crypto/tls parses the hello from: it reads
// from the peeked bytes and writes nothing (the handshake stops before
// crypto/tls would answer; the alert it then sends goes nowhere).
type sniffConn struct {
	r *peekReader
	net.Conn
}

func (c *sniffConn) Read(p []byte) (int, error)       { return c.r.Read(p) }
func (c *sniffConn) Write(p []byte) (int, error)      { return 0, errHelloParsed }
func (c *sniffConn) Close() error                     { return nil }
func (c *sniffConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *sniffConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *sniffConn) SetDeadline(time.Time) error      { return nil }
func (c *sniffConn) SetReadDeadline(time.Time) error  { return nil }
func (c *sniffConn) SetWriteDeadline(time.Time) error { return nil }
