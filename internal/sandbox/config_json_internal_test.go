// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build linux

package sandbox

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/jsontest"
)

// TestConfigMarshalAsReflection: thousands of configurations, every
// field set or not, are written byte for byte as encoding/json writes
// them (without HTML escaping) wherever their strings are UTF-8.
func TestConfigMarshalAsReflection(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 5000 {
		var c config
		jsontest.Fill(r, reflect.ValueOf(&c).Elem())
		c.eachString(func(s *string) { *s = strings.TrimLeft(strings.ToValidUTF8(*s, "?"), "\x00") })
		got, err := c.marshal()
		if err != nil {
			t.Fatalf("configuration %d: %v", i, err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Fatalf("configuration %d:\n got %s\nwant %s", i, got, want.Bytes())
		}
	}
}

// TestConfigReadAsSent: init reads every configuration as the parent
// sent it, byte for byte, whatever its strings hold: paths that are not
// UTF-8, strings that begin with NUL. Before, a mask below a name that
// is not UTF-8 reached init as another path, which it skipped.
func TestConfigReadAsSent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 5000 {
		var c config
		jsontest.Fill(r, reflect.ValueOf(&c).Elem())
		if i%7 == 0 {
			c.Masks = append(c.Masks, "/home/caf\xe9/.ssh", "\x00", "\x00AAAA")
		}
		b, err := c.marshal()
		if err != nil {
			t.Fatalf("configuration %d: %v", i, err)
		}
		got, err := decodeConfig(b)
		if err != nil {
			t.Fatalf("configuration %d: %v", i, err)
		}
		// Lists written with omitempty come back nil when empty; the
		// others (Readable: nil reads the whole view) as they were.
		if len(c.CommandRlimits) == 0 {
			c.CommandRlimits = nil
		}
		if len(c.AllowSyscalls) == 0 {
			c.AllowSyscalls = nil
		}
		if len(c.Idmapped) == 0 {
			c.Idmapped = nil
		}
		if len(c.CgroupJoin) == 0 {
			c.CgroupJoin = nil
		}
		if diff := cmp.Diff(c, got); diff != "" {
			t.Fatalf("configuration %d read back (-sent +read):\n%s", i, diff)
		}
	}
	if _, err := decodeConfig([]byte(`{"masks":["\u0000not base64!"]}`)); err == nil {
		t.Error("a string in no form the parent writes was read")
	}
}
