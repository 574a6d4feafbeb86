// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

import (
	"bytes"
	"encoding/json"
	"testing"

	"warden.dev/warden/internal/jsonw"
)

// FuzzJSONStringLen: jsonStringLen is the length of what
// jsonw.AppendString writes, which is what encoding/json writes without
// HTML escaping.
func FuzzJSONStringLen(f *testing.F) {
	for _, s := range []string{"", "ls -la", "a\"b\\c", "\x00\x01\b\f\n\r\t\x7f", "é\u2028\u2029", "\xff\xfe", "<&>", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		got := jsonw.AppendString(nil, s)
		if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Fatalf("jsonw.AppendString(%q) = %s, want %s", s, got, w)
		}
		if n := jsonStringLen(s); n != len(got) {
			t.Fatalf("jsonStringLen(%q) = %d, want %d", s, n, len(got))
		}
	})
}

func TestSetString(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{}`, `{"command":"x"}`},
		{` { } `, ` { "command":"x"} `},
		{`{"a":1}`, `{"a":1,"command":"x"}`},
		{`{"command":"ls","b":[1,{"command":2}]}`, `{"command":"x","b":[1,{"command":2}]}`},
		// Every member of the name: a reader keeping the first or the
		// last gets the rewritten value either way.
		{`{"command":"ls","command":"rm"}`, `{"command":"x","command":"x"}`},
		{`{"\u0063ommand" : "ls"}`, `{"\u0063ommand" : "x"}`},
	} {
		got, err := setString([]byte(tt.in), "command", "x")
		if err != nil || string(got) != tt.want {
			t.Errorf("setString(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
		if cap(got) != len(got) {
			t.Errorf("setString(%s): capacity %d for %d bytes, want one exact allocation", tt.in, cap(got), len(got))
		}
	}
	for _, in := range []string{`[]`, `"x"`, `{`, `{"a":1}x`} {
		if got, err := setString([]byte(in), "command", "x"); err == nil {
			t.Errorf("setString(%s) = %s, want an error", in, got)
		}
	}
}
