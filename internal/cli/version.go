// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

func runVersion(ctx context.Context, args []string) error {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	fmt.Fprintf(Stdout, "warden %s\n", v)
	return nil
}
