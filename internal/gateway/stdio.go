// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"warden.dev/warden/internal/adapter/mcp"
)

// askTimeout is how long a call that prompts waits for the user's
// answer to the gate's elicitation before it is refused.
var askTimeout = 5 * time.Minute

// RunStdio starts the server argv and gates the MCP session between the
// client (stdin, stdout) and the server's stdin and stdout; the server's
// stderr goes to stderr. It returns when the server exits: nil, an
// [*ExitError] with the server's status, or an error starting or waiting
// for it. ctx's end sends the server SIGTERM.
func (g *Gateway) RunStdio(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) error {
	rec, err := openRecorder(g.o.Audit, g.o.Store, g.warn)
	if err != nil {
		return err
	}
	defer rec.close()
	g.gate.Elicit = !g.o.Headless
	var prefix [8]byte
	if _, err := rand.Read(prefix[:]); err != nil {
		return fmt.Errorf("random id prefix: %v", err)
	}
	g.gate.AskPrefix = hex.EncodeToString(prefix[:])

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("starting the server: %v", err)
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("starting the server: %v", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the server: %v", err)
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Signal(syscall.SIGTERM) })
	defer stop()

	client := &syncWriter{w: stdout}
	server := &syncWriter{w: toServer}
	tr := &mcp.Tracker{}

	// Client → server. Its goroutine is left blocked on the client's
	// input when the server exits first: the process is about to.
	go func() {
		defer toServer.Close()
		lr := &lineReader{r: bufio.NewReaderSize(stdin, 64<<10), max: mcp.MaxLine}
		for {
			line, tooLong, err := lr.next()
			if tooLong {
				client.line(mcp.ErrorResponse(nil, mcp.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is larger than %d bytes", mcp.MaxLine)))
			} else if line != nil {
				out := g.gate.FromClient(line, tr)
				rec.record(out.Events)
				if out.Reply != nil {
					client.line(out.Reply)
				}
				if out.Asked != "" {
					id := out.Asked
					time.AfterFunc(askTimeout, func() {
						exp := g.gate.Expire(tr, id)
						rec.record(exp.Events)
						if exp.Reply != nil {
							client.line(exp.Reply)
						}
					})
				}
				if out.Forward != nil {
					if server.line(out.Forward) != nil {
						return
					}
				}
			}
			if err != nil {
				return
			}
		}
	}()

	// Server → client, until the server closes its output.
	lr := &lineReader{r: bufio.NewReaderSize(fromServer, 64<<10), max: mcp.MaxLine}
	for {
		line, tooLong, err := lr.next()
		if tooLong {
			g.warn(fmt.Sprintf("dropped a message from the server larger than %d bytes", mcp.MaxLine))
		} else if line != nil {
			out, evs := g.gate.FromServer(line, tr)
			rec.record(evs)
			client.line(out)
		}
		if err != nil {
			break
		}
	}
	werr := cmd.Wait()
	rec.record(tr.Drain())
	var ee *exec.ExitError
	switch {
	case werr == nil:
		return nil
	case errors.As(werr, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return &ExitError{Status: 128 + int(ws.Signal())}
		}
		return &ExitError{Status: ee.ExitCode()}
	default:
		return fmt.Errorf("waiting for the server: %v", werr)
	}
}

// lineReader reads newline-terminated lines of at most max bytes.
type lineReader struct {
	r   *bufio.Reader
	max int
}

// next returns the next line without its newline. A longer line is
// skipped up to its newline and reported with tooLong. The last line
// may lack a newline.
func (lr *lineReader) next() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > lr.max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			return nil, true, err
		}
		if err == io.EOF && len(line) > 0 {
			return line, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		return line[:len(line)-1], false, nil
	}
}

// syncWriter serialises lines written by both directions' goroutines.
type syncWriter struct {
	// mu guards w.
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) line(b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf := make([]byte, 0, len(b)+1)
	buf = append(append(buf, b...), '\n')
	_, err := s.w.Write(buf)
	return err
}
