// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package cli

// isTerminal is false: warden run, the only asker, is Linux only.
func isTerminal(fd uintptr) bool { return false }

// isTerminalFile is false, as isTerminal.
func isTerminalFile(s any) bool { return false }
