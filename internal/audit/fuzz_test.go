// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"warden.dev/warden/internal/audit"
)

// FuzzEvent: whatever bytes a record holds, reading it never panics; a
// record read back is written and read again to the same event (the flat
// form loses nothing but the difference between an empty list and none),
// and a record of a later schema is refused.
func FuzzEvent(f *testing.F) {
	for _, ev := range events() {
		b, _ := json.Marshal(ev)
		f.Add(b)
	}
	f.Add([]byte(`{"schema":2,"kind":"run"}`))
	f.Add([]byte(`{"kind":"network","time":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ev audit.Event
		if err := json.Unmarshal(data, &ev); err != nil {
			return
		}
		if ev.Schema > audit.Schema {
			t.Fatalf("read a record of schema %d", ev.Schema)
		}
		if ev.MCP != nil && ev.MCP.ID == nil {
			// An absent JSON-RPC id is written as null, as a null one.
			ev.MCP.ID = json.RawMessage("null")
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("Marshal of a record read back: %v", err)
		}
		var again audit.Event
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("%s does not read back: %v", b, err)
		}
		if diff := cmp.Diff(ev, again, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("round trip of %s (-first +second):\n%s", data, diff)
		}
	})
}
