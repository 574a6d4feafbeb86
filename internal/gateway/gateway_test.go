// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/gateway"
)

// TestSandboxedServer: warden mcp --sandbox runs its server as a
// --server, which has no default timeout (run.txtar shows what --server
// records).
func TestSandboxedServer(t *testing.T) {
	got := gateway.SandboxedServer("/bin/warden", "/p", "/etc/p.yaml", []string{"srv", "--stdio"})
	want := []string{"/bin/warden", "run", "--server", "--project", "/p", "--policy", "/etc/p.yaml", "--", "srv", "--stdio"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SandboxedServer (-want +got):\n%s", diff)
	}
}
