// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package gateway runs `warden mcp`, the MCP gateway: the agent speaks MCP
// to warden, warden speaks it to the server, and every tools/call is
// decided on the way by an adapter/mcp [mcp.Gate] (which holds the rules
// of the protocol) over the engine of a loaded [config.Policy]. This
// package is the plumbing around the gate: the two transports, the
// server's process and the audit file. It prints nothing: the caller
// gives it the streams, a [Options.Warn] and an [Options.Note] function,
// and maps its errors ([*Error], [*ExitError]) to messages and exit
// statuses.
//
// # Stdio ([Gateway.RunStdio])
//
//   - warden starts the server, reads the client's lines on stdin and the
//     server's on its stdout, one goroutine each; the server's stderr is
//     passed through. The client's end of input closes the server's
//     stdin, and warden waits for it; when the server exits, warden exits
//     with its status (128+signal when killed): an [*ExitError].
//   - Lines longer than adapter/mcp.MaxLine are refused, not buffered: the
//     client's with a JSON-RPC error, the server's dropped with a warning.
//   - The policy is loaded once, at start, by the caller; a policy that
//     does not load stops the gateway before the server starts.
//   - A call that prompts is asked about with elicitation/create when the
//     client declared it can answer and [Options.Headless] is not set; a
//     question unanswered after askTimeout refuses the call.
//
// # Streamable HTTP ([Gateway.ListenAndServe])
//
// The gateway serves MCP's streamable HTTP transport and forwards to a
// streamable-HTTP server, gating as the stdio gateway does (the same
// Gate, one message at a time):
//
//   - It listens on loopback only, and refuses a request whose Origin or
//     Host is not a loopback name: a web page must not reach it through
//     the user's browser (DNS rebinding), as the MCP spec requires.
//   - A POST body is one message or a batch. What the gate answers is
//     answered here and never forwarded; what it forwards goes upstream
//     with the client's headers (Mcp-Session-Id, MCP-Protocol-Version,
//     Authorization…). The upstream's answer, a JSON body or an SSE
//     stream, passes through the gate message by message (tools lists
//     filtered), each SSE event flushed as it comes.
//   - A GET (the server's own SSE stream) passes through the gate the
//     same way; DELETE (ending a session) is forwarded as it is.
//   - Bodies and SSE events are bounded by adapter/mcp.MaxLine.
//   - The gate does not ask over HTTP: a question would have to ride the
//     SSE stream of the call's POST, which this version does not.
//
// # Audit
//
// With [Options.Audit], every tools/call is appended to that file as one
// JSON line (an audit.MCPEvent). A record that cannot be written is
// warned about once; the gateway goes on.
package gateway
