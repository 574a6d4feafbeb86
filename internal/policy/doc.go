// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package policy is Warden's decision engine: given a compiled rule set
// and an [action.Action], it decides allow, prompt or deny and explains
// why. It is pure and deterministic — no I/O, no clock, no randomness, no
// memory between calls — so the same action, principal and policy always
// get the same decision, and `warden explain` answers exactly what an agent
// will get.
//
// # Resolution
//
// [Engine.Evaluate] resolves an action in this order (docs/spec.md §4):
//
//  1. The floor. A path that was not resolved, failed to resolve, or is
//     sensitive is denied, and nothing below can change that. An opaque
//     command (unresolvable, download-and-execute, decoded text executed,
//     a program reading its code from a pipe) and a tool that declares no
//     class are at least prompt: no rule, level or autonomy mode makes
//     them allow.
//  2. Delegation barriers, for a delegate's gated action: depth (3 by
//     default), cycles and the budget envelope deny; the autonomy ceiling
//     caps the mode in force at every delegator's own setting.
//  3. Units. Each class of the action, each command invocation, and the
//     reading of paths outside the project are resolved on their own.
//  4. The scope chain, per unit: space:<id> > agent:<id> > workspace >
//     mode:<mode in force> > builtin. The first scope holding a matching
//     rule decides; the walk stops there. The builtin scope always holds
//     the class's built-in default, so a class unit is always decided; a
//     command unit no rule matches is left to the classes.
//  5. Inside one scope: the longest command prefix wins, then a rule with
//     constraints beats one without, then the most restrictive (between two
//     escalated prompts, the one from the stricter rule); and an allow never
//     overrides a deny in the same scope. An advisory rule never decides:
//     resolution goes on as if it were absent and what it would have done
//     is recorded ([Decision.WouldHave]), so deploying a strict rule as
//     advisory changes no verdict.
//  6. The enforcement level of the deciding rule: soft denies unless a
//     holder of the override permission of the same tier gives a
//     justification ([Decision.Override] records it); hard is as written.
//  7. The managed tier, resolved the same way with no built-in defaults,
//     is combined most-restrictively with each unit: it can only tighten.
//     Its autonomy caps the mode in force, its delegation autonomy caps
//     agents, and its depth limit can only be lower.
//     Then builtin:runs-code: when the action is not contained, a command
//     invocation that runs unanalysed code ([action.Action.CommandCode])
//     is at least prompt unless the rule that allowed it names the
//     command — a prefix that is not [InterpreterWide], with no option
//     or assignment after it. A deny or a prompt stays as it is.
//  8. Units are combined most-restrictively; every class that asks is
//     listed in [Decision.Confirm], so one prompt covers them all.
//  9. The autonomy mode: proposeOnly denies every action that is not a
//     read; actFreely turns a prompt into allow, except the floor's and an
//     escalated one (a rule the request cannot be checked against might
//     hide a deny); actWithApproval keeps the prompt. A prompt with no
//     approver ([Env.NoApprover]) is a deny: an unanswered question is
//     never a yes.
//
// # Constraints
//
// A rule may constrain paths, refs, hosts, a count and a cost. A
// restrictive rule (deny, prompt) applies when the request touches any
// value it names or exceeds a limit; an allow rule applies only when every
// value lies inside it and within its limits — otherwise an agent could
// launder a forbidden path by listing an innocent one beside it. Paths are
// judged both as written and as resolved: a restrictive rule applies if
// either is inside, an allow rule needs both. A rule naming a facet the
// request does not describe escalates to prompt rather than being applied
// or ignored; so does a ref rule against a symbolic ref (HEAD, @), which
// names no branch by itself.
//
// # Errors
//
// A deny is a result, not an error. An internal error, even a panic,
// yields Deny with the error in [Explanation.Errors]; it is never an allow.
package policy
