// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package claudecode_test

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
	"warden.dev/warden/internal/adapter/claudecode"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// home is the home directory of the recorded sessions.
const home = "/tmp/cc-harness-EXAMPLE/home"

// testWrapper is the --wrap of the golden answers.
func testWrapper(project string) *claudecode.Wrapper {
	return &claudecode.Wrapper{Exe: "/usr/local/bin/warden", Policy: "/etc/warden/policy.yaml", Project: project, AuditDir: "/state/runs"}
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

// TestGolden runs every payload in testdata/payloads (recorded from
// Claude Code 2.1.197) and testdata/constructed through translation, the
// engine on the default policy, and the answer, and compares each step
// with testdata/golden/NAME.txtar.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/payloads/*.json")
	more, _ := filepath.Glob("testdata/constructed/*.json")
	files = append(files, more...)
	if len(files) < 17 {
		t.Fatalf("found %d payloads, want the recorded ones and more", len(files))
	}
	e := defaultEngine(t)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		if strings.Contains(file, "constructed") {
			name = "constructed-" + name
		}
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

// goldenArchive is the golden file of one payload.
func goldenArchive(t *testing.T, e *policy.Engine, data []byte) []byte {
	t.Helper()
	p, err := claudecode.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	ar := &txtar.Archive{Comment: []byte("payload event " + string(p.Event) + ", tool " + p.ToolName + "\n")}
	add := func(name string, b []byte) {
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: b})
	}
	for _, variant := range []struct {
		name     string
		wrap     bool
		headless bool
	}{{"", false, false}, {"headless", false, true}, {"wrap", true, false}} {
		opt := claudecode.Options{Project: p.Cwd}
		if variant.wrap {
			opt.Wrap = testWrapper(p.Cwd)
		}
		c, err := claudecode.Translate(p, opt)
		if err != nil {
			t.Fatalf("Translate: %v", err)
		}
		if variant.wrap && !c.Bash {
			continue
		}
		suffix := ""
		if variant.name != "" {
			suffix = "-" + variant.name
		}
		if variant.name != "headless" {
			add("call"+suffix+".json", callJSON(t, c))
		}
		if p.Event == claudecode.PostToolUse || p.Event == claudecode.PostToolUseFailure {
			if variant.name == "" {
				add("answer.json", claudecode.Answer{Event: p.Event}.JSON())
			}
			continue
		}
		a, _, err := c.Request.Action(request.Options{Dir: p.Cwd, Home: home})
		if err != nil {
			t.Fatalf("Action: %v", err)
		}
		d, _ := e.Evaluate(a, policy.Env{Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)})
		if variant.name != "headless" {
			add("decision"+suffix, []byte(d.Verdict.String()+" by "+d.Rule+": "+d.Reason+"\n"))
		}
		v := claudecode.Verdict(d.Verdict, p.PersonCanAnswer(variant.headless))
		ans := claudecode.Answer{Event: p.Event, Verdict: v, Reason: claudecode.Note(c, a, d, v)}
		if variant.wrap && v != action.Deny {
			ans.UpdatedInput, err = claudecode.UpdatedInput(p, opt.Wrap.Wrap(c.Request.Command, p.Cwd, p.ToolUseID))
			if err != nil {
				t.Fatal(err)
			}
		}
		add("answer"+suffix+".json", indent(t, ans.JSON()))
	}
	return txtar.Format(ar)
}

func callJSON(t *testing.T, c *claudecode.Call) []byte {
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return indent(t, b)
}

func indent(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	out.WriteByte('\n')
	return out.Bytes()
}
