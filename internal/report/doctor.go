// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
)

// statusText is how the human output writes each status.
var statusText = map[sandbox.Enforcement]string{
	sandbox.Enforced:     "enforced",
	sandbox.FailsClosed:  "fails closed",
	sandbox.NotEnforced:  "not enforced",
	sandbox.FallbackOnly: "fallback",
	sandbox.Unverified:   "unverified",
	sandbox.NotContained: "not contained",
}

// rowName names a row: its layer, and which runs when that is not all.
func rowName(c sandbox.Coverage) string {
	if c.When == "every run" {
		return c.Layer
	}
	return c.Layer + " (" + c.When + ")"
}

// WriteDoctor writes the host report of warden doctor for people: the facts, the matrix as a
// table, then the notes and hints of its rows and a summary.
func WriteDoctor(w io.Writer, r sandbox.HostReport) {
	f, t := r.Facts, r.Trial
	fmt.Fprintln(w, "Host")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(k, v string) { fmt.Fprintf(tw, "  %s\t%s\n", k, v) }
	osName := f.OS
	if osName == "linux" {
		osName = "Linux"
	}
	line("system", strings.Join(strings.Fields(osName+" "+f.Kernel+" "+f.Arch), " ")+fmt.Sprintf(", as uid %d gid %d", f.UID, f.GID))
	if f.OS == "linux" {
		line("namespaces", namespaceFacts(f.Namespaces))
		line("identity", identityFacts(f.Identity))
		line("landlock", landlockFacts(f.Landlock))
		line("seccomp", seccompFacts(f.Seccomp))
		c := f.Cgroups
		if c.Error != "" {
			line("cgroups", c.Error)
		}
		if v := c.V2; v != nil {
			dir := v.Dir
			if dir == "" {
				dir = "not reachable from this process's cgroup"
			}
			line("cgroup v2", fmt.Sprintf("%s, controllers %s; this process's cgroup %s, delegated to it: %s",
				v.Mount, listOr(v.Controllers, "none"), dir, listOr(v.Delegated, "none")))
		} else {
			line("cgroup v2", "not mounted")
		}
		for _, v := range c.V1 {
			switch {
			case v.Writable:
				line("cgroup v1 "+v.Controller, v.Dir+": a run directory can be made")
			case v.Dir != "":
				line("cgroup v1 "+v.Controller, v.Dir+": "+v.Error)
			default:
				line("cgroup v1 "+v.Controller, v.Error)
			}
		}
		for _, l := range c.Limits {
			switch {
			case l.OK:
				line("cgroup "+l.Limit, fmt.Sprintf("%s %s: made, set and joined under %s", l.Limit, l.Value, l.Dir))
			case !l.Tried:
				line("cgroup "+l.Limit, "not tried: "+l.Error)
			default:
				line("cgroup "+l.Limit, fmt.Sprintf("%s %s: %s", l.Limit, l.Value, l.Error))
			}
		}
		line("rlimits", rlimitFacts(f))
	}
	line("trial run", trialFacts(t))
	tw.Flush()

	fmt.Fprintln(w)
	fmt.Fprintln(w, "What a run enforces here")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  LAYER\tRUNS\tSTATUS\tMECHANISM")
	for _, c := range r.Matrix {
		mech := c.Mechanism
		if c.Fallback != "" {
			mech += "; fallback: " + c.Fallback
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", c.Layer, c.When, statusText[c.Status], mech)
	}
	tw.Flush()

	// Rows that say the same thing say it once.
	section := func(title string, text func(sandbox.Coverage) string) {
		var order []string
		names := map[string][]string{}
		for _, c := range r.Matrix {
			s := text(c)
			if s == "" {
				continue
			}
			if names[s] == nil {
				order = append(order, s)
			}
			names[s] = append(names[s], rowName(c))
		}
		if len(order) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		for _, s := range order {
			fmt.Fprintf(w, "  %s: %s\n", strings.Join(names[s], ", "), s)
		}
	}
	section("Notes", func(c sandbox.Coverage) string { return c.Detail })
	section("Hints", func(c sandbox.Coverage) string {
		if !c.Finding() {
			return ""
		}
		return c.Hint
	})

	fmt.Fprintln(w)
	var summary []string
	for _, st := range []sandbox.Enforcement{sandbox.FailsClosed, sandbox.NotEnforced, sandbox.FallbackOnly, sandbox.Unverified} {
		var names []string
		for _, c := range r.Matrix {
			if c.Status == st {
				names = append(names, rowName(c))
			}
		}
		if len(names) > 0 {
			summary = append(summary, fmt.Sprintf("%s: %s.", capitalize(statusText[st]), strings.Join(names, ", ")))
		}
	}
	if len(summary) == 0 {
		summary = append(summary, "Every layer a run applies is enforced on this host.")
	}
	var none []string
	for _, c := range r.Matrix {
		if c.Status == sandbox.NotContained {
			none = append(none, c.Layer)
		}
	}
	if len(none) > 0 {
		summary = append(summary, fmt.Sprintf("Not contained by any run yet: %s.", strings.Join(none, ", ")))
	}
	fmt.Fprintln(w, strings.Join(summary, " "))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func listOr(l []string, empty string) string {
	if len(l) == 0 {
		return empty
	}
	return strings.Join(l, " ")
}

// identityFacts says who the command is on the host, whether a root
// caller's idmapped project could be made, and the cgroup namespace.
func identityFacts(id sandbox.IdentityFacts) string {
	s := fmt.Sprintf("the command runs as host uid %d gid %d", id.HostUID, id.HostGID)
	switch tr := id.Idmap; {
	case tr == nil:
		s += " (the caller)"
	case tr.OK:
		s += fmt.Sprintf(", an id that owns nothing; an idmapped mount of %s was made", tr.Dir)
	default:
		s += ", an id that owns nothing; no idmapped mount can be made: " + tr.Error
	}
	if id.CgroupNamespace {
		return s + "; in a cgroup namespace of its own"
	}
	return s + "; no cgroup namespaces on this kernel"
}

func namespaceFacts(n sandbox.NamespaceFacts) string {
	s := "created (user, mount, pid, net, ipc, uts)"
	if !n.Created {
		s = "cannot be created: " + n.Error
	}
	var absent []string
	for _, c := range n.Sysctls {
		if c.Present {
			s += fmt.Sprintf("; %s=%s", c.Name, c.Value)
		} else {
			absent = append(absent, c.Name)
		}
	}
	if len(absent) > 0 {
		s += "; not on this kernel: " + strings.Join(absent, ", ")
	}
	return s
}

func landlockFacts(l sandbox.LandlockFacts) string {
	if l.ABI == 0 {
		return "not available: " + l.Error
	}
	s := fmt.Sprintf("ABI %d", l.ABI)
	if l.Used != l.ABI {
		s += fmt.Sprintf(" (runs use %d)", l.Used)
	}
	s += ": filesystem rights"
	if l.Scoping {
		s += ", signal and abstract-socket scoping"
	}
	if l.UnixSockets {
		s += ", pathname Unix sockets"
	} else {
		s += "; no pathname Unix socket control (ABI 9)"
	}
	if l.LSMs != "" {
		s += "; LSMs " + l.LSMs
	}
	return s
}

func seccompFacts(s sandbox.SeccompFacts) string {
	out := "filter mode"
	if !s.Filter {
		out = "no filter mode: " + s.Error
	}
	out += "; actions " + listOr(s.Actions, "unknown")
	if s.ProgramError != "" {
		out += "; no Warden filter: " + s.ProgramError
	} else {
		out += fmt.Sprintf("; Warden's %s filter (%d calls) needs %s", s.Arch, s.Rules, listOr(s.Needed, "nothing"))
	}
	if len(s.Missing) > 0 {
		out += ", missing " + strings.Join(s.Missing, " ")
	}
	if s.Notify {
		out += "; refused calls can be recorded (user_notif)"
	} else if s.Filter {
		out += "; no user_notif: refused calls cannot be recorded"
	}
	switch s.Mode {
	case 1:
		out += "; this process is in strict mode"
	case 2:
		out += "; this process is already filtered"
	}
	return out
}

func rlimitFacts(f sandbox.HostFacts) string {
	var parts []string
	for _, r := range f.Rlimits {
		parts = append(parts, r.Name+" "+limitValue(r.Hard))
	}
	for i := range parts[:max(len(parts)-1, 0)] {
		parts[i] += ","
	}
	s := "hard limits: " + listOr(parts, "unknown")
	if f.NrOpen > 0 {
		s += fmt.Sprintf("; fs.nr_open %d", f.NrOpen)
	}
	return s
}

func limitValue(n int64) string {
	if n < 0 {
		return "unlimited"
	}
	return fmt.Sprint(n)
}

func trialFacts(t sandbox.Trial) string {
	if !t.Ran {
		return "not run: " + t.Error
	}
	s := strings.Join(t.Argv, " ") + ": "
	switch {
	case t.OK:
		s += "ran, exit 0"
	case t.SetupFailed:
		s += "sandbox unavailable: " + t.Error
	default:
		s += t.Error
	}
	if t.Cgroup != "" {
		s += "; cgroup " + t.Cgroup
	} else if t.OK {
		s += "; no cgroup"
	}
	if len(t.Unenforced) > 0 {
		s += "; not enforced: " + strings.Join(t.Unenforced, "; ")
	}
	return s
}

// WriteAdapters writes the adapters' rows of the honesty matrix: what
// Warden filters, intercepts, sees and sandboxes through each.
func WriteAdapters(w io.Writer, rows []adapter.Honesty) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "What each adapter lets Warden do")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  ADAPTER\tFILTERS TOOLS\tINTERCEPTS CALLS\tSEES NATIVE TOOLS\tSANDBOXES")
	for _, h := range rows {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", h.Adapter, h.FiltersTools.Level, h.InterceptsCalls.Level, h.SeesNativeTools.Level, h.Sandboxes.Level)
	}
	tw.Flush()
	for _, h := range rows {
		for _, c := range []struct {
			name string
			c    adapter.Capability
		}{{"filters tools", h.FiltersTools}, {"intercepts calls", h.InterceptsCalls}, {"sees native tools", h.SeesNativeTools}, {"sandboxes", h.Sandboxes}} {
			fmt.Fprintf(w, "  %s, %s: %s\n", h.Adapter, c.name, c.c.Note)
		}
		if p := h.Proven; p != nil {
			fmt.Fprintf(w, "  %s, proven: against %s by %s: %s\n", h.Adapter, p.Client, strings.Join(p.Tests, ", "), p.What)
		} else {
			fmt.Fprintf(w, "  %s, proven: unverified: no test drives the real client; the row is read from its source\n", h.Adapter)
		}
	}
}

// Home says in words what home mode m (and where it comes from) shows a
// run.
func Home(m policyfile.HomeMode, from string) string {
	var what string
	switch m {
	case policyfile.HomeHidden:
		what = "the home is an empty read-only directory; only the project, the toolchain caches (" +
			strings.Join(sandbox.HomeCaches[:6], ", ") + "..., where they exist) read-only and the policy's read_write and read_only paths are bound back"
	default:
		what = "the home is read-only with its sensitive set masked (see the home row above); " +
			"sandbox.filesystem.home: hidden would show only the project, the toolchain caches and the policy's paths"
	}
	return fmt.Sprintf("%s, %s: %s", m, from, what)
}
