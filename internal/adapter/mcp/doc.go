// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package mcp is the pure half of `warden mcp`, the MCP gateway: it reads
// declaration files, translates a tools/call into the request.Request the
// engine decides, filters tools/list results, and builds the answers the
// gateway gives in the server's place (tool errors for refused calls,
// JSON-RPC errors for malformed messages). It does no I/O; package
// gateway starts the server, moves the lines and calls the engine.
//
// # Usage
//
//	warden mcp [--policy FILE] [--tools DECL.yaml|filesystem] [--name SERVER]
//	           [--project DIR] [--audit-json FILE] [--sandbox] [--headless]
//	           -- SERVER CMD...
//
// The agent's MCP client starts warden in the server's place; warden
// starts the server. In an agent's MCP configuration:
//
//	"filesystem": {"command": "warden",
//	  "args": ["mcp", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/ada/shop"]}
//
// Each tools/call is the action mcp:<server>/<tool> (the server's name
// is --name, else the declaration's server, else the command's base
// name), with the classes and facets its declaration gives. A call the
// policy does not allow is answered with a tool error (isError: true)
// whose text says what was refused and why, and never reaches the
// server. A call that prompts is asked about when the client declared
// the elicitation capability: the gateway holds it and sends the client
// an elicitation/create with one yes/no field, and forwards the call only
// on an explicit yes (5 minutes at most). Otherwise (a client that cannot
// be asked, --headless, the HTTP gateway, a call inside a batch) a prompt
// is refused: an unanswered question is never a yes.
// tools/list results lose the tools policy denies for every call; a tool
// that would prompt stays listed. Malformed messages (not JSON, a wrong
// jsonrpc version, a tools/call without a name, keys that differ only in
// case, which a Go server would read otherwise than Warden) are answered
// with a JSON-RPC error (-32700, -32600, -32602) and never forwarded. Everything
// else passes through unchanged, the server's requests to the client
// (sampling, elicitation) included. --audit-json appends one JSON line per
// tools/call: time, server, id, tool, decision, rule, reason, asked (the
// user was asked), status (refused, declined, unanswered, ok, tool error,
// error CODE, no response).
//
// --sandbox runs the server under `warden run` (same policy and project),
// and decides its calls as contained: the containment floor holds even
// for a call the policy was fooled into allowing.
//
// With --listen ADDR --upstream URL, warden serves streamable HTTP on a
// loopback address and forwards to the server at URL, gating the same way.
//
// # Declarations
//
// A declaration file says what a server's tools do (unknown keys are
// errors, reported as file:line:col: message):
//
//	version: 1
//	server: filesystem
//	tools:
//	  read_text_file: {as: read_file, paths: [path]}
//	  read_multiple_files: {as: read_file, paths: [paths]}  # a list argument
//	  write_file: {as: write_file, paths: [path]}
//	  move_file: {as: write_file, paths: [source, destination], classes: [fileDelete]}
//	  fetch: {as: web_fetch, url: url}
//	  create_issue: {classes: [vendorSyncWrite]}
//
// as names a Warden tool (read_file, list_dir, write_file, edit_file,
// delete_file, web_fetch, …) whose semantics the call takes: read_file
// and list_dir read their paths, so the path floor (sensitive files) and
// the prompt for reads outside the project apply; write_file and
// edit_file write them. paths names the arguments holding paths (a string
// or a list of strings), url the one holding a URL; a declared argument
// that is missing or of another type gets the call denied. classes adds
// action classes. A tool the file does not list is undeclared: it
// declares no class, so the engine treats it as mutating and asks, which
// the gateway refuses.
//
// Warden ships a declaration for @modelcontextprotocol/server-filesystem
// ([Builtin] "filesystem"), chosen when the command names that package or
// with --tools filesystem.
package mcp
