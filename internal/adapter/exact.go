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
	"cmp"
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
	if !json.Valid(data) {
		return errors.New("not valid JSON")
	}
	return walkRaw(data, skipSpace(data, 0), deep{})
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
	return walkRaw(data, skipSpace(data, 0), shapeOf(t))
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
	// longest is the byte length of the longest folded key: a key
	// more than three times longer (folding can shrink a rune from
	// three bytes to one) cannot be one of them in another case.
	longest int
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
			fs.longest = max(fs.longest, len(FoldKey(name)))
		}
	}
	add(t)
	fieldCache.Store(t, fs)
	return fs
}

// walkRaw checks the keys of the JSON value at data[i:] (valid JSON)
// in every object sh looks into, without decoding or copying values: a
// payload may be 16 MiB. A nil shape skips the value. Of a struct's
// object only the keys that could be its fields are remembered; of a map
// or a deep check, every key.
func walkRaw(data []byte, i int, sh shape) error {
	if sh == nil || i >= len(data) {
		return nil
	}
	switch data[i] {
	case '{':
		var fs *fields
		if ts, ok := sh.(typed); ok {
			if t := ts.resolve(); t != nil && t.Kind() == reflect.Struct {
				fs = structFields(t)
			}
		}
		// Keys are remembered by the hash of their folded form and
		// where they are, in one slice of the object's size: no copy
		// of a key, whatever their number. Equal hashes are compared
		// on the keys themselves once the object is read.
		n := 0
		scanAt(data, i, func([]byte, int, int) bool { n++; return true })
		keys := make([]foldedKey, 0, n)
		var kerr error
		var misspelled *KeyError // a field's name in another case
		misAt := -1
		_, err := scanAt(data, i, func(name []byte, vs, _ int) bool {
			at := keyStart(data, vs)
			keys = append(keys, foldedKey{foldHash(name), at})
			if fs != nil && len(name) > 3*fs.longest {
				return true // no field of the struct, in any case
			}
			child, ke := sh.field(string(name))
			if ke != nil {
				if misspelled == nil {
					misspelled, misAt = ke, at
				}
				return true
			}
			kerr = walkRaw(data, vs, child)
			return kerr == nil
		})
		if err != nil || kerr != nil {
			return cmp.Or(err, kerr)
		}
		// The first refusal in the object's order, as a reader going
		// through it would meet it.
		dup, dupAt := collision(data, keys)
		switch {
		case dup != nil && (misspelled == nil || dupAt <= misAt):
			return dup
		case misspelled != nil:
			return misspelled
		}
		return nil
	case '[':
		el := sh.elem()
		if el == nil {
			return nil
		}
		j := skipSpace(data, i+1)
		for j < len(data) && data[j] != ']' {
			if err := walkRaw(data, j, el); err != nil {
				return err
			}
			j = skipSpace(data, skipValue(data, j))
			if j < len(data) && data[j] == ',' {
				j = skipSpace(data, j+1)
			}
		}
	}
	return nil
}

// foldHash is the FNV-1a hash of the runes of [FoldKey] of name, made
// without allocating.
func foldHash(name []byte) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); {
		r, n := rune(name[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(name[i:])
			r = foldRune(r)
		} else if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		i += n
		for r > 0 {
			h ^= uint64(r & 0xff)
			h *= 1099511628211
			r >>= 8
		}
		h ^= 0xff // rune separator
		h *= 1099511628211
	}
	return h
}

// keyStart is the offset in data of the opening quote of the member
// whose value starts at vs and whose unescaped name is name.
func keyStart(data []byte, vs int) int {
	j := vs - 1
	for j > 0 && data[j] != ':' {
		j--
	}
	for j--; j > 0 && data[j] != '"'; j-- {
	}
	// data[j] is the closing quote; find the opening one, past escapes.
	for j--; j > 0; j-- {
		if data[j] == '"' && !escaped(data, j) {
			return j
		}
	}
	return 0
}

// escaped reports whether the byte at j is escaped by the backslashes
// before it.
func escaped(data []byte, j int) bool {
	n := 0
	for k := j - 1; k >= 0 && data[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// keyAt returns the unescaped key whose opening quote is at data[at].
func keyAt(data []byte, at int) string {
	end := skipString(data, at)
	var k string
	if err := json.Unmarshal(data[at:end], &k); err != nil {
		return ""
	}
	return k
}

// foldedKey is an object key by the hash of its folded form and the
// offset of its opening quote.
type foldedKey struct {
	hash uint64
	at   int
}

// collision reports the first pair of an object's keys (by the later
// one's place, returned) that are equal under [FoldKey].
func collision(data []byte, keys []foldedKey) (*KeyError, int) {
	slices.SortFunc(keys, func(a, b foldedKey) int { return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.at, b.at)) })
	var found *KeyError
	at := -1
	for i := 1; i < len(keys); i++ {
		if keys[i].hash != keys[i-1].hash {
			continue
		}
		// Within a run of equal hashes, compare with each earlier one.
		for j := i - 1; j >= 0 && keys[j].hash == keys[i].hash; j-- {
			k, prev := keyAt(data, keys[i].at), keyAt(data, keys[j].at)
			if FoldKey(k) == FoldKey(prev) && (at < 0 || keys[i].at < at) {
				found, at = &KeyError{Key: k, Other: prev}, keys[i].at
			}
		}
	}
	return found, at
}
