// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// What the sandbox refused in a run, and the change to the Spec that
// lifts each refusal: the list an approval policy offers a person (warden
// run's on-failure). Only what the run demonstrably hit is offered:
// refused system calls, limits reached, and writes refused on read-only
// paths, read from the command's own error messages (the only place they
// show); a masked path is never offered, since no writable path lifts a
// mask.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unicode"

	"warden.dev/warden/internal/audit"
)

// Block is one thing the sandbox demonstrably stopped in a run, and the
// change to the Spec that would lift it: what an approval policy such as
// on-failure offers a person to allow once.
type Block struct {
	// What is shown to the person; values the command chose are quoted.
	What string
	// Allow says what the rerun allows, for the record.
	Allow string
	// Apply changes a copy of the run's Spec to allow it.
	Apply func(*Spec)
}

// Blocks lists what the sandbox demonstrably stopped in res: refused
// system calls, limits reached, and writes refused on read-only paths (read
// from the command's own error messages, the only place they show).
func Blocks(spec Spec, res Result) []Block {
	var bs []Block
	for _, c := range res.BlockedSyscalls {
		name := c.Syscall
		bs = append(bs, Block{
			// The command's name is the command's to choose: quoted.
			What:  fmt.Sprintf("the %s system call (%d times, first by %q)", name, c.Count, c.Command),
			Allow: "the " + name + " system call",
			Apply: func(s *Spec) { s.AllowSyscalls = append(s.AllowSyscalls, name) },
		})
	}
	if res.OOMKilled && res.Limits.Memory > 0 {
		m := res.Limits.Memory
		bs = append(bs, Block{What: fmt.Sprintf("the memory limit (%d MiB)", m>>20), Allow: fmt.Sprintf("memory %d MiB", 2*m>>20),
			Apply: func(s *Spec) { s.Limits.Memory = 2 * m }})
	}
	if res.PidsLimitHit && res.Limits.Pids > 0 {
		p := res.Limits.Pids
		bs = append(bs, Block{What: fmt.Sprintf("the process limit (%d)", p), Allow: fmt.Sprintf("pids %d", 2*p),
			Apply: func(s *Spec) { s.Limits.Pids = 2 * p }})
	}
	if res.Signal == int(syscall.SIGXFSZ) && res.Limits.Fsize > 0 {
		f := res.Limits.Fsize
		bs = append(bs, Block{What: fmt.Sprintf("the file size limit (%d MiB)", f>>20), Allow: fmt.Sprintf("fsize %d MiB", 2*f>>20),
			Apply: func(s *Spec) { s.Limits.Fsize = 2 * f }})
	}
	if res.TimedOut && spec.Timeout > 0 {
		d := spec.Timeout
		bs = append(bs, Block{What: fmt.Sprintf("the timeout (%v)", d), Allow: fmt.Sprintf("a timeout of %v", 2*d),
			Apply: func(s *Spec) { s.Timeout = 2 * d }})
	}
	for _, dir := range readOnlyWrites(spec, res.Stderr.String(), res.Refused) {
		d := dir
		bs = append(bs, Block{What: fmt.Sprintf("writing %q (read-only in the sandbox)", d), Allow: d + " writable",
			Apply: func(s *Spec) { s.ReadWrite = append(s.ReadWrite, d) }})
	}
	return bs
}

// roMessage finds a path in the ways tools report EROFS: "cannot create
// 'x': Read-only file system", "x: Read-only file system", Python's
// "[Errno 30] Read-only file system: 'x'".
var roMessage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:[‘'"]?([^\s‘’'":]+)[’'"]?: Read-only file system)|(?:Read-only file system: [‘'"]([^‘’'"\n]+)[’'"])`)
})

// maxWriteBlocks bounds the paths offered after one run.
const maxWriteBlocks = 3

// readOnlyWrites returns the directories whose read-only mount refused a
// write the command reported, the ones it would take to allow it: the
// path itself when it is a protected path or a directory, else the
// nearest directory that exists. A masked path is not offered: no
// writable path lifts a mask.
func readOnlyWrites(spec Spec, stderr string, refused []audit.Refusal) []string {
	var out []string
	for _, m := range roMessage().FindAllStringSubmatch(stderr, -1) {
		p := m[1]
		if p == "" {
			p = m[2]
		}
		if strings.IndexFunc(p, unicode.IsControl) >= 0 {
			continue // not a path a person should be shown as one
		}
		if !filepath.IsAbs(p) {
			// Relative to the command's working directory.
			wd := spec.Dir
			if wd == "" {
				wd = spec.Project
			}
			p = filepath.Join(wd, p)
		}
		p = filepath.Clean(p)
		if maskedRefusal(refused, p) {
			continue
		}
		dir := p
		if !IsProtected(spec.Project, p) {
			for {
				if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
					break
				}
				parent := filepath.Dir(dir)
				if parent == dir {
					break
				}
				dir = parent
			}
		}
		if dir == "/" || slices.Contains(out, dir) {
			continue
		}
		out = append(out, dir)
		if len(out) == maxWriteBlocks {
			break
		}
	}
	return out
}

// maskedRefusal reports whether p is a masked path of rs or below one.
func maskedRefusal(rs []audit.Refusal, p string) bool {
	for _, r := range rs {
		if r.Kind == audit.RefusedMasked && (p == r.Path || strings.HasPrefix(p, r.Path+"/")) {
			return true
		}
	}
	return false
}
