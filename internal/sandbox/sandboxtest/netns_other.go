// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandboxtest

import "testing"

// NetNS skips: network namespaces are Linux's.
func NetNS(t testing.TB, prefix string, addrs ...string) string {
	t.Helper()
	t.Skip("requires Linux network namespaces")
	return ""
}
