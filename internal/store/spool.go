// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

// The spool. A hook process is started for every tool call an agent
// makes, and the agent waits for it; opening the store in it costs
// milliseconds (SQLite's code paged in cold, the schema read, the log
// checkpointed at the last close, with its fsyncs) for one event. So a
// hook, when no warden serve records for it, spools its events instead:
// it writes them to a file of its own in the state directory's spool/,
// whole, and renames it into place, so that a spool file is complete
// when it is there (after a crash of the machine it may be empty or cut
// short, as the store's last commits may be lost with synchronous
// NORMAL: such a file is set aside as NAME.bad).
//
// Every open of the store ([Open], which every reader and writer goes
// through) first moves the spooled events into the chain, oldest file
// first (files are named by the time they were written), in one
// transaction a batch that also notes the files' names in the table
// spooled, and then deletes the files: a crash between the commit and
// the deletes leaves files whose names say they are in, which the next
// open deletes without adding them again. So whoever opens the store
// reads every spooled event, each once, in the order it was spooled; the
// spool is kept short by a hook that finds it long, which then opens the
// store itself.

import (
	"bufio"
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
	// spoolLong is how many files make a hook ingest the spool itself.
	spoolLong = 256
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

// Spool writes evs, their secrets redacted (audit.Redact), to a new file
// of the spool of the state directory dir, for the next open of the
// store to take in. It reports whether the spool is long (spoolLong
// files or more), which the caller answers by opening the store.
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
	var rnd [4]byte
	rand.Read(rnd[:])
	name := fmt.Sprintf("%020d-%d-%s%s", time.Now().UnixNano(), os.Getpid(), hex.EncodeToString(rnd[:]), spoolExt)
	tmp := filepath.Join(sd, "."+name+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return false, &Error{What: "spool", Err: err, Hint: "make " + sd + " writable by this user"}
	}
	_, err = f.Write(b.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(sd, name))
	}
	if err != nil {
		os.Remove(tmp)
		return false, &Error{What: "spool", Err: err}
	}
	d, err := os.Open(sd)
	if err != nil {
		return false, nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(spoolLong)
	return len(names) >= spoolLong, nil
}

// Spooled reports whether the state directory dir has events spooled,
// not taken into its store yet.
func Spooled(dir string) bool {
	names, _, _ := spoolFiles(filepath.Join(dir, SpoolName))
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
			fe, err := readSpoolFile(filepath.Join(sd, n))
			if err != nil {
				// Cut short by a crash, or not Warden's: kept
				// aside, out of the way of the next open.
				os.Rename(filepath.Join(sd, n), filepath.Join(sd, n+".bad"))
				continue
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

// readSpoolFile reads a spool file's events: one JSON object a line,
// the last line ended, at least one.
func readSpoolFile(path string) ([]audit.Event, error) {
	// Not a link, and not a FIFO or a device swapped in after the
	// listing (which could block the open or the read forever).
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSpoolFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSpoolFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxSpoolFile)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil, fmt.Errorf("%s is cut short", path)
	}
	var evs []audit.Event
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, maxSpoolFile)
	for sc.Scan() {
		var ev audit.Event
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ev); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		evs = append(evs, ev)
	}
	return evs, sc.Err()
}
