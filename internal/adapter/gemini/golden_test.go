// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gemini_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/adapter/gemini"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// home is the home directory of the constructed payloads.
const home = "/tmp/gemini-EXAMPLE/home"

func testWrapper(project string) *adapter.Wrapper {
	return &adapter.Wrapper{Exe: "/usr/local/bin/warden", Policy: "/etc/warden/policy.yaml", Project: project, AuditDir: "/state/runs"}
}

func defaultEngine(t *testing.T) *policy.Engine {
	t.Helper()
	f, err := policyfile.Parse("default.yaml", []byte("version: 1\nautonomy: actWithApproval\n"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.Compile(f.Policy, policy.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestGolden runs every payload in testdata/payloads (constructed from
// Gemini CLI's source, see testdata/README.md) through translation, the engine
// on the default policy, and the answer, and compares each step with
// testdata/golden/NAME.txtar.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/payloads/*.json")
	if len(files) < 15 {
		t.Fatalf("found %d payloads, want one for every tool and event", len(files))
	}
	e := defaultEngine(t)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := goldenArchive(t, e, data)
			golden := filepath.Join("testdata", "golden", name+".txtar")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

func goldenArchive(t *testing.T, e *policy.Engine, data []byte) []byte {
	t.Helper()
	p, err := gemini.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	ar := &txtar.Archive{Comment: []byte("payload event " + p.Event + ", tool " + p.ToolName + "\n")}
	add := func(name string, b []byte) { ar.Files = append(ar.Files, txtar.File{Name: name, Data: b}) }
	for _, variant := range []struct {
		name     string
		wrap     bool
		headless bool
	}{{"", false, false}, {"headless", false, true}, {"wrap", true, false}} {
		opt := gemini.Options{Project: p.Cwd}
		if variant.wrap {
			opt.Wrap = testWrapper(p.Cwd)
			opt.Wrap.AuditDir = ""
		}
		c, err := gemini.Translate(p, opt)
		if err != nil {
			t.Fatalf("Translate: %v", err)
		}
		if variant.wrap && !c.Shell {
			continue
		}
		suffix := ""
		if variant.name != "" {
			suffix = "-" + variant.name
		}
		if variant.name != "headless" {
			add("call"+suffix+".json", indent(t, mustJSON(t, c)))
		}
		a, d := strictest(t, e, p.Cwd, c.Requests)
		if variant.name != "headless" {
			add("decision"+suffix, []byte(d.Verdict.String()+" by "+d.Rule+": "+d.Reason+"\n"))
		}
		v := gemini.Verdict(c, d.Verdict, variant.headless)
		ans := gemini.Answer{Verdict: v}
		if v != action.Allow {
			ans.Reason = gemini.Note(c, a, d, v, variant.headless)
		}
		if variant.wrap && v != action.Deny {
			ans.ToolInput, err = gemini.WrappedInput(opt.Wrap.Wrap(c.Requests[0].Command, c.Dir, ""))
			if err != nil {
				t.Fatal(err)
			}
		}
		add("answer"+suffix+".json", indent(t, ans.JSON()))
	}
	return txtar.Format(ar)
}

// strictest decides every request and keeps the strictest decision, as
// the hook does.
func strictest(t *testing.T, e *policy.Engine, dir string, reqs []request.Request) (*action.Action, policy.Decision) {
	t.Helper()
	rank := map[action.Verdict]int{action.Allow: 0, action.Prompt: 1, action.Deny: 2}
	var wa *action.Action
	var wd policy.Decision
	for i := range reqs {
		a, _, err := reqs[i].Action(request.Options{Dir: dir, Home: home})
		if err != nil {
			t.Fatalf("Action: %v", err)
		}
		d, _ := e.Evaluate(a, policy.Env{Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)})
		if wa == nil || rank[d.Verdict] > rank[wd.Verdict] {
			wa, wd = a, d
		}
	}
	return wa, wd
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func indent(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	out.WriteByte('\n')
	return out.Bytes()
}
