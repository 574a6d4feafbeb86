// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

// Recording through warden serve. Opening the store costs a process that
// records one run or one hook call most of what recording costs it: the
// SQLite connection, its schema read and, when the process is the
// store's only user, the checkpoint at close. While warden serve runs it
// holds the store open and takes batches of events on [RecordSocket];
// a [Recorder] sends there when serve answers and opens the store
// itself otherwise. The events are the same, chained and redacted by the
// same AppendBatch.
//
// The protocol is one line of JSON each way per batch: the client sends
// the events as an array, serve answers {"seq": N} (the last event's
// number) or {"error": "…"} once the batch is committed or refused.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/unixsock"
)

// RecordSocket is the name, in the state directory, of the socket on
// which warden serve records events for the other warden processes of
// its user.
const RecordSocket = "record.sock"

// maxBatch bounds one batch's line: a run's record with every attempt
// and refusal it keeps is far smaller.
const maxBatch = 64 << 20

// recordReply is serve's answer to one batch.
type recordReply struct {
	Seq   int64  `json:"seq,omitempty"`
	Error string `json:"error,omitempty"`
}

// ListenRecords listens on dir's [RecordSocket], replacing a stale one,
// for [ServeRecords]: the socket is 0600.
func ListenRecords(dir string) (*net.UnixListener, error) {
	return unixsock.Listen("unix", filepath.Join(dir, RecordSocket))
}

// ServeRecords appends to s the batches that processes of this user send
// on ln, until ln is closed.
func ServeRecords(ln *net.UnixListener, s *SQLite) error {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		go serveRecords(c, s)
	}
}

// serveRecords takes the batches of one connection.
func serveRecords(c *net.UnixConn, s *SQLite) {
	defer c.Close()
	if uid, ok := unixsock.PeerUID(c); !ok || uid != os.Getuid() {
		return
	}
	r := bufio.NewReaderSize(c, 64<<10)
	for {
		line, err := readLine(r, maxBatch)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				reply(c, recordReply{Error: err.Error()})
			}
			return
		}
		var evs []audit.Event
		var rep recordReply
		if err := json.Unmarshal(line, &evs); err != nil {
			rep.Error = "the batch is not a JSON array of events: " + err.Error()
		} else if recs, err := s.AppendBatch(context.Background(), evs); err != nil {
			rep.Error = err.Error()
		} else if len(recs) > 0 {
			rep.Seq = recs[len(recs)-1].Seq
		}
		if reply(c, rep) != nil {
			return
		}
	}
}

func reply(c net.Conn, rep recordReply) error {
	b, _ := json.Marshal(rep)
	_, err := c.Write(append(b, '\n'))
	return err
}

// readLine reads one line of at most max bytes, without its newline.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			return nil, fmt.Errorf("a batch longer than %d bytes", max)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// remote is a connection to warden serve's [RecordSocket].
type remote struct {
	c *net.UnixConn
	r *bufio.Reader
}

// dialRecords connects to the RecordSocket in dir, if warden serve of
// this user answers there; nil otherwise.
func dialRecords(dir string) *remote {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: filepath.Join(dir, RecordSocket), Net: "unix"})
	if err != nil {
		return nil
	}
	if uid, ok := unixsock.PeerUID(c); !ok || uid != os.Getuid() {
		c.Close()
		return nil
	}
	return &remote{c: c, r: bufio.NewReader(c)}
}

// send records evs through serve and returns once they are committed.
func (rm *remote) send(evs []audit.Event) error {
	b, err := json.Marshal(evs)
	if err != nil {
		return err
	}
	if _, err := rm.c.Write(append(b, '\n')); err != nil {
		return err
	}
	line, err := readLine(rm.r, 1<<16)
	if err != nil {
		return err
	}
	var rep recordReply
	if err := json.Unmarshal(line, &rep); err != nil {
		return err
	}
	if rep.Error != "" {
		return &Error{What: "warden serve did not record the events: " + rep.Error}
	}
	return nil
}

func (rm *remote) close() { rm.c.Close() }
