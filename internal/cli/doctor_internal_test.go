// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/sandbox"
)

var update = flag.Bool("update", false, "rewrite the golden doctor output in testdata/doctor")

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
	files, err := filepath.Glob("testdata/doctor/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string][]byte{}
			for _, f := range ar.Files {
				sections[f.Name] = f.Data
			}
			var r sandbox.HostReport
			for name, v := range map[string]any{"facts.json": &r.Facts, "trial.json": &r.Trial} {
				dec := json.NewDecoder(bytes.NewReader(sections[name]))
				dec.DisallowUnknownFields()
				if err := dec.Decode(v); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			r.Matrix = sandbox.Assess(r.Facts, r.Trial)
			var got bytes.Buffer
			printDoctor(&got, r)
			if *update {
				replaced := false
				for i := range ar.Files {
					if ar.Files[i].Name == "want" {
						ar.Files[i].Data, replaced = got.Bytes(), true
					}
				}
				if !replaced {
					ar.Files = append(ar.Files, txtar.File{Name: "want", Data: got.Bytes()})
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(string(sections["want"]), got.String()); diff != "" {
				t.Errorf("warden doctor output differs from %s (-want +got); rerun with -update if intended:\n%s", file, diff)
			}
		})
	}
}

func TestPrintAdapters(t *testing.T) {
	var b strings.Builder
	printAdapters(&b, []adapter.Honesty{{
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
	printAdapters(&b, nil)
	if b.Len() != 0 {
		t.Errorf("no adapters printed %q", b.String())
	}
}
