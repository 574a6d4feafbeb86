// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// The command's own terminal ([Spec.Terminal]). The rules:
//
//   - The caller's terminal never enters the sandbox, with or without
//     Spec.Terminal: init's stdin is /dev/null in its place, and the
//     command's terminal is a pseudo-terminal of a devpts instance of the
//     sandbox's own (newinstance), which the host's /dev/pts does not
//     show and which shows none of the host's terminals. An ioctl of the
//     command (TIOCSETD, TIOCEXCL, TIOCSWINSZ, tcsetattr) changes that
//     terminal only.
//   - Init makes the pair below the new root, before the command exists:
//     the command gets the slave as its controlling terminal, in a
//     session of its own, so that the line discipline sends ^C, ^\ and
//     ^Z to its foreground process group and job control works; the
//     master goes to the parent over the control socket, and init keeps
//     no copy of it.
//   - The parent reads the caller's terminal state, then puts it in raw
//     mode, before init starts, and sets that state back, exactly as it
//     read it, however Run returns (the command's end, a setup error,
//     the timeout, a signal warden handles, a panic of Run or of a
//     relay). It relays what is typed to the master, and what the master
//     shows to the caller's stream, captured as that stream's output.
//   - The command's terminal starts with the caller's modes and window
//     size; the window size follows the caller's on SIGWINCH.
//   - SIGINT and SIGQUIT that warden itself receives (kill, not the
//     keys: the caller's terminal is raw) go to the foreground process
//     group of the command's terminal (TIOCSIG), as the keys would send
//     them; the other forwarded signals go to the command through init.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// ptsMax bounds the pseudo-terminals of a run's devpts instance: the
// command's own and those that tools inside make (script, tmux, ssh -t).
// They come out of the host's pool (kernel.pty.max, less the
// kernel.pty.reserve kept for the host's own /dev/pts).
const ptsMax = 64

// terminalConfig is what init needs to make the command's terminal.
type terminalConfig struct {
	// Termios and Winsize are the caller's terminal's, read before raw
	// mode: the command's terminal starts the same.
	Termios unix.Termios `json:"termios"`
	Winsize unix.Winsize `json:"winsize"`
	// Stdout and Stderr: the caller's stream is a terminal, so the
	// command's is its terminal too rather than a pipe.
	Stdout bool `json:"stdout,omitempty"`
	Stderr bool `json:"stderr,omitempty"`
}

// isTerminalFile reports whether f is a terminal. It puts f in blocking
// mode (os.File.Fd).
func isTerminalFile(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// isTerminalWriter reports whether w is a file that is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && f != nil && isTerminalFile(f)
}

// initStdin is what init gets as its stdin, and the command as its own
// without a terminal: r as is, but never a terminal, which /dev/null
// replaces. The closer closes what was opened here.
func initStdin(r io.Reader) (io.Reader, func(), error) {
	f, ok := r.(*os.File)
	if r == nil {
		f, ok = os.Stdin, true
	}
	if !ok || f == nil || !isTerminalFile(f) {
		return r, func() {}, nil
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, nil, &SetupError{What: "open /dev/null for the command's stdin: " + err.Error()}
	}
	return null, func() { null.Close() }, nil
}

// callerTerminal is the caller's terminal during a run with Spec.Terminal.
type callerTerminal struct {
	file  *os.File     // the caller's terminal (Spec.Stdin)
	fd    int          // its descriptor
	saved unix.Termios // its state before the run, set back after
	cfg   terminalConfig

	closeOnce sync.Once

	// wakeR and wakeW are a pipe: closing wakeW stops the input relay.
	wakeR, wakeW int
	outDone      sync.WaitGroup // the output relay, which ends at EIO
	inDone       chan struct{}  // closed when the input relay ended

	mu       sync.Mutex // guards the fields below
	master   *os.File   // the command's terminal's master, once attached
	raw      bool       // the caller's terminal was made raw
	restored bool       // and set back: it is never made raw again
}

// newCallerTerminal reads the state of the caller's terminal in.
// stdout and stderr say which of the caller's streams are terminals.
func newCallerTerminal(in io.Reader, stdout, stderr bool) (*callerTerminal, error) {
	f, ok := in.(*os.File)
	if in == nil {
		f, ok = os.Stdin, true
	}
	if !ok || f == nil {
		return nil, &SetupError{What: "a terminal for the command: stdin is not a file", Hint: "set Spec.Terminal only when stdin is a terminal"}
	}
	fd := int(f.Fd())
	tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return nil, &SetupError{What: "a terminal for the command: stdin is not a terminal: " + err.Error(), Hint: "set Spec.Terminal only when stdin is a terminal"}
	}
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil {
		ws = &unix.Winsize{} // the kernel's default, 0x0
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, &SetupError{What: "pipe: " + err.Error()}
	}
	t := &callerTerminal{file: f, fd: fd, saved: *tio, wakeR: p[0], wakeW: p[1]}
	t.cfg = terminalConfig{Termios: *tio, Winsize: *ws, Stdout: stdout, Stderr: stderr}
	// The line discipline is not the caller's to pass on (TCSETS
	// ignores it anyway).
	t.cfg.Termios.Line = 0
	return t, nil
}

// makeRaw puts the caller's terminal in raw mode, as cfmakeraw(3) does:
// every byte typed goes to the command's terminal as it is typed, whose
// own line discipline echoes it and makes ^C a SIGINT; output is shown
// as the command's terminal processed it.
func (t *callerTerminal) makeRaw() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.restored {
		return nil
	}
	raw := t.saved
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Oflag &^= unix.OPOST
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := setTermios(t.fd, &raw); err != nil {
		return &SetupError{What: "put the terminal in raw mode: " + err.Error()}
	}
	t.raw = true
	return nil
}

// restore sets the caller's terminal back to the state read before the
// run. It may be called more than once, from any goroutine; once it was,
// makeRaw does nothing.
func (t *callerTerminal) restore() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.raw && !t.restored {
		setTermios(t.fd, &t.saved)
	}
	t.restored = true
}

func setTermios(fd int, tio *unix.Termios) error {
	for {
		err := unix.IoctlSetTermios(fd, unix.TCSETS, tio)
		if err != unix.EINTR {
			return err
		}
	}
}

// restoreOnPanic, deferred in a goroutine, restores the caller's
// terminal before a panic ends the process (which runs no other
// goroutine's deferred calls).
func (t *callerTerminal) restoreOnPanic() {
	if r := recover(); r != nil {
		t.restore()
		panic(r)
	}
}

// attach starts relaying between the caller's terminal and the master
// of the command's terminal: what the master shows is written to out.
func (t *callerTerminal) attach(master *os.File, out io.Writer) {
	t.mu.Lock()
	t.master = master
	t.mu.Unlock()
	t.resize()
	t.outDone.Add(1)
	go func() {
		defer t.outDone.Done()
		defer t.restoreOnPanic()
		t.copyOut(master, out)
	}()
	t.inDone = make(chan struct{})
	go func() {
		defer close(t.inDone)
		defer t.restoreOnPanic()
		t.copyIn(master)
	}()
}

// attached reports whether a master was attached.
func (t *callerTerminal) attached() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.master != nil
}

// copyOut copies what the command's terminal shows to out until the
// master reads EIO: every process of the sandbox, and so every copy of
// the slave, is gone. What out refuses is dropped, so that the command
// never blocks on a terminal nobody reads.
func (t *callerTerminal) copyOut(master *os.File, out io.Writer) {
	buf := make([]byte, 32<<10)
	failed := false
	for {
		n, err := master.Read(buf)
		if n > 0 && !failed {
			if _, werr := out.Write(buf[:n]); werr != nil {
				failed = true
			}
		}
		if err != nil {
			return
		}
	}
}

// copyIn copies what is typed at the caller's terminal to the master,
// until the wake pipe is closed or the caller's terminal is gone. It
// polls rather than blocks in read, so that it stops at the end of the
// run without taking a byte typed after it.
func (t *callerTerminal) copyIn(master *os.File) {
	buf := make([]byte, 4096)
	fds := []unix.PollFd{{Fd: int32(t.fd), Events: unix.POLLIN}, {Fd: int32(t.wakeR), Events: unix.POLLIN}}
	for {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		if fds[1].Revents != 0 || fds[0].Revents&unix.POLLIN == 0 {
			return // stopped, or the caller's terminal hung up
		}
		n, err := unix.Read(t.fd, buf)
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		if _, err := master.Write(buf[:n]); err != nil {
			return
		}
	}
}

// withMaster calls f with the master's descriptor, once attached, and
// reports whether it did.
func (t *callerTerminal) withMaster(f func(fd int)) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.master == nil {
		return false
	}
	// Control, not Fd: Fd would put the master in blocking mode, and a
	// blocked read would then survive Close.
	rc, err := t.master.SyscallConn()
	if err != nil {
		return false
	}
	return rc.Control(func(fd uintptr) { f(int(fd)) }) == nil
}

// resize gives the command's terminal the caller's window size; the
// kernel sends SIGWINCH to its foreground process group when it changed.
func (t *callerTerminal) resize() {
	ws, err := unix.IoctlGetWinsize(t.fd, unix.TIOCGWINSZ)
	if err != nil {
		return
	}
	t.withMaster(func(fd int) { unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, ws) })
}

// signal sends sig to the foreground process group of the command's
// terminal, as its key would; false when there is no terminal yet.
func (t *callerTerminal) signal(sig syscall.Signal) bool {
	ok := false
	t.withMaster(func(fd int) { ok = unix.IoctlSetInt(fd, unix.TIOCSIG, int(sig)) == nil })
	return ok
}

// drain waits for the output relay to end, which it does once every
// process of the sandbox is gone: call it after init was reaped.
func (t *callerTerminal) drain() { t.outDone.Wait() }

// close stops the relays and restores the caller's terminal. Deferred by
// Run, it runs however Run returns.
func (t *callerTerminal) close() {
	t.closeOnce.Do(func() {
		unix.Close(t.wakeW)
		t.mu.Lock()
		m := t.master
		t.mu.Unlock()
		if m != nil {
			// Wakes a relay blocked on it.
			m.Close()
		}
		if t.inDone != nil {
			<-t.inDone
		}
		unix.Close(t.wakeR)
		t.restore()
	})
}

// receiveMaster checks that fds is one descriptor that is the master of
// a pseudo-terminal, and returns it ready for the poller.
func receiveMaster(fds []int) (*os.File, error) {
	if len(fds) != 1 {
		closeFDs(fds)
		return nil, fmt.Errorf("init sent %d descriptors for the terminal", len(fds))
	}
	fd := fds[0]
	if _, err := unix.IoctlGetInt(fd, unix.TIOCGPTN); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("init's terminal is not a pseudo-terminal master: %v", err)
	}
	// Non-blocking, so that os.File serves it through the poller and
	// Close wakes a read or write in progress.
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}

// mountPTS mounts, with a terminal, the sandbox's own devpts instance on
// dev/pts, and /dev/ptmx as its multiplexer.
func (i *initProc) mountPTS(dev string) error {
	if i.cfg.Terminal == nil {
		return nil
	}
	pts := dev + "/pts"
	if err := os.Mkdir(pts, 0o755); err != nil {
		return err
	}
	// newinstance: not the host's /dev/pts, whose terminals (the
	// caller's among them) stay out of reach; ptmxmode=0666 so that the
	// command can make terminals of its own, at most ptsMax.
	opts := fmt.Sprintf("newinstance,ptmxmode=0666,mode=0620,max=%d", ptsMax)
	if err := unix.Mount("devpts", pts, "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, opts); err != nil {
		return fmt.Errorf("mount devpts on /dev/pts: %w", err)
	}
	return os.Symlink("pts/ptmx", dev+"/ptmx")
}

// makeTerminal makes the command's terminal in the sandbox's devpts,
// with the caller's modes and window size, keeps the slave for the
// command and sends the master to the parent.
func (i *initProc) makeTerminal() error {
	tc := i.cfg.Terminal
	master, err := unix.Open("/dev/pts/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open /dev/pts/ptmx: %w", err)
	}
	defer unix.Close(master)
	if err := unix.IoctlSetPointerInt(master, unix.TIOCSPTLCK, 0); err != nil {
		return fmt.Errorf("unlock the terminal: %w", err)
	}
	// The slave by the master, not by a name that could be another.
	r, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(master), unix.TIOCGPTPEER, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC)
	if errno != 0 {
		return fmt.Errorf("open the terminal's slave (TIOCGPTPEER): %w", errno)
	}
	slave := os.NewFile(r, "/dev/pts/tty")
	if err := setTermios(int(slave.Fd()), &tc.Termios); err != nil {
		slave.Close()
		return fmt.Errorf("set the terminal's modes: %w", err)
	}
	if ws := tc.Winsize; ws.Row > 0 && ws.Col > 0 {
		if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &ws); err != nil {
			slave.Close()
			return fmt.Errorf("set the terminal's window size: %w", err)
		}
	}
	b, _ := json.Marshal(report{Terminal: true})
	if err := unix.Sendmsg(int(i.ctl.Fd()), b, unix.UnixRights(master), nil, 0); err != nil {
		slave.Close()
		return fmt.Errorf("send the terminal to the parent: %w", err)
	}
	i.tty = slave
	return nil
}

// commandStdio is the command's stdin, stdout and stderr and the
// attributes it starts with: without a terminal init's own; with one, the
// terminal in place of stdin and of each stream the caller has on a
// terminal, and a new session whose controlling terminal it is.
func (i *initProc) commandStdio() ([]uintptr, *syscall.SysProcAttr) {
	if i.tty == nil {
		return []uintptr{0, 1, 2}, nil
	}
	t := i.tty.Fd()
	files := []uintptr{t, 1, 2}
	if i.cfg.Terminal.Stdout {
		files[1] = t
	}
	if i.cfg.Terminal.Stderr {
		files[2] = t
	}
	// Ctty is the command's descriptor 0, the terminal.
	return files, &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
}
