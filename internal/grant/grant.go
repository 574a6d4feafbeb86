// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package grant hands a hook's decision on one shell command to the
// warden run that the hook rewrote the command into (--wrap), so that the
// run does not judge it a second time — and refuse, for want of an
// approver, what the policy allowed or a person approved in the agent's
// own prompt.
//
// The rules:
//
//   - A grant is a file in a directory of Warden's state ([Issue]),
//     which every run masks and the engine's floor keeps from every agent
//     tool: the agent can name a grant, never write one.
//   - It is bound ([Binding]) to the exact argv warden run receives, the
//     directory it is started in, the project and the policy's revisions
//     (the file's and the managed tier's), and it expires ([TTL]).
//   - It is single-use: [Redeem] claims it by renaming it within the
//     directory, which only one redeemer can do, before it is read; it is
//     removed whatever it holds.
//   - Nothing about it runs anything. A grant that is missing, used,
//     expired, planted as a link, not the caller's, unreadable or bound to
//     something else is an error, and the caller judges the command in
//     full: a replayed line, a forged id or a command changed after the
//     hook decided get no more than a line the agent wrote itself.
package grant

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// TTL is how long a grant lasts. The agent runs a command right after its
// hook answers, unless it asks the person first (the hook's prompt, in
// the agent's own words): the grant waits for the answer that long, and
// no longer.
const TTL = 10 * time.Minute

// maxSize bounds a grant file.
const maxSize = 16 << 10

// Errors of [Redeem]. Each means the same to the caller — judge the
// command in full — and says why in the run's note.
var (
	ErrInvalidID = errors.New("not a grant id")
	ErrNotFound  = errors.New("no such grant (never issued, or already used)")
	ErrExpired   = errors.New("the grant has expired")
	ErrMismatch  = errors.New("the grant is for another command, directory, project or policy")
	ErrUnsafe    = errors.New("the grant is not a private file of this user")
)

// Binding is what a grant is good for: one command, started in one
// directory, in one project, under one policy. Every path is absolute
// and resolved (no links), as both sides find it.
type Binding struct {
	// Argv is the exact argv warden run receives after "--".
	Argv []string
	// Dir is the directory warden run is started in.
	Dir string
	// Project is the run's project.
	Project string
	// Policy names the policy's revisions: the file's and the managed
	// tier's.
	Policy string
}

// Sum is the SHA-256 of the binding, each field length-prefixed so that
// no two bindings share one.
func (b Binding) Sum() string {
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field("warden grant v1")
	field(fmt.Sprint(len(b.Argv)))
	for _, a := range b.Argv {
		field(a)
	}
	field(b.Dir)
	field(b.Project)
	field(b.Policy)
	return hex.EncodeToString(h.Sum(nil))
}

// Decision is the hook's decision that a grant carries to the run's
// record.
type Decision struct {
	Verdict string `json:"verdict"`
	Rule    string `json:"rule,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Answered is the verdict the agent was given ("prompt": the person
	// was asked in the agent's own prompt).
	Answered string `json:"answered,omitempty"`
}

// file is a grant's content.
type file struct {
	Version  int       `json:"v"`
	Binding  string    `json:"binding"`
	Expires  time.Time `json:"expires"`
	Decision Decision  `json:"decision"`
}

// ValidID reports whether id is of the form [Issue] gives: 32 lower-case
// hexadecimal digits. Nothing else is looked up, so no id names a path.
func ValidID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Issue writes a grant for b, carrying d, into dir (made 0700 when
// missing), valid until now+[TTL], and returns its id. Grants left
// unused past their expiry are swept.
func Issue(dir string, b Binding, d Decision, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	dfd, err := openDir(dir)
	if err != nil {
		return "", err
	}
	defer unix.Close(dfd)
	sweep(dfd, now)
	id := randomHex()
	data, err := json.Marshal(file{Version: 1, Binding: b.Sum(), Expires: now.Add(TTL).UTC(), Decision: d})
	if err != nil {
		return "", err
	}
	// Written beside, then renamed to its name: a redeemer never reads
	// half a grant.
	tmp := ".tmp-" + id
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return "", fmt.Errorf("writing a grant: %w", err)
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = unix.Renameat(dfd, tmp, dfd, id)
	}
	if werr != nil {
		unix.Unlinkat(dfd, tmp, 0)
		return "", fmt.Errorf("writing a grant: %w", werr)
	}
	return id, nil
}

// Redeem claims grant id in dir, removes it, and returns the decision it
// carries when it is bound to b and unexpired at now. Its errors are
// [ErrInvalidID], [ErrNotFound], [ErrExpired], [ErrMismatch], [ErrUnsafe]
// or the directory's; whatever the error, the grant is used up.
func Redeem(dir, id string, b Binding, now time.Time) (Decision, error) {
	if !ValidID(id) {
		return Decision{}, ErrInvalidID
	}
	dfd, err := openDir(dir)
	if errors.Is(err, unix.ENOENT) {
		return Decision{}, ErrNotFound
	}
	if err != nil {
		return Decision{}, err
	}
	defer unix.Close(dfd)
	// The claim: of two redeemers, one renames the name away and the
	// other finds none. It renames what is there, a link as a link.
	claim := ".claimed-" + id + "-" + randomHex()
	if err := unix.Renameat(dfd, id, dfd, claim); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return Decision{}, ErrNotFound
		}
		return Decision{}, fmt.Errorf("claiming the grant: %w", err)
	}
	defer unix.Unlinkat(dfd, claim, 0)
	fd, err := unix.Openat(dfd, claim, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		// ELOOP: a link planted in the grant's place.
		return Decision{}, ErrUnsafe
	}
	f := os.NewFile(uintptr(fd), claim)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return Decision{}, err
	}
	if uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Geteuid() ||
		uint32(st.Mode)&0o077 != 0 || uint64(st.Nlink) != 1 || st.Size > maxSize {
		return Decision{}, ErrUnsafe
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil || len(data) > maxSize {
		return Decision{}, ErrUnsafe
	}
	var g file
	if err := json.Unmarshal(data, &g); err != nil || g.Version != 1 {
		return Decision{}, ErrUnsafe
	}
	if !now.Before(g.Expires) || g.Expires.Sub(now) > TTL {
		return Decision{}, ErrExpired
	}
	if subtle.ConstantTimeCompare([]byte(g.Binding), []byte(b.Sum())) != 1 {
		return Decision{}, ErrMismatch
	}
	return g.Decision, nil
}

// openDir opens dir, not through a link at its last component, and
// checks that it is a directory of this user that nobody else may write:
// a grant found anywhere else could have been put there by someone else.
func openDir(dir string) (int, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("the grants directory %s: %w", dir, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("the grants directory %s: %w", dir, err)
	}
	if int(st.Uid) != os.Geteuid() || uint32(st.Mode)&0o022 != 0 {
		unix.Close(fd)
		return -1, fmt.Errorf("the grants directory %s: %w", dir, ErrUnsafe)
	}
	return fd, nil
}

// sweep removes, from a bounded number of entries, grants (and claims
// and temporary files left by a crash) older than twice [TTL].
func sweep(dfd int, now time.Time) {
	d, err := unix.Dup(dfd)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(d), "grants")
	defer f.Close()
	names, _ := f.Readdirnames(1000)
	cutoff := now.Add(-2 * TTL).Unix()
	for _, name := range names {
		if !ValidID(name) && !strings.HasPrefix(name, ".tmp-") && !strings.HasPrefix(name, ".claimed-") {
			continue
		}
		var st unix.Stat_t
		if unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mtim.Sec < cutoff {
			unix.Unlinkat(dfd, name, 0)
		}
	}
}

func randomHex() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
