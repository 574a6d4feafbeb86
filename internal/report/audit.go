// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/server"
	"warden.dev/warden/internal/store"
)

// AuditTable writes events as `warden audit` shows them: one line each,
// oldest first, with when, what kind, the verdict, the agent, what it was
// about and the rule that decided.
// Nothing selected prints nothing.
func AuditTable(w io.Writer, rs []store.Record) error {
	if len(rs) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tTIME (UTC)\tKIND\tVERDICT\tAGENT\tWHAT\tRULE")
	for _, r := range rs {
		verdict, agent, what, rule := Summary(r.Event)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Seq, r.Event.Time.UTC().Format("2006-01-02 15:04:05"),
			r.Event.Kind, Dash(verdict), Dash(agent), clip(what, 72), Dash(rule))
	}
	return tw.Flush()
}

// Summary is an event's verdict, agent, a line on what it was about, and
// its rule.
func Summary(ev audit.Event) (verdict, agent, what, rule string) {
	switch {
	case ev.Decision != nil:
		d := ev.Decision
		return d.Answered, d.Agent, d.Tool + ": " + oneLine(d.Subject), d.Rule
	case ev.Run != nil:
		r := ev.Run
		v := "allow"
		if r.Denied {
			v = "deny"
		}
		what := "run " + oneLine(strings.Join(r.Command, " ")) + " → status " + strconv.Itoa(r.Status)
		rule := ""
		if r.Decision != nil {
			rule = r.Decision.Rule
		}
		return v, r.Agent, what, rule
	case ev.Network != nil:
		a := ev.Network
		what := a.Host
		if a.Port != 0 {
			what += ":" + strconv.Itoa(a.Port)
		}
		if a.Method != "" {
			what = a.Method + " " + what + a.Path
		}
		return a.Verdict, "", what + " (" + a.Via + ")", a.Rule
	case ev.Syscall != nil:
		s := ev.Syscall
		return "deny", "", s.Syscall + " by " + s.Command, "seccomp"
	case ev.MCP != nil:
		c := ev.MCP
		return c.Decision, "", "mcp:" + c.Server + "/" + c.Tool + " (" + c.Status + ")", c.Rule
	}
	return "", "", "", ""
}

// Dash is s, or "-" for an empty s: a column with nothing to say.
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// clip shortens s to n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Approval writes one approval as warden approvals shows it: who asks
// what, the preview, and with full the rule, the project, the times and
// the answer.
func Approval(w io.Writer, a server.ApprovalJSON, full bool) {
	r := a.Request
	fmt.Fprintf(w, "%s  %s  %s asks: %s: %s\n", a.ID, a.State, Dash(r.Agent), r.Tool, r.Subject)
	for _, l := range r.Preview {
		fmt.Fprintf(w, "    %s\n", l)
	}
	if !full {
		return
	}
	fmt.Fprintf(w, "  rule %s: %s\n", Dash(r.Rule), r.Reason)
	fmt.Fprintf(w, "  project %s, session %s; asked %s, expires %s\n", Dash(r.Project), Dash(r.Session),
		a.Created.Local().Format(time.DateTime), a.Expires.Local().Format(time.DateTime))
	if a.Answer != nil {
		fmt.Fprintf(w, "  answered %s at %s", a.Answer.Answer, a.Answer.Time.Local().Format(time.DateTime))
		if a.Answer.Reason != "" {
			fmt.Fprintf(w, ": %s", a.Answer.Reason)
		}
		if a.Answer.Rule != "" {
			fmt.Fprintf(w, "; remembered: %s", a.Answer.Rule)
		}
		fmt.Fprintln(w)
	}
}
