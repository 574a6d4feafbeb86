// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package jsonw_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"warden.dev/warden/internal/jsontest"
	"warden.dev/warden/internal/jsonw"
)

// reference is encoding/json's encoding of v without HTML escaping.
func reference(t *testing.T, v any) ([]byte, error) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// FuzzString: any string, valid UTF-8 or not, is written as
// encoding/json writes it.
func FuzzString(f *testing.F) {
	for _, s := range jsontest.StrangeStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := reference(t, s)
		if got := jsonw.AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", s, got, want)
		}
	})
}

// FuzzFloat: any float is written as encoding/json writes it, and one
// it refuses (NaN, the infinities) is refused.
func FuzzFloat(f *testing.F) {
	for _, x := range []float64{0, 1, -1, 0.1, 1e-7, 1e-6, 1e21, 1e20, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(-1)} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		want, wantErr := reference(t, struct {
			X float64 `json:"x"`
		}{x})
		w := jsonw.NewWriter(nil)
		w.Open()
		w.Float("x", x)
		w.Close()
		got, err := w.Bytes()
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%v: error %v, encoding/json's %v", x, err, wantErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("%v:\n got %s\nwant %s", x, got, want)
		}
	})
}
