// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp

import "warden.dev/warden/internal/adapter"

// Honesty is the gateway's row of the honesty matrix. The tests against
// the real @modelcontextprotocol/server-filesystem driven by the Go SDK's
// client (internal/cli/mcp_integration_test.go) prove the filtering, the
// interception and --sandbox over stdio;
// internal/gateway/http_internal_test.go proves the filtering and
// interception over streamable HTTP against an SDK server.
var Honesty = adapter.Honesty{
	Adapter: "warden mcp",
	FiltersTools: adapter.Capability{Level: adapter.Yes,
		Note: "tools/list results of the gated server are filtered: a tool policy denies for every call is dropped; a tool that would prompt stays listed"},
	InterceptsCalls: adapter.Capability{Level: adapter.Yes,
		Note: "every tools/call to the server behind the gateway is decided before it is forwarded, and only that server's: MCP servers the agent starts directly are not"},
	SeesNativeTools: adapter.Capability{Level: adapter.No,
		Note: "the agent's own shell, file and web tools never pass through an MCP gateway; pair it with warden hook for those"},
	Sandboxes: adapter.Capability{Level: adapter.Partial,
		Note: "with --sandbox the server's process runs under warden run (tested: a write the policy was fooled into allowing does not leave the project); without it the server runs uncontained with the gateway's rights, and an --upstream server is never contained"},
	Proven: &adapter.Proof{Client: "@modelcontextprotocol/server-filesystem behind the Go SDK's client",
		Tests: []string{"cli.TestMCPFilesystemRealServer"},
		What:  "tools/list filtered, tools/call decided and --sandbox over stdio against the real server"},
}

func init() { adapter.RegisterRow(Honesty) }
