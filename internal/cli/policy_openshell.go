// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"fmt"
	"os"
	"strings"

	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/policyfile"
)

// policyImportSynopsis is the synopsis; the rest of the help is the
// example and exit statuses of help.go.
const policyImportSynopsis = `policy import openshell FILE

Prints a Warden policy whose network: rules allow no more than the
OpenShell policy FILE does, headed by comments saying what became of
each construct: mapped, narrowed (Warden allows less), unmapped (Warden's
rules cannot say it, so its traffic is denied) or not applied (not a
network grant). Warden's network rules see neither the calling binary
nor paths nor queries: this is the lossy direction.`

// policyImport prints a Warden policy translated from another format's,
// with the report of what did not translate.
func policyImport(args []string) error {
	fs := newFlags("policy import", policyImportSynopsis)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "openshell" {
		return badInput("policy import takes a format and a file: openshell FILE", "warden policy import openshell sandbox-policy.yaml")
	}
	name := pos[1]
	src, err := os.ReadFile(name)
	if err != nil {
		return badInput(err.Error())
	}
	p, err := openshell.Parse(name, src)
	if err != nil {
		return badInput(err.Error())
	}
	rep := openshell.Import(p)
	f := &policyfile.File{Network: policyfile.Network{Set: true}}
	for _, r := range rep.Rules {
		f.Network.Rules = append(f.Network.Rules, policyfile.NetRule{Action: r.Verdict, Host: r.Host,
			AllowedIPs: r.AllowedIPs, Ports: r.Ports, Protocol: string(r.Protocol), Methods: r.Methods})
	}
	out := policyfile.Format(f)
	// What is printed is a policy Warden reads back as it is.
	if _, err := policyfile.Parse(name, out); err != nil {
		return fmt.Errorf("internal error: the imported policy does not read back: %v", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Imported from %s (OpenShell) by warden policy import openshell.\n", name)
	b.WriteString("# Warden's network rules see neither the calling binary nor paths nor\n# queries: what they cannot express is left out, and its traffic denied.\n")
	lost := 0
	for _, it := range rep.Items {
		line := fmt.Sprintf("%s: %s: %s", it.Pos, it.Construct, it.Status)
		if it.Warden != "" {
			line += " as " + it.Warden
		}
		if it.Note != "" {
			line += " (" + it.Note + ")"
		}
		b.WriteString("#   " + strings.ReplaceAll(line, "\n", " ") + "\n")
		if it.Status == openshell.Unmapped || it.Status == openshell.Narrowed {
			lost++
		}
	}
	for _, w := range p.Warnings {
		b.WriteString("#   OpenShell warns: " + strings.ReplaceAll(w, "\n", " ") + "\n")
	}
	fmt.Fprint(Stdout, b.String())
	Stdout.Write(out)
	switch {
	case lost == 1:
		warningf("1 construct of %s is narrowed or not expressible in Warden's network rules: the comments at the top say which", name)
	case lost > 1:
		warningf("%d constructs of %s are narrowed or not expressible in Warden's network rules: the comments at the top say which", lost, name)
	}
	return nil
}
