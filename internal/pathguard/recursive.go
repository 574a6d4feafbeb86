// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxWalk bounds the entries [SensitiveUnder] visits under one directory,
// the directory itself included.
const MaxWalk = 20000

var errTooMany = errors.New("too many entries")

// SensitiveUnder walks dir, which a tool or a command reads recursively
// (grep -r, a Grep call, tar, cp -r), and returns in walk order the paths
// the floor must judge for that read to be judged whole:
//
//   - every entry whose name is in the sensitive set ([SensitiveIn] with
//     home), dir included; a directory so named is not entered;
//   - every regular file with more than one link ([MultiplyLinked]): it
//     may be a hard link to a secret, which only its device and inode
//     tell, so the caller must resolve it; a file with a single link is
//     what its name says;
//   - when dirs is set, every other directory, dir included: it may be a
//     bind mount of a secret directory, which again only resolution
//     tells.
//
// It returns nil when dir is not a directory. Symbolic links below dir
// are not followed, as grep -r and ripgrep do not follow them; a link
// whose own name is sensitive is returned by that name. Nor is dir
// followed when it is a link, though both tools follow a link named on
// their command line: give a resolved dir. An entry that cannot be read
// is passed over: the recursive read cannot reach it either.
//
// A tree of more than [MaxWalk] entries is not walked to the end: the
// walk stops, and the last path returned is dir followed by
// "\x00(holds more than 20000 entries to check for secrets)". No file
// name holds a NUL byte, and no resolution accepts one, so the read is
// denied rather than judged on a guess.
func SensitiveUnder(dir, home string, dirs bool) []string {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil
	}
	var out []string
	n := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable here means unreadable for the reader too
		}
		if n++; n > MaxWalk {
			return errTooMany
		}
		if _, ok := SensitiveIn(p, home); ok {
			out = append(out, p)
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			if dirs {
				out = append(out, p)
			}
		case d.Type().IsRegular():
			if fi, err := d.Info(); err == nil && MultiplyLinked(fi) {
				out = append(out, p)
			}
		}
		return nil
	})
	if err != nil {
		out = append(out, fmt.Sprintf("%s\x00(holds more than %d entries to check for secrets)", dir, MaxWalk))
	}
	return out
}
