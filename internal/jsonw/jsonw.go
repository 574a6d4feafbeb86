// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package jsonw writes JSON by hand, byte for byte as encoding/json
// writes the same values without HTML escaping. encoding/json's first
// use of a type walks it by reflection, and most Warden processes are
// short (a hook call, a run): they paid that walk each time, for types
// whose shape is known here. A test of each hand-written encoding
// compares it with encoding/json's for values filled at random
// (package jsontest), so a field added to a type and not to its
// encoding fails it.
//
// This package imports no Warden package: the record (package audit),
// a leaf every producer imports, writes through it.
package jsonw

import (
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// Writer appends JSON to a buffer: objects, their fields, lists.
type Writer struct {
	b []byte
	// first is set while the innermost open object has no field yet.
	first bool
	err   error
}

// NewWriter is a Writer that appends to b.
func NewWriter(b []byte) *Writer { return &Writer{b: b} }

// Bytes returns what was written, and the first value that could not
// be written, as encoding/json's error.
func (w *Writer) Bytes() ([]byte, error) { return w.b, w.err }

// Raw appends b as it is: JSON the caller encoded.
func (w *Writer) Raw(b []byte) { w.b = append(w.b, b...) }

// Open begins an object.
func (w *Writer) Open() {
	w.b = append(w.b, '{')
	w.first = true
}

// Close ends the innermost object.
func (w *Writer) Close() {
	w.b = append(w.b, '}')
	w.first = false
}

// Key begins a field: its name, after a comma unless it is the
// object's first.
func (w *Writer) Key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

// Str is a string field.
func (w *Writer) Str(k, v string) {
	w.Key(k)
	w.b = AppendString(w.b, v)
}

// StrOmit is a string field with omitempty.
func (w *Writer) StrOmit(k, v string) {
	if v != "" {
		w.Str(k, v)
	}
}

// Int is an integer field.
func (w *Writer) Int(k string, v int64) {
	w.Key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

// IntOmit is an integer field with omitempty.
func (w *Writer) IntOmit(k string, v int64) {
	if v != 0 {
		w.Int(k, v)
	}
}

// Uint is an unsigned integer field.
func (w *Writer) Uint(k string, v uint64) {
	w.Key(k)
	w.b = strconv.AppendUint(w.b, v, 10)
}

// UintOmit is an unsigned integer field with omitempty.
func (w *Writer) UintOmit(k string, v uint64) {
	if v != 0 {
		w.Uint(k, v)
	}
}

// Uints is a list of unsigned integers: null when nil.
func (w *Writer) Uints(k string, v []uint64) {
	array(w, k, v, func(n *uint64) { w.b = strconv.AppendUint(w.b, *n, 10) })
}

// Bool is a boolean field.
func (w *Writer) Bool(k string, v bool) {
	w.Key(k)
	w.b = strconv.AppendBool(w.b, v)
}

// BoolOmit is a boolean field with omitempty.
func (w *Writer) BoolOmit(k string, v bool) {
	if v {
		w.Bool(k, v)
	}
}

// Time is a time field, as time.Time.MarshalJSON writes it.
func (w *Writer) Time(k string, t time.Time) {
	w.Key(k)
	b, err := t.MarshalJSON()
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("json: error calling MarshalJSON for type time.Time: %w", err)
	}
	w.b = append(w.b, b...)
}

// Float writes f as encoding/json writes a float64: as ES6 does, with
// an exponent only for very small and very large magnitudes.
func (w *Writer) Float(k string, f float64) {
	w.Key(k)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if w.err == nil {
			w.err = fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
		}
		w.b = append(w.b, '0')
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9.
		n := len(w.b)
		if n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
			w.b[n-2] = w.b[n-1]
			w.b = w.b[:n-1]
		}
	}
}

// Strs is a list of strings: null when nil, as encoding/json writes it.
func (w *Writer) Strs(k string, v []string) {
	array(w, k, v, func(s *string) { w.b = AppendString(w.b, *s) })
}

// StrsOmit is a list of strings with omitempty.
func (w *Writer) StrsOmit(k string, v []string) {
	if len(v) > 0 {
		w.Strs(k, v)
	}
}

// List writes v as an array of objects, each written by fields; null
// when v is nil.
func List[T any](w *Writer, k string, v []T, fields func(*T, *Writer)) {
	array(w, k, v, func(x *T) {
		w.Open()
		fields(x, w)
		w.Close()
	})
}

// array writes v as an array, each element by elem; null when v is nil,
// as encoding/json writes a nil slice.
func array[T any](w *Writer, k string, v []T, elem func(*T)) {
	w.Key(k)
	if v == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		elem(&v[i])
	}
	w.b = append(w.b, ']')
}

// ListOmit is a list of objects with omitempty: absent when empty.
func ListOmit[T any](w *Writer, k string, v []T, fields func(*T, *Writer)) {
	if len(v) > 0 {
		List(w, k, v, fields)
	}
}

// Object writes v as an object, written by fields.
func Object[T any](w *Writer, k string, v *T, fields func(*T, *Writer)) {
	w.Key(k)
	w.Open()
	fields(v, w)
	w.Close()
}

// ObjectOmit is a pointer field with omitempty: absent when nil.
func ObjectOmit[T any](w *Writer, k string, v *T, fields func(*T, *Writer)) {
	if v != nil {
		Object(w, k, v, fields)
	}
}

// AppendString is encoding/json's string encoding without HTML
// escaping: control characters, quotes and backslashes escaped, invalid
// UTF-8 as U+FFFD, and U+2028 and U+2029 escaped for JavaScript.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
