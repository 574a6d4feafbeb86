// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/governance"
)

// governance decodes the governance section: the governance paths the
// floor leaves to the rules (docs/spec.md §5).
//
//	governance:
//	  exempt: ["~/.local/bin", ".vscode/settings.json"]
func (d *decoder) governance(n *yaml.Node) ([]string, error) {
	fs, err := d.Fields(n, "governance", []string{"exempt"}, true)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range fs {
		ps, err := d.strList(f.V, "governance.exempt", true)
		if err != nil {
			return nil, err
		}
		for i, p := range ps {
			if err := exemptable(p); err != nil {
				return nil, d.Errorf(f.V.Content[i], "governance.exempt %q: %v", p, err)
			}
		}
		out = append(out, ps...)
	}
	return out, nil
}

// exemptable checks one exemption: a path named exactly, and one the
// floor lets a policy exempt. What is tried is a project's and a home's
// spelling of it, so that ".git/hooks" and "~/.gitconfig" are refused
// here, with their position, rather than ignored later.
func exemptable(p string) error {
	switch {
	case strings.TrimSpace(p) != p || p == "":
		return fmt.Errorf("must be a path without surrounding blanks")
	case strings.ContainsAny(p, "*?[\x00"):
		return fmt.Errorf("names a path exactly: no patterns")
	case strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "~/"):
		return fmt.Errorf(`only "~/" names the home`)
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." || c == "." {
			return fmt.Errorf("must not hold %q components", c)
		}
	}
	const home, project = "/home/u", "/home/u/src/p"
	abs := p
	switch {
	case strings.HasPrefix(p, "~/"):
		abs = path.Join(home, p[2:])
	case !strings.HasPrefix(p, "/"):
		abs = path.Join(project, p)
	}
	pl := governance.Places{Home: home, Own: []string{home + "/.config/warden", home + "/.local/state/warden"}}
	if m, ok := pl.Match(abs); ok && m.Tier > governance.Guarded {
		return fmt.Errorf("%s is %s: no policy exempts it", m.Why, m.Tier)
	}
	return nil
}

// approvals decodes the approvals section: how long a question left for a
// person through warden serve waits for an answer.
//
//	approvals:
//	  expiry: 15m
func (d *decoder) approvals(n *yaml.Node) (Approvals, error) {
	var a Approvals
	fs, err := d.Fields(n, "approvals", []string{"expiry"}, true)
	if err != nil {
		return a, err
	}
	for _, f := range fs {
		s, err := d.str(f.V, "approvals.expiry")
		if err != nil {
			return a, err
		}
		if a.Expiry, err = parseDuration(s); err != nil {
			return a, d.Errorf(f.V, "approvals.expiry: %v", err)
		}
	}
	return a, nil
}
