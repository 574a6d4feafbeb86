// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// Input decodes a tool input into v as the agent reads it ([Unmarshal]):
// fields v does not name are ignored, fields it names must have its types
// and be spelled exactly, and no object v reads may hold two keys that
// differ only in case. tool names the tool in errors.
func Input(tool string, input json.RawMessage, v any) error {
	if err := Unmarshal(input, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s tool_input: %q is not a %s", tool, te.Field, te.Type)
		}
		return fmt.Errorf("%s tool_input: %v%s", tool, err, keyHint(err))
	}
	return nil
}

// keyHint says what to do about a [*KeyError].
func keyHint(err error) string {
	var ke *KeyError
	if errors.As(err, &ke) {
		return " (Warden reads keys exactly, as the agent does, and refuses what another reader could take otherwise: give each key once, spelled exactly)"
	}
	return ""
}

// Fields decodes a tool input into its fields, by exact key: no two keys
// may differ only in case, and none may be one of names in another case
// (the agent reads no "command" in {"Command":…}; encoding/json would).
func Fields(tool string, input json.RawMessage, names ...string) (map[string]json.RawMessage, error) {
	var in map[string]json.RawMessage
	if err := Input(tool, input, &in); err != nil {
		return nil, err
	}
	if err := Misspelled(in, names...); err != nil {
		return nil, fmt.Errorf("%s tool_input: %v%s", tool, err, keyHint(err))
	}
	return in, nil
}

// StringField reads one string field of a tool input. A required field
// must be present and not empty; an absent optional one is "". The name
// is matched exactly; a name given twice, or another in another case, is
// refused ([Unmarshal]). Only that field's value is copied: a tool input
// may carry megabytes in its other fields.
func StringField(tool string, input json.RawMessage, name string, required bool) (string, error) {
	var raw json.RawMessage
	ok := false
	var clash *KeyError
	fold := FoldKey(name)
	if err := Members(input, func(key []byte, v json.RawMessage) bool {
		switch {
		case string(key) == name && ok:
			clash = &KeyError{Key: name, Other: name}
			return false
		case string(key) == name:
			raw, ok = v, true
		case clash == nil && FoldKey(string(key)) == fold:
			clash = &KeyError{Key: string(key), Other: name}
		}
		return true
	}); err != nil {
		return "", fmt.Errorf("%s tool_input: %v", tool, err)
	}
	if clash != nil {
		clash.Known = !ok
		return "", fmt.Errorf("%s tool_input: %v%s", tool, clash, keyHint(clash))
	}
	if !ok || string(raw) == "null" {
		if required {
			return "", fmt.Errorf("%s tool_input has no %q", tool, name)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s tool_input: %q is not a string", tool, name)
	}
	if required && s == "" {
		return "", fmt.Errorf("%s tool_input has an empty %q", tool, name)
	}
	return s, nil
}

// PathField reads a path field; NUL bytes are refused here, before any
// resolution.
func PathField(tool string, input json.RawMessage, name string, required bool) (string, error) {
	s, err := StringField(tool, input, name, required)
	if err == nil && strings.ContainsRune(s, 0) {
		err = fmt.Errorf("%s tool_input: %q holds a NUL byte", tool, name)
	}
	return s, err
}

// DecodePayload decodes a hook payload into v: data must be at most max
// bytes of UTF-8 holding exactly one JSON value, whose objects v reads
// hold no keys Warden would read otherwise than the agent ([Unmarshal]).
// agent names the sender in the error for an empty payload ("Claude
// Code", "Codex", "Gemini CLI"). It decodes in place, without a copy of
// data: a payload may be 16 MiB.
func DecodePayload(data []byte, max int, agent string, v any) error {
	if len(data) > max {
		return fmt.Errorf("payload larger than %d bytes", max)
	}
	if !utf8.Valid(data) {
		return errors.New("payload is not UTF-8")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("empty payload (want the JSON object %s sends)", agent)
	}
	if err := json.Unmarshal(data, v); err != nil {
		// json.Unmarshal checks the whole input before it decodes; a
		// value followed by more is its syntax error "… after
		// top-level value".
		var se *json.SyntaxError
		if errors.As(err, &se) && strings.HasSuffix(se.Error(), "after top-level value") {
			return errors.New("payload: unexpected data after the JSON object")
		}
		return fmt.Errorf("payload: %v", err)
	}
	if err := checkTyped(data, reflect.TypeOf(v)); err != nil {
		return fmt.Errorf("payload: %v%s", err, keyHint(err))
	}
	return nil
}

// CheckPayload checks what every hook payload must hold once decoded:
// an event among known (listed in the error's order), a tool name, an
// absolute working directory, no NUL byte in either, and a tool input
// that is a JSON object.
func CheckPayload(event string, known []string, tool, cwd string, input json.RawMessage) error {
	switch {
	case event == "":
		return errors.New(`payload: no "hook_event_name"`)
	case !slices.Contains(known, event):
		return fmt.Errorf("payload: hook event %q is not one Warden answers (%s)", event, strings.Join(known, ", "))
	case tool == "":
		return errors.New(`payload: no "tool_name"`)
	case cwd == "" || !strings.HasPrefix(cwd, "/"):
		return fmt.Errorf(`payload: "cwd" %q is not an absolute path`, cwd)
	case strings.ContainsRune(cwd, 0) || strings.ContainsRune(tool, 0):
		return errors.New("payload: a NUL byte in cwd or tool_name")
	}
	if in := bytes.TrimSpace(input); len(in) == 0 || in[0] != '{' {
		return errors.New(`payload: "tool_input" is not a JSON object`)
	}
	return nil
}
