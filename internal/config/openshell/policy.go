// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

import (
	"fmt"
	"net/netip"
)

// Pos is where something is written in a policy file.
type Pos struct {
	File      string
	Line, Col int
}

// String returns the position as file:line:col.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Policy is an OpenShell policy file as [Parse] read it. Its network
// policies are sorted by key, the order in which OpenShell reports the
// policy that matched (the lexicographically smallest key). A Policy is
// immutable once parsed and safe for concurrent use.
type Policy struct {
	// Version is the file's version: 1.
	Version int
	// Filesystem is filesystem_policy, nil when absent.
	Filesystem *Filesystem
	// Landlock is landlock.compatibility: "best_effort" (also when
	// absent) or "hard_requirement"; LandlockPos where it is written.
	Landlock    string
	LandlockPos Pos
	// Process is process, nil when absent.
	Process *Process
	// Network are network_policies, sorted by key.
	Network []*NetworkPolicy
	// Middlewares are network_middlewares, sorted by key.
	Middlewares []*Middleware
	// Bound are the credentials of the providers [Compose] composed
	// in, with the endpoints each may be sent to.
	Bound []*BoundCredential
	// Warnings are what OpenShell loads but warns about (or what loads
	// and surely does not mean what it says), each file:line:col: msg.
	Warnings []string
}

// Filesystem is filesystem_policy: the paths the sandbox may read, and
// read and write, beside the baseline OpenShell adds.
type Filesystem struct {
	Pos            Pos
	IncludeWorkdir bool
	ReadOnly       []string
	ReadWrite      []string
}

// Process is process: the user and group the agent runs as. Each is
// "sandbox", a number from 1 to 4294967294, or "" when not given (the
// image's USER).
type Process struct {
	Pos        Pos
	RunAsUser  string
	RunAsGroup string
}

// NetworkPolicy is one entry of network_policies: every binary may reach
// every endpoint.
type NetworkPolicy struct {
	Pos Pos
	// Key is the entry's key, which decisions name.
	Key string
	// Name is its display name: name:, or the key.
	Name      string
	Endpoints []*Endpoint
	Binaries  []*Binary
}

// Protocols an endpoint can name. The empty protocol is an uninspected L4
// connection through the proxy.
const (
	ProtoREST      = "rest"
	ProtoWebSocket = "websocket"
	ProtoGraphQL   = "graphql"
	ProtoMCP       = "mcp"
	ProtoJSONRPC   = "json-rpc"
	ProtoTCP       = "tcp"
	ProtoSQL       = "sql"
)

// Endpoint is one destination of a network policy.
type Endpoint struct {
	Pos Pos
	// Host is an exact name or IP address, or a host glob; empty for a
	// hostless endpoint, which AllowedIPs then bounds.
	Host string
	// Ports are port: or ports:.
	Ports []int
	// Path selects which endpoint of a shared host:port handles a
	// request (endpoint-path dialect); empty for any.
	Path string
	// Protocol is one of the Proto constants, or "" for L4.
	Protocol string
	// TLS is "", "skip", or the deprecated no-ops "terminate" and
	// "passthrough".
	TLS string
	// Enforcement is as written; only "enforce" blocks, anything else,
	// the empty string included, is audit (log and forward).
	Enforcement string
	// Access is the preset ("read-only", "read-write", "full"), or "".
	Access string
	// Rules are the allow rules, presets expanded; DenyRules the deny
	// rules.
	Rules, DenyRules []*Matcher
	// AllowedIPs bound the addresses a name may resolve to.
	AllowedIPs []netip.Prefix
	// AllowEncodedSlash keeps %2F inside a path segment instead of
	// refusing the request.
	AllowEncodedSlash bool
	// Options lists the other keys the endpoint sets (credential
	// binding, rewriting and signing, GraphQL, MCP and JSON-RPC
	// options), which decisions here do not depend on, by key.
	Options []string
	// Binding is credential_binding.provider: the provider whose
	// credentials may be sent to this endpoint ([Compose]).
	Binding string

	host *segGlob  // Host, when a glob
	path *pathGlob // Path, when set
}

// Enforced reports whether a denied request is blocked rather than logged
// and forwarded.
func (e *Endpoint) Enforced() bool { return e.Enforcement == "enforce" }

// Matcher is one allow rule (the body of {allow: …}) or deny rule. Which
// fields are set depends on the endpoint's protocol; an unset field
// matches anything.
type Matcher struct {
	Pos Pos
	// Method is the HTTP method, "*", a WebSocket method, or an MCP or
	// JSON-RPC method. Preset is the access preset it was expanded from,
	// if any.
	Method, Preset string
	// Path is a REST or WebSocket path glob.
	Path string
	// Query is the query matcher, one entry a parameter.
	Query []QueryMatcher
	// OperationType, OperationName and Fields are GraphQL's.
	OperationType, OperationName string
	Fields                       []string
	// Tool is MCP's tool matcher (params.name): globs, any of which may
	// match.
	Tool []string
	// Command is SQL's.
	Command string

	path *segGlob
}

// QueryMatcher is one parameter of a query matcher: Name must be present
// and its values must match one of Globs (see the package doc for how
// allow and deny rules differ).
type QueryMatcher struct {
	Name  string
	Globs []string

	globs []*segGlob
}

// Binary is an executable a network policy admits: an exact path or a
// path glob.
type Binary struct {
	Pos  Pos
	Path string

	glob *segGlob
}

// Middleware is one entry of network_middlewares. Warden does not run
// OpenShell's middlewares; they are kept for the import report.
type Middleware struct {
	Pos        Pos
	Key, Name  string
	Middleware string
	Order      int
	OnError    string
	Include    []string
	Exclude    []string
}
