// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

// Notes tell the agent what was blocked and what to do instead
// (docs/spec.md §10, "Telling the agent"). The rules:
//
//   - Every value that comes from the call or the sandbox — the command, a
//     path, a host, the engine's reason, which quotes them — is written
//     with %q: it is data inside quotes, never text the model could read
//     as an instruction of Warden's.
//   - What to do instead is Warden's own fixed text, chosen by the rule,
//     the command's flags and the action's classes.
//   - The caller rate-limits notes ([Key]): the same block is explained
//     at most once per 5 minutes and at most 5 notes go out a minute; a
//     call denied within the limit still is denied, with [Repeat]'s short
//     reason.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/approval"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/policy"
)

// Subject is what a call is about, as its notes name it.
type Subject struct {
	// Tool is the agent's own name of the tool (Bash, run_shell_command,
	// apply_patch…).
	Tool string `json:"tool"`
	// Kind says what Value is: command, url, pattern, path, files or tool.
	Kind string `json:"kind"`
	// Value comes from the model: wherever it is shown it is quoted as
	// data.
	Value string `json:"value"`
}

// Verdict maps the engine's verdict to what a hook can answer: a prompt
// becomes a deny when nobody can answer it.
func Verdict(v action.Verdict, personCanAnswer bool) action.Verdict {
	if v == action.Prompt && !personCanAnswer {
		return action.Deny
	}
	return v
}

// Note is the reason given for a deny (fed to the model) or an ask (shown
// to the person). verdict is the answer's verdict, after [Verdict]: a
// deny of a prompt means nobody could answer it, and unanswered says why
// (one sentence of the adapter's own).
func Note(s Subject, a *action.Action, d policy.Decision, verdict action.Verdict, unanswered string) string {
	var b strings.Builder
	switch verdict {
	case action.Allow:
		if d.Rule == "" {
			return "Warden: allowed (nothing gated)"
		}
		return fmt.Sprintf("Warden: allowed by rule %q", d.Rule)
	case action.Prompt:
		// A person reads this before answering: what the call reaches
		// is shown whole (approval).
		fmt.Fprintf(&b, "Warden asks before this %s call (%s %s). ", approval.Printable(s.Tool), s.Kind, shown(s))
		fmt.Fprintf(&b, "Rule %q: %s.", d.Rule, strconv.Quote(d.Reason))
		return b.String()
	default:
		fmt.Fprintf(&b, "Warden denied this %s call", s.Tool)
	}
	fmt.Fprintf(&b, " (%s %q). ", s.Kind, clip(s.Value))
	fmt.Fprintf(&b, "Rule %q: %q.", d.Rule, clip(d.Reason))
	if verdict == action.Deny && d.Verdict == action.Prompt {
		b.WriteString(" ")
		b.WriteString(unanswered)
	}
	b.WriteString(" Instead: ")
	b.WriteString(instead(a, d))
	return b.String()
}

// shown quotes a subject for a question: a path, a URL, files or a
// pattern whole, a command whole up to approval.MaxCode, anything else
// as free text (cut when long, with the paths it names).
func shown(s Subject) string {
	switch s.Kind {
	case "path", "url", "files", "pattern":
		return approval.Path(s.Value)
	case "command":
		return approval.Code(s.Value)
	}
	return approval.Text(s.Value)
}

// Repeat is the reason for a block already explained within the rate
// limit.
func Repeat(s Subject, d policy.Decision) string {
	return fmt.Sprintf("Warden denied this %s call again (rule %q); the earlier note says why and what to do instead. Do not retry it in another form.", s.Tool, d.Rule)
}

// Held is the reason for a deny whose note the rate limit holds back
// (too many notes this minute).
func Held(s Subject, d policy.Decision) string {
	return fmt.Sprintf("Warden denied this %s call (rule %q); more notes are held back for a minute. Do not retry it in another form.", s.Tool, d.Rule)
}

// Key identifies a block for the rate limit: the same tool, rule and
// subject are the same block.
func Key(s Subject, rule string) string {
	// Hashed a piece at a time: the value may be megabytes, not to be
	// copied whole.
	h := sha256.New()
	var buf [4 << 10]byte
	for _, part := range []string{s.Tool, "\x00", rule, "\x00", s.Value} {
		for part != "" {
			n := copy(buf[:], part)
			h.Write(buf[:n])
			part = part[n:]
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// clip bounds a value shown in a note.
func clip(s string) string {
	const max = 300
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// advice is what to do instead of a blocked action of a class, most
// telling first.
var advice = []struct {
	class action.Class
	text  string
}{
	{action.GitPush, "commit locally and tell the user the branch is ready to push; a push needs the user's approval."},
	{action.FileDelete, "leave the file in place and tell the user what should be deleted and why."},
	{action.PRCreate, "prepare the branch and the description, and let the user open the pull request."},
	{action.PRPublish, "prepare the review or the merge, and let the user publish it."},
	{action.VendorSyncWrite, "draft the update and let the user send it to the tracker."},
	{action.SecretAccess, "do not read credentials or the environment's secrets; if the task needs one, ask the user."},
	{action.PackageInstall, "ask the user to install the package, or to allow it in Warden's policy."},
	{action.NetworkEgress, "ask the user for what you need from the network, or to allow the host in Warden's policy."},
	{action.FileWriteOutsideWorktree, "write inside the project instead; ask the user before touching files outside it."},
}

func instead(a *action.Action, d policy.Decision) string {
	switch {
	case d.Rule == "floor:sensitive-path":
		return "secrets and keys (SSH and cloud credentials, .env files, tokens) are never readable by the agent, by any tool; do not look for another way to read them. If the task needs a credential, ask the user to provide it through the environment Warden's sandbox passes."
	case d.Rule == policy.RuleGovernance:
		return "this path governs you or runs later on the user's machine (agent settings and hooks, git's hooks and configuration, editor tasks, shell start-up files, Warden's own files); do not look for another way to change it. Tell the user what change you would make and why, and let them make it."
	case d.Rule == policy.RuleSelfGovernance:
		return "approvals, remembered rules and Warden's set-up are the user's to decide; tell the user what you need and let them run it."
	case d.Rule == "floor:unresolved-path":
		return "name a plain path that resolves (no NUL bytes, no symbolic-link loops, nothing unreadable)."
	case strings.HasPrefix(d.Rule, "autonomy:"):
		return "this session only proposes: describe the change for the user instead of making it."
	case strings.HasPrefix(d.Rule, "delegation:"):
		return "do the work yourself within your own budget, or hand it back to the agent that delegated it."
	case d.Rule == "builtin:runs-code":
		return "this runs code Warden does not analyse (a test suite, a build, a script, an inline program), which outside Warden's sandbox needs the user's approval: ask the user to run it, to allow this exact command in Warden's policy, or to run your commands under Warden (warden run, or the hook with --wrap)."
	}
	if a != nil && d.Rule == "floor" {
		switch {
		case a.HasFlag(action.FlagDownloadExec), a.HasFlag(action.FlagDecodeExec), a.HasFlag(action.FlagPipeToInterpreter):
			return "do not pipe downloaded or decoded text into a shell or interpreter. Download the script to a file in the project, show it to the user, and let them decide whether it runs."
		case a.HasFlag(action.FlagUnresolvable), a.Unresolved != "":
			return "write the command with literal command names and arguments (no command name in a variable, no eval of computed text) so that it can be checked."
		}
	}
	classes := d.Confirm
	if len(classes) == 0 {
		classes = d.Classes
	}
	for _, ad := range advice {
		if slices.Contains(classes, ad.class) {
			return ad.text
		}
	}
	if len(d.Classes) == 0 {
		return "this tool declares nothing to Warden, so it is not run without a person's approval; ask the user to run it or to declare the tool in Warden's policy."
	}
	return "do not retry it in another form; tell the user what you need and why."
}

// statusUnavailable is warden run's exit status when its sandbox could
// not be built: the command never ran.
const statusUnavailable = 125

// maxItems bounds the destinations and calls a note lists.
const maxItems = 5

// SandboxNote is a post-call hook's note on a wrapped command's run: what the
// sandbox refused (destinations, paths, system calls, files the command
// planted for the host and the post-run check took away) and what to do
// instead; empty when it refused nothing.
// Refused system calls are told only when the command failed: programs
// probe for what they may use (the go command tries a socket) and carry
// on without it, and a note on a success would only distract.
func SandboxNote(s Subject, r *audit.Run) string {
	denied := r.RefusedAttempts()
	syscalls := r.BlockedSyscalls
	if r.Status == 0 {
		syscalls = nil
	}
	setup := ""
	if r.Status == statusUnavailable {
		setup = r.Error
	}
	var parts []string
	if setup != "" {
		parts = append(parts, fmt.Sprintf("the sandbox could not be set up, so the command did not run: %q", clip(setup)))
	}
	for i, at := range denied {
		if i == maxItems {
			parts = append(parts, fmt.Sprintf("%d more destinations", len(denied)-i))
			break
		}
		s := fmt.Sprintf("a connection to %q port %d", clip(at.Host), at.Port)
		if at.Rule != "" || at.Reason != "" {
			s += fmt.Sprintf(" (rule %q: %q)", at.Rule, clip(at.Reason))
		}
		parts = append(parts, s)
	}
	for i, rp := range r.RefusedPaths {
		if i == maxItems {
			parts = append(parts, fmt.Sprintf("%d more paths", len(r.RefusedPaths)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("the path %q (%s: %s)", clip(rp.Path), rp.Kind, clip(rp.Error)))
	}
	for i, q := range r.Quarantined {
		if i == maxItems {
			parts = append(parts, fmt.Sprintf("%d more planted files", len(r.Quarantined)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%q, which it planted for the host (%s) and which was taken away", clip(q.Path), clip(q.Why)))
	}
	for i, sc := range syscalls {
		if i == maxItems {
			parts = append(parts, fmt.Sprintf("%d more system calls", len(syscalls)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("the system call %q (%d times)", sc.Syscall, sc.Count))
	}
	if r.TimedOut {
		parts = append(parts, "more time than its timeout: every process of the sandbox was killed")
	}
	if len(parts) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Warden's sandbox ran this %s command (%q) and refused: %s.", s.Tool, clip(s.Value), strings.Join(parts, "; "))
	b.WriteString(" Instead:")
	if len(denied) > 0 {
		b.WriteString(" The sandbox reaches only the destinations Warden's policy allows (network.rules); ask the user to allow a host you need rather than trying another route.")
	}
	if len(r.RefusedPaths) > 0 {
		b.WriteString(" The sandbox writes only inside the project (and sandbox.filesystem.read_write) and never shows the sensitive files; write inside the project, or ask the user for access to a path you need.")
	}
	if len(r.Quarantined) > 0 {
		b.WriteString(" What runs later on the user's machine (git hooks and configuration, editor tasks, agent settings) is not the sandbox's to write; tell the user the change you would make.")
	}
	if len(syscalls) > 0 {
		b.WriteString(" The refused system calls (ptrace, mount, namespaces, raw or Unix sockets, io_uring…) are never available inside the sandbox; use a way that does without them.")
	}
	if setup != "" {
		b.WriteString(" Tell the user: the host cannot build Warden's sandbox ('warden doctor' says why).")
	}
	if r.TimedOut && len(parts) == 1 {
		b.WriteString(" Run something shorter, or ask the user to raise sandbox.limits.timeout.")
	}
	return b.String()
}
