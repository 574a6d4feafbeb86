// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Command warden is the guardrail and containment layer for AI coding
// agents. See the README and docs/ for what each subcommand does.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"warden.dev/warden/internal/cli"
	"warden.dev/warden/internal/sandbox"
)

func main() {
	// The sandbox init is this binary re-executed; it must run before
	// anything else touches the process.
	if len(os.Args) > 1 && os.Args[1] == sandbox.InitArg {
		sandbox.Init()
	}
	ctx := context.Background()
	if cli.Interruptible(os.Args[1:]) {
		// Never stopped: the exit ends the signals' delivery, and
		// stopping it first is a round trip to the runtime's signal
		// thread per signal.
		ctx, _ = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	}
	os.Exit(cli.Run(ctx, os.Args[1:]))
}
