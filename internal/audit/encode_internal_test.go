// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"warden.dev/warden/internal/jsontest"
)

// marshalByReflection is how an event was written before its bodies
// were encoded by hand: the header and the body each by encoding/json.
// The hand-written encoding must give the same bytes.
func marshalByReflection(e Event) ([]byte, error) {
	b, own, err := e.body()
	if err != nil {
		return nil, err
	}
	h := struct {
		Schema int        `json:"schema"`
		Kind   Kind       `json:"kind"`
		Time   *time.Time `json:"time,omitempty"`
	}{Schema: e.Schema, Kind: e.Kind}
	if !own {
		t := e.Time
		h.Time = &t
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	bb, err := marshal(b)
	if err != nil {
		return nil, err
	}
	bb = bytes.TrimSpace(bb)
	out := append([]byte{}, hb[:len(hb)-1]...)
	if len(bb) == 2 {
		return append(out, '}'), nil
	}
	out = append(out, ',')
	return append(out, bb[1:]...), nil
}

// TestMarshalAsReflection: for every kind of event, thousands of bodies
// with every field set or not, to strange strings, extreme numbers and
// times in other zones, are written byte for byte as encoding/json
// writes them, and fail where it fails.
func TestMarshalAsReflection(t *testing.T) {
	bodies := map[Kind]func() any{
		KindDecision: func() any { return &Decision{} },
		KindRun:      func() any { return &Run{} },
		KindNetwork:  func() any { return &NetworkAttempt{} },
		KindSyscall:  func() any { return &Syscall{} },
		KindMCP:      func() any { return &MCPCall{} },
	}
	r := rand.New(rand.NewPCG(1, 2))
	for kind, newBody := range bodies {
		for i := range 3000 {
			ev := Event{Schema: Schema, Kind: kind}
			if r.IntN(2) == 0 {
				ev.Time = time.Unix(r.Int64N(4e9), r.Int64N(1e9)).UTC()
			}
			body := newBody()
			jsontest.Fill(r, reflect.ValueOf(body).Elem())
			switch b := body.(type) {
			case *Decision:
				ev.Decision = b
			case *Run:
				ev.Run = b
			case *NetworkAttempt:
				ev.Network, ev.Time = b, b.Time
			case *Syscall:
				ev.Syscall = b
			case *MCPCall:
				ev.MCP = b
			}
			got, gotErr := ev.MarshalJSON()
			want, wantErr := marshalByReflection(ev)
			if (gotErr != nil) != (wantErr != nil) {
				t.Fatalf("%s event %d: error %v, encoding/json's %v", kind, i, gotErr, wantErr)
			}
			if gotErr == nil && !bytes.Equal(got, want) {
				t.Fatalf("%s event %d:\n got %s\nwant %s", kind, i, got, want)
			}
		}
	}
}

// TestMarshalErrors: a value encoding/json refuses is refused here too.
func TestMarshalErrors(t *testing.T) {
	for name, ev := range map[string]Event{
		"NaN":              RunEvent(time.Time{}, &Run{Limits: Limits{CPU: math.NaN()}}),
		"infinity":         RunEvent(time.Time{}, &Run{Limits: Limits{CPU: math.Inf(1)}}),
		"year 10000":       DecisionEvent(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), &Decision{}),
		"started year -1":  RunEvent(time.Time{}, &Run{StartedAt: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}),
		"attempt year -1":  NetworkEvent(&NetworkAttempt{Time: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}),
		"no body":          {Schema: Schema, Kind: KindRun},
		"an unknown kind":  {Schema: Schema, Kind: "other"},
		"offset too large": DecisionEvent(time.Unix(0, 0).In(time.FixedZone("", 24*3600)), &Decision{}),
	} {
		if _, err := ev.MarshalJSON(); err == nil {
			t.Errorf("%s: no error", name)
		}
		if _, err := marshalByReflection(ev); err == nil {
			t.Errorf("%s: encoding/json gives no error either", name)
		}
	}
}

// FuzzMarshalAsReflection: any event read from a record is written as
// encoding/json writes it.
func FuzzMarshalAsReflection(f *testing.F) {
	f.Add([]byte(`{"schema":1,"kind":"run","time":"2026-12-07T10:00:00Z","id":"r","command":["a","<b>"],"limits":{"cpu":1e-7}}`))
	f.Add([]byte(`{"schema":1,"kind":"network","time":"2026-12-07T10:00:00.5+01:00","host":"\u2028x","port":443}`))
	f.Add([]byte(`{"schema":1,"kind":"decision","surface":"hook","classes":[],"verdict":"deny"}`))
	f.Add([]byte(`{"schema":1,"kind":"syscall","syscall":"ptrace","args":[1,18446744073709551615]}`))
	f.Add([]byte(`{"schema":1,"kind":"mcp","id":{"a":1},"tool":"t"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ev Event
		if err := json.Unmarshal(data, &ev); err != nil {
			return
		}
		got, gotErr := ev.MarshalJSON()
		want, wantErr := marshalByReflection(ev)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("error %v, encoding/json's %v", gotErr, wantErr)
		}
		if gotErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("\n got %s\nwant %s", got, want)
		}
	})
}

// BenchmarkMarshalRun is one run's record with a few network attempts,
// written by hand and by encoding/json, in a process that has written
// others before (the per-type reflection of encoding/json's first use,
// what a new process pays, is not in these numbers).
func BenchmarkMarshalRun(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	run := &Run{}
	jsontest.Fill(r, reflect.ValueOf(run).Elem())
	ev := RunEvent(time.Now(), run)
	b.Run("by hand", func(b *testing.B) {
		for b.Loop() {
			if _, err := ev.MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := marshalByReflection(ev); err != nil {
				b.Fatal(err)
			}
		}
	})
}
