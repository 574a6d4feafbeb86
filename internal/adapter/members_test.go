// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter_test

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"warden.dev/warden/internal/adapter"
)

// FuzzMembers: Members reads an object as encoding/json reads it into a
// map (the last of equal names wins, names unescaped, values exact),
// and refuses what encoding/json refuses.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{
		`{}`, ` { "a" : 1 , "b":[1,{"c":"}"}], "a":"x\"y" } `, `{"\u0063ommand":"ls","command":"rm"}`,
		`{"a":{"b":{"c":[[[]]]}},"d":null,"e":true,"f":-1.5e3}`, `[]`, `"x"`, `{"a":}`, `{"a":1}{}`,
		`{"a\\":"\\","b":"\\\""}`, `{"":""}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !utf8.Valid(in) {
			return // payloads are checked for UTF-8 before this
		}
		var want map[string]json.RawMessage
		werr := json.Unmarshal(in, &want)
		got := map[string]json.RawMessage{}
		err := adapter.Members(in, func(name []byte, v json.RawMessage) bool {
			got[string(name)] = bytes.Clone(v)
			return true
		})
		if werr != nil || want == nil {
			if err == nil {
				t.Fatalf("Members(%q) read %v, want an error (encoding/json: %v)", in, got, werr)
			}
			return
		}
		if err != nil {
			t.Fatalf("Members(%q) = %v, want %v", in, err, want)
		}
		if len(got) != len(want) {
			t.Fatalf("Members(%q) = %q, want %q", in, got, want)
		}
		for k, v := range want {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("Members(%q)[%q] = %q, want %q", in, k, got[k], v)
			}
		}
	})
}

// TestInputRefusesNamesDifferingInCase: a tool input whose names differ
// from the field Warden reads only in case is refused; encoding/json
// would judge the last of them while the agent runs the exact one.
func TestInputRefusesNamesDifferingInCase(t *testing.T) {
	var in struct {
		Command *string `json:"command"`
	}
	for _, input := range []string{`{"command":"rm -rf ~","Command":"ls"}`, `{"COMMAND":"ls"}`, `{"comMand":"ls","command":"rm -rf ~"}`} {
		if err := adapter.Input("Bash", json.RawMessage(input), &in); err == nil || !strings.Contains(err.Error(), "case") {
			t.Errorf("Input(%s) = %v, want a refusal naming the case", input, err)
		}
	}
	if err := adapter.Input("Bash", json.RawMessage(`{"command":"ls","description":"x"}`), &in); err != nil || *in.Command != "ls" {
		t.Errorf("Input(plain) = %v, %v", err, in.Command)
	}
}

// TestStringFieldCopiesOnlyItsValue: reading the path of a write does not
// copy the megabytes of its content.
func TestStringFieldCopiesOnlyItsValue(t *testing.T) {
	content := strings.Repeat("x", 4<<20)
	input, _ := json.Marshal(map[string]string{"file_path": "/p/a.txt", "content": content})
	var got string
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := adapter.StringField("Write", input, "file_path", true)
	runtime.ReadMemStats(&after)
	if err != nil || got != "/p/a.txt" {
		t.Fatalf("StringField = %q, %v", got, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<10 {
		t.Errorf("StringField allocated %d bytes for a %d-byte input, want well under 1 KiB (its value only)", n, len(input))
	}
}
