// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package callerid

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// TOFU is OpenShell's trust on first use of a binary: the first time a
// run sees an executable path behind a connection (the caller's or an
// ancestor's), the SHA-256 of the file the process runs is kept; a later
// process running a different content under that path is not that
// binary. The content is read through /proc/PID/exe, the file the
// process runs, whatever the path names now. A file already hashed (the
// same device, inode, size and change time) is not read again.
type TOFU struct {
	mu    sync.Mutex
	first map[string][sha256.Size]byte
	known map[fileKey][sha256.Size]byte
}

type fileKey struct {
	dev, ino uint64
	size     int64
	ctime    unix.Timespec
}

// Check says why the executable file (a /proc/PID/exe), named exe, is
// not the binary first seen under that name in this run, or "" when it
// is (or is the first). A TOFU is safe for concurrent use.
func (t *TOFU) Check(file, exe string) string {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Sprintf("%s cannot be read to check it is the binary first seen as %s: %v", file, exe, err)
	}
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fmt.Sprintf("%s: %v", file, err)
	}
	key := fileKey{dev: st.Dev, ino: st.Ino, size: st.Size, ctime: st.Ctim}
	t.mu.Lock()
	sum, ok := t.known[key]
	t.mu.Unlock()
	if !ok {
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return fmt.Sprintf("%s: %v", file, err)
		}
		copy(sum[:], h.Sum(nil))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.first == nil {
		t.first, t.known = map[string][sha256.Size]byte{}, map[fileKey][sha256.Size]byte{}
	}
	t.known[key] = sum
	was, seen := t.first[exe]
	if !seen {
		t.first[exe] = sum
		return ""
	}
	if was != sum {
		return fmt.Sprintf("%s is not the binary first seen under that path in this run (its SHA-256 changed): a binary replaced mid-run matches no rule", exe)
	}
	return ""
}
