// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package warden_test

import (
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
)

// docPolicy is one YAML block of the documentation, where it starts.
type docPolicy struct {
	file string
	line int
	src  string
}

// docPolicies are the ```yaml blocks of README.md and docs/*.md. A block
// without version: is a fragment of a policy file, read as one.
func docPolicies(t *testing.T) []docPolicy {
	t.Helper()
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docPolicy
	for _, name := range append(files, "README.md") {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var block []string
		start, in, indent := 0, false, ""
		for i, line := range strings.Split(string(data), "\n") {
			trimmed := strings.TrimSpace(line)
			switch {
			case !in && trimmed == "```yaml":
				in, start, block = true, i+2, nil
				indent = line[:len(line)-len(strings.TrimLeft(line, " "))]
			case in && trimmed == "```":
				in = false
				src := strings.Join(block, "\n") + "\n"
				if !strings.HasPrefix(src, "version:") {
					src = "version: 1\n" + src
				}
				out = append(out, docPolicy{name, start, src})
			case in:
				block = append(block, strings.TrimPrefix(line, indent))
			}
		}
	}
	if len(out) < 10 {
		t.Fatalf("found %d YAML blocks in the documentation, want at least 10", len(out))
	}
	return out
}

// TestDocPolicies checks that every policy the documentation shows loads
// as a policy file, and that its network rules compile.
func TestDocPolicies(t *testing.T) {
	for _, d := range docPolicies(t) {
		f, err := policyfile.Parse("policy.yaml", []byte(d.src))
		if err != nil {
			t.Errorf("%s:%d: the example does not load: %v", d.file, d.line, err)
			continue
		}
		if _, err := netpolicy.Compile(f.Network.EgressRules()); err != nil {
			t.Errorf("%s:%d: its network rules do not compile: %v", d.file, d.line, err)
		}
	}
}

// toolHosts are the hosts package managers and the like connect to by
// default, first to last: the documentation's network examples must open
// all of a tool's hosts when they open one, or the example does not
// work for that tool.
var toolHosts = []struct {
	tool    string
	domains []string // a rule naming a host in one of them is about the tool
	hosts   []string // what the tool connects to, on port 443
}{
	// pip and uv read the index at pypi.org/simple/ and download from
	// files.pythonhosted.org.
	{"pip", []string{"pypi.org", "pythonhosted.org"}, []string{"pypi.org", "files.pythonhosted.org"}},
	{"npm", []string{"npmjs.org"}, []string{"registry.npmjs.org"}},
	// go: modules from the module proxy, checksums from the database.
	{"go", []string{"golang.org"}, []string{"proxy.golang.org", "sum.golang.org"}},
	// cargo: the sparse index, then the crates.
	{"cargo", []string{"crates.io"}, []string{"index.crates.io", "static.crates.io"}},
}

// TestDocNetworkExamplesMatchTools checks that a network example naming a
// package index lets that tool's real hosts through, as warden net check
// and the egress proxy decide them (pip connects to pypi.org, which
// *.pypi.org never matches, and downloads from files.pythonhosted.org),
// unless the example shows lint reporting that very gap.
func TestDocNetworkExamplesMatchTools(t *testing.T) {
	// After every until: of the examples, so that none is judged expired
	// by the test's own clock.
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	checked := 0
	for _, d := range docPolicies(t) {
		f, err := policyfile.Parse("policy.yaml", []byte(d.src))
		if err != nil {
			continue // TestDocPolicies reports it
		}
		np, err := netpolicy.Compile(f.Network.EgressRules())
		if err != nil {
			continue
		}
		fds, err := policyfile.Lint(f, now)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range toolHosts {
			named := slices.ContainsFunc(f.Network.Rules, func(r policyfile.NetRule) bool {
				h := strings.TrimPrefix(r.Host, "*.")
				return r.Action == action.Allow && slices.ContainsFunc(tool.domains, func(dom string) bool {
					return h == dom || strings.HasSuffix(h, "."+dom)
				})
			})
			if !named {
				continue
			}
			checked++
			for _, h := range tool.hosts {
				tg, err := netpolicy.ParseTarget(h + ":443")
				if err != nil {
					t.Fatal(err)
				}
				// An address of the tool's CDN, outside every example's
				// allowed_ips, as the proxy judges it once resolved.
				// An example showing the gap on purpose shows lint
				// reporting it.
				shown := slices.ContainsFunc(fds, func(fd policy.Finding) bool { return strings.Contains(fd.Msg, "no rule allows "+h) })
				if dec := np.CheckAddrs(tg, "GET", []netip.Addr{netip.MustParseAddr("151.101.0.223")}, now); dec.Verdict != action.Allow && !shown {
					t.Errorf("%s:%d: the example opens %s's index but not %s:443, where %s connects (%s: %s)", d.file, d.line, tool.tool, h, tool.tool, dec.Rule, dec.Reason)
				}
			}
		}
	}
	if checked == 0 {
		t.Errorf("no network example names a package index: the documentation should show one")
	}
}

// TestDocsStayInside: the repository's docs, messages and comments point
// at files the repository has (docs/spec.md is the specification), never
// at a design file or documents outside it.
func TestDocsStayInside(t *testing.T) {
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "fuzz" {
				return filepath.SkipDir
			}
			return nil
		}
		if p == "docs_test.go" || !slices.Contains([]string{".go", ".md", ".txt", ".txtar", ".yaml", ".sh"}, filepath.Ext(p)) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, bad := range []string{"DESIGN.md", "../shared", "shared/harness", "seeds/"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s names %q, which is not in the repository", p, bad)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestManagedExample: the managed tier's example the package installs
// loads and lints clean.
func TestManagedExample(t *testing.T) {
	f, err := policyfile.Load("packaging/managed.yaml.example")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Policy.Rules) == 0 {
		t.Error("the example holds no rule")
	}
}
