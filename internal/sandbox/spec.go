// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"fmt"
	"io"
	"time"
)

// InitArg is the hidden first argument with which the warden binary is
// re-executed as the sandbox init. A main function that sees it must call
// [Init] before doing anything else.
const InitArg = "__warden-init"

// Mode is the sandbox mode: how much of the filesystem the command may
// change.
type Mode string

// Sandbox modes (DESIGN.md §7). full-access is not a sandbox and is not
// accepted by [Run].
const (
	// ReadOnly leaves nothing writable but the private /tmp and /dev/shm.
	ReadOnly Mode = "read-only"
	// WorkspaceWrite also makes the project directory writable.
	WorkspaceWrite Mode = "workspace-write"
)

// Spec describes one sandboxed run. It is data: [Run] does not change it.
type Spec struct {
	// Argv is the command and its arguments; Argv[0] is looked up in the
	// sandbox's PATH.
	Argv []string
	// Project is the absolute path of the project directory, the command's
	// working directory and, in WorkspaceWrite mode, its only writable
	// host directory.
	Project string
	// Mode is ReadOnly or WorkspaceWrite; the zero value means ReadOnly.
	Mode Mode
	// Home is the caller's home directory, whose sensitive entries are
	// masked and which becomes HOME inside. Empty means no home.
	Home string
	// Env holds extra environment variables ("NAME=value") passed to the
	// command on top of the clean base (PATH, HOME, LANG, TERM, USER).
	Env []string
	// Hide lists more absolute paths to mask, on top of the sensitive set.
	// Paths that do not exist are ignored.
	Hide []string
	// Timeout is the wall-clock limit; zero means none.
	Timeout time.Duration
	// Stdin, Stdout and Stderr are the command's streams; nil means the
	// caller's own. *os.File values are passed through unbuffered.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Result is what a run produced.
type Result struct {
	// ExitCode is the command's exit status, or -1 when it was killed by
	// a signal.
	ExitCode int
	// Signal is the signal that killed the command, or 0.
	Signal int
	// TimedOut reports that the timeout killed the sandbox.
	TimedOut bool
	// Duration is the wall-clock time from start to end.
	Duration time.Duration
}

// Status is the exit status a shell would report: the exit code, or
// 128+signal when the command was killed.
func (r Result) Status() int {
	if r.Signal != 0 {
		return 128 + r.Signal
	}
	return r.ExitCode
}

// SetupError reports that the sandbox could not be built, so the command
// did not run.
type SetupError struct {
	// What failed, e.g. "mount /proc: operation not permitted".
	What string
	// Hint says how to fix it.
	Hint string
}

func (e *SetupError) Error() string {
	if e.Hint == "" {
		return "sandbox unavailable: " + e.What
	}
	return fmt.Sprintf("sandbox unavailable: %s (%s)", e.What, e.Hint)
}

// StartError reports that the sandbox was built but the command could not
// be started (for example, it was not found), as a shell's 126 or 127.
type StartError struct {
	Msg    string
	Status int
}

func (e *StartError) Error() string { return e.Msg }
