// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
)

// added are the rules TestAppend adds, as remembering an approval would.
func added(t testing.TB) ([]*policy.Rule, []policyfile.NetRule) {
	t.Helper()
	f, err := policyfile.Parse("added.yaml", []byte(`version: 1
rules:
  - {id: remembered-gitPush-1, scope: "agent:bot", class: gitPush, refs: ["feature/**"], decision: allow,
     reason: remembered approval, expires: 2026-12-07T02:00:00Z, provenance: remembered}
network:
  rules:
    - {allow: {host: pypi.org, port: 443}, until: 2026-12-07T02:00:00Z, provenance: remembered}
`))
	if err != nil {
		t.Fatal(err)
	}
	return f.Policy.Rules, f.Network.Rules
}

// TestAppend checks that adding rules keeps every line of the file (the
// new ones inserted where their list ends) and reads back as the file
// plus the new rules, whatever the layout of the lists they go in.
func TestAppend(t *testing.T) {
	rules, net := added(t)
	for _, tt := range []struct {
		name, src string
		flow      bool // the list is a flow one: lines change, comments stay
		want      string
	}{{
		name: "commented block lists",
		src:  commented,
	}, {
		name: "sections missing",
		src:  "# only a version\nversion: 1 # one\n",
		want: `# only a version
version: 1 # one
rules:
  - id: remembered-gitPush-1
    scope: agent:bot
    class: gitPush
    refs: ["feature/**"]
    decision: allow
    reason: remembered approval
    expires: 2026-12-07T02:00:00Z
    provenance: remembered
network:
  rules:
    - allow: {host: pypi.org, port: 443}
      until: 2026-12-07T02:00:00Z
      provenance: remembered
`,
	}, {
		name: "no final newline",
		src:  "version: 1\nrules:\n- {id: a, class: gitPush, decision: deny}",
	}, {
		name: "dashes at the key's column",
		src:  "version: 1\nrules:\n- id: a\n  class: gitPush\n  decision: deny\n# next\nnetwork:\n  credentials: []\nautonomy: actWithApproval\n",
		want: `version: 1
rules:
- id: a
  class: gitPush
  decision: deny
- id: remembered-gitPush-1
  scope: agent:bot
  class: gitPush
  refs: ["feature/**"]
  decision: allow
  reason: remembered approval
  expires: 2026-12-07T02:00:00Z
  provenance: remembered
# next
network:
  credentials: []
  rules:
    - allow: {host: pypi.org, port: 443}
      until: 2026-12-07T02:00:00Z
      provenance: remembered
autonomy: actWithApproval
`,
	}, {
		name: "document markers",
		src:  "---\nversion: 1\n...\n# after the end\n",
	}, {
		name: "indented document",
		src:  "  version: 1\n  # the end\n",
	}, {
		name: "empty keys",
		src:  "version: 1\nrules: # none yet\nnetwork:\n",
	}, {
		name: "nulls",
		src:  "version: 1\nrules: ~  # none yet\nnetwork: null\n",
		flow: true,
		want: `version: 1
rules:  # none yet
  - id: remembered-gitPush-1
    scope: agent:bot
    class: gitPush
    refs: ["feature/**"]
    decision: allow
    reason: remembered approval
    expires: 2026-12-07T02:00:00Z
    provenance: remembered
network:
  rules:
    - allow: {host: pypi.org, port: 443}
      until: 2026-12-07T02:00:00Z
      provenance: remembered
`,
	}, {
		name: "empty flow lists",
		src:  "version: 1\nrules: []  # none yet\nnetwork: {rules: []}\n",
		flow: true,
	}, {
		name: "flow lists",
		src:  "version: 1\nrules: [\n  {id: a, class: gitPush, decision: deny, reason: \"a ] 'b\"},  # a\n]\nnetwork:\n  rules: [{deny: {host: x.example}}, ]\n",
		flow: true,
	}, {
		name: "block scalar at the end",
		src:  "version: 1\nrules:\n  - id: a\n    class: gitPush\n    decision: deny\n    reason: |\n      # not a comment\n\n      two lines\n",
	}} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := policyfile.Append("p.yaml", []byte(tt.src), rules, net)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" {
				if diff := cmp.Diff(tt.want, string(got)); diff != "" {
					t.Errorf("Append mismatch (-want +got):\n%s", diff)
				}
			}
			if tt.flow {
				if missing := missingComments(tt.src, string(got)); len(missing) > 0 {
					t.Errorf("comments lost: %q\n%s", missing, got)
				}
			} else if missing := missingLines(tt.src, string(got)); len(missing) > 0 {
				t.Errorf("lines lost: %q\n%s", missing, got)
			}
			want, err := policyfile.Parse("p.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			want.Policy.Rules = append(want.Policy.Rules, rules...)
			want.Network.Rules = append(want.Network.Rules, net...)
			want.Network.Set = true
			after, err := policyfile.Parse("p.yaml", got)
			if err != nil {
				t.Fatalf("Parse(Append(src)): %v\n%s", err, got)
			}
			if diff := cmp.Diff(want, after, ignorePos); diff != "" {
				t.Errorf("Parse(Append(src)) mismatch (-want +got):\n%s\n%s", diff, got)
			}
		})
	}
}

// TestAppendRefused checks that a list Append cannot extend is an error,
// not a rewritten file.
func TestAppendRefused(t *testing.T) {
	rules, net := added(t)
	for _, src := range []string{
		"version: 1\nrules: {}\n",
		"version: 1\nrules:\n  ~\n",
		"{version: 1}\n",
		"version: 1\nnetwork: {credentials: []}\n",
	} {
		if got, err := policyfile.Append("p.yaml", []byte(src), rules, net); err == nil {
			t.Errorf("Append(%q) = %q, want an error", src, got)
		}
	}
}

// missingLines returns the lines of src that are not, in order, lines of
// got.
func missingLines(src, got string) []string {
	gl := strings.Split(got, "\n")
	var missing []string
	j := 0
	for _, l := range strings.Split(strings.TrimSuffix(src, "\n"), "\n") {
		for j < len(gl) && gl[j] != l {
			j++
		}
		if j == len(gl) {
			missing = append(missing, l)
			continue
		}
		j++
	}
	return missing
}
