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
	sink *audit.JSONL
	f    *os.File
	warn func(string)
	// mu guards warned.
	mu     sync.Mutex
	warned bool
}

// openRecorder opens the audit file at path for appending; an empty path
// records nothing.
func openRecorder(path string, warn func(string)) (*recorder, error) {
	r := &recorder{warn: warn}
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
	if r == nil || r.sink == nil {
		return
	}
	for i := range evs {
		if err := r.sink.Write(audit.MCPEvent(time.Now().UTC(), &evs[i])); err != nil {
			r.mu.Lock()
			if !r.warned {
				r.warned = true
				if r.warn != nil {
					r.warn(fmt.Sprintf("--audit-json: %v (later records are lost too)", err))
				}
			}
			r.mu.Unlock()
		}
	}
}

func (r *recorder) close() {
	if r != nil && r.f != nil {
		r.f.Close()
	}
}
