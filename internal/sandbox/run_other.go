// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"runtime"
)

// Run fails: the sandbox needs Linux namespaces.
func Run(ctx context.Context, spec Spec) (Result, error) {
	return Result{}, &SetupError{
		What: fmt.Sprintf("warden run needs Linux namespaces; this is %s", runtime.GOOS),
		Hint: "run warden on Linux, for example in a Linux VM or container",
	}
}

// Init is never used outside Linux; reaching it is a bug.
func Init() {
	fmt.Fprintf(os.Stderr, "warden: error: sandbox init is Linux only (this is %s)\n", runtime.GOOS)
	os.Exit(125)
}

// Keeper is a Linux sandbox's; elsewhere none can be made.
type Keeper struct{}

// WarmSocket is the name of a Keeper's socket.
const WarmSocket = "warm.sock"

// StartCgroup makes nothing: there are no cgroups outside Linux.
func StartCgroup(l Limits, warm *WarmAsk) *CgroupAsk { return nil }

// Close does nothing.
func (c *CgroupAsk) Close() {}

// StartPlan plans nothing: Run refuses outside Linux.
func StartPlan(spec Spec) *PlanAsk { return nil }

// Close does nothing.
func (a *PlanAsk) Close() {}

// AskWarm asks for nothing: there is no Keeper outside Linux.
func AskWarm(path string) *WarmAsk {
	return &WarmAsk{fd: -1, err: fmt.Errorf("no warm sandbox on %s", runtime.GOOS)}
}

func (w *WarmAsk) releaseAnswer() {}

// NewKeeper fails: the sandbox needs Linux namespaces.
func NewKeeper(dir string) (*Keeper, error) {
	return nil, fmt.Errorf("no warm sandbox: warden run needs Linux namespaces; this is %s", runtime.GOOS)
}

// Close does nothing.
func (k *Keeper) Close() error { return nil }

// Nested says nothing outside Linux: Run refuses there anyway.
func Nested() string { return "" }
