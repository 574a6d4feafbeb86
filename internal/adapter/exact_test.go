// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"

	"warden.dev/warden/internal/adapter"
)

// TestFoldKeyIsClosed: two keys that any case mapping or simple case
// folding of Unicode, or encoding/json's folding, takes for one another
// fold alike — over every rune.
func TestFoldKeyIsClosed(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		f := adapter.FoldKey(string(r))
		others := []rune{unicode.ToLower(r), unicode.ToUpper(r), unicode.ToTitle(r), unicode.ToUpper(unicode.ToLower(r))}
		for s := unicode.SimpleFold(r); s != r; s = unicode.SimpleFold(s) {
			others = append(others, s)
		}
		for _, o := range others {
			if g := adapter.FoldKey(string(o)); g != f {
				t.Fatalf("FoldKey(%q) = %q, FoldKey(%q) = %q; want them equal", r, f, o, g)
			}
		}
	}
}

func TestFoldKey(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"name", "Name", true},
		{"params", "paramſ", true},   // long s
		{"key", "\u212Aey", true},    // Kelvin sign
		{"command", "COMMAND", true}, // all caps
		{"file_path", "file-path", false},
		{"strasse", "straße", false}, // full folding is not followed
		{"command", "commands", false},
	} {
		if got := adapter.FoldKey(tt.a) == adapter.FoldKey(tt.b); got != tt.same {
			t.Errorf("FoldKey(%q) == FoldKey(%q) is %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}

type bashInput struct {
	Command     *string `json:"command"`
	Description string  `json:"description"`
	Nested      *struct {
		Path string `json:"path"`
	} `json:"nested"`
	Raw json.RawMessage `json:"raw"`
}

func TestUnmarshal(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     string // "" for success, else part of the error
	}{
		{"exact", `{"command":"ls","description":"list"}`, ""},
		{"unknown keys ignored", `{"command":"ls","timeout":3,"other":{"A":1,"a":2}}`, ""},
		{"case beside", `{"command":"ls","Command":"rm -rf ~"}`, `the keys "command" and "Command" differ only in case`},
		{"case before", `{"Command":"rm -rf ~","command":"ls"}`, `"Command" is "command" in another case`},
		{"case alone", `{"Command":"rm -rf ~"}`, `the key "Command" is "command" in another case`},
		{"escaped case", `{"command":"ls","\u0043ommand":"rm"}`, `differ only in case`},
		{"duplicate", `{"command":"ls","command":"rm -rf ~"}`, `the key "command" appears twice`},
		{"unknown keys colliding", `{"command":"ls","Timeout":1,"timeout":2}`, `differ only in case`},
		{"nested struct", `{"command":"ls","nested":{"Path":"/etc"}}`, `"Path" is "path"`},
		{"raw value not read", `{"command":"ls","raw":{"A":1,"a":2}}`, ""},
		{"unicode long s", `{"command":"ls","deſcription":"x"}`, `"deſcription" is "description"`},
		{"kelvin", `{"command":"ls","nested":{"path":"a"},"\u212Aey":1,"key":2}`, `differ only in case`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var v bashInput
			err := adapter.Unmarshal([]byte(tt.in), &v)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Unmarshal(%s) = %v, want success", tt.in, err)
				}
				return
			}
			var ke *adapter.KeyError
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &ke) {
				t.Fatalf("Unmarshal(%s) = %v, want a KeyError with %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestCheckKeys(t *testing.T) {
	for _, tt := range []struct {
		in string
		ok bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"path":"x"}}}`, true},
		{`{"jsonrpc":"2.0","params":{"name":"a","Name":"b"}}`, false},
		{`{"params":{},"paramſ":{}}`, false},
		{`[{"a":1},{"b":[{"c":1,"C":2}]}]`, false},
		{`{"a":{"x":1},"b":{"x":2}}`, true}, // the same key in two objects
		{`"Name"`, true},
	} {
		if err := adapter.CheckKeys([]byte(tt.in)); (err == nil) != tt.ok {
			t.Errorf("CheckKeys(%s) = %v, want ok %v", tt.in, err, tt.ok)
		}
	}
}

func TestStringFieldIsExact(t *testing.T) {
	for _, tt := range []struct {
		in, want string
	}{
		{`{"file_path":"/a","File_Path":"/etc/shadow"}`, "differ only in case"},
		{`{"FILE_PATH":"/etc/shadow"}`, `"FILE_PATH" is "file_path" in another case`},
		{`{"file_path":"/a","file_path":"/etc/shadow"}`, "appears twice"},
	} {
		if s, err := adapter.StringField("Read", json.RawMessage(tt.in), "file_path", true); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("StringField(%s) = %q, %v; want an error with %q", tt.in, s, err, tt.want)
		}
	}
}

// FuzzUnmarshal: whatever Unmarshal accepts, a reader of exact keys reads
// alike — the value of each field is the value of its exact key.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{
		`{"command":"ls"}`, `{"command":"ls","Command":"rm"}`, `{"Command":"rm"}`,
		`{"command":"ls","description":"d","nested":{"path":"p"}}`, `{"commanD":"x","raw":[1]}`,
		`{"nested":{"path":"a","PATH":"b"}}`, `{"ſ":1,"s":2}`, `{"command":"a","command":"b"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v bashInput
		if adapter.Unmarshal(data, &v) != nil {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			return // null
		}
		var want *string
		if raw, ok := m["command"]; ok {
			json.Unmarshal(raw, &want)
		}
		if (want == nil) != (v.Command == nil) || want != nil && *want != *v.Command {
			t.Fatalf("Unmarshal(%s).command = %v, exact reader %v", data, v.Command, want)
		}
		var desc string
		if raw, ok := m["description"]; ok {
			json.Unmarshal(raw, &desc)
		}
		if desc != v.Description {
			t.Fatalf("Unmarshal(%s).description = %q, exact reader %q", data, v.Description, desc)
		}
		if raw, ok := m["nested"]; ok && v.Nested != nil {
			var n map[string]json.RawMessage
			var p string
			if json.Unmarshal(raw, &n) == nil {
				if pr, ok := n["path"]; ok {
					json.Unmarshal(pr, &p)
				}
			}
			if p != v.Nested.Path {
				t.Fatalf("Unmarshal(%s).nested.path = %q, exact reader %q", data, v.Nested.Path, p)
			}
		}
	})
}
