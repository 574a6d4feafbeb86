// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package jsontest fills values of any type at random, for the tests
// that check a hand-written JSON encoding against encoding/json's.
package jsontest

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"time"
)

// StrangeStrings are the strings whose encoding differs most between
// encoders: escapes, HTML, invalid UTF-8, the JavaScript line breaks.
var StrangeStrings = []string{
	"", "a", `"quoted" \back\slash/`, "<script>&amp;</script>",
	"tab\there\nnew\rline\bback\fform", "\x00\x01\x1f\x7f", "\xff\xfe invalid \xc3",
	"é ü 漢字 😀", "\u2028\u2029", "ends in \xe2\x80", "git push --force origin main",
	"/home/someone/.ssh/id_rsa",
}

// Fill sets v, whatever its type, to a value drawn from r: every
// exported field of every struct, each slice nil, empty or not, each
// pointer nil or not, strings, numbers and times among the values that
// encoders write differently. A field added to a type is filled too, so
// a test that compares a hand-written encoder with encoding/json fails
// until the encoder writes it.
func Fill(r *rand.Rand, v reflect.Value) { fill(r, v, 0) }

func fill(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Type() {
	case reflect.TypeFor[time.Time]():
		if r.IntN(4) == 0 {
			return
		}
		t := time.Unix(r.Int64N(4e9), r.Int64N(1e9))
		if r.IntN(2) == 0 {
			t = t.In(time.FixedZone("", (r.IntN(48)-24)*1800))
		} else {
			t = t.UTC()
		}
		v.Set(reflect.ValueOf(t))
		return
	case reflect.TypeFor[json.RawMessage]():
		v.Set(reflect.ValueOf(json.RawMessage([]string{`null`, `1`, `"x"`, `{"a":[1,2]}`}[r.IntN(4)])))
		return
	}
	switch v.Kind() {
	case reflect.String:
		if r.IntN(2) == 0 {
			v.SetString(StrangeStrings[r.IntN(len(StrangeStrings))])
			return
		}
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		v.SetString(string(b))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch n := r.Int64() >> (64 - v.Type().Bits()); r.IntN(4) {
		case 0:
		case 1:
			v.SetInt(int64(r.IntN(100)))
		case 2:
			v.SetInt(-n)
		default:
			v.SetInt(n)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if r.IntN(3) > 0 {
			v.SetUint(r.Uint64() >> (64 - v.Type().Bits()))
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(r, v.Index(i), depth+1)
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Float64:
		floats := []float64{0, 0.5, 1, 2.25, -3, 1e-7, 1e-6, 9.99e-7, 1e20, 1e21, 1.5e300, 123456.789, -5e-324}
		if r.IntN(4) == 0 {
			v.SetFloat(r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)))
		} else {
			v.SetFloat(floats[r.IntN(len(floats))])
		}
	case reflect.Slice:
		switch n := r.IntN(4); {
		case n == 0 || depth > 3:
		case n == 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				fill(r, s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Pointer:
		if r.IntN(3) == 0 || depth > 3 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	default:
		panic(fmt.Sprintf("fill: no values for %s", v.Type()))
	}
}
