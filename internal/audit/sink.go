// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// JSONL is a [Sink] that appends each event to a writer as one line of
// JSON. A write the writer refuses, or makes short, is the event's error;
// the sink keeps no state, so the next event is tried afresh.
type JSONL struct {
	// mu guards w: lines of concurrent writers never interleave.
	mu sync.Mutex
	w  io.Writer
}

// NewJSONL returns a sink appending to w (a file opened with O_APPEND,
// typically).
func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: w} }

// Write appends ev as one line.
func (s *JSONL) Write(ev Event) error {
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err = s.w.Write(append(b, '\n'))
	return err
}

// File is a [Sink] that replaces one file with each event, written as
// indented JSON: the file always holds one whole record, the last.
//
// The place is often inside a directory that a sandboxed command may
// write, so the write never goes through a link: the record goes into a
// fresh file made with O_CREAT|O_EXCL|O_NOFOLLOW in the directory Dir
// opens, synced, then renamed over Name relative to the same descriptor.
// A link planted at Name is replaced by the rename, never written
// through; Dir is asked for the directory at every write, so that the
// caller resolves it as strictly as it needs to (warden run resolves it
// without following a link the run could have planted).
type File struct {
	// Dir opens the directory the file is in. The sink closes what it
	// returns.
	Dir func() (*os.File, error)
	// Name is the file's name in it: one component.
	Name string
}

// Write replaces the file with ev.
func (f *File) Write(ev Event) error {
	b, err := json.MarshalIndent(ev, "", "  ")
	if err != nil {
		return err
	}
	dir, err := f.Dir()
	if err != nil {
		return err
	}
	defer dir.Close()
	tmp, fd, err := createTemp(dir, f.Name)
	if err != nil {
		return err
	}
	file := os.NewFile(uintptr(fd), tmp)
	_, err = file.Write(append(b, '\n'))
	if err == nil {
		err = file.Sync()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = unix.Renameat(int(dir.Fd()), tmp, int(dir.Fd()), f.Name); err != nil {
			err = &os.LinkError{Op: "rename", Old: tmp, New: filepath.Join(dir.Name(), f.Name), Err: err}
		}
	}
	if err != nil {
		unix.Unlinkat(int(dir.Fd()), tmp, 0)
		return err
	}
	dir.Sync()
	return nil
}

// Writable checks that a record named name can be made in dir: a file
// made and removed at once. Nothing of the record is left there.
func Writable(dir *os.File, name string) error {
	tmp, fd, err := createTemp(dir, name)
	if err != nil {
		return err
	}
	unix.Close(fd)
	unix.Unlinkat(int(dir.Fd()), tmp, 0)
	return nil
}

// createTemp makes a new file for a record in dir, never through a link
// (O_EXCL|O_NOFOLLOW), and returns its name and descriptor.
func createTemp(dir *os.File, name string) (string, int, error) {
	for range 10 {
		var b [8]byte
		rand.Read(b[:])
		tmp := "." + name + "." + hex.EncodeToString(b[:]) + ".tmp"
		fd, err := unix.Openat(int(dir.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err == unix.EEXIST {
			continue
		}
		if err != nil {
			return "", -1, &os.PathError{Op: "create", Path: filepath.Join(dir.Name(), tmp), Err: err}
		}
		return tmp, fd, nil
	}
	return "", -1, fmt.Errorf("create a temporary file in %s: every name tried exists", dir.Name())
}

// maxRecord bounds a record read back.
const maxRecord = 4 << 20

// ReadRun reads the execution record at path, written by a [File] sink
// (or by a Warden of schema 0). A record of a later schema is refused
// with [ErrSchema]; any other kind of event is an error.
func ReadRun(path string) (*Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxRecord {
		return nil, fmt.Errorf("%s: a record larger than %d bytes", path, maxRecord)
	}
	// A record of schema 0 has no kind: it is a run's.
	var h struct {
		Kind *Kind `json:"kind"`
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if h.Kind == nil {
		data = append([]byte(`{"kind":"run",`), bytes.TrimPrefix(bytes.TrimSpace(data), []byte("{"))...)
	}
	var ev Event
	if err := json.Unmarshal(data, &ev); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if ev.Kind != KindRun {
		return nil, fmt.Errorf("%s: a %s record, not a run's", path, ev.Kind)
	}
	return ev.Run, nil
}
