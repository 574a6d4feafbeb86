// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// ttyRun is the script command "ttyrun ANSWER CMD ARGS...": it runs CMD
// with a new terminal as its controlling terminal, as a person at a
// terminal would, and types ANSWER and a newline at each question warden
// asks there ("-": types nothing). Its stdin is empty, its stdout and
// stderr are the script's; what the terminal showed is in $WORK/tty.log.
func ttyRun(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: ttyrun ANSWER CMD ARGS...")
	}
	answer, argv := args[0], args[1:]
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	ts.Check(err)
	defer master.Close()
	ts.Check(unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	ts.Check(err)
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	ts.Check(err)

	path, err := exec.LookPath(argv[0])
	if err != nil {
		// Look in the script's PATH, where testscript puts warden.
		for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
			if p := filepath.Join(dir, argv[0]); fileExists(p) {
				path, err = p, nil
				break
			}
		}
	}
	ts.Check(err)
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = ts.Getenv("WORK")
	for _, k := range []string{"PATH", "HOME", "WORK", "TMPDIR", "LANG"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.ExtraFiles = []*os.File{tty}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
	ts.Check(cmd.Start())
	tty.Close()

	// Answer each question as it appears on the terminal.
	var mu sync.Mutex
	var screen bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		answered := 0
		for {
			k, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:k])
			asked := strings.Count(screen.String(), "? [")
			mu.Unlock()
			for ; answered < asked && answer != "-"; answered++ {
				master.Write([]byte(answer + "\n"))
			}
			if err != nil {
				return
			}
		}
	}()
	werr := cmd.Wait()
	// The terminal's last output may still be in flight.
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	mu.Lock()
	ts.Check(os.WriteFile(filepath.Join(ts.Getenv("WORK"), "tty.log"), screen.Bytes(), 0o644))
	mu.Unlock()
	fmt.Fprint(ts.Stdout(), stdout.String())
	fmt.Fprint(ts.Stderr(), stderr.String())
	if werr != nil && !neg {
		ts.Fatalf("ttyrun %s: %v", strings.Join(argv, " "), werr)
	}
	if werr == nil && neg {
		ts.Fatalf("ttyrun %s: unexpected success", strings.Join(argv, " "))
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
