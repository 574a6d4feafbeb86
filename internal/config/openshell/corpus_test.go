// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/config/openshell"
)

// corpusFile is one file of testdata/corpus: a policy and the cases
// decided under it. Fields of defaults fill the fields a case leaves
// out.
type corpusFile struct {
	About        string            `yaml:"about"`
	Policy       string            `yaml:"policy"`
	Symlinks     map[string]string `yaml:"symlinks"`
	EndpointOnly bool              `yaml:"endpoint_only"`
	Defaults     corpusCase        `yaml:"defaults"`
	Cases        []corpusCase      `yaml:"cases"`
}

// corpusCase is a connection (no method) or a request, and the decision
// wanted (bin "-" is a caller whose executable is not known): its verdict, the policy and rule that decided when given, and
// a text its reason must contain.
type corpusCase struct {
	Name      string   `yaml:"name"`
	Host      string   `yaml:"host"`
	Port      int      `yaml:"port"`
	Bin       string   `yaml:"bin"`
	Ancestors []string `yaml:"anc"`
	Method    string   `yaml:"method"`
	Target    string   `yaml:"target"`
	Want      string   `yaml:"want"`
	Policy    *string  `yaml:"policy"`
	Rule      *string  `yaml:"rule"`
	Reason    string   `yaml:"reason"`
	Path      string   `yaml:"path"`
	Inspect   *bool    `yaml:"inspect"`
}

func (c *corpusCase) fill(d corpusCase) {
	if c.Host == "" {
		c.Host = d.Host
	}
	if c.Port == 0 {
		c.Port = d.Port
	}
	switch c.Bin {
	case "":
		c.Bin = d.Bin
	case "-":
		// An unidentified caller.
		c.Bin = ""
	}
	if c.Ancestors == nil {
		c.Ancestors = d.Ancestors
	}
	if c.Method == "" && c.Target != "" {
		c.Method = d.Method
	}
	if c.Target == "" && c.Method != "" {
		c.Target = d.Target
	}
}

// got is what a case compares of a decision.
type got struct {
	Verdict string
	Policy  string
	Rule    string
	Path    string
	Inspect bool
}

func loadCorpus(t testing.TB) map[string]corpusFile {
	t.Helper()
	paths, err := filepath.Glob("testdata/corpus/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]corpusFile{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var cf corpusFile
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		dec.KnownFields(true)
		if err := dec.Decode(&cf); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = cf
	}
	return out
}

// TestCorpus runs every case of testdata/corpus.
func TestCorpus(t *testing.T) {
	files := loadCorpus(t)
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	total := 0
	for name, cf := range files {
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			p, err := openshell.Parse(name, []byte(cf.Policy))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			ev := openshell.NewEvaluator(p, openshell.Options{Symlinks: cf.Symlinks, EndpointOnly: cf.EndpointOnly})
			seen := map[string]bool{}
			for _, c := range cf.Cases {
				if c.Name == "" || seen[c.Name] {
					t.Errorf("case %q: every case needs a name of its own", c.Name)
				}
				seen[c.Name] = true
				c.fill(cf.Defaults)
				total++
				t.Run(c.Name, func(t *testing.T) {
					conn := openshell.Conn{Host: c.Host, Port: c.Port, Binary: c.Bin, Ancestors: c.Ancestors}
					var d openshell.Decision
					if c.Method == "" {
						d = ev.Connect(conn)
					} else {
						d = ev.Request(openshell.Request{Conn: conn, Method: c.Method, Target: c.Target})
					}
					want := got{Verdict: c.Want}
					g := got{Verdict: d.Verdict.String()}
					if c.Policy != nil {
						want.Policy, g.Policy = *c.Policy, d.Policy
					}
					if c.Rule != nil {
						want.Rule, g.Rule = *c.Rule, d.Rule
					}
					if c.Path != "" {
						want.Path, g.Path = c.Path, d.Path
					}
					if c.Inspect != nil {
						want.Inspect, g.Inspect = *c.Inspect, d.Inspect
					}
					if diff := cmp.Diff(want, g); diff != "" {
						t.Errorf("decision mismatch (-want +got):\n%s\nreason: %s", diff, d.Reason)
					}
					if c.Reason == "" {
						t.Errorf("case has no reason to check")
					}
					if !strings.Contains(d.Reason+" "+d.Hint, c.Reason) {
						t.Errorf("reason %q (hint %q) does not contain %q", d.Reason, d.Hint, c.Reason)
					}
				})
			}
		})
	}
	t.Logf("%d corpus cases", total)
}
