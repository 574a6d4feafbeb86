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
}

// advance records seq and h as the head unless the head is already
// there or further on (an event removed and another appended in its
// place must not move the head back over the one it replaced). The
// caller holds the store's writers' lock, so heads are written in the
// chain's order; the head is replaced by a rename, never written in
// place.
func (f *headFile) advance(seq int64, h Hash) error {
	cur, _, ok, err := f.read()
	if err == nil && ok && cur >= seq {
		return nil
	}
	tmp := filepath.Join(f.dir, HeadName+".new")
	os.Remove(tmp)
	w, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%d %s\n", seq, h)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, filepath.Join(f.dir, HeadName))
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
	fs := strings.Fields(string(b))
	if len(fs) != 2 {
		return 0, h, false, fmt.Errorf("%s: want \"SEQ HASH\", found %q", HeadName, strings.TrimSpace(string(b)))
	}
	seq, err = strconv.ParseInt(fs[0], 10, 64)
	if err != nil {
		return 0, h, false, fmt.Errorf("%s: %v", HeadName, err)
	}
	raw, err := hex.DecodeString(fs[1])
	if err != nil || len(raw) != len(h) {
		return 0, h, false, fmt.Errorf("%s: the hash %q is not a SHA-256", HeadName, fs[1])
	}
	copy(h[:], raw)
	return seq, h, true, nil
}
