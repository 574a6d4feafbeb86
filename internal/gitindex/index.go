// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package gitindex tells whether a file is tracked by git by reading the
// repository's index file itself, without running git: git in a
// repository that an agent controls runs whatever its configuration says
// (core.fsmonitor, filters, hooks), so Warden never starts it to ask.
//
// [Parse] is pure: it reads the index format versions 2, 3 and 4 (v4
// prefix-compressed paths, v3 extended flags), skips the extensions and
// verifies the trailing SHA-1 or SHA-256 checksum. [Tracked] finds the
// repository that holds a path (a .git directory, or a .git file
// "gitdir: …" of a linked worktree, whose index is its own) and reads its
// index, bounded in size.
//
// # The safe side
//
// The answer is used to decide whether overwriting a file destroys work
// git knows about, so every doubt answers "tracked": an index too large,
// with too many entries, corrupt, of an unknown version or object format,
// or split (the "link" extension: most entries live in a shared index
// this package does not read). A path that is not in any repository is
// never tracked.
package gitindex

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"sort"
	"strings"
)

// Limits on what Parse accepts.
const (
	// MaxSize is the largest index file read, in bytes.
	MaxSize = 64 << 20
	// MaxEntries is the largest number of entries accepted.
	MaxEntries = 1_000_000
)

// Format is a repository's object format: which hash names objects and
// checksums the index.
type Format uint8

// The object formats git knows.
const (
	SHA1 Format = iota
	SHA256
)

// size is the length of a hash in bytes.
func (f Format) size() int {
	if f == SHA256 {
		return sha256.Size
	}
	return sha1.Size
}

func (f Format) new() hash.Hash {
	if f == SHA256 {
		return sha256.New()
	}
	return sha1.New()
}

// ParseFormat parses the value of extensions.objectFormat; the empty
// string is SHA-1, git's default.
func ParseFormat(s string) (Format, bool) {
	switch strings.ToLower(s) {
	case "", "sha1":
		return SHA1, true
	case "sha256":
		return SHA256, true
	}
	return SHA1, false
}

// Errors of Parse. Whatever the error, the caller takes the path as
// tracked.
var (
	// ErrTooLarge is returned for an index larger than MaxSize or with
	// more than MaxEntries entries.
	ErrTooLarge = errors.New("index too large")
	// ErrChecksum is returned when the trailing checksum does not match.
	ErrChecksum = errors.New("index checksum mismatch")
)

// Index is the set of paths an index holds.
type Index struct {
	// Version is the index format version: 2, 3 or 4.
	Version uint32
	// Entries are the paths in the order of the file (git's order),
	// slash-separated and relative to the work tree, a path once per
	// stage it has (a conflict lists it up to three times). A sparse
	// index holds directories as entries ending in "/".
	Entries []string
	// Split reports that the index is split (the "link" extension): the
	// entries of the shared index are not in Entries, so a path missing
	// from them may still be tracked.
	Split bool

	// inos holds the inode number git recorded for each entry (the low
	// 32 bits, as git stores it), to recognise a hard link to a tracked
	// file under another name.
	inos []uint32
}

// Has reports whether the index holds path (slash-separated, relative to
// the work tree), as a file or under a sparse directory entry. A split
// index holds every path, since the shared part is not read.
func (ix *Index) Has(path string) bool {
	if ix.Split {
		return true
	}
	// Entries are sorted by git (bytewise on the path); search rather
	// than trust it, and fall back to a scan if the order is broken.
	i := sort.SearchStrings(ix.Entries, path)
	if i < len(ix.Entries) && ix.Entries[i] == path {
		return true
	}
	for _, e := range ix.Entries {
		if e == path || strings.HasSuffix(e, "/") && strings.HasPrefix(path, e) {
			return true
		}
	}
	return false
}

// ParseError is a malformed index: Off is the byte offset of the problem.
type ParseError struct {
	Off int
	Msg string
}

func (e *ParseError) Error() string { return fmt.Sprintf("index:%d: %s", e.Off, e.Msg) }

func errAt(off int, format string, args ...any) error {
	return &ParseError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// Entry flags (see gitformat-index(5)).
const (
	flagExtended = 0x4000
	nameMask     = 0x0fff
	// entryFixed is the size of the fixed fields before the object name:
	// ctime, mtime, dev, ino, mode, uid, gid, size.
	entryFixed = 40
)

// Parse reads an index file written for a repository of object format f.
// It returns [ErrTooLarge], [ErrChecksum] or a [*ParseError]. A checksum
// of all zeros is accepted, as git does: index.skipHash writes one.
func Parse(data []byte, f Format) (*Index, error) {
	if len(data) > MaxSize {
		return nil, ErrTooLarge
	}
	hs := f.size()
	if len(data) < 12+hs {
		return nil, errAt(0, "shorter than a header and a checksum")
	}
	if string(data[:4]) != "DIRC" {
		return nil, errAt(0, "no DIRC signature")
	}
	body, sum := data[:len(data)-hs], data[len(data)-hs:]
	if !allZero(sum) {
		h := f.new()
		h.Write(body)
		if !bytes.Equal(h.Sum(nil), sum) {
			return nil, ErrChecksum
		}
	}
	ix := &Index{Version: binary.BigEndian.Uint32(data[4:8])}
	if ix.Version < 2 || ix.Version > 4 {
		return nil, errAt(4, "unknown version %d", ix.Version)
	}
	n := binary.BigEndian.Uint32(data[8:12])
	if n > MaxEntries {
		return nil, ErrTooLarge
	}
	// Every entry takes at least entryFixed+hs+2+1 bytes (v4: +1 for
	// the prefix length): reject a count the body cannot hold before
	// allocating for it.
	if uint64(n)*uint64(entryFixed+hs+3) > uint64(len(body)-12) {
		return nil, errAt(8, "%d entries do not fit in %d bytes", n, len(body)-12)
	}
	ix.Entries = make([]string, 0, n)
	ix.inos = make([]uint32, 0, n)
	off := 12
	prev := ""
	for i := uint32(0); i < n; i++ {
		start := off
		if len(body)-off < entryFixed+hs+2 {
			return nil, errAt(off, "entry %d truncated", i)
		}
		ino := binary.BigEndian.Uint32(body[off+20:])
		off += entryFixed + hs
		flags := binary.BigEndian.Uint16(body[off:])
		off += 2
		if flags&flagExtended != 0 {
			if ix.Version < 3 {
				return nil, errAt(off-2, "extended flag in a version %d index", ix.Version)
			}
			if len(body)-off < 2 {
				return nil, errAt(off, "entry %d truncated", i)
			}
			off += 2
		}
		var name string
		if ix.Version == 4 {
			strip, w := varint(body[off:])
			if w <= 0 {
				return nil, errAt(off, "entry %d: bad prefix length", i)
			}
			off += w
			if strip > uint64(len(prev)) {
				return nil, errAt(off, "entry %d strips %d bytes of a %d-byte path", i, strip, len(prev))
			}
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return nil, errAt(off, "entry %d: path not terminated", i)
			}
			name = prev[:len(prev)-int(strip)] + string(body[off:off+end])
			off += end + 1
		} else {
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return nil, errAt(off, "entry %d: path not terminated", i)
			}
			name = string(body[off : off+end])
			if l := int(flags & nameMask); l != nameMask && l != end {
				return nil, errAt(off, "entry %d: path length %d, flags say %d", i, end, l)
			}
			// 1 to 8 NULs pad the entry to a multiple of 8 bytes.
			off = start + (off+end-start+8)&^7
			if off > len(body) {
				return nil, errAt(start, "entry %d: padding runs past the end", i)
			}
		}
		// A split index stores the entries that replace ones of the
		// shared index with an empty path; they add no path.
		if name != "" {
			ix.Entries = append(ix.Entries, name)
			ix.inos = append(ix.inos, ino)
		}
		prev = name
	}
	// Extensions: a signature, a size and the data, up to the checksum.
	for off < len(body) {
		if len(body)-off < 8 {
			return nil, errAt(off, "extension header truncated")
		}
		sig := string(body[off : off+4])
		size := binary.BigEndian.Uint32(body[off+4:])
		off += 8
		if uint64(size) > uint64(len(body)-off) {
			return nil, errAt(off, "extension %q runs past the end", sig)
		}
		switch {
		case sig == "link":
			ix.Split = true
		case sig == "sdir", sig[0] >= 'A' && sig[0] <= 'Z':
			// Optional (upper case), or the sparse-index marker: the
			// directory entries it announces are read as entries.
		default:
			// git refuses an index with a required extension it does
			// not know; so does this package.
			return nil, errAt(off-8, "unknown required extension %q", sig)
		}
		off += int(size)
	}
	return ix, nil
}

// varint decodes git's offset varint (the one of v4 path prefixes and
// ofs-delta): 7 bits a byte, most significant first, each continuation
// adding one. It returns the value and the bytes read, or w <= 0.
func varint(b []byte) (v uint64, w int) {
	for i, c := range b {
		if i > 0 {
			if v >= 1<<56 {
				return 0, -1 // would overflow
			}
			v = (v + 1) << 7
		}
		v |= uint64(c & 0x7f)
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
