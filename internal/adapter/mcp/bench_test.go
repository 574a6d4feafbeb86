// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp_test

import (
	"testing"

	"warden.dev/warden/internal/adapter/mcp"
)

// BenchmarkToolsCall is the gateway's own work for one allowed call:
// FromClient (validate, translate, resolve the path, decide on the
// default policy) and FromServer on the response. bench/mcp.sh times the
// whole round trip over stdio.
func BenchmarkToolsCall(b *testing.B) {
	g := newGate(b, "", nil)
	call := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"/nonexistent-mcp-test/shop/src/main.go"}}}`)
	resp := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"package main"}]}}`)
	tr := &mcp.Tracker{}
	b.ReportAllocs()
	for b.Loop() {
		if out := g.FromClient(call, tr); out.Forward == nil {
			b.Fatalf("not forwarded: %s", out.Reply)
		}
		g.FromServer(resp, tr)
	}
}

// BenchmarkToolsCallRefused is a call refused by the floor (a sensitive
// path): the answer is built in the server's place.
func BenchmarkToolsCallRefused(b *testing.B) {
	g := newGate(b, "", nil)
	call := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"/nonexistent-mcp-test/shop/.env","content":"x"}}}`)
	tr := &mcp.Tracker{}
	b.ReportAllocs()
	for b.Loop() {
		if out := g.FromClient(call, tr); out.Reply == nil {
			b.Fatal("not refused")
		}
	}
}

// BenchmarkToolsList filters the 14 tools of the filesystem server's
// list under a policy that hides one.
func BenchmarkToolsList(b *testing.B) {
	g := newGate(b, "version: 1\nrules: [{class: fileDelete, decision: deny}]\n", nil)
	var list []byte
	for _, n := range filesystemTools {
		if list != nil {
			list = append(list, ',')
		}
		list = append(list, `{"name":"`+n+`","inputSchema":{"type":"object"}}`...)
	}
	resp := append(append([]byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`), list...), "]}}"...)
	tr := &mcp.Tracker{}
	b.ReportAllocs()
	for b.Loop() {
		g.FromServer(resp, tr)
	}
}
