// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

// This file reads JSON objects by their exact keys, as the agents read
// them. The rules:
//
//   - Claude Code and Gemini CLI (JavaScript), Codex (Rust) and most MCP
//     servers read an object's keys exactly; encoding/json matches a
//     struct's fields ignoring case, with Unicode folding ("ſ" is "s",
//     the Kelvin sign "K" is "k"). Decoded naively, {"command":"ls",
//     "Command":"rm -rf ~"} is "ls" to the agent and "rm -rf ~" to Warden.
//   - So no object Warden reads may hold two keys that are one key to a
//     reader ignoring case (duplicates included: readers differ on which
//     one wins), nor, where Warden knows the keys it reads, a key that is
//     one of them in another case: an agent reads no "command" in
//     {"Command":…}, a Go server reads one.
//   - Keys are equal under [FoldKey]: every case mapping and simple case
//     folding of Unicode, and encoding/json's own folding, agree with it.
//     Full case folding, which turns one letter into several ("ß" into
//     "ss"), is not followed: no reader named above applies it to keys.
//   - Values Warden does not read (a struct's json.RawMessage, an unknown
//     field) are not looked into, but by [CheckKeys].

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// FoldKey returns the form in which two object keys are equal when a
// reader that ignores case could take one for the other: "Name", "NAME"
// and "name"; "paramſ" and "params"; "\u212Aey" and "key".
func FoldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune is the least rune of the simple case folding orbit of r's
// upper case of its lower case (encoding/json's folding): closed under
// ToLower, ToUpper, ToTitle and SimpleFold (TestFoldRuneIsClosed).
func foldRune(r rune) rune {
	r = unicode.ToUpper(unicode.ToLower(r))
	m := r
	for s := unicode.SimpleFold(r); s != r; s = unicode.SimpleFold(s) {
		m = min(m, s)
	}
	return m
}

// KeyError is an object whose keys Warden cannot read as the agent does.
type KeyError struct {
	// Key is the key refused; Other the key it is taken for (the same
	// key for a duplicate).
	Key, Other string
	// Known is true when Other is a key Warden reads (a field of the
	// struct decoded, a name asked for) and Key is not it.
	Known bool
}

func (e *KeyError) Error() string {
	switch {
	case e.Key == e.Other:
		return fmt.Sprintf("the key %q appears twice", e.Key)
	case e.Known:
		return fmt.Sprintf("the key %q is %q in another case", e.Key, e.Other)
	}
	return fmt.Sprintf("the keys %q and %q differ only in case", e.Other, e.Key)
}

// Unmarshal decodes data into v as a reader of exact keys would: it
// fails with a [*KeyError] when an object v decodes into holds two keys
// equal under [FoldKey], or a key that is a field of v's struct in
// another case; otherwise it is json.Unmarshal.
func Unmarshal(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	return checkTyped(data, reflect.TypeOf(v))
}

// CheckKeys fails with a [*KeyError] when any object in data, however
// deep, holds two keys equal under [FoldKey]. data must be valid JSON.
func CheckKeys(data []byte) error {
	return walkKeys(json.NewDecoder(bytes.NewReader(data)), deep{})
}

// Misspelled fails with a [*KeyError] when obj holds a key that is one of
// known in another case and not known itself: the first such key in the
// order of known, then of the keys.
func Misspelled(obj map[string]json.RawMessage, known ...string) error {
	keys := slices.Sorted(maps.Keys(obj))
	for _, want := range known {
		for _, k := range keys {
			if k != want && FoldKey(k) == FoldKey(want) {
				if _, ok := obj[want]; ok {
					return &KeyError{Key: k, Other: want}
				}
				return &KeyError{Key: k, Other: want, Known: true}
			}
		}
	}
	return nil
}

func checkTyped(data []byte, t reflect.Type) error {
	return walkKeys(json.NewDecoder(bytes.NewReader(data)), shapeOf(t))
}

// shape says how deep the key check goes into one value.
type shape interface {
	// field returns the shape of the value of key k in an object of this
	// shape, or the error of a key that must not be there.
	field(k string) (shape, *KeyError)
	// elem is the shape of an array's elements.
	elem() shape
}

// deep checks every object.
type deep struct{}

func (deep) field(string) (shape, *KeyError) { return deep{}, nil }
func (deep) elem() shape                     { return deep{} }

// typed checks the objects a Go type decodes; nil checks nothing.
type typed struct{ t reflect.Type }

var (
	rawType         = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// resolve strips pointers; it is nil for a value read whole (raw JSON,
// a type with its own decoding) or not read at all.
func (s typed) resolve() reflect.Type {
	t := s.t
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t == rawType || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	return t
}

func (s typed) field(k string) (shape, *KeyError) {
	t := s.resolve()
	if t == nil {
		return nil, nil
	}
	switch t.Kind() {
	case reflect.Map:
		return shapeOf(t.Elem()), nil
	case reflect.Struct:
		fs := structFields(t)
		if ft, ok := fs.exact[k]; ok {
			return shapeOf(ft), nil
		}
		if name, ok := fs.folded[FoldKey(k)]; ok {
			return nil, &KeyError{Key: k, Other: name, Known: true}
		}
	}
	return nil, nil
}

func (s typed) elem() shape {
	t := s.resolve()
	if t == nil || t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
		return nil
	}
	return shapeOf(t.Elem())
}

// shapeOf is the shape of a value of type t: nil when it is not looked
// into.
func shapeOf(t reflect.Type) shape {
	if (typed{t}).resolve() == nil {
		return nil
	}
	return typed{t}
}

// fields are a struct's JSON keys: the type of each, and each by its
// folded form.
type fields struct {
	exact  map[string]reflect.Type
	folded map[string]string
}

var fieldCache sync.Map // reflect.Type → *fields

// structFields lists the keys encoding/json decodes into t: exported
// fields by their tag's name or their own, "-" skipped, embedded structs'
// fields promoted (Warden's payloads embed none; a conflict is not
// resolved here, and both names are known).
func structFields(t reflect.Type) *fields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*fields)
	}
	fs := &fields{exact: map[string]reflect.Type{}, folded: map[string]string{}}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if sf.Anonymous && name == "" {
				et := sf.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					add(et)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			fs.exact[name] = sf.Type
			fs.folded[FoldKey(name)] = name
		}
	}
	add(t)
	fieldCache.Store(t, fs)
	return fs
}

// walkKeys reads one JSON value from dec, checking the keys of every
// object sh looks into. A nil shape skips the value.
func walkKeys(dec *json.Decoder, sh shape) error {
	if sh == nil {
		var skip json.RawMessage
		return dec.Decode(&skip)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]string{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			k, ok := kt.(string)
			if !ok {
				return errors.New("an object key that is not a string")
			}
			f := FoldKey(k)
			if prev, dup := seen[f]; dup {
				return &KeyError{Key: k, Other: prev}
			}
			seen[f] = k
			child, kerr := sh.field(k)
			if kerr != nil {
				return kerr
			}
			if err := walkKeys(dec, child); err != nil {
				return err
			}
		}
		_, err = dec.Token() // }
		return err
	case json.Delim('['):
		el := sh.elem()
		for dec.More() {
			if err := walkKeys(dec, el); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ]
		return err
	}
	return nil
}
