// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"warden.dev/warden/internal/hook"
)

// WriteHooks writes warden doctor's section on the Warden hooks installed
// in the agents' settings files: each file's entries, and each entry
// whose command no longer starts, which is a finding (an agent runs the
// tool when its hook cannot start). problems are settings files doctor
// could not read.
func WriteHooks(w io.Writer, entries []hook.Entry, problems []string) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Installed hooks")
	if len(entries) == 0 && len(problems) == 0 {
		fmt.Fprintln(w, "  none (warden init installs them)")
		return
	}
	type file struct{ agent, shown string }
	var order []file
	count := map[file]int{}
	dead := map[file][]string{}
	refuses := map[file][]string{}
	short := map[file]string{}
	old := map[file]string{}
	for _, e := range entries {
		f := file{e.Agent, e.File}
		if count[f] == 0 {
			order = append(order, f)
		}
		count[f]++
		if e.Dead != "" && !slices.Contains(dead[f], e.Dead) {
			dead[f] = append(dead[f], e.Dead)
		}
		if e.Refuses != "" && !slices.Contains(refuses[f], e.Refuses) {
			refuses[f] = append(refuses[f], e.Refuses)
		}
		if e.ShortTimeout != "" {
			short[f] = e.ShortTimeout
		}
		if e.OldMatcher != "" {
			old[f] = e.OldMatcher
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	anyDead, anyRefuses := false, false
	for _, f := range order {
		state := "its command starts"
		switch {
		case len(dead[f]) > 0:
			state, anyDead = "DEAD: "+strings.Join(dead[f], "; "), true
		case len(refuses[f]) > 0:
			state, anyRefuses = "REFUSES EVERY CALL: "+strings.Join(refuses[f], "; "), true
		case old[f] != "":
			state = "OLD MATCHER: " + old[f]
		case short[f] != "":
			state = "TIMEOUT TOO SHORT: " + short[f]
		}
		fmt.Fprintf(tw, "  %s\t%s\t%d entr%s\t%s\n", f.agent, f.shown, count[f], plural(count[f], "y", "ies"), state)
	}
	tw.Flush()
	for _, p := range problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
	if anyDead {
		fmt.Fprintln(w, "  A dead hook fails open: the agent runs the tool when its hook cannot start (status 127).")
		fmt.Fprintln(w, "  Reinstall it with warden init (or warden hook install AGENT), or remove it with warden hook uninstall AGENT.")
	}
	if anyRefuses {
		fmt.Fprintln(w, "  A hook whose policy is gone fails closed: every call of the agent is refused. Run warden init to write the policy again.")
	}
}
