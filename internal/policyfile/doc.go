// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package policyfile reads and writes Warden policy files: YAML text in,
// a typed [File] with source positions out, and back again: in canonical
// form ([Format]), or as the file's own text, comments and order kept,
// laid out again ([Reformat]) or with rules added ([Append]).
//
// # Format
//
// A policy file is one YAML document holding a mapping of sections, each
// optional except version (docs/spec.md §12):
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
// and, inside a rule or a network rule, provenance: remembered | managed |
// builtin, so that rules written by a remembered approval survive a trip
// through the file.
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
// # Sandbox and network
//
// Sizes (memory, fsize, disk, output) are whole numbers with an optional unit:
// B, KiB, MiB, GiB, TiB, or the decimal kB, KB, MB, GB, TB; a bare number is
// bytes. [Format] writes a size back in the unit it was given in. timeout
// is a Go duration with a unit (90s, 10m, 1h30m); cpu is a positive number
// of cores. Every limit must be positive. A path may sit in only one of
// read_write, read_only, hide and protect (project-relative patterns of
// files the host executes later), and a variable in only one of env.pass
// and env.set.
//
// A network rule holds exactly one of allow: or deny:, whose value is a
// matcher mapping (host, allowed_ips, port or ports, protocol, methods;
// {} matches any destination), and beside it optionally until: (RFC 3339),
// enabled: and provenance:. host is a DNS name, *.domain or an IP address;
// protocol is http, https or tcp; methods are stored upper-case. A
// credential has a name, from: env:NAME or file:PATH, and the hosts it may
// be sent to.
//
// A test's action is the JSON action that `warden explain` reads
// (docs/spec.md §11), a [request.Request], written in YAML: its keys are the
// JSON field names, its values have their JSON types (a count is an
// integer, a path a string), and it is decoded by [request.Parse]. tool is
// required; what the other fields mean (known classes and modes, a
// complete override) is checked when `warden policy test` runs the test.
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
