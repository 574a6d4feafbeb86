// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"

	"warden.dev/warden/internal/adapter/mcp"
)

func serveMCPHTTP(ctx context.Context, g *mcp.Gate, audit *mcpAudit, listen, upstream string) error {
	return badInput("--listen: not built yet")
}
