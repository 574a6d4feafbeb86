// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// launched is init as the parent started it, with syscall.ForkExec rather
// than os/exec: the first os.StartProcess of a process probes pidfd
// support with a fork of its own, which costs a run a fork it does not
// need (the parent reaps init with wait4). Or init as warden serve
// started it ahead of time and handed it over (warm_linux.go): then
// serve reaps it and sends its status on serve.
type launched struct {
	pid    int
	copies sync.WaitGroup // the output copies, which end at EOF
	mu     sync.Mutex     // guards the field below
	exited bool

	// warm: init was taken from warden serve; then pidfd is for its
	// signals, and serve the connection on which serve sends its status
	// (-1 otherwise, and once waited for).
	warm         bool
	pidfd, serve int

	// gone is closed once init has ended, after ended; nil before.
	gone chan struct{}
}

// ended is wait for an init that reported the command's end (Done),
// having killed and reaped every other process of the sandbox: it waits
// for the output copies only, which init no longer holds, and reaps init
// (or, taken from warden serve, waits for its end through its pidfd) in
// the background, closing gone once it has.
func (l *launched) ended() {
	l.copies.Wait()
	l.gone = make(chan struct{})
	go func() {
		defer close(l.gone)
		l.wait(false)
	}()
}

// awaitGone waits for init's end once ended was called; at once
// otherwise (wait reaped it, or it never started).
func (l *launched) awaitGone() {
	if l.gone != nil {
		<-l.gone
	}
}

// streams are init's standard streams as the parent made them: the
// child's ends, and what starts the copies to and from the caller.
type streams struct {
	child       [3]*os.File // stdin, stdout, stderr, init's ends
	feed        *os.File    // the write end of the stdin pipe, if any
	stdin       io.Reader
	parentReads [2]*os.File
	stdout      io.Writer
	stderr      io.Writer
}

// newStreams makes init's streams: stdin passed as is when it is a file
// (else copied through a pipe), stdout and stderr copied from pipes to
// the writers.
func newStreams(stdin io.Reader, stdout, stderr io.Writer) (*streams, error) {
	s := &streams{stdin: stdin, stdout: stdout, stderr: stderr}
	switch r := stdin.(type) {
	case *os.File:
		s.child[0] = r
	case nil:
		s.child[0] = os.Stdin
	default:
		pr, pw, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		s.child[0], s.feed = pr, pw
	}
	for i := range 2 {
		pr, pw, err := os.Pipe()
		if err != nil {
			s.abort()
			return nil, err
		}
		s.child[i+1], s.parentReads[i] = pw, pr
	}
	return s, nil
}

// closeChild closes the child's ends the parent made (not the caller's
// stdin).
func (s *streams) closeChild() {
	if s.feed != nil {
		s.child[0].Close()
	}
	for _, f := range s.child[1:] {
		if f != nil {
			f.Close()
		}
	}
}

// abort closes everything: init was not started.
func (s *streams) abort() {
	s.closeChild()
	for _, f := range s.parentReads {
		if f != nil {
			f.Close()
		}
	}
	if s.feed != nil {
		s.feed.Close()
	}
}

// begin starts the copies for l, once init holds its ends.
func (s *streams) begin(l *launched) {
	s.closeChild()
	if s.feed != nil {
		// Not waited for: a reader may never end. Its write fails once
		// init and everything in the sandbox is gone.
		go func() {
			io.Copy(s.feed, s.stdin)
			s.feed.Close()
		}()
	}
	for i, w := range []io.Writer{s.stdout, s.stderr} {
		l.copies.Add(1)
		go func(r *os.File, w io.Writer) {
			defer l.copies.Done()
			io.Copy(w, r)
			r.Close()
		}(s.parentReads[i], w)
	}
}

// launch starts argv0 with attr, its streams as newStreams makes them,
// and extra as descriptor 3.
func launch(argv []string, attr *syscall.SysProcAttr, stdin io.Reader, stdout, stderr io.Writer, extra *os.File) (*launched, error) {
	s, err := newStreams(stdin, stdout, stderr)
	if err != nil {
		return nil, err
	}
	pid, err := syscall.ForkExec("/proc/self/exe", argv, &syscall.ProcAttr{
		// Init gets the command's environment from its configuration.
		// Its own is empty, but for a race-detector build (tests), whose
		// runtime would wait a second at every exit.
		Env:   []string{"GORACE=atexit_sleep_ms=0"},
		Files: []uintptr{s.child[0].Fd(), s.child[1].Fd(), s.child[2].Fd(), extra.Fd()},
		Sys:   attr,
	})
	if err != nil {
		s.abort()
		return nil, err
	}
	l := &launched{pid: pid, pidfd: -1, serve: -1}
	s.begin(l)
	return l, nil
}

// kill sends SIGKILL to init, unless it was reaped (its pid may be
// someone else's by then). Killing init kills its whole pid namespace.
func (l *launched) kill() { l.signal(syscall.SIGKILL) }

// wait reaps init, then waits for the output copies, which end once
// every process of the sandbox is gone. For an init taken from warden
// serve, it waits for init's end through its pidfd, which the kernel
// marks once every process of init's pid namespace is gone too; the
// status comes from serve only when needStatus says init's own report
// does not tell (waitServe).
func (l *launched) wait(needStatus bool) (syscall.WaitStatus, syscall.Rusage, error) {
	if l.warm {
		return l.waitServe(needStatus)
	}
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

// waitServe waits for warden serve to send the status of the init it
// handed over, once it reaped it.
func (l *launched) waitServe(needStatus bool) (syscall.WaitStatus, syscall.Rusage, error) {
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	var err error
	for {
		_, err = unix.Poll([]unix.PollFd{{Fd: int32(l.pidfd), Events: unix.POLLIN}}, -1)
		if err != unix.EINTR {
			break
		}
	}
	var st warmStatus
	if err == nil && needStatus {
		buf := make([]byte, 512)
		var n int
		for {
			n, err = unix.Read(l.serve, buf)
			if err != unix.EINTR {
				break
			}
		}
		switch {
		case err != nil:
		case n == 0:
			err = errors.New("warden serve ended before the sandbox did")
		default:
			err = json.Unmarshal(buf[:n], &st)
		}
	}
	l.mu.Lock()
	l.exited = true
	unix.Close(l.pidfd)
	unix.Close(l.serve)
	l.pidfd, l.serve = -1, -1
	l.mu.Unlock()
	l.copies.Wait()
	if err != nil {
		return ws, ru, err
	}
	ws = syscall.WaitStatus(st.Status)
	ru.Utime = syscall.NsecToTimeval(st.UserNs)
	ru.Stime = syscall.NsecToTimeval(st.SysNs)
	return ws, ru, nil
}

// signal sends sig to init, unless it was reaped.
func (l *launched) signal(sig syscall.Signal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.exited:
	case l.pidfd >= 0:
		unix.PidfdSendSignal(l.pidfd, sig, nil, 0)
	default:
		syscall.Kill(l.pid, sig)
	}
}
