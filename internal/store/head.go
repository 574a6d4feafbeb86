// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// headFile keeps the chain's last number and hash in the state
// directory, beside the store, so that a store whose last events were
// removed is told from one that never had them.
type headFile struct {
	dir string
	f   *os.File // open for writing, from the first advance
}

// headRecord is the head's one line, of a fixed length so that each
// advance overwrites the whole of it in one write: the number,
// zero-padded, and the hash.
const headRecord = "%020d %s\n"

// advance records seq and h as the head unless the head is already
// there or further on (an event removed and another appended in its
// place must not move the head back over the one it replaced). The
// caller holds the store's writers' lock, so heads are written in the
// chain's order. The record is written in place, whole, in one write at
// the file's start: a file held open (each append costs a read and a
// write, where a new file renamed over the head cost eight calls and
// most of an append's time); a write torn by a crash makes the head
// unreadable, which verify reports.
func (f *headFile) advance(seq int64, h Hash) error {
	if f.f == nil {
		w, err := os.OpenFile(filepath.Join(f.dir, HeadName), os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err != nil {
			return err
		}
		f.f = w
	}
	var buf [128]byte
	n, _ := f.f.ReadAt(buf[:], 0)
	if cur, _, err := parseHead(buf[:n]); err == nil && cur >= seq {
		return nil
	}
	_, err := f.f.WriteAt([]byte(fmt.Sprintf(headRecord, seq, h)), 0)
	return err
}

// close closes the file advance holds.
func (f *headFile) close() {
	if f.f != nil {
		f.f.Close()
		f.f = nil
	}
}

// read returns the head; ok is false when there is no head file.
func (f *headFile) read() (seq int64, h Hash, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(f.dir, HeadName))
	if errors.Is(err, os.ErrNotExist) {
		return 0, h, false, nil
	}
	if err != nil {
		return 0, h, false, err
	}
	seq, h, err = parseHead(b)
	return seq, h, err == nil, err
}

// parseHead reads a head record: "SEQ HASH".
func parseHead(b []byte) (seq int64, h Hash, err error) {
	fs := strings.Fields(string(b))
	if len(fs) != 2 {
		return 0, h, fmt.Errorf("%s: want \"SEQ HASH\", found %q", HeadName, strings.TrimSpace(string(b)))
	}
	seq, err = strconv.ParseInt(fs[0], 10, 64)
	if err != nil {
		return 0, h, fmt.Errorf("%s: %v", HeadName, err)
	}
	raw, err := hex.DecodeString(fs[1])
	if err != nil || len(raw) != len(h) {
		return 0, h, fmt.Errorf("%s: the hash %q is not a SHA-256", HeadName, fs[1])
	}
	copy(h[:], raw)
	return seq, h, nil
}
