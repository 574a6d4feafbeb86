// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"strconv"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

// Format writes f in canonical form, as a file built in code is written
// (`warden policy fmt` keeps a file's own layout instead; see [Reformat]):
// version: 1 first, sections and keys in the order of docs/spec.md §12 (the
// extra sections after the rules), rules in file order, every rule with its
// id, defaults (level: hard, empty lists) left out, short lists and
// mappings in flow style, and strings quoted only where YAML needs it,
// except that patterns, commands and addresses are always quoted.
// Comments are not kept.
//
// For any file f that [Parse] returned, Parse(Format(f)) equals f except
// for positions.
func Format(f *File) []byte {
	top := &mapping{block: true}
	top.add("version", rawVal(strconv.Itoa(Version)))
	set := f.Policy
	if set == nil {
		set = &policy.Set{}
	}
	if set.Autonomy != "" {
		top.add("autonomy", str(string(set.Autonomy)))
	}
	if len(set.Rules) > 0 {
		rules := &seq{block: true}
		for i, r := range set.Rules {
			rules.items = append(rules.items, formatRule(r, i))
		}
		top.add("rules", rules)
	}
	if del := set.Delegation; del.MaxDepth != 0 || len(del.Autonomy) > 0 {
		m := &mapping{}
		if del.MaxDepth != 0 {
			m.add("max_depth", rawVal(strconv.Itoa(del.MaxDepth)))
		}
		if len(del.Autonomy) > 0 {
			am := &mapping{}
			for _, k := range sortedKeys(del.Autonomy) {
				am.add(k, str(string(del.Autonomy[k])))
			}
			m.add("autonomy", am)
		}
		top.add("delegation", m)
	}
	if len(set.OverrideHolders) > 0 {
		top.add("override_holders", strs(set.OverrideHolders, plainIfSafe))
	}
	if len(f.Sensitive) > 0 {
		top.add("sensitive", strs(f.Sensitive, quoted))
	}
	if len(set.Exempt) > 0 {
		m := &mapping{}
		m.add("exempt", strs(set.Exempt, quoted))
		top.add("governance", m)
	}
	if f.Sandbox.Set {
		top.add("sandbox", formatSandbox(&f.Sandbox))
	}
	if f.Network.Set {
		top.add("network", formatNetwork(&f.Network))
	}
	if f.Audit != "" {
		top.add("audit", str(string(f.Audit)))
	}
	if f.Approvals.Expiry != 0 {
		m := &mapping{}
		m.add("expiry", str(formatDuration(f.Approvals.Expiry)))
		top.add("approvals", m)
	}
	if len(f.Tests) > 0 {
		tests := &seq{block: true}
		for i := range f.Tests {
			tests.items = append(tests.items, formatTest(&f.Tests[i]))
		}
		top.add("tests", tests)
	}
	var b strings.Builder
	writeMapping(&b, top, 0, "", true)
	return []byte(b.String())
}

func formatTime(t time.Time) string { return t.Format(time.RFC3339Nano) }

func formatRule(r *policy.Rule, i int) *mapping {
	m := &mapping{block: true}
	id := r.ID
	if id == "" {
		id = generatedID(i)
	}
	m.add("id", str(id))
	m.add("scope", str(r.Scope.String()))
	if len(r.Command) > 0 {
		m.add("command", quote(strings.Join(r.Command, " ")))
	} else {
		m.add("class", str(r.Class.String()))
	}
	if len(r.Paths) > 0 {
		m.add("paths", strs(r.Paths, quoted))
	}
	if len(r.Refs) > 0 {
		m.add("refs", strs(r.Refs, quoted))
	}
	if len(r.Hosts) > 0 {
		m.add("hosts", strs(r.Hosts, quoted))
	}
	if r.MaxCount != nil {
		m.add("max_count", rawVal(strconv.FormatInt(*r.MaxCount, 10)))
	}
	if r.MaxCents != nil {
		m.add("max_cents", rawVal(strconv.FormatInt(*r.MaxCents, 10)))
	}
	m.add("decision", str(r.Decision.String()))
	if r.Level != policy.Hard {
		m.add("level", str(r.Level.String()))
	}
	if r.Reason != "" {
		m.add("reason", str(r.Reason))
	}
	if !r.Expires.IsZero() {
		m.add("expires", rawVal(formatTime(r.Expires)))
	}
	if r.Provenance != "" {
		m.add("provenance", str(r.Provenance))
	}
	return m
}

func formatSandbox(sb *Sandbox) *mapping {
	m := &mapping{block: true}
	if sb.Mode != "" {
		m.add("mode", str(string(sb.Mode)))
	}
	if sb.Approval != "" {
		m.add("approval", str(string(sb.Approval)))
	}
	if fs := sb.Filesystem; len(fs.ReadWrite)+len(fs.ReadOnly)+len(fs.Hide)+len(fs.Protect) > 0 || fs.Home != "" {
		fm := &mapping{block: true}
		if fs.Home != "" {
			fm.add("home", str(string(fs.Home)))
		}
		if len(fs.ReadWrite) > 0 {
			fm.add("read_write", strs(fs.ReadWrite, quoted))
		}
		if len(fs.ReadOnly) > 0 {
			fm.add("read_only", strs(fs.ReadOnly, quoted))
		}
		if len(fs.Hide) > 0 {
			fm.add("hide", strs(fs.Hide, quoted))
		}
		if len(fs.Protect) > 0 {
			fm.add("protect", strs(fs.Protect, quoted))
		}
		m.add("filesystem", fm)
	}
	if l := sb.Limits; l != (Limits{}) {
		lm := &mapping{}
		size := func(key string, s Size) {
			if s.Bytes != 0 {
				text := s.String()
				if _, err := strconv.ParseInt(text, 10, 64); err == nil {
					// A bare byte count is written as a YAML integer.
					lm.add(key, rawVal(text))
				} else {
					lm.add(key, str(text))
				}
			}
		}
		count := func(key string, n int64) {
			if n != 0 {
				lm.add(key, rawVal(strconv.FormatInt(n, 10)))
			}
		}
		size("memory", l.Memory)
		count("pids", l.Pids)
		if l.CPU != 0 {
			lm.add("cpu", rawVal(strconv.FormatFloat(l.CPU, 'g', -1, 64)))
		}
		count("nofile", l.Nofile)
		size("fsize", l.Fsize)
		size("disk", l.Disk)
		count("inodes", l.Inodes)
		if l.Timeout != 0 {
			lm.add("timeout", str(formatDuration(l.Timeout)))
		}
		size("output", l.Output)
		m.add("limits", lm)
	}
	if e := sb.Env; len(e.Pass) > 0 || len(e.Set) > 0 {
		em := &mapping{}
		if len(e.Pass) > 0 {
			em.add("pass", strs(e.Pass, plainIfSafe))
		}
		if len(e.Set) > 0 {
			sm := &mapping{}
			for _, k := range sortedKeys(e.Set) {
				sm.add(k, str(e.Set[k]))
			}
			em.add("set", sm)
		}
		m.add("env", em)
	}
	return m
}

func formatNetwork(nw *Network) *mapping {
	m := &mapping{block: true}
	if len(nw.Rules) > 0 {
		rules := &seq{block: true}
		for i := range nw.Rules {
			rules.items = append(rules.items, formatNetRule(&nw.Rules[i]))
		}
		m.add("rules", rules)
	}
	if len(nw.Credentials) > 0 {
		creds := &seq{block: true}
		for _, c := range nw.Credentials {
			cm := &mapping{block: true}
			cm.add("name", str(c.Name))
			cm.add("from", str(c.From))
			cm.add("hosts", strs(c.Hosts, plainIfSafe))
			creds.items = append(creds.items, cm)
		}
		m.add("credentials", creds)
	}
	return m
}

func formatNetRule(r *NetRule) *mapping {
	mm := &mapping{}
	if r.Host != "" {
		mm.add("host", str(r.Host))
	}
	if len(r.AllowedIPs) > 0 {
		mm.add("allowed_ips", strs(r.AllowedIPs, quoted))
	}
	if r.Port != 0 {
		mm.add("port", rawVal(strconv.Itoa(r.Port)))
	}
	if len(r.Ports) > 0 {
		ps := &seq{}
		for _, p := range r.Ports {
			ps.items = append(ps.items, rawVal(strconv.Itoa(p)))
		}
		mm.add("ports", ps)
	}
	if r.Protocol != "" {
		mm.add("protocol", str(r.Protocol))
	}
	if len(r.Methods) > 0 {
		mm.add("methods", strs(r.Methods, plainIfSafe))
	}
	m := &mapping{block: true}
	verb := "deny"
	if r.Action == action.Allow {
		verb = "allow"
	}
	m.add(verb, mm)
	if !r.Until.IsZero() {
		m.add("until", rawVal(formatTime(r.Until)))
	}
	if r.Enabled != nil {
		m.add("enabled", rawVal(strconv.FormatBool(*r.Enabled)))
	}
	if r.Provenance != "" {
		m.add("provenance", str(r.Provenance))
	}
	return m
}
