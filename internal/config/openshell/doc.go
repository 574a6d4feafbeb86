// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package openshell reads NVIDIA OpenShell policy files and decides
// connections and requests with OpenShell's own semantics, as of the
// OpenShell version pinned in testdata/corpus/README.md. It is pure and
// deterministic: it parses the bytes it is given and decides on the
// inputs it is given (host, port, the caller's resolved executable and
// ancestors, method and request target); it resolves no name, reads no
// file and no clock.
//
// # Parsing
//
// [Parse] reads a file strictly: unknown keys are refused, and so is
// everything OpenShell refuses at load time (see parse.go for the list),
// each as a [*ParseError] printing file:line:col: msg. What OpenShell
// loads but warns about is in [Policy.Warnings].
//
// # Connections
//
// Deny by default. [Evaluator.Connect] allows a connection when one
// network policy has an endpoint matching its host and port and a binary
// matching its caller: the executable or any ancestor's, exact (or the
// target of a policy path known to be a symlink, [Options.Symlinks]) or a
// path glob. Hosts are exact (case-insensitive), IP literals, or globs
// with OpenShell's label rules: * within one label, a leading ** for one
// or more leading labels but never the apex. An endpoint without a host
// but with allowed_ips matches any host on its ports; checking the
// resolved addresses against allowed_ips and OpenShell's always-blocked
// ranges is the caller's (the proxy's) job. The policy named is the
// smallest key that allows.
//
// # Requests
//
// [Evaluator.Request] decides a request on such a connection. When an
// endpoint of the admitting policies names an inspected protocol, the
// one whose endpoint path selects the request most specifically decides
// how it is judged; otherwise requests are not inspected. The path is
// made canonical first (path.go), and refused when it cannot be. For
// protocol rest, a request is allowed when any rule of any selecting
// rest endpoint allows it (GET matches HEAD; access presets are expanded
// to rules), and denied when any deny rule of any of them matches,
// whichever policy it is in: deny wins. Query matchers differ: an allow
// needs every value of each named parameter to match, a deny fires on
// one value of each. A denied request on an endpoint whose enforcement
// is not "enforce" (omitted included) is [Audit]: logged and forwarded,
// as OpenShell does. WebSocket, GraphQL, MCP and JSON-RPC inspection are
// not implemented: their requests are denied, whatever the enforcement
// (fail closed). tls: skip endpoints are not inspected.
//
// # Globs
//
// OpenShell matches with two glob dialects, which this package keeps
// apart (glob.go states them): the segment dialect for hosts, binaries,
// rule paths and query values, in which * never crosses the delimiter,
// "x/**" does not match "x" and "foo**" is "foo*"; and the endpoint-path
// dialect, in which * crosses / and "/x/**" matches "/x".
//
// # Denials
//
// [DenialBody] builds the JSON body of OpenShell's 403 policy_denied
// response for an L4 or L7 denial.
//
// # Import
//
// [Import] translates a policy into Warden's own network: rules (package
// netpolicy) and reports on every construct: mapped, narrowed, unmapped
// or not applied. It never widens: a grant Warden's rules cannot express
// (one scoped to binaries, a path or query rule, a one-label host glob,
// an uninspectable protocol) is left out, so its traffic is denied unless
// the evaluator of this package is the one deciding.
package openshell
