// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Command hooktime times one hook call: from the moment the agent CLI
// that runs it has handed over the whole payload (its stdin closed) to
// the hook command's exit, the hook's stdin, stdout, stderr and exit
// status passed through unchanged; and, as total_ms, from its own start,
// which adds the time the client took to write the payload. It appends
// one JSON line to LOG: the event and tool the payload names, both
// times, the exit status, the payload (stdin) and the answer (stdout).
//
//	hooktime LOG COMMAND [ARG...]
//
// The real-client tests put it in front of Warden's hook command; the
// fake model's log cannot time a hook, since it also holds the tools'
// and the client's own time.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

func main() {
	start := time.Now()
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: hooktime LOG COMMAND [ARG...]")
		os.Exit(2)
	}
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hooktime:", err)
		os.Exit(2)
	}
	// The hook's own time starts once the client has handed over the
	// whole payload: how long the client takes to write it is the
	// client's (the total is kept too).
	delivered := time.Now()
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	var answer bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), io.MultiWriter(os.Stdout, &answer), os.Stderr
	err = cmd.Run()
	ms := float64(time.Since(delivered).Microseconds()) / 1000
	total := float64(time.Since(start).Microseconds()) / 1000
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "hooktime:", err)
		code = 2
	}
	// The payload's event and tool, in each client's spelling.
	var p struct {
		Event  string `json:"hook_event_name"`
		Tool   string `json:"tool_name"`
		Event2 string `json:"hookEventName"`
		Tool2  string `json:"toolName"`
	}
	json.Unmarshal(in, &p)
	line, _ := json.Marshal(map[string]any{"event": p.Event + p.Event2, "tool": p.Tool + p.Tool2, "ms": ms, "total_ms": total, "status": code,
		"payload": string(in), "answer": answer.String()})
	if f, err := os.OpenFile(os.Args[1], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
		f.Write(append(line, '\n'))
		f.Close()
	}
	os.Exit(code)
}
