// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package policyfile reads and writes Warden policy files: YAML text in,
// a typed [File] with source positions out, and back again in canonical form.
//
// # Format
//
// A policy file is one YAML document holding a mapping of sections, each
// optional except version (DESIGN.md §12):
//
//	version: 1                  # required, and only 1 is known
//	autonomy: actWithApproval   # proposeOnly | actWithApproval | actFreely
//	rules: [...]                # guardrails, see below
//	sandbox: {...}              # containment: mode, approval, filesystem, limits, env
//	network: {rules: [...], credentials: [...]}
//
// Beyond the sections of §12 the following top-level keys are accepted:
//
//	delegation: {max_depth: 3, autonomy: {reviewer: proposeOnly}}
//	override_holders: [alice, bob]   # may lift a soft-level deny
//	sensitive: ["~/.config/acme/token"]   # extra sensitive path entries
//	tests:                           # examples that `warden policy test` checks
//	  - name: pushing to main is denied
//	    action: {tool: git_push, refs: [main]}
//	    expect: deny
//
// and, inside a rule, provenance: remembered | managed | builtin, so that
// rules written by a remembered approval survive a trip through the file.
//
// # Rules
//
// A rule names exactly one of class (one of the thirteen action classes) or
// command (an argv prefix written as one string and split on white space;
// there is no quoting). id is optional: a rule without one gets the stable
// id rule-<n>, n being its 1-based place in the file, and [Format] writes it
// out. Ids are unique. scope defaults to workspace, level to hard; decision
// is required. A constraint list (paths, refs, hosts) may not be empty, and
// no pattern may be empty or a bare "!": an empty list would silently widen
// the rule to every value.
//
// # Errors
//
// Every error is a [*ParseError] that prints as file:line:col: message and
// points at the offending node: unknown keys (with a suggestion when a known
// key is close), duplicate keys, wrong types, unknown names, contradictory
// fields. Parsing is all or nothing: on any error [Parse] returns a nil
// [*File].
//
// Input is treated as untrusted. Files larger than 1 MiB are refused, and so
// are YAML anchors and aliases (the "billion laughs" expansion), explicit
// tags, and streams with more than one document.
package policyfile
