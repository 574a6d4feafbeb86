// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"strings"

	"warden.dev/warden/internal/action"
)

// This file is the built-in rule builtin:runs-code (docs/spec.md §3): code
// that runs without being analysed is never allowed outside the sandbox
// without a person saying so.
//
//   - It applies to every invocation that runs code whose effect is not
//     classified (flagged runs_code, pipe_to_interpreter, download_exec or
//     decode_exec: [action.Action.CommandCode]) when the action is not
//     contained. Contained, the sandbox is the boundary and nothing here
//     runs: today's verdicts stay exactly as they were.
//   - Such an invocation is at least prompt. A deny or a prompt that a rule
//     or the floor gave it stays: this rule only ever adds a question.
//   - The one way past it is a command rule that allows the invocation by
//     name: the deciding rule is written as allow, its prefix is not
//     interpreter-wide ([InterpreterWide]: python, node -e, bash -c, make,
//     env… name no code), and every word of the invocation beyond that
//     prefix is an operand — no option and no assignment, which can change
//     what runs (make test -f x.mk, make test SHELL=…, go test -exec …). So
//     "allow command make test" lets `cd sub && make test` run (the cd
//     runs no code), and "allow command python" lets no python -c through.
//   - Shell analysis reports a program by its base name, and a variable
//     such as GIT_PAGER or LD_PRELOAD without the invocation it reaches:
//     an invocation whose code its argv may not name ([action.HiddenCode]:
//     ./make test, GIT_PAGER=… git log, an expansion) is never allowed by
//     a rule, however specific.
//   - A lifted soft deny is not a rule that names the command: it still
//     asks. An action that says code runs and lists no command is asked
//     about as a whole.
//   - Like the built-in defaults of the classes that assume the sandbox,
//     it is a built-in rule, not the floor: actFreely turns its prompt into
//     allow, and no approver turns it into deny.

// codeOf is what code the i-th command of a runs outside the sandbox.
func codeOf(a *action.Action, i int) action.Code {
	if a.Contained {
		return action.NoCode
	}
	return a.CommandCode(i)
}

// runsCodeRule is the id of the built-in rule.
const runsCodeRule = "builtin:runs-code"

// runsCode applies builtin:runs-code to a command unit that runs code
// uncontained, given what the rules decided for it.
func (ev *evaluation) runsCode(u unit, o outcome) outcome {
	if o.decided && o.verdict != action.Allow {
		return o
	}
	why := ""
	if o.decided {
		switch {
		case !o.allows:
			why = "rule " + o.rule + " lifted a deny, which names no command to run uncontained"
		case InterpreterWide(o.cmd):
			why = "rule " + o.rule + " allows " + strings.Join(o.cmd, " ") + ", an interpreter-wide prefix, which cannot allow unanalysed code uncontained: name the command"
		case u.code == action.HiddenCode:
			why = "rule " + o.rule + " cannot allow it"
		default:
			if w := changesWhatRuns(u.argv, o.words); w != "" {
				why = "rule " + o.rule + " names " + strings.Join(o.cmd, " ") + ", and " + w + " after it can change what runs: name the command with it"
			} else {
				if ev.env.Trace {
					ev.tracef("%s: runs unanalysed code; rule %s names the command, so it may run uncontained", u.label(), o.rule)
				}
				return o
			}
		}
		ev.lose(u, o.rule, "lost: "+why)
	}
	reason := describeCode(u.argv) + ", which is not analysed; uncontained it needs approval (run it under warden run or a hook with --wrap, or allow the command by name)"
	if u.code == action.HiddenCode {
		reason = describeCode(u.argv) + ", which is not analysed, and " + hiddenWhy + "; uncontained it needs approval (run it under warden run or a hook with --wrap)"
	}
	if why != "" {
		reason += " — " + why
	}
	ev.x.Matched = append(ev.x.Matched, Match{Rule: runsCodeRule, Scope: "builtin", Unit: u.label(), Decision: action.Prompt, Outcome: "decided"})
	if ev.env.Trace {
		ev.tracef("%s: runs unanalysed code and is not contained; %s asks", u.label(), runsCodeRule)
	}
	return outcome{unit: u, decided: true, verdict: action.Prompt, rule: runsCodeRule, scope: "builtin", level: Hard,
		reason: reason}
}

// codeWithoutCommands is builtin:runs-code for an action whose flags say
// that code runs and that names no command: the whole action is asked
// about.
func (ev *evaluation) codeWithoutCommands() outcome {
	u := unit{name: "code the action runs"}
	ev.x.Matched = append(ev.x.Matched, Match{Rule: runsCodeRule, Scope: "builtin", Unit: u.name, Decision: action.Prompt, Outcome: "decided"})
	if ev.env.Trace {
		ev.tracef("%s: flagged as running unanalysed code, with no command named; %s asks", u.name, runsCodeRule)
	}
	return outcome{unit: u, decided: true, verdict: action.Prompt, rule: runsCodeRule, scope: "builtin", level: Hard,
		reason: "the action runs code that is not analysed and names no command; uncontained it needs approval (run it under warden run or a hook with --wrap)"}
}

// hiddenWhy explains a prompt for [action.HiddenCode].
const hiddenWhy = "its words do not name all the code it runs (a program run by path, a variable that makes programs run code, an expansion, words known only when it runs), so no rule can allow it"

// lose marks the match of rule on u, recorded as deciding, as beaten by
// builtin:runs-code.
func (ev *evaluation) lose(u unit, rule, why string) {
	label := u.label()
	for i := len(ev.x.Matched) - 1; i >= 0; i-- {
		m := &ev.x.Matched[i]
		if m.Rule == rule && m.Unit == label && m.Outcome == "decided" {
			m.Outcome, m.LostTo = why, runsCodeRule
			return
		}
	}
}

// changesWhatRuns returns the first word of argv past the n words a rule
// matched that is an option or an assignment, or "".
func changesWhatRuns(argv []string, n int) string {
	for _, w := range argv[min(n, len(argv)):] {
		if strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
			return quoteWord(w)
		}
	}
	return ""
}

// describeCode says what an invocation runs, for a person: "make test
// runs the project's code", "python -c … runs a program".
func describeCode(argv []string) string {
	cmd := shorten(strings.Join(argv, " "))
	if len(argv) == 0 {
		return "the command runs code"
	}
	p, known := programs()[programName(argv[0])]
	switch {
	case known && (p.kind == runner || p.kind == testRunner):
		return cmd + " runs the project's code"
	case known && p.kind == tool && len(argv) > 1 && (contains(p.code, argv[1]) || contains(p.takes, argv[1])):
		return cmd + " runs the project's code"
	case known && p.kind == interpreter:
		return cmd + " runs a program"
	}
	return cmd + " runs code"
}

// shorten keeps an explanation readable when a command carries a long
// inline program.
func shorten(s string) string {
	const limit = 80
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut-- // not inside a UTF-8 sequence
	}
	return s[:cut] + "…"
}

func quoteWord(w string) string { return "the word " + shorten(w) }
