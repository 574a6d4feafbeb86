// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

// The spool. A hook process is started for every tool call an agent
// makes, and the agent waits for it; opening the store in it costs
// milliseconds (SQLite's code paged in cold, the schema read, the log
// checkpointed at the last close, with its fsyncs) for one event. So a
// hook, when no warden serve records for it, spools its events instead:
// it appends them, whole lines in one write, to the spool's active file
// (spoolActive), under that file's lock (flock). A file of its own for
// every call would cost the file system a new inode each time, which on
// ext4 means skipping every inode of the group deleted in the last
// minute or more (the spool's own, once taken in): up to a millisecond.
//
// Every open of the store ([Open], which every reader and writer goes
// through) first moves the spooled events into the chain. Under the
// store's writers' lock it takes the active file in turn: holding the
// file's lock, it renames it to a spool file of its own (spoolExt, named
// by the time), which no writer appends to any more (a writer checks,
// once it holds the lock, that the file it opened is still the active
// one, and opens the new one otherwise). Then, oldest file first, it
// moves the files' events into the chain, in one transaction a batch
// that also notes the files' names in the table spooled, and deletes the
// files: a crash between the commit and the deletes leaves files whose
// names say they are in, which the next open deletes without adding
// them again. So whoever opens the store reads every spooled event, each
// once, in the order it was spooled; the spool is kept short by a hook
// that finds it long, which then opens the store itself. A spool file
// cut short (a crash of the machine may lose the last writes, as it may
// the store's last commits with synchronous NORMAL) is set aside as
// NAME.bad; a writer that died in the middle of its write left a line
// unended, which the next writer ends, so that only that line is lost.
// The lock is waited for briefly (lockWait): a process stopped while it
// holds it stops nobody, a writer then writing a complete file of its
// own, renamed into place, and the open leaving the active file for a
// later one.
//
// Spool files written one per call, by earlier versions, are taken in
// the same way.

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
)

// SpoolName is the spool's directory in the state directory.
const SpoolName = "spool"

const (
	// spoolExt ends every complete spool file's name.
	spoolExt = ".jsonl"
	// spoolActive is the file writers append to; never a complete
	// file's name.
	spoolActive = "active.part"
	// spoolLong is how large the active file makes a hook ingest the
	// spool itself (about 400 decisions).
	spoolLong = 256 << 10
	// spoolBatch is the most files one transaction takes in.
	spoolBatch = 512
	// maxSpoolFile bounds what one spool file may hold.
	maxSpoolFile = 16 << 20
)

// errSpoolLarge is Spool's refusal of events that would make a spool
// file larger than a quarter of maxSpoolFile: they go to the store.
var errSpoolLarge = errors.New("too many events for the spool")

// spoolDir makes the spool of the state directory dir, if needed, and
// returns its path.
func spoolDir(dir string) (string, error) {
	sd := filepath.Join(dir, SpoolName)
	if err := os.MkdirAll(sd, 0o700); err != nil {
		return "", &Error{What: "spool directory", Err: err, Hint: "make " + dir + " writable by this user, or set WARDEN_STATE_DIR"}
	}
	return sd, nil
}

// spoolReady makes the spool of the state directory dir, and checks that
// this user may write it.
func spoolReady(dir string) error {
	sd, err := spoolDir(dir)
	if err != nil {
		return err
	}
	if err := unix.Access(sd, unix.W_OK|unix.X_OK); err != nil {
		return &Error{What: "spool directory " + sd, Err: err, Hint: "make it writable by this user, or set WARDEN_STATE_DIR"}
	}
	return nil
}

// Spool appends evs, their secrets redacted (audit.Redact), to the
// spool of the state directory dir, for the next open of the store to
// take in. It reports whether the spool is long (spoolLong bytes or
// more), which the caller answers by opening the store.
func Spool(dir string, evs []audit.Event) (long bool, err error) {
	sd, err := spoolDir(dir)
	if err != nil {
		return false, err
	}
	var b bytes.Buffer
	for _, ev := range evs {
		ev = audit.Redact(ev)
		if ev.Time.IsZero() {
			ev.Time = time.Now()
		}
		line, err := json.Marshal(ev)
		if err != nil {
			return false, fmt.Errorf("store: encode the event: %w", err)
		}
		b.Write(line)
		b.WriteByte('\n')
		if b.Len() > maxSpoolFile/4 {
			return false, errSpoolLarge
		}
	}
	// The active file taken in between the open and the lock is
	// opened again; more than a few times in a row, something else
	// renames it.
	for range 8 {
		size, again, err := appendActive(sd, b.Bytes())
		if errors.Is(err, errActiveHeld) {
			// Whoever holds the lock is stuck (a process stopped
			// in the middle of its write): this call's events go
			// to a file of their own, which is taken in all the
			// same.
			return false, spoolOwn(sd, b.Bytes())
		}
		if err != nil {
			return false, &Error{What: "spool", Err: err, Hint: "make " + sd + " writable by this user"}
		}
		if !again {
			return size >= spoolLong, nil
		}
	}
	return false, &Error{What: "spool", Err: errors.New("its active file was renamed at every try")}
}

// spoolOwn writes b, whole, to a new complete spool file of the spool
// sd, renamed into place.
func spoolOwn(sd string, b []byte) error {
	name := spoolFileName()
	tmp := filepath.Join(sd, "."+name+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &Error{What: "spool", Err: err, Hint: "make " + sd + " writable by this user"}
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(sd, name))
	}
	if err != nil {
		os.Remove(tmp)
		return &Error{What: "spool", Err: err}
	}
	return nil
}

// appendActive appends b, whole, to the active file of the spool sd,
// under the file's lock. again says the file opened was no longer the
// active one once locked (taken in meanwhile): nothing was written.
// size is the file's size after the write. A file that grows past a
// quarter of maxSpoolFile is made a complete spool file of its own,
// so that none grows past what a reader takes.
func appendActive(sd string, b []byte) (size int64, again bool, err error) {
	path := filepath.Join(sd, spoolActive)
	// Not a link, and not a FIFO or a device put there (which could
	// block the open or the write forever).
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_APPEND|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return 0, false, err
	}
	defer unix.Close(fd)
	st, err := lockActive(fd, path)
	if err != nil || st == nil {
		return 0, st == nil && err == nil, err
	}
	var last [1]byte
	if st.Size > 0 {
		if _, err := unix.Pread(fd, last[:], st.Size-1); err != nil {
			return 0, false, err
		}
	}
	if st.Size > 0 && last[0] != '\n' {
		// A writer died in the middle of its line: it stands alone.
		b = append([]byte{'\n'}, b...)
	}
	for rest := b; len(rest) > 0; {
		n, err := unix.Write(fd, rest)
		if err != nil {
			return 0, false, err
		}
		rest = rest[n:]
	}
	size = st.Size + int64(len(b))
	if size > maxSpoolFile/4 {
		// Still under the lock: no writer appends to it any more.
		if err := os.Rename(path, filepath.Join(sd, spoolFileName())); err != nil {
			return 0, false, err
		}
	}
	return size, false, nil
}

// lockWait is how long a process waits for the active file's lock,
// which a writer holds for one write: past it, the holder is stuck.
const lockWait = 200 * time.Millisecond

// errActiveHeld is lockActive's report that the lock stayed held for
// lockWait.
var errActiveHeld = errors.New("the spool's active file stays locked")

// lockActive takes the lock of fd, opened from the spool's active file
// path, and returns the file's status: nil when path no longer names the
// file fd is (it was renamed, by whoever held the lock before), or when
// it is not a regular file (an error). It waits for the lock at most
// lockWait ([errActiveHeld]): a process stopped while it holds it must
// not stop every hook and every open of the store.
func lockActive(fd int, path string) (*unix.Stat_t, error) {
	deadline := time.Now().Add(lockWait)
	for pause := 20 * time.Microsecond; ; pause = min(2*pause, 5*time.Millisecond) {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EWOULDBLOCK) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, errActiveHeld
		}
		time.Sleep(pause)
	}
	var st, cur unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, &notRegularError{path}
	}
	if err := unix.Lstat(path, &cur); err != nil || cur.Dev != st.Dev || cur.Ino != st.Ino {
		return nil, nil
	}
	return &st, nil
}

// notRegularError is lockActive's refusal of an active file that is not
// a regular file.
type notRegularError struct{ path string }

func (e *notRegularError) Error() string { return e.path + " is not a regular file" }

// spoolFileName names a new complete spool file: by the time, so that
// the names sort in the order the files were completed.
func spoolFileName() string {
	var rnd [4]byte
	rand.Read(rnd[:])
	return fmt.Sprintf("%020d-%d-%s%s", time.Now().UnixNano(), os.Getpid(), hex.EncodeToString(rnd[:]), spoolExt)
}

// takeActive makes the spool's active file, if it holds anything, a
// complete spool file of its own, which the listing that follows takes
// in. The caller holds the store's writers' lock.
func takeActive(sd string) error {
	path := filepath.Join(sd, spoolActive)
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if errors.Is(err, unix.ELOOP) {
		// A link, not Warden's: kept aside, out of the writers' way.
		return os.Rename(path, path+".bad")
	}
	if err != nil {
		return &Error{What: "spool", Err: err}
	}
	defer unix.Close(fd)
	// Once the lock is held, no writer is in the middle of a line, and
	// any that opened the file meanwhile finds it renamed.
	st, err := lockActive(fd, path)
	var notRegular *notRegularError
	switch {
	case errors.As(err, &notRegular):
		return os.Rename(path, path+".bad")
	case errors.Is(err, errActiveHeld):
		// Taken in by a later open, once its holder is gone.
		return nil
	case err != nil:
		return &Error{What: "spool", Err: err}
	case st == nil:
		// Made a file of its own by a writer meanwhile: listed below.
		return nil
	case st.Size == 0:
		return os.Remove(path)
	}
	if err := os.Rename(path, filepath.Join(sd, spoolFileName())); err != nil {
		return &Error{What: "spool", Err: err}
	}
	return nil
}

// Spooled reports whether the state directory dir has events spooled,
// not taken into its store yet.
func Spooled(dir string) bool {
	sd := filepath.Join(dir, SpoolName)
	if fi, err := os.Lstat(filepath.Join(sd, spoolActive)); err == nil && fi.Size() > 0 {
		return true
	}
	names, _, _ := spoolFiles(sd)
	return len(names) > 0
}

// Ingest takes the spool's events into the chain now, as [Open] does: a
// process that holds the store open (warden serve) calls it from time
// to time, for what a hook spooled while serve did not answer it.
func (s *SQLite) Ingest(ctx context.Context) error { return s.ingest(ctx) }

// ingest takes the spool's events into the chain (see the file's
// comment), a batch of files a transaction.
func (s *SQLite) ingest(ctx context.Context) error {
	sd := filepath.Join(filepath.Dir(s.path), SpoolName)
	if _, err := os.Lstat(sd); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := s.exclusive()
	if err != nil {
		return err
	}
	defer unlock()
	if err := takeActive(sd); err != nil {
		return err
	}
	for {
		// Listed under the writers' lock: no other process takes in
		// the same files meanwhile.
		names, more, err := spoolFiles(sd)
		if err != nil || len(names) == 0 {
			return err
		}
		if err := s.ingestBatch(ctx, sd, names); err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
}

// spoolFiles lists the complete files of the spool, oldest first, at
// most spoolBatch; more says there are more. A writer's temporary file
// left by a crash an hour ago is removed.
func spoolFiles(sd string) (names []string, more bool, err error) {
	ents, err := os.ReadDir(sd)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return nil, false, &Error{What: "spool", Err: err}
	}
	for _, e := range ents {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".tmp"):
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > time.Hour {
				os.Remove(filepath.Join(sd, n))
			}
		case strings.HasSuffix(n, spoolExt) && e.Type().IsRegular():
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if len(names) > spoolBatch {
		return names[:spoolBatch], true, nil
	}
	return names, false, nil
}

// ingestBatch takes the events of the files names into the chain in one
// transaction, with their names, then deletes the files.
func (s *SQLite) ingestBatch(ctx context.Context, sd string, names []string) error {
	done := map[string]bool{}
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM spooled`)
	if err != nil {
		return s.fail("read the spool's names", err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return s.fail("read the spool's names", err)
		}
		done[n] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s.fail("read the spool's names", err)
	}
	// in are the files whose events are in the chain once this batch
	// commits: taken in before (done), or now.
	var evs []audit.Event
	var in []string
	for _, n := range names {
		if !done[n] {
			fe, bad, err := readSpoolFile(filepath.Join(sd, n))
			if err != nil || len(fe) == 0 {
				// Cut short by a crash, or not Warden's: kept
				// aside, out of the way of the next open.
				os.Rename(filepath.Join(sd, n), filepath.Join(sd, n+".bad"))
				continue
			}
			if len(bad) > 0 {
				// A line cut short by a writer's death, or not
				// Warden's: kept aside, the others taken in.
				os.WriteFile(filepath.Join(sd, n+".bad"), bad, 0o600)
			}
			evs = append(evs, fe...)
		}
		in = append(in, n)
	}
	_, err = s.appendLocked(ctx, evs, func(tx *sql.Tx) error {
		// The names of files already deleted are no longer needed;
		// those of this batch's, until they are.
		if _, err := tx.ExecContext(ctx, `DELETE FROM spooled`); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO spooled (name) VALUES (?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, n := range in {
			if _, err := ins.ExecContext(ctx, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, n := range in {
		os.Remove(filepath.Join(sd, n))
	}
	return nil
}

// readSpoolFile reads a spool file's events, one JSON object a line.
// The lines that are not one, and a last line not ended (a write cut
// short), are returned in bad, each ended, for the caller to set aside;
// an error means the file as a whole cannot be read as a spool file.
func readSpoolFile(path string) (evs []audit.Event, bad []byte, err error) {
	// Not a link, and not a FIFO or a device swapped in after the
	// listing (which could block the open or the read forever).
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSpoolFile+1))
	if err != nil {
		return nil, nil, err
	}
	if len(b) > maxSpoolFile {
		return nil, nil, fmt.Errorf("%s is larger than %d bytes", path, maxSpoolFile)
	}
	for len(b) > 0 {
		line, rest, ended := bytes.Cut(b, []byte{'\n'})
		b = rest
		var ev audit.Event
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if !ended || dec.Decode(&ev) != nil || dec.More() {
			bad = append(append(bad, line...), '\n')
			continue
		}
		evs = append(evs, ev)
	}
	return evs, bad, nil
}
