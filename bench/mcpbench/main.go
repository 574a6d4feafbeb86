// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Command mcpbench is the measuring half of bench/mcp.sh. As "server" it
// is a tiny MCP server on stdio (the official Go SDK) with one tool,
// read_text_file, that answers with the path it was given and touches
// nothing, so what is timed is the transport and the gateway. As "client"
// it starts a server command, makes N tools/call round trips after W
// warm-up calls, and prints "label median p90" in microseconds:
//
//	mcpbench server
//	mcpbench client -n N -warmup W -label L -path P -- CMD...
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type readArgs struct {
	Path string `json:"path"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpbench server | client -n N -- CMD...")
		os.Exit(2)
	}
	ctx := context.Background()
	switch os.Args[1] {
	case "server":
		s := mcp.NewServer(&mcp.Implementation{Name: "mcpbench", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "read_text_file", Description: "echo the path"},
			func(ctx context.Context, req *mcp.CallToolRequest, in readArgs) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Path}}}, nil, nil
			})
		if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "mcpbench server:", err)
			os.Exit(1)
		}
	case "client":
		fs := flag.NewFlagSet("client", flag.ExitOnError)
		n := fs.Int("n", 1000, "timed calls")
		warmup := fs.Int("warmup", 100, "untimed calls first")
		label := fs.String("label", "calls", "label of the output line")
		path := fs.String("path", "", "the path argument")
		fs.Parse(os.Args[2:])
		argv := fs.Args()
		client := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1"}, nil)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stderr = os.Stderr
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpbench client:", err)
			os.Exit(1)
		}
		defer cs.Close()
		params := &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": *path}}
		times := make([]int64, 0, *n)
		for i := 0; i < *warmup+*n; i++ {
			t0 := time.Now()
			r, err := cs.CallTool(ctx, params)
			d := time.Since(t0)
			if err != nil || r.IsError {
				fmt.Fprintf(os.Stderr, "mcpbench client: call %d: %v %+v\n", i, err, r)
				os.Exit(1)
			}
			if i >= *warmup {
				times = append(times, d.Microseconds())
			}
		}
		slices.Sort(times)
		fmt.Printf("%s %d %d\n", *label, times[len(times)/2], times[len(times)*9/10])
	default:
		fmt.Fprintln(os.Stderr, "mcpbench: unknown mode", os.Args[1])
		os.Exit(2)
	}
}
