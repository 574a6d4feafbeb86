// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package action is Warden's request model: what an agent wants to do, already
// normalised, and the closed taxonomy of effect classes it belongs to.
//
// An [Action] is pure data. It names the proposing tool, the [Class] set the
// tool declares (or shell analysis derives), the facets a rule can constrain
// (paths, refs, hosts, commands, count, cents), the [Principal] on whose
// behalf it runs, and whether it will execute under Warden's containment.
//
// # Paths
//
// Path facets are resolved before the policy engine sees them (package
// pathguard does it the way the kernel would). The engine never touches the
// filesystem, so it trusts [Path.Checked], [Path.Sensitive] and [Path.Err]:
// a path that was not checked, failed to resolve, or is sensitive is denied
// by the floor.
//
// Nothing in this package performs I/O; deps_test.go enforces it.
package action

import (
	"slices"

	"warden.dev/warden/internal/governance"
)

// Verdict is the outcome of a decision. The zero value is [Deny], so a
// forgotten initialisation fails closed.
type Verdict uint8

// The three verdicts, from most to least restrictive.
const (
	Deny Verdict = iota
	Prompt
	Allow
)

var verdictNames = [...]string{Deny: "deny", Prompt: "prompt", Allow: "allow"}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "deny"
}

// ParseVerdict parses "allow", "prompt" or "deny".
func ParseVerdict(s string) (Verdict, bool) {
	for v, name := range verdictNames {
		if s == name {
			return Verdict(v), true
		}
	}
	return Deny, false
}

// Stricter returns the more restrictive of a and b (deny > prompt > allow).
func Stricter(a, b Verdict) Verdict { return min(a, b) }

// Access is how an action touches a path.
type Access uint8

// Path accesses. Read is the zero value.
const (
	Read Access = iota
	Write
	Delete
)

var accessNames = [...]string{Read: "read", Write: "write", Delete: "delete"}

func (a Access) String() string {
	if int(a) < len(accessNames) {
		return accessNames[a]
	}
	return "write"
}

// ParseAccess parses "read", "write" or "delete".
func ParseAccess(s string) (Access, bool) {
	for a, name := range accessNames {
		if s == name {
			return Access(a), true
		}
	}
	return Read, false
}

// Path is one path facet after resolution.
type Path struct {
	// Raw is the path as the tool gave it.
	Raw string
	// Lexical is Raw with ~ and $HOME expanded, made absolute against the
	// working directory and cleaned lexically; it is what the user meant.
	Lexical string
	// Resolved is the real path, as the kernel would reach it: symlinks
	// followed component by component, dangling links included.
	Resolved string
	// Access says whether the action reads, writes or deletes the path.
	Access Access
	// Checked reports that the resolver ran. An unchecked path is denied.
	Checked bool
	// Sensitive, when not empty, names the sensitive-set entry the path
	// matched (lexically, resolved, or by device and inode).
	Sensitive string
	// Err, when not empty, is why the path could not be resolved.
	Err string
	// InLexical and InResolved are Lexical and Resolved spelt under the
	// project, set by the resolver when they reach the project through an
	// alias: a link to the project or into it, /proc/self/root, a bind
	// mount of the project. Each names the same
	// file as the form it re-spells; it is empty when that form needs no
	// re-spelling or the alias could not be proven. The engine judges
	// "inside the project" on [Path.InProject], and a rule on every
	// spelling (see the policy package).
	InLexical, InResolved string
	// Governed lists the governance paths (docs/spec.md §5) that this
	// path reaches in any of its spellings, set by the resolver for a
	// write or a delete (and for any access, Warden's own directories).
	// The floor holds each by its tier.
	Governed []governance.Match
	// Why, when not empty, says why the path has its access when the
	// command does not say so in as many words: a write that destroys a
	// file git tracks is a delete ("> truncates /p/main.go, a file tracked
	// by git"). The reason of a built-in fileDelete decision quotes it.
	Why string
}

// InProject returns the lexical and resolved forms of p as they are judged
// against the project: InLexical and InResolved where set, Lexical and
// Resolved otherwise. The path is inside the project when both are.
func (p *Path) InProject() (lexical, resolved string) {
	lexical, resolved = p.Lexical, p.Resolved
	if p.InLexical != "" {
		lexical = p.InLexical
	}
	if p.InResolved != "" {
		resolved = p.InResolved
	}
	return lexical, resolved
}

// Flag is a property of a shell command that the floor or a rule may act on.
type Flag string

// The shell flags of docs/spec.md §6.
const (
	FlagDownloadExec        Flag = "download_exec"
	FlagDecodeExec          Flag = "decode_exec"
	FlagPipeToInterpreter   Flag = "pipe_to_interpreter"
	FlagUnresolvable        Flag = "unresolvable"
	FlagRunsCode            Flag = "runs_code"
	FlagPrivilegeEscalation Flag = "privilege_escalation"
	FlagBackground          Flag = "background"
)

// Opaque reports whether f makes a command impossible to analyse or one that
// executes fetched or decoded text: the floor never lets such a command be
// allowed.
func (f Flag) Opaque() bool {
	switch f {
	case FlagDownloadExec, FlagDecodeExec, FlagPipeToInterpreter, FlagUnresolvable:
		return true
	}
	return false
}

// RunsCode reports whether f says that a command runs code whose effect is
// not classified: a script, a test runner, an inline program, a program
// read from a pipe, fetched or decoded text executed. Uncontained, the
// engine asks before such code runs unless a rule names the command.
func (f Flag) RunsCode() bool {
	switch f {
	case FlagRunsCode, FlagPipeToInterpreter, FlagDownloadExec, FlagDecodeExec:
		return true
	}
	return false
}

// Principal is on whose behalf an action runs.
type Principal struct {
	Space     string
	Agent     string
	Workspace string
	Session   string
	// Mode is the autonomy mode the caller says is in force; empty means
	// the policy's own setting.
	Mode Mode
	// Delegation is the chain of delegating agents, outermost first. The
	// acting agent is Agent; it is not repeated here.
	Delegation []string
	// BudgetCents is the delegator's remaining budget envelope, when one is
	// known. A delegate's action costing more is refused.
	BudgetCents *int64
}

// Override is a request to lift a soft-level deny, made by a holder of the
// override permission with a justification that the audit records.
type Override struct {
	By            string
	Justification string
}

// Action is one thing an agent asks to do.
type Action struct {
	// Tool is the proposing tool: bash, read_file, write_file, mcp:srv/tool…
	Tool string
	// Classes is the set of effect classes the action belongs to. Empty
	// means a read: not a mutating action.
	Classes []Class
	// Facets.
	Paths    []Path
	Refs     []string
	Hosts    []string
	Commands [][]string
	// Code says, entry by entry beside Commands, which invocations run
	// code whose effect is not classified (see [Flag.RunsCode]) and
	// whether their argv names that code. It is detail for the flags,
	// never a way around them: see [Action.CommandCode].
	Code  []Code
	Count *int64
	Cents *int64
	// Flags are properties found by shell analysis.
	Flags []Flag
	// Unresolved is why a command could not be analysed, if it could not.
	Unresolved string

	Principal Principal
	// Cwd is the working directory and Project the worktree root; both are
	// absolute and resolved.
	Cwd     string
	Project string
	// Contained is true when the action will execute under Warden's
	// sandbox. It changes the built-in defaults that assume that floor.
	Contained bool
	// Override, if set, asks to lift a soft-level deny.
	Override *Override
}

// Mutating reports whether the action is gated: it has at least one class.
func (a *Action) Mutating() bool { return len(a.Classes) > 0 }

// HasFlag reports whether f is among the action's flags.
func (a *Action) HasFlag(f Flag) bool { return slices.Contains(a.Flags, f) }

// RunsCode reports whether the action runs code whose effect is not
// classified: a flag says so, or an entry of Code does.
func (a *Action) RunsCode() bool {
	return slices.ContainsFunc(a.Flags, Flag.RunsCode) || slices.ContainsFunc(a.Code, func(c Code) bool { return c != NoCode })
}

// CommandCode says what code the invocation Commands[i] runs. It fails
// closed: when the flags say that code runs and Code does not tell which
// invocation does — a harness that sets the flag and gives no detail, or
// detail that does not line up with Commands or marks no invocation —
// every invocation is taken to run the code it names ([NamedCode]), so a
// rule has to name each one.
func (a *Action) CommandCode(i int) Code {
	detailed := len(a.Code) == len(a.Commands) && slices.ContainsFunc(a.Code, func(c Code) bool { return c != NoCode })
	if detailed {
		return a.Code[i]
	}
	c := NoCode
	if i < len(a.Code) {
		c = a.Code[i]
	}
	if c == NoCode && slices.ContainsFunc(a.Flags, Flag.RunsCode) {
		c = NamedCode
	}
	return c
}

// Code is what an invocation runs beyond what its classes say.
type Code uint8

// The kinds of code an invocation runs.
const (
	// NoCode: the invocation's effect is classified (ls, git status).
	NoCode Code = iota
	// NamedCode: it runs code whose effect is not classified, and its
	// argv is what names that code (make test, python -c CODE): a rule
	// naming the command may allow it uncontained.
	NamedCode
	// HiddenCode: it runs, or may run, code that its argv does not name —
	// a program run from a path under a name a rule could name (./make),
	// a variable that makes programs run code (GIT_PAGER=…), text that
	// expansion could splice into a name: no rule can allow it
	// uncontained.
	HiddenCode
)
