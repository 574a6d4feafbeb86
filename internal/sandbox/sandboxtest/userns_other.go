// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandboxtest

import "syscall"

func userNSAttr() *syscall.SysProcAttr { return nil }
