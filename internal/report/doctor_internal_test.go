// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/sandbox"
)

// TestDoctorOutput checks warden doctor's human output against the golden
// files in testdata/doctor/*.txtar. Each holds:
//
//	-- facts.json --  a host's facts, as warden doctor --json prints them
//	-- trial.json --  its trial run
//	-- want --        the output for the matrix sandbox.Assess derives
//	                  from them (-update rewrites it)
//
// root and nobody were recorded on a Linux 6.18 host with cgroup v1, as
// root and as uid 65534, with the random parts of names made fixed.
func TestDoctorOutput(t *testing.T) {
	goldentest.Run(t, "testdata/doctor/*.txtar", func(t *testing.T, _ string, in goldentest.Sections) goldentest.Sections {
		var r sandbox.HostReport
		for name, v := range map[string]any{"facts.json": &r.Facts, "trial.json": &r.Trial} {
			dec := json.NewDecoder(bytes.NewReader(in[name]))
			dec.DisallowUnknownFields()
			if err := dec.Decode(v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		r.Matrix = sandbox.Assess(r.Facts, r.Trial)
		var got bytes.Buffer
		WriteDoctor(&got, r)
		return goldentest.Sections{"want": got.Bytes()}
	})
}

func TestPrintAdapters(t *testing.T) {
	var b strings.Builder
	WriteAdapters(&b, []adapter.Honesty{{
		Adapter:         "warden hook example",
		FiltersTools:    adapter.Capability{Level: adapter.No, Note: "the tool list is the agent's"},
		InterceptsCalls: adapter.Capability{Level: adapter.Yes, Note: "every call, before it runs"},
		SeesNativeTools: adapter.Capability{Level: adapter.Partial, Note: "not its notebook tool"},
		Sandboxes:       adapter.Capability{Level: adapter.No, Note: "calls run in the agent's process"},
	}})
	for _, want := range []string{
		"What each adapter lets Warden do",
		"warden hook example  no             yes               partial            no",
		"warden hook example, sees native tools: not its notebook tool",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	WriteAdapters(&b, nil)
	if b.Len() != 0 {
		t.Errorf("no adapters printed %q", b.String())
	}
}
