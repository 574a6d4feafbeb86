// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package adaptertest runs an agent adapter's golden files: each payload
// through the agent's parse and translation and the hook's own decision
// and answer ([hook.Judge], [hook.Respond]), on a bare policy, with and
// without --wrap and headless, each step compared with
// testdata/golden/NAME.txtar (goldentest's -update rewrites them). A set
// of refused payloads goes through [hook.Decide], which must refuse each
// one: the golden file holds the hook's exit status and error.
package adaptertest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/hook"
)

// Set is a folder of payloads; Prefix starts the name of each one's
// golden file. Refused payloads are ones the hook must refuse (it exits
// 2, which blocks the call).
type Set struct {
	Glob, Prefix string
	Refused      bool
}

// Golden says which payloads to run for an agent.
type Golden struct {
	Agent adapter.Agent
	// Home is the home directory of the recorded sessions.
	Home string
	Sets []Set
	// Min is the fewest payloads the sets must hold.
	Min int
}

// now is when the golden decisions are taken.
var now = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// Run compares every payload's golden file.
func Run(t *testing.T, g Golden) {
	t.Helper()
	type payload struct {
		file, name string
		refused    bool
	}
	var files []payload
	for _, s := range g.Sets {
		m, _ := filepath.Glob(s.Glob)
		for _, f := range m {
			files = append(files, payload{f, s.Prefix + strings.TrimSuffix(filepath.Base(f), ".json"), s.Refused})
		}
	}
	if len(files) < g.Min {
		t.Fatalf("found %d payloads, want at least %d", len(files), g.Min)
	}
	p, err := config.Parse("default.yaml", []byte("version: 1\nautonomy: actWithApproval\n"), config.Options{Home: g.Home})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			data, err := os.ReadFile(f.file)
			if err != nil {
				t.Fatal(err)
			}
			var got []byte
			if f.refused {
				got = refusal(t, g, p, data)
			} else {
				got = archive(t, g, p, data)
			}
			goldentest.Check(t, filepath.Join("testdata", "golden", f.name+".txtar"), got)
		})
	}
}

// Wrapper is the --wrap of the golden answers.
func Wrapper(ag adapter.Agent, project string) *adapter.Wrapper {
	w := &adapter.Wrapper{Exe: "/usr/local/bin/warden", Policy: "/etc/warden/policy.yaml", Project: project}
	if hook.ReadsRuns(ag) {
		w.AuditDir = "/state/runs"
	}
	return w
}

// archive is the golden file of one payload.
func archive(t *testing.T, g Golden, p *config.Policy, data []byte) []byte {
	t.Helper()
	ag := g.Agent
	first, err := ag.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	ar := &txtar.Archive{Comment: []byte("payload event " + first.Event + ", tool " + first.Tool + "\n")}
	add := func(name string, b []byte) { ar.Files = append(ar.Files, txtar.File{Name: name, Data: b}) }
	for _, variant := range []struct {
		name     string
		wrap     bool
		headless bool
	}{{"", false, false}, {"headless", false, true}, {"wrap", true, false}} {
		c, _ := ag.Parse(data)
		opt := adapter.Options{Project: c.Cwd}
		if variant.wrap {
			opt.Wrap = Wrapper(ag, c.Cwd)
		}
		if err := ag.Translate(c, opt); err != nil {
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
		if c.Phase == adapter.After {
			if variant.name == "" {
				add("answer.json", ag.Answer(c, adapter.Answer{}))
			}
			continue
		}
		a, d, err := hook.Judge(p, c, now, g.Home)
		if err != nil {
			t.Fatalf("Judge: %v", err)
		}
		if variant.name != "headless" {
			add("decision"+suffix, []byte(d.Verdict.String()+" by "+d.Rule+": "+d.Reason+"\n"))
		}
		ans, err := hook.Respond(ag, c, a, d, variant.headless, opt.Wrap)
		if err != nil {
			t.Fatal(err)
		}
		add("answer"+suffix+".json", indent(t, ag.Answer(c, ans)))
	}
	return txtar.Format(ar)
}

// refusal is the golden file of a payload the hook refuses: what
// `warden hook` does with it.
func refusal(t *testing.T, g Golden, p *config.Policy, data []byte) []byte {
	t.Helper()
	out, err := hook.Decide(g.Agent, data, hook.Options{
		Policy: func() (*config.Policy, error) { return p, nil },
		Now:    now, Home: g.Home,
	})
	if err == nil {
		t.Fatalf("Decide answered %s, want a refusal", out)
	}
	ar := &txtar.Archive{
		Comment: []byte("payload refused: the hook exits 2, which blocks the call\n"),
		Files:   []txtar.File{{Name: "stderr", Data: []byte("warden: error: " + err.Error() + "\n")}},
	}
	return txtar.Format(ar)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func indent(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	out.WriteByte('\n')
	return out.Bytes()
}
