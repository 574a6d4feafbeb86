// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"encoding/json"
	"fmt"

	"warden.dev/warden/internal/config"
)

// policyShow prints the policy in force here, where it came from and
// why, and each candidate discovery passed over (docs/spec.md §13).
func policyShow(args []string) error {
	fs := newFlags("policy show", "policy show [--policy FILE] [--json]\n\nSays which policy every command run here without --policy applies, and why.")
	policyPath := fs.String("policy", "", "show this policy `file` instead of the one discovery finds")
	asJSON := fs.Bool("json", false, "print JSON")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return badInput(fmt.Sprintf("policy show takes no arguments, got %q", rest[0]), "name a file with --policy FILE")
	}
	_, src, err := findPolicy(*policyPath)
	if err != nil {
		// Nothing is in force: say what was tried before failing.
		if src != nil && !*asJSON {
			for _, s := range src.Skipped {
				fmt.Fprintf(Stderr, "warden: skipped %s policy %s: %s\n", s.Kind, s.Path, s.Why)
			}
		}
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(src, "", "  ")
		if err != nil {
			return fmt.Errorf("internal error: %v", err)
		}
		fmt.Fprintf(Stdout, "%s\n", b)
		return nil
	}
	name := src.Path
	if name == "" {
		name = config.DefaultName
	}
	fmt.Fprintf(Stdout, "policy:   %s\n", name)
	fmt.Fprintf(Stdout, "from:     %s (%s)\n", src.Kind, src.Why)
	fmt.Fprintf(Stdout, "revision: %s\n", src.Revision)
	for _, s := range src.Skipped {
		fmt.Fprintf(Stdout, "skipped:  %s %s: %s\n", s.Kind, s.Path, s.Why)
	}
	if src.Managed != "" {
		fmt.Fprintf(Stdout, "managed:  %s (%s), %s\n", src.Managed, src.ManagedWhy, src.ManagedRevision)
	} else {
		fmt.Fprintf(Stdout, "managed:  %s\n", src.ManagedWhy)
	}
	return nil
}

// policyTrust records the present content of a project's policy file as
// trusted, so that discovery applies it; an edit makes it untrusted
// again. Agents never run it (the floor's self-governing actions).
func policyTrust(args []string) error {
	fs := newFlags("policy trust", "policy trust [FILE]\n\nTrusts the present content of the project's .warden/policy.yaml (or FILE, a file of the project),\nafter checking it loads. Review the file first: once trusted, it is the policy in force here.")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return badInput("policy trust takes at most one file")
	}
	file := ""
	if len(rest) == 1 {
		file = rest[0]
	}
	t, err := config.Trust(policyWhere(), file, policyOptions(), now())
	if err != nil {
		return err
	}
	fmt.Fprintf(Stdout, "trusted %s (%s) on %s\n", t.Path, t.Revision, t.Time.Format("2006-01-02 15:04 UTC"))
	if !t.Read {
		fmt.Fprintf(Stderr, "warden: note: discovery reads only the project's %s; %s applies where that is, or links to, it\n", config.ProjectFile, t.Path)
	}
	return nil
}
