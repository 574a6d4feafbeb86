// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/policyfile"
)

// commented is a policy file with comments in every place YAML has for
// them and its sections, keys and items in no canonical order.
const commented = `# The team's policy: reviewed by ada.

# Sandbox first, because it matters most here.
sandbox:
    mode: workspace-write   # not read-only: builds write
    limits: {memory: 2GiB,   pids: 512} # measured
network:
  credentials:
  - {name: GH, from: "env:GH_TOKEN", hosts: [api.github.com]}
  rules:
  # Package registries.
  - allow: {host: pypi.org, port: 443}   # pip
  - deny: {host: "*.tracker.example"}
  # more to come
rules:
    - decision: deny     # decision before id, as written
      id: protect-main
      class: gitPush
      refs: ['main', "release/*"]
    # Interpreters ask.
    - {id: ask-python, command: python3, decision: prompt, reason: "don't # run blind"}
version:   1
# end of file
`

// TestReformat checks that fmt normalises layout only: every comment, in
// order, the order of keys and items, and the policy itself survive, and
// fmt is a fixed point.
func TestReformat(t *testing.T) {
	for _, tt := range []struct {
		name, src, want string
		kept            bool
	}{{
		name: "comments and order",
		src:  commented,
		want: `# The team's policy: reviewed by ada.

# Sandbox first, because it matters most here.
sandbox:
  mode: workspace-write # not read-only: builds write
  limits: {memory: 2GiB, pids: 512} # measured

network:
  credentials:
    - {name: GH, from: "env:GH_TOKEN", hosts: [api.github.com]}
  rules:
    # Package registries.
    - allow: {host: pypi.org, port: 443} # pip
    - deny: {host: "*.tracker.example"}
      # more to come

rules:
  - decision: deny # decision before id, as written
    id: protect-main
    class: gitPush
    refs: ['main', "release/*"]
  # Interpreters ask.
  - {id: ask-python, command: python3, decision: prompt, reason: "don't # run blind"}

version: 1
# end of file
`,
	}, {
		name: "canonical already",
		src:  "version: 1\nautonomy: actWithApproval\n",
		want: "version: 1\nautonomy: actWithApproval\n",
	}, {
		name: "no final newline, trailing spaces",
		src:  "version: 1   \nautonomy: actFreely",
		want: "version: 1\nautonomy: actFreely\n",
	}, {
		name: "apostrophe before a comment",
		src:  "version: 1\nrules:\n    - {id: a, class: gitPush, decision: deny, reason: rock 'n roll}   # c\n",
		want: "version: 1\n\nrules:\n  - {id: a, class: gitPush, decision: deny, reason: rock 'n roll} # c\n",
	}, {
		// The YAML library drops a comment between two items that a
		// blank line separates from the next, unless the blank line goes.
		name: "comment before a blank line",
		src:  "version: 1\nrules:\n  - id: a\n    class: gitPush\n    decision: deny\n  # lonely\n\n  - {id: b, class: gitPush, decision: allow}\n",
		want: "version: 1\n\nrules:\n  - id: a\n    class: gitPush\n    decision: deny\n  # lonely\n  - {id: b, class: gitPush, decision: allow}\n",
	}, {
		// It has no place for a comment inside a flow list that spans
		// lines: kept as written.
		name: "comment the library drops",
		src:  "version: 1\nsensitive: [  # ours\n  \"~/.acme\",\n]\n",
		kept: true,
	}, {
		// A blank line in a block scalar is part of its value.
		name: "blank line in a block scalar",
		src:  "version: 1\nrules:\n  - id: a\n    class: gitPush\n    decision: deny\n    reason: |\n      one\n\n      two\n",
		want: "version: 1\n\nrules:\n  - id: a\n    class: gitPush\n    decision: deny\n    reason: |\n      one\n\n      two\n",
	}} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := policyfile.Reformat("p.yaml", []byte(tt.src))
			if tt.kept {
				if !errors.Is(err, policyfile.ErrNotReformatted) || string(got) != tt.src {
					t.Fatalf("Reformat = %q, %v; want the text as it was and ErrNotReformatted", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Reformat mismatch (-want +got):\n%s", diff)
			}
			if missing := missingComments(tt.src, string(got)); len(missing) > 0 {
				t.Errorf("comments lost: %q", missing)
			}
			want, err := policyfile.Parse("p.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			after, err := policyfile.Parse("p.yaml", got)
			if err != nil {
				t.Fatalf("Parse(Reformat(src)): %v", err)
			}
			if diff := cmp.Diff(want, after, ignorePos); diff != "" {
				t.Errorf("Parse(Reformat(src)) mismatch (-want +got):\n%s", diff)
			}
			again, err := policyfile.Reformat("p.yaml", got)
			if err != nil || string(again) != string(got) {
				t.Errorf("Reformat is not a fixed point: %v\n%s\nthen\n%s", err, got, again)
			}
		})
	}
}

func TestReformatBadFile(t *testing.T) {
	got, err := policyfile.Reformat("p.yaml", []byte("version: 1\nrules: [{id: [x]}]\n"))
	var pe *policyfile.ParseError
	if !errors.As(err, &pe) || got != nil {
		t.Errorf("Reformat(bad) = %q, %v; want nil and a *ParseError", got, err)
	}
}

// missingComments returns the comment lines and line comments of src, as
// a person reads them, that got does not hold in the same order.
func missingComments(src, got string) []string {
	var missing []string
	rest := got
	for _, l := range strings.Split(src, "\n") {
		i := strings.Index(l, "# ")
		if i < 0 || (i > 0 && l[i-1] != ' ') || strings.Contains(l[:i], `"`) {
			continue
		}
		c := strings.TrimSpace(l[i:])
		j := strings.Index(rest, c)
		if j < 0 {
			missing = append(missing, c)
			continue
		}
		rest = rest[j+len(c):]
	}
	return missing
}
