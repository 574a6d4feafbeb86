// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway

import (
	"fmt"
	"os"
	"sync"
	"time"

	"warden.dev/warden/internal/audit"
)

// recorder appends the gateway's records, one JSON line each
// (audit.JSONL). A record that cannot be written is warned about once;
// the gateway goes on. A nil recorder, or one without a file, records
// nothing.
type recorder struct {
	sink  *audit.JSONL
	f     *os.File
	store audit.Sink
	warn  func(string)
	// mu guards warned and storeWarned.
	mu                  sync.Mutex
	warned, storeWarned bool
}

// openRecorder opens the audit file at path for appending; an empty path
// records nothing.
func openRecorder(path string, store audit.Sink, warn func(string)) (*recorder, error) {
	r := &recorder{warn: warn, store: store}
	if path == "" {
		return r, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("--audit-json: %v", err)}
	}
	r.f, r.sink = f, audit.NewJSONL(f)
	return r, nil
}

func (r *recorder) record(evs []audit.MCPCall) {
	if r == nil {
		return
	}
	for i := range evs {
		ev := audit.MCPEvent(time.Now().UTC(), &evs[i])
		if r.sink != nil {
			if err := r.sink.Write(ev); err != nil {
				r.warnOnce(&r.warned, fmt.Sprintf("--audit-json: %v (later records are lost too)", err))
			}
		}
		if r.store != nil {
			if err := r.store.Write(ev); err != nil {
				r.warnOnce(&r.storeWarned, fmt.Sprintf("the store: %v (a call that cannot be recorded is still answered)", err))
			}
		}
	}
}

// warnOnce warns msg unless *done.
func (r *recorder) warnOnce(done *bool, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !*done {
		*done = true
		if r.warn != nil {
			r.warn(msg)
		}
	}
}

func (r *recorder) close() {
	if r != nil && r.f != nil {
		r.f.Close()
	}
}
