// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// newPTY opens a pseudo-terminal pair for a test.
func newPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("requires pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

func termios(t *testing.T, f *os.File) unix.Termios {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return *tio
}

// TestCallerTerminalRestored: raw mode is set back exactly by close, and
// by a panic in a goroutine that defers restoreOnPanic (a panic ends the
// process without running other goroutines' deferred calls).
func TestCallerTerminalRestored(t *testing.T) {
	for _, tt := range []struct {
		name string
		end  func(*callerTerminal)
	}{
		{"close", func(c *callerTerminal) { c.close() }},
		{"panic", func(c *callerTerminal) {
			defer func() { recover() }()
			defer c.restoreOnPanic()
			panic("boom")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, slave := newPTY(t)
			before := termios(t, slave)
			c, err := newCallerTerminal(slave, true, true)
			if err != nil {
				t.Fatal(err)
			}
			defer c.close()
			if err := c.makeRaw(); err != nil {
				t.Fatal(err)
			}
			if raw := termios(t, slave); raw.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) != 0 || raw.Oflag&unix.OPOST != 0 {
				t.Fatalf("makeRaw left %+v", raw)
			}
			tt.end(c)
			if diff := cmp.Diff(before, termios(t, slave)); diff != "" {
				t.Errorf("terminal after %s (-before +after):\n%s", tt.name, diff)
			}
		})
	}
}

// TestInitStdin: a terminal is never init's stdin; anything else is
// passed as is.
func TestInitStdin(t *testing.T) {
	_, slave := newPTY(t)
	got, done, err := initStdin(slave)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	f, ok := got.(*os.File)
	if !ok || f == slave || f.Name() != os.DevNull {
		t.Errorf("initStdin(a terminal) = %v, want /dev/null", got)
	}
	r := strings.NewReader("x")
	if got, done, _ := initStdin(r); got != r {
		t.Errorf("initStdin(a reader) = %v, want it as is", got)
	} else {
		done()
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if got, done, _ := initStdin(pr); got != pr {
		t.Errorf("initStdin(a pipe) = %v, want it as is", got)
	} else {
		done()
	}
}
