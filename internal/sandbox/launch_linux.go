// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// launched is init as the parent started it, with syscall.ForkExec rather
// than os/exec: the first os.StartProcess of a process probes pidfd
// support with a fork of its own, which costs a run a fork it does not
// need (the parent reaps init with wait4).
type launched struct {
	pid    int
	copies sync.WaitGroup // the output copies, which end at EOF
	mu     sync.Mutex     // guards the field below
	exited bool
}

// launch starts argv0 with attr, stdin passed as is when it is a file
// (else copied through a pipe), stdout and stderr copied from pipes to the
// writers, and extra as descriptor 3.
func launch(argv []string, attr *syscall.SysProcAttr, stdin io.Reader, stdout, stderr io.Writer, extra *os.File) (*launched, error) {
	var childEnds, parentReads []*os.File
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			f.Close()
		}
	}
	var in *os.File
	var feed *os.File // the write end of the stdin pipe, when there is one
	switch r := stdin.(type) {
	case *os.File:
		in = r
	case nil:
		in = os.Stdin
	default:
		pr, pw, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		in, feed = pr, pw
		childEnds = append(childEnds, pr)
	}
	outs := make([]*os.File, 2)
	for i := range outs {
		pr, pw, err := os.Pipe()
		if err != nil {
			closeAll(childEnds)
			closeAll(parentReads)
			if feed != nil {
				feed.Close()
			}
			return nil, err
		}
		outs[i] = pw
		childEnds = append(childEnds, pw)
		parentReads = append(parentReads, pr)
	}
	pid, err := syscall.ForkExec("/proc/self/exe", argv, &syscall.ProcAttr{
		// Init gets the command's environment from its configuration.
		// Its own is empty, but for a race-detector build (tests), whose
		// runtime would wait a second at every exit.
		Env:   []string{"GORACE=atexit_sleep_ms=0"},
		Files: []uintptr{in.Fd(), outs[0].Fd(), outs[1].Fd(), extra.Fd()},
		Sys:   attr,
	})
	closeAll(childEnds)
	if err != nil {
		closeAll(parentReads)
		if feed != nil {
			feed.Close()
		}
		return nil, err
	}
	l := &launched{pid: pid}
	if feed != nil {
		// Not waited for: a reader may never end. Its write fails once
		// init and everything in the sandbox is gone.
		go func() {
			io.Copy(feed, stdin)
			feed.Close()
		}()
	}
	for i, w := range []io.Writer{stdout, stderr} {
		l.copies.Add(1)
		go func(r *os.File, w io.Writer) {
			defer l.copies.Done()
			io.Copy(w, r)
			r.Close()
		}(parentReads[i], w)
	}
	return l, nil
}

// kill sends SIGKILL to init, unless it was reaped (its pid may be
// someone else's by then). Killing init kills its whole pid namespace.
func (l *launched) kill() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.exited {
		syscall.Kill(l.pid, syscall.SIGKILL)
	}
}

// wait reaps init, then waits for the output copies, which end once
// every process of the sandbox is gone.
func (l *launched) wait() (syscall.WaitStatus, syscall.Rusage, error) {
	// Wait for the exit without reaping, so that a kill racing with it
	// still names init (a zombie's pid is not reused), then reap.
	for {
		var info unix.Siginfo
		if err := unix.Waitid(unix.P_PID, l.pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != unix.EINTR {
			break
		}
	}
	l.mu.Lock()
	l.exited = true
	l.mu.Unlock()
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	var err error
	for {
		_, err = syscall.Wait4(l.pid, &ws, 0, &ru)
		if err != syscall.EINTR {
			break
		}
	}
	l.copies.Wait()
	return ws, ru, err
}

// signal sends sig to init, unless it was reaped.
func (l *launched) signal(sig syscall.Signal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.exited {
		syscall.Kill(l.pid, sig)
	}
}
