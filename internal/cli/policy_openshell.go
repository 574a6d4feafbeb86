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
	rep := openshell.Import(p, openshell.Options{})
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
		fmt.Fprintf(&b, "#   %s: %s\n", it.Pos, it)
		if it.Lost() {
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

const policyExportSynopsis = `policy export openshell [--lossy] [FILE]

Prints the network: rules of the Warden policy FILE (without FILE, the
policy in force here: see warden policy show) as an NVIDIA OpenShell
policy, one network policy a rule, for every binary, headed by comments
saying what became of each rule. An export never allows what Warden
denies; a rule OpenShell cannot express exactly (any host or port, a
deny carving a host out of a wildcard, a rule that ends) makes the
export fail, saying which, unless --lossy prints it without what was
narrowed or left out. Guardrail rules, the sandbox section and
credentials are Warden's own and are not exported.`

// policyExport prints a Warden policy's network rules in another
// format, refusing what it cannot express unless told to narrow it.
func policyExport(args []string) error {
	fs := newFlags("policy export", policyExportSynopsis)
	lossy := fs.Bool("lossy", false, "print the export even when rules were narrowed or left out (said on stderr and in the comments)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 || pos[0] != "openshell" {
		return badInput("policy export takes a format and, optionally, a file: openshell [FILE]", "warden policy export openshell policy.yaml > sandbox-policy.yaml")
	}
	path := ""
	if len(pos) == 2 {
		path = pos[1]
	}
	p, src, err := findPolicy(path)
	if err != nil {
		return err
	}
	name := p.Path
	if name == "" {
		name = "the embedded default policy"
	}
	x, err := openshell.ExportNetwork(p.File.Network.EgressRules(), now())
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Exported from %s by warden policy export openshell.\n", name)
	b.WriteString("# Each Warden network rule, in order, and what became of it:\n")
	var lost []string
	for _, it := range x.Items {
		fmt.Fprintf(&b, "#   %s\n", it)
		if it.Lost() {
			lost = append(lost, it.String())
		}
	}
	if len(x.Items) == 0 {
		b.WriteString("#   none: nothing is reachable, in Warden as in OpenShell\n")
	}
	b.WriteString("# A name that resolves to a private address needs allowed_ips in OpenShell;\n# Warden opens it to an exact-name rule.\n")
	if f := p.File; len(f.Policy.Rules) > 0 || len(f.Network.Credentials) > 0 {
		b.WriteString("# Not exported (Warden's own): guardrail rules, the sandbox section, credentials.\n")
	}
	if src != nil && p.Managed != nil && p.Managed.Network.Set {
		lost = append(lost, fmt.Sprintf("the managed tier %s also limits the network in Warden, and is not in this export", src.Managed))
		b.WriteString("# The managed tier's network rules, which Warden applies too, are not in this export.\n")
	}
	if len(lost) > 0 && !*lossy {
		for _, l := range lost {
			fmt.Fprintln(Stderr, "warden: "+l)
		}
		return &exitError{code: 1, msg: fmt.Sprintf("%s cannot be exported exactly (%d of its rules): OpenShell would allow less; nothing was printed", name, len(lost)),
			hints: []string{"export what can be with --lossy, or change the rules above"}}
	}
	fmt.Fprint(Stdout, b.String())
	Stdout.Write(x.YAML)
	if len(lost) > 0 {
		warningf("%s: %s narrowed or left out of the export: the comments at the top say which", name, fmt.Sprintf("%d %s", len(lost), map[bool]string{true: "rule is", false: "rules are"}[len(lost) == 1]))
	}
	return nil
}
