// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

// This file reads the members of a JSON object without decoding their
// values. The rules:
//
//   - the input is checked whole first (json.Valid), so the scan below
//     only ever meets valid JSON and can be short;
//   - names are compared after unescaping, as every JSON reader does
//     ("\u0063ommand" is command);
//   - members are given in order, repeats included: a caller that keeps
//     the last of equal names reads the object as JavaScript's
//     JSON.parse and Python's json do;
//   - values are handed out as slices of the input, never copied: a
//     tool input may carry megabytes the caller does not need.

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"warden.dev/warden/internal/jsonw"
)

// errNotObject is Members' error for input that is not a JSON object.
var errNotObject = errors.New("not a JSON object")

// Members calls fn with the name and the raw value of each member of
// the JSON object input, in order, until fn returns false. The name is
// unescaped; both slices may alias input and are valid only during the
// call. It is an error when input is not one valid JSON object.
func Members(input []byte, fn func(name []byte, value json.RawMessage) bool) error {
	_, err := scan(input, func(name []byte, vs, ve int) bool { return fn(name, input[vs:ve]) })
	return err
}

// scan is Members with each value given by its offsets in input; it
// returns the offset of the object's closing brace.
func scan(input []byte, fn func(name []byte, vs, ve int) bool) (int, error) {
	if !json.Valid(input) {
		return 0, errors.New("not valid JSON")
	}
	return scanAt(input, skipSpace(input, 0), fn)
}

// scanAt is scan of the object at input[i:], input being valid JSON.
func scanAt(input []byte, i int, fn func(name []byte, vs, ve int) bool) (int, error) {
	if i >= len(input) || input[i] != '{' {
		return 0, errNotObject
	}
	i = skipSpace(input, i+1)
	for input[i] != '}' {
		end := skipString(input, i)
		name := input[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			var s string
			if err := json.Unmarshal(input[i:end], &s); err != nil {
				return 0, err
			}
			name = []byte(s)
		}
		i = skipSpace(input, end)
		i = skipSpace(input, i+1) // the colon
		vend := skipValue(input, i)
		if !fn(name, i, vend) {
			return 0, nil
		}
		i = skipSpace(input, vend)
		if input[i] == ',' {
			i = skipSpace(input, i+1)
		}
	}
	return i, nil
}

// setString returns the JSON object input with the value of every
// member called name replaced by the JSON string value, or with that
// member added last when there is none. Every other byte of input is
// kept as it was, and the result is made in one allocation of its size:
// the value may be a rewritten command of megabytes.
func setString(input []byte, name, value string) (json.RawMessage, error) {
	type span struct{ vs, ve int }
	var spans []span
	members := 0
	closing, err := scan(input, func(n []byte, vs, ve int) bool {
		members++
		if string(n) == name {
			spans = append(spans, span{vs, ve})
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	vlen := jsonStringLen(value)
	if len(spans) == 0 {
		// Add "name":value before the closing brace.
		sep := ""
		if members > 0 {
			sep = ","
		}
		out := make([]byte, 0, len(input)+len(sep)+jsonStringLen(name)+1+vlen)
		out = append(out, input[:closing]...)
		out = append(out, sep...)
		out = jsonw.AppendString(out, name)
		out = append(out, ':')
		out = jsonw.AppendString(out, value)
		return append(out, input[closing:]...), nil
	}
	n := len(input)
	for _, sp := range spans {
		n += vlen - (sp.ve - sp.vs)
	}
	out := make([]byte, 0, n)
	prev := 0
	for _, sp := range spans {
		out = append(out, input[prev:sp.vs]...)
		out = jsonw.AppendString(out, value)
		prev = sp.ve
	}
	return append(out, input[prev:]...), nil
}

// jsonStringLen is the length of s encoded by [jsonw.AppendString].
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			switch {
			case b >= 0x20 && b != '"' && b != '\\':
				n++
			case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
				n += 2
			default:
				n += 6
			}
			i++
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1, c == '\u2028', c == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index after the value that starts at b[i]: a
// string, an object or array (brackets counted outside strings), or a
// literal up to the next delimiter.
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}
